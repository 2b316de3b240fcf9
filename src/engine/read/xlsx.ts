/**
 * XLSX reader (engine.md "Reading input"): lists every sheet under its true name, reads the
 * selected one row by row (xlsx-book.ts), so a large workbook is never loaded whole. Cells become
 * text or null: numbers their plain decimal text, dates ISO text, booleans `true`/`false`.
 */
import { UsageError } from '../../errors.js';
import { isMissing } from '../missing.js';
import { BATCH_SIZE, type InputSource, type OpenOptions, type Row, type SheetInfo } from '../types.js';
import { columnNames, headerNote, tableOf, unreadableFile, type TableEvent } from './csv.js';
import { columnLetters } from '../cell-ref.js';
import { BookError, openBook, type Book } from './xlsx-book.js';

/** The UsageError for a workbook that cannot be read. */
function unreadableBook(display: string, error: unknown): UsageError {
  if (error instanceof UsageError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR' || code === 'EPERM') return unreadableFile(display, error);
  if (error instanceof BookError && error.fix) return new UsageError(`${display}: ${error.message}; ${error.fix}.`, { cause: error });
  const reason = error instanceof BookError ? error.message : `${error instanceof Error ? error.message : String(error)}`;
  return new UsageError(`${display} is not a readable XLSX workbook (${reason}); open it in Excel, save it again as .xlsx, and retry.`, { cause: error });
}

async function open(path: string, display: string): Promise<Book> {
  try {
    const book = await openBook(path);
    if (book.sheets.length === 0) {
      book.close();
      throw new BookError('it has no worksheets');
    }
    return book;
  } catch (error) {
    throw unreadableBook(display, error);
  }
}

/** A row's cells with missing values as null. */
function clean(cells: (string | null)[]): (string | null)[] {
  for (let c = 0; c < cells.length; c++) if (cells[c] !== null && isMissing(cells[c])) cells[c] = null;
  return cells;
}

/** Index after the last present cell (0 for an empty row). */
function usedWidth(cells: (string | null)[]): number {
  let n = cells.length;
  while (n > 0 && cells[n - 1] === null) n--;
  return n;
}

/** Reads every sheet: its header (first non-empty row) and data-row count, in workbook order. */
async function listSheets(path: string, display: string): Promise<SheetInfo[]> {
  const book = await open(path, display);
  const sheets: SheetInfo[] = [];
  try {
    for (const sheet of book.sheets) {
      const { first, count } = await book.summary(sheet);
      const header = first ? clean(first) : undefined;
      sheets.push({ name: sheet.name, columns: header ? columnNames(header.slice(0, usedWidth(header))) : [], rowCount: count, ...(sheet.hidden ? { hidden: true } : {}) });
    }
  } catch (error) {
    throw unreadableBook(display, error);
  } finally {
    book.close();
  }
  return sheets;
}

/** Reads one sheet: first yields its columns, then batches of rows; empty rows are skipped. */
async function* readSheet(path: string, display: string, wanted: string, opts: OpenOptions): AsyncGenerator<TableEvent> {
  const book = await open(path, display);
  try {
    const sheet = book.sheets.find((s) => s.name === wanted);
    if (!sheet) {
      throw new UsageError(`${display} has no sheet named "${wanted}"; choose one of: ${book.sheets.map((s) => `"${s.name}"`).join(', ')}.`);
    }
    const lenient = opts.lenient ?? false;
    let width = -1;
    /** The header's column names, once read (the zero-padding warning names its columns by them). */
    let columns: string[] = [];
    let rows: Row[] = [];
    let numbers: number[] = [];
    let dataRows = 0;
    /** The header row: its number and, when it holds one value, that value (a title above the table?). */
    let header: { number: number; lone?: string } | undefined;
    const iterator = book.rows(sheet, {
      onBytes: opts.onProgress,
      strict: 'strict',
      onUndatable: ({ count, first, value }) => opts.warn?.(`${display}, sheet "${sheet.name}": cell ${first}${count > 1 ? ` and ${count - 1} more` : ''} ${count > 1 ? 'have' : 'has'} a date format but ${count > 1 ? 'hold numbers' : 'holds a number'} that no date of years 0000-9999 has (${first}: ${value}; Excel shows #####), so ${count > 1 ? 'they were' : 'it was'} read as ${count > 1 ? 'numbers' : 'a number'}; correct ${count > 1 ? 'them' : 'it'} in the workbook if ${count > 1 ? 'they are' : 'it is'} meant as ${count > 1 ? 'dates' : 'a date'}.`),
      onZeroPadded: (found) => {
        for (const { column, count, first, value, shown, format } of found) {
          const name = column < columns.length ? `column "${columns[column]}"` : `column ${columnLetters(column)}`;
          opts.warn?.(`${display}, sheet "${sheet.name}": ${name} shows ${count > 1 ? `${count} numbers` : 'a number'} with leading zeros in Excel (number format ${format}) that ${count > 1 ? 'the stored numbers lack' : 'the stored number lacks'} (${first} holds ${value}, shown as ${shown}), so ${count > 1 ? 'they were' : 'it was'} read as stored, as pandas and openpyxl read ${count > 1 ? 'them' : 'it'}; if the zeros are part of the values (zip codes, ids), store them as text in the workbook (=TEXT(${first},"${format}") in Excel) and run again.`);
        }
      },
    })[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<{ number: number; cells: (string | null)[] }[]>;
      try {
        next = await iterator.next();
      } catch (error) {
        throw unreadableBook(display, error);
      }
      if (next.done) break;
      for (const row of next.value) {
        const cells: Row = clean(row.cells);
        const used = usedWidth(cells as (string | null)[]);
        if (used === 0) continue;
        if (width < 0) {
          const names = (cells as (string | null)[]).slice(0, used);
          columns = columnNames(names);
          width = columns.length;
          header = { number: row.number, lone: used === 1 ? names[0] ?? undefined : undefined };
          yield { columns, notes: headerNote(names, columns, `${display}, sheet "${sheet.name}"`) };
          continue;
        }
        // Trailing empty cells are not stored in XLSX: short rows are normal and padded.
        if (used > width) {
          // A lone value above wider rows is a title, not a header: --lenient would cut the table to one column.
          if (dataRows === 0 && header?.lone !== undefined) {
            throw new UsageError(`${display}, sheet "${sheet.name}": row ${header.number} holds one value (${JSON.stringify(header.lone)}) and row ${row.number} holds ${used}, so row ${header.number} looks like a title above the table, not its header (the header is the first non-empty row); delete the rows above the header in the workbook and retry.`);
          }
          if (!lenient) {
            throw new UsageError(`${display}, sheet "${sheet.name}", row ${row.number}: row has a value in column ${used} but the header has ${width} column${width === 1 ? '' : 's'}; add a header for it or pass --lenient to cut such rows.`);
          }
          if (opts.report) opts.report.rowsRepaired++;
        }
        if (cells.length > width) cells.length = width;
        for (let c = 0; c < width; c++) if (cells[c] === undefined) cells[c] = null;
        rows.push(cells);
        numbers.push(++dataRows);
        if (rows.length === BATCH_SIZE) {
          yield { batch: { rows, rowNumbers: numbers } };
          rows = [];
          numbers = [];
        }
      }
    }
    if (width < 0) throw new UsageError(`${display}: sheet "${sheet.name}" is empty; choose a sheet whose first non-empty row is a header.`);
    if (rows.length > 0) yield { batch: { rows, rowNumbers: numbers } };
  } finally {
    book.close();
  }
}

/** An XLSX workbook as an input source. */
export function xlsxSource(path: string, display: string, name: string, size: number): InputSource {
  let listed: Promise<SheetInfo[]> | undefined;
  const sheets = (): Promise<SheetInfo[]> => {
    listed ??= listSheets(path, display);
    return listed;
  };
  return {
    name,
    kind: 'xlsx',
    size,
    sheets,
    async open(opts: OpenOptions = {}) {
      let wanted = opts.sheet;
      if (wanted === undefined) {
        const all = await sheets();
        // Seed: a workbook's sheet is selected; with a single sheet there is nothing to choose.
        if (all.length !== 1) {
          throw new UsageError(`${display} has ${all.length} sheets; choose one of: ${all.map((s) => `"${s.name}"`).join(', ')}.`);
        }
        wanted = all[0].name;
      }
      return tableOf(readSheet(path, display, wanted, opts));
    },
  };
}
