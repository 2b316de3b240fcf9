/**
 * XLSX reader (engine.md "Reading input"): lists every sheet, reads the selected one with exceljs's
 * streaming WorkbookReader, so a large workbook is never loaded whole. Cells become text or null.
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type ExcelJSNamespace from 'exceljs';
import { UsageError } from '../../errors.js';
import { isMissing } from '../missing.js';
import { BATCH_SIZE, type InputSource, type OpenOptions, type Row, type SheetInfo, type Table } from '../types.js';
import { columnNames, tableOf, unreadableFile, type TableEvent } from './csv.js';

type ExcelJS = typeof ExcelJSNamespace;
let excel: ExcelJS | undefined;
/** exceljs, loaded on first use: it is large and most commands never touch a workbook. */
async function loadExcel(): Promise<ExcelJS> {
  excel ??= ((await import('exceljs')) as unknown as { default: ExcelJS }).default;
  return excel;
}

/** Milliseconds per day, and the Unix epoch as an Excel 1900-system serial. */
const DAY_MS = 86_400_000;
const EPOCH_SERIAL = 25_569;

/** ISO text `YYYY-MM-DDTHH:mm:ss` of a date's UTC components, rounded to the second. */
export function isoText(date: Date): string | null {
  const ms = date.getTime();
  if (!Number.isFinite(ms)) return null;
  // Excel serials are fractions of a day: round away float noise such as 14:22:09.9999.
  return new Date(Math.round(ms / 1000) * 1000).toISOString().slice(0, 19);
}

/** The date an Excel serial number stands for (exceljs's own conversion, UTC). */
function serialDate(serial: number, date1904: boolean): Date {
  return new Date(Math.round((serial - EPOCH_SERIAL + (date1904 ? 1462 : 0)) * DAY_MS));
}

/** Whether a number format shows a date or time (same rule as exceljs: y, m, d, h or s outside quotes and brackets). */
function isDateFormat(format: string | undefined): boolean {
  if (!format) return false;
  return /[ymdhs]/i.test(format.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, ''));
}

/** A cell's value as text (engine.md "Values"), or null when missing. */
export function cellText(value: unknown, numFmt: string | undefined, date1904: boolean): string | null {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? String(value) : null;
    case 'string':
      return isMissing(value) ? null : value;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      return String(value);
  }
  if (value instanceof Date) return isoText(value);
  const v = value as Record<string, unknown>;
  if (Array.isArray(v.richText)) {
    const text = (v.richText as { text?: string }[]).map((run) => run.text ?? '').join('');
    return isMissing(text) ? null : text;
  }
  if ('formula' in v || 'sharedFormula' in v) {
    // The cached result; a date-formatted numeric result is a date.
    const result = v.result;
    if (typeof result === 'number' && isDateFormat(numFmt)) return isoText(serialDate(result, date1904));
    if (result !== null && typeof result === 'object' && 'error' in result) return cellText((result as { error: unknown }).error, undefined, date1904);
    return cellText(result, undefined, date1904);
  }
  if ('error' in v) return cellText(v.error, undefined, date1904);
  if ('text' in v) return cellText(v.text, undefined, date1904); // hyperlink
  return JSON.stringify(value);
}

/** Minimal view of exceljs's streaming row. */
interface SheetRow {
  number: number;
  values: unknown[];
  getCell(col: number): { numFmt?: string };
}
/** Minimal view of exceljs's streaming worksheet (its typings lack `name`). */
interface SheetReader extends AsyncIterable<SheetRow> {
  name: string;
}

/** A row's cells as text, 0-based (exceljs `values` are 1-based and sparse). */
function rowCells(row: SheetRow, date1904: boolean): (string | null)[] {
  const values = row.values;
  const out: (string | null)[] = [];
  for (let c = 1; c < values.length; c++) {
    const value = values[c];
    const fmt = value !== null && typeof value === 'object' && !(value instanceof Date) ? row.getCell(c).numFmt : undefined;
    out.push(cellText(value, fmt, date1904));
  }
  return out;
}

/** Index after the last present cell (0 for an empty row). */
function usedWidth(cells: (string | null)[]): number {
  let n = cells.length;
  while (n > 0 && cells[n - 1] === null) n--;
  return n;
}

/** An opened streaming read of a workbook, with its file stream so it can be closed early. */
interface Book {
  reader: AsyncIterable<SheetReader>;
  stream: Readable;
  date1904(): boolean;
  /** Sheet names in workbook order, once the workbook part has been read (else in file order). */
  sheetOrder(seen: string[]): string[];
}

/** Starts a streaming read of the workbook. */
async function openBook(path: string): Promise<Book> {
  const ExcelJS = await loadExcel();
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  // Errors are reported through the reader's iteration; this listener only stops them being "unhandled".
  stream.on('error', () => {});
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(stream, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    // Dates are numbers with a date format: styles are needed to tell them apart.
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  const internals = reader as unknown as { properties?: { model?: { date1904?: boolean } }; model?: { sheets?: { name: string }[] } };
  return {
    reader: reader as unknown as AsyncIterable<SheetReader>,
    stream,
    date1904: () => internals.properties?.model?.date1904 === true,
    sheetOrder(seen) {
      const listed = internals.model?.sheets?.map((s) => s.name).filter((name) => seen.includes(name));
      return listed && listed.length === seen.length ? listed : seen;
    },
  };
}

/** The UsageError for a workbook exceljs cannot read. */
function unreadableBook(display: string, error: unknown): UsageError {
  if (error instanceof UsageError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR' || code === 'EPERM') return unreadableFile(display, error);
  const reason = error instanceof Error ? error.message : String(error);
  return new UsageError(`${display} is not a readable XLSX workbook (${reason}); open it in Excel, save it again as .xlsx, and retry.`, { cause: error });
}

/** Reads every sheet: its header (first non-empty row) and data-row count. */
async function listSheets(path: string, display: string): Promise<SheetInfo[]> {
  const book = await openBook(path);
  const sheets = new Map<string, SheetInfo>();
  try {
    for await (const sheet of book.reader) {
      let header: (string | null)[] | undefined;
      let rowCount = 0;
      for await (const row of sheet) {
        const cells = rowCells(row, book.date1904());
        const width = usedWidth(cells);
        if (width === 0) continue;
        if (!header) header = cells.slice(0, width);
        else rowCount++;
      }
      sheets.set(sheet.name, { name: sheet.name, columns: header ? columnNames(header) : [], rowCount });
    }
  } catch (error) {
    throw unreadableBook(display, error);
  } finally {
    book.stream.destroy();
  }
  if (sheets.size === 0) throw unreadableBook(display, new Error('it has no worksheets'));
  return book.sheetOrder([...sheets.keys()]).map((name) => sheets.get(name)!);
}

/** Reads one sheet: first yields its columns, then batches of rows. */
async function* readSheet(path: string, display: string, wanted: string, opts: OpenOptions): AsyncGenerator<TableEvent> {
  const book = await openBook(path);
  const seen: string[] = [];
  let found = false;
  try {
    const sheets = book.reader[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<SheetReader>;
      try {
        next = await sheets.next();
      } catch (error) {
        throw unreadableBook(display, error);
      }
      if (next.done) break;
      const sheet = next.value;
      seen.push(sheet.name);
      if (sheet.name !== wanted) {
        // Read a skipped sheet to its end ourselves: exceljs deletes the temp file of a sheet it
        // spooled as soon as we ask for the next one, racing the file's still-pending open
        // (an unhandled ENOENT that would crash the process).
        try {
          for await (const _ of sheet) { /* skip */ }
        } catch (error) {
          throw unreadableBook(display, error);
        }
        continue;
      }
      found = true;
      yield* sheetRows(sheet, book, display, opts);
      break;
    }
  } finally {
    book.stream.destroy();
  }
  if (!found) {
    const names = book.sheetOrder(seen);
    if (names.length === 0) throw unreadableBook(display, new Error('it has no worksheets'));
    throw new UsageError(`${display} has no sheet named "${wanted}"; choose one of: ${names.map((n) => `"${n}"`).join(', ')}.`);
  }
}

/** The rows of one sheet: header from its first non-empty row, then batches; empty rows are skipped. */
async function* sheetRows(sheet: SheetReader, book: Book, display: string, opts: OpenOptions): AsyncGenerator<TableEvent> {
  const lenient = opts.lenient ?? false;
  let width = -1;
  let rows: Row[] = [];
  let numbers: number[] = [];
  let dataRows = 0;
  const progress = (): void => opts.onProgress?.((book.stream as Readable & { bytesRead: number }).bytesRead);
  try {
    const iterator = sheet[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<SheetRow>;
      try {
        next = await iterator.next();
      } catch (error) {
        throw unreadableBook(display, error);
      }
      if (next.done) break;
      const row = next.value;
      const cells = rowCells(row, book.date1904());
      const used = usedWidth(cells);
      if (used === 0) continue;
      if (width < 0) {
        const columns = columnNames(cells.slice(0, used));
        width = columns.length;
        yield { columns };
        continue;
      }
      // Trailing empty cells are not stored in XLSX: short rows are normal and padded.
      if (used > width) {
        if (!lenient) {
          throw new UsageError(`${display}, sheet "${sheet.name}", row ${row.number}: row has a value in column ${used} but the header has ${width} column${width === 1 ? '' : 's'}; add a header for it or pass --lenient to cut such rows.`);
        }
        if (opts.report) opts.report.rowsRepaired++;
      }
      cells.length = width;
      for (let c = 0; c < width; c++) if (cells[c] === undefined) cells[c] = null;
      rows.push(cells);
      numbers.push(++dataRows);
      if (rows.length === BATCH_SIZE) {
        progress();
        yield { batch: { rows, rowNumbers: numbers } };
        rows = [];
        numbers = [];
      }
    }
  } finally {
    progress();
  }
  if (width < 0) throw new UsageError(`${display}: sheet "${sheet.name}" is empty; choose a sheet whose first non-empty row is a header.`);
  if (rows.length > 0) yield { batch: { rows, rowNumbers: numbers } };
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
