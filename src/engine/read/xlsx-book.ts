/**
 * The parts of an XLSX workbook (ECMA-376), read with a ZIP library (yauzl, random access: any
 * part in any order, no temporary files) and a streaming XML parser (saxes): the sheet list with
 * true names from the workbook and its relationships (relative or absolute targets), shared
 * strings (rich-text runs joined, phonetic runs left out), the date formats of the cell styles,
 * and the cells of one worksheet, row by row.
 *
 * exceljs's streaming reader was replaced for reading because it named sheets `Sheet1..N` when a
 * workbook's relationship targets are absolute (openpyxl, pandas), kept only the last run of a
 * rich inline string, read phonetic runs as the value, decoded entities twice in inline strings,
 * read ISO date cells (`t="d"`) as numbers, read LibreOffice's booleans as 1/0, failed on cells
 * without a reference, and spooled every sheet before the wanted one to a temporary file.
 */
import { posix } from 'node:path';
import { TextDecoder } from 'node:util';
import type { Readable } from 'node:stream';
import type { SaxesParser, SaxesTagPlain } from 'saxes';
import type { Entry, ZipFile } from 'yauzl';
import { formatDate, parseDate } from '../parse.js';

type Yauzl = typeof import('yauzl');
type Saxes = typeof import('saxes');
let libraries: Promise<{ yauzl: Yauzl; saxes: Saxes }> | undefined;
/** yauzl and saxes, loaded on first use: most commands never read a workbook. */
function loadLibraries(): Promise<{ yauzl: Yauzl; saxes: Saxes }> {
  libraries ??= Promise.all([import('yauzl'), import('saxes')]).then(([y, s]) => ({
    yauzl: ((y as unknown as { default?: Yauzl }).default ?? y) as Yauzl,
    saxes: s as Saxes,
  }));
  return libraries;
}

/** A workbook problem the reader words for the user (the caller adds the file name). */
export class BookError extends Error {
  /** The way out, when it is not "save the workbook again" (the message is then about the content, not the file). */
  constructor(message: string, readonly fix?: string) { super(message); }
}

/**
 * How cells that cannot be imported as written are met: `strict` (the data being imported) stops
 * at a formula whose result was never saved; `lenient` (listing sheets, their header and size)
 * reads it as empty.
 */
export type Strictness = 'strict' | 'lenient';

/** One worksheet of the workbook, in workbook order. */
export interface BookSheet { name: string; path: string }

/** A cell: its 0-based column and its value as text (null when missing or empty). */
type CellValue = string | null;

/** An opened workbook: its sheets and what reading their cells needs. */
export interface Book {
  sheets: BookSheet[];
  /** Reads one sheet's rows: each row's 1-based number and its cells (0-based, dense up to the last present cell). */
  rows(sheet: BookSheet, onBytes?: (bytes: number) => void, strict?: Strictness): AsyncGenerator<{ number: number; cells: CellValue[] }[]>;
  close(): void;
}

const DAY_MS = 86_400_000;

/** Excel's built-in number formats that show dates or times (ids 14-22, 45-47, and the East Asian 27-36, 50-58). */
function isBuiltInDate(id: number): boolean {
  return (id >= 14 && id <= 22) || (id >= 27 && id <= 36) || (id >= 45 && id <= 47) || (id >= 50 && id <= 58);
}

/** Whether a custom number format shows a date or time: y, m, d, h or s outside quotes, brackets and escapes. */
export function isDateFormat(format: string): boolean {
  const bare = format.replace(/"[^"]*"/g, '').replace(/\[[^\]]*]/g, '').replace(/\\./g, '');
  // `General` and number formats have none of these letters; `[h]:mm` elapsed times count as times.
  return /[ymdhs]/i.test(bare);
}

/** ISO text `YYYY-MM-DDTHH:mm:ss` of an Excel serial date, rounded to the second. */
export function serialText(serial: number, date1904: boolean): string | null {
  if (!Number.isFinite(serial)) return null;
  // 1900 system: day 0 is 1899-12-30 from March 1900 on; Excel's fictitious 1900-02-29 (serial 60)
  // shifts serials 1-59 by one day, as openpyxl and pandas read them.
  const days = date1904 ? serial + 1462 : serial < 60 && serial >= 1 ? serial + 1 : serial;
  const ms = Math.round((days - 25_569) * DAY_MS / 1000) * 1000;
  const date = new Date(ms);
  if (!Number.isFinite(date.getTime())) return null;
  return date.toISOString().slice(0, 19);
}

/** Decodes the `_xHHHH_` escapes of ECMA-376 strings (`_x000D_` is a carriage return; `_x005F_` an underscore). */
export function unescapeXString(text: string): string {
  if (!text.includes('_x')) return text;
  return text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** An element's name without its namespace prefix (`x:row` -> `row`). */
function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

/** 0-based column of a cell reference such as `B3` (letters first), or -1 when it has none. */
function columnOf(ref: string): number {
  let col = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i) | 0x20;
    if (c < 97 || c > 122) break;
    col = col * 26 + (c - 96);
  }
  return i === 0 ? -1 : col - 1;
}

/** Opens a workbook: reads the sheet list, shared strings and styles; cells are read per sheet later. */
export async function openBook(path: string): Promise<Book> {
  const { yauzl, saxes } = await loadLibraries();
  const zip = await new Promise<ZipFile>((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false, decodeStrings: true }, (error, file) => (error ? reject(error) : resolve(file)));
  });
  try {
    const entries = await listEntries(zip);
    const reader = new PartReader(zip, entries, saxes);
    const book = await readBookModel(reader);
    return {
      sheets: book.sheets,
      rows: (sheet, onBytes, strict) => sheetRows(reader, sheet, book, onBytes, strict),
      close: () => zip.close(),
    };
  } catch (error) {
    zip.close();
    throw error;
  }
}

/** Every entry of the ZIP, by part name lower-cased (OPC part names are case-insensitive). */
function listEntries(zip: ZipFile): Promise<Map<string, Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, Entry>();
    zip.on('entry', (entry: Entry) => {
      entries.set(entry.fileName.replace(/\\/g, '/').replace(/^\//, '').toLowerCase(), entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', reject);
    zip.readEntry();
  });
}

/** Reads parts of the package as XML events. */
class PartReader {
  constructor(private readonly zip: ZipFile, private readonly entries: Map<string, Entry>, private readonly saxes: Saxes) {}

  has(part: string): boolean {
    return this.entries.has(part.toLowerCase());
  }

  /** A part's decompressed bytes as a stream. */
  open(part: string): Promise<{ stream: Readable; ratio: number }> {
    const entry = this.entries.get(part.toLowerCase());
    if (!entry) return Promise.reject(new BookError(`its part ${part} is missing`));
    return new Promise((resolve, reject) => {
      // Progress is in file bytes: decompressed bytes times the part's compression ratio.
      const ratio = entry.uncompressedSize > 0 ? entry.compressedSize / entry.uncompressedSize : 1;
      this.zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve({ stream, ratio })));
    });
  }

  /** A new XML parser (no namespaces: names keep their prefixes, which localName drops). */
  parser(): SaxesParser<{ xmlns: false }> {
    return new this.saxes.SaxesParser({ xmlns: false });
  }

  /** Parses a whole part, calling `visit` for each element opened (with its attributes) and for text. */
  async parse(part: string, handlers: PartHandlers, onBytes?: (bytes: number) => void): Promise<void> {
    for await (const _ of this.parseStream(part, handlers, onBytes)) { /* events are handled as they come */ }
  }

  /** Parses a part chunk by chunk, yielding after each chunk so a caller can hand on what the handlers collected. */
  async *parseStream(part: string, handlers: PartHandlers, onBytes?: (bytes: number) => void): AsyncGenerator<void> {
    const { stream, ratio } = await this.open(part);
    const parser = this.parser();
    parser.on('opentag', (tag: SaxesTagPlain) => handlers.open?.(localName(tag.name), tag.attributes as Record<string, string>));
    parser.on('closetag', (tag: SaxesTagPlain) => handlers.close?.(localName(tag.name)));
    if (handlers.text) {
      parser.on('text', handlers.text);
      parser.on('cdata', handlers.text);
    }
    let failure: Error | undefined;
    parser.on('error', (error: Error) => { failure ??= error; });
    const decoder = new TextDecoder('utf-8');
    let bytes = 0;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        parser.write(decoder.decode(chunk, { stream: true }));
        if (failure) throw new BookError(`its part ${part} is not well-formed XML (${failure.message.split('\n')[0]})`);
        onBytes?.(Math.round(bytes * ratio));
        yield;
      }
      parser.write(decoder.decode());
      parser.close();
      if (failure) throw new BookError(`its part ${part} is not well-formed XML (${failure.message.split('\n')[0]})`);
    } finally {
      stream.destroy();
    }
  }
}

interface PartHandlers {
  open?(name: string, attributes: Record<string, string>): void;
  close?(name: string): void;
  text?(text: string): void;
}

/** What reading a sheet's cells needs besides the sheet. */
interface BookModel {
  sheets: BookSheet[];
  strings: string[];
  /** Per cell style index (`s`): whether its number format shows a date. */
  dateStyles: boolean[];
  date1904: boolean;
}

/** The relationships of a part: id -> type and resolved target part name. */
async function relationships(reader: PartReader, part: string): Promise<Map<string, { type: string; target: string }>> {
  const dir = posix.dirname(part);
  const rels = `${dir === '.' ? '' : `${dir}/`}_rels/${posix.basename(part)}.rels`;
  const found = new Map<string, { type: string; target: string }>();
  if (!reader.has(rels)) return found;
  await reader.parse(rels, {
    open(name, a) {
      if (name !== 'Relationship' || a.TargetMode === 'External' || !a.Id || !a.Target) return;
      // A target is relative to the part's folder, or absolute from the package root (`/xl/...`).
      const target = a.Target.startsWith('/') ? a.Target.slice(1) : posix.normalize(posix.join(dir, a.Target));
      found.set(a.Id, { type: a.Type ?? '', target: decodeURIComponent(target) });
    },
  });
  return found;
}

async function readBookModel(reader: PartReader): Promise<BookModel> {
  const root = await relationships(reader, '');
  const office = [...root.values()].find((r) => r.type.endsWith('/officeDocument'));
  const workbook = office?.target ?? 'xl/workbook.xml';
  if (!reader.has(workbook)) {
    throw new BookError(reader.has('xl/workbook.bin') ? 'it is a binary workbook (.xlsb), which cannot be read' : 'it has no workbook part (xl/workbook.xml)');
  }
  const listed: { name: string; rid: string }[] = [];
  let date1904 = false;
  await reader.parse(workbook, {
    open(name, a) {
      if (name === 'sheet') {
        const rid = Object.keys(a).find((key) => key === 'id' || key.endsWith(':id'));
        listed.push({ name: a.name ?? '', rid: rid ? a[rid] : '' });
      } else if (name === 'workbookPr') {
        date1904 = a.date1904 === '1' || a.date1904 === 'true';
      }
    },
  });
  const rels = await relationships(reader, workbook);
  const sheets: BookSheet[] = [];
  listed.forEach(({ name, rid }, i) => {
    const rel = rels.get(rid);
    // Chart, dialog and macro sheets hold no cells: they are not sheets to import.
    if (rel && !rel.type.endsWith('/worksheet')) return;
    const path = rel?.target ?? `xl/worksheets/sheet${i + 1}.xml`;
    if (reader.has(path)) sheets.push({ name, path });
  });
  const byType = (suffix: string, fallback: string) => {
    const rel = [...rels.values()].find((r) => r.type.endsWith(suffix));
    const part = rel?.target ?? fallback;
    return reader.has(part) ? part : undefined;
  };
  const stringsPart = byType('/sharedStrings', 'xl/sharedStrings.xml');
  const stylesPart = byType('/styles', 'xl/styles.xml');
  return {
    sheets,
    strings: stringsPart ? await sharedStrings(reader, stringsPart) : [],
    dateStyles: stylesPart ? await dateStyles(reader, stylesPart) : [],
    date1904,
  };
}

/** The shared strings: each `<si>`'s text runs joined; phonetic runs (`<rPh>`) are a reading aid, not the value. */
async function sharedStrings(reader: PartReader, part: string): Promise<string[]> {
  const strings: string[] = [];
  let text = '';
  let inT = false;
  let phonetic = 0;
  await reader.parse(part, {
    open(name) {
      if (name === 'si') text = '';
      else if (name === 't') inT = true;
      else if (name === 'rPh') phonetic++;
    },
    close(name) {
      if (name === 't') inT = false;
      else if (name === 'rPh') phonetic--;
      else if (name === 'si') strings.push(unescapeXString(text));
    },
    text(value) {
      if (inT && phonetic === 0) text += value;
    },
  });
  return strings;
}

/** Per cell style (`cellXfs` order): whether its number format shows a date or time. */
async function dateStyles(reader: PartReader, part: string): Promise<boolean[]> {
  const custom = new Map<number, string>();
  const styles: number[] = [];
  let inCellXfs = false;
  await reader.parse(part, {
    open(name, a) {
      if (name === 'numFmt') custom.set(Number(a.numFmtId), a.formatCode ?? '');
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) styles.push(Number(a.numFmtId ?? 0));
    },
    close(name) {
      if (name === 'cellXfs') inCellXfs = false;
    },
  });
  return styles.map((id) => {
    const format = custom.get(id);
    return format !== undefined ? isDateFormat(format) : isBuiltInDate(id);
  });
}

/** Text of a `t="d"` cell (ISO 8601) as our ISO text; the text itself when it is no date. */
function isoCellText(text: string): string {
  const parts = parseDate(text);
  return parts ? formatDate(parts) : text;
}

/** The rows of one worksheet, a chunk's worth at a time. */
async function* sheetRows(reader: PartReader, sheet: BookSheet, book: BookModel, onBytes?: (bytes: number) => void, strict: Strictness = 'lenient'): AsyncGenerator<{ number: number; cells: CellValue[] }[]> {
  let ready: { number: number; cells: CellValue[] }[] = [];
  let rowNumber = 0;
  let cells: CellValue[] = [];
  let inRow = false;
  let column = -1;
  let type = '';
  let style = 0;
  let value = '';
  let inline = '';
  let hasValue = false;
  /** The cell's formula (`<f>`), when it has one: `null` none, else its text (empty for a shared one). */
  let formula: string | null = null;
  let ref = '';
  /** Which text the parser is in: 1 `<v>`, 2 `<t>` of an inline string, 3 `<f>`, 0 other. */
  let into = 0;
  let phonetic = 0;
  let inInline = false;

  const cellValue = (): CellValue => {
    switch (type) {
      case 's': {
        if (!hasValue) return null;
        const index = Number(value);
        const text = book.strings[index];
        if (text === undefined) throw new BookError(`sheet "${sheet.name}" row ${rowNumber} refers to shared string ${value}, which the workbook does not have`);
        return text;
      }
      case 'inlineStr': return unescapeXString(inline === '' && hasValue ? value : inline);
      case 'str': return hasValue ? unescapeXString(value) : null;
      case 'b': return hasValue ? (value.trim() === '1' || value.trim().toLowerCase() === 'true' ? 'true' : 'false') : null;
      case 'e': return hasValue ? value : null;
      case 'd': return hasValue ? isoCellText(value.trim()) : null;
      default: {
        if (!hasValue || value.trim() === '') return null;
        const n = Number(value);
        if (!Number.isFinite(n)) return value;
        if (book.dateStyles[style]) return serialText(n, book.date1904);
        // Numbers as their plain value: JavaScript's shortest text, e.g. 0.1 and 1234567.891.
        return String(n);
      }
    }
  };

  const handlers: PartHandlers = {
    open(name, a) {
      switch (name) {
        case 'row':
          inRow = true;
          rowNumber = a.r ? Number(a.r) : rowNumber + 1;
          cells = [];
          column = -1;
          break;
        case 'c': {
          const col = a.r ? columnOf(a.r) : -1;
          column = col >= 0 ? col : column + 1;
          type = a.t ?? 'n';
          ref = a.r ?? '';
          formula = null;
          style = a.s ? Number(a.s) : 0;
          value = '';
          inline = '';
          hasValue = false;
          inInline = false;
          phonetic = 0;
          break;
        }
        case 'v': into = 1; hasValue = true; break;
        case 'f': into = 3; formula = ''; break;
        case 'is': inInline = true; break;
        case 't': if (inInline) into = 2; break;
        case 'rPh': phonetic++; break;
      }
    },
    close(name) {
      switch (name) {
        case 'v': into = 0; break;
        case 'f': into = 0; break;
        case 't': if (into === 2) into = 0; break;
        case 'rPh': phonetic--; break;
        case 'is': inInline = false; break;
        case 'c': {
          if (!inRow || column < 0) break;
          if (strict === 'strict' && formula !== null && (!hasValue || (value === '' && type !== 'str'))) {
            // Its result was never calculated (no `<v>`, or openpyxl's empty `<v></v>` on a number
            // cell; an empty text result is `t="str"`): importing it as missing would lose a value
            // in silence.
            const where = ref || `row ${rowNumber}, column ${column + 1}`;
            const shown = formula.length > 60 ? `${formula.slice(0, 57)}...` : formula;
            throw new BookError(`sheet "${sheet.name}", cell ${where} holds a formula${shown ? ` (=${shown})` : ''} whose result was never saved (the program that wrote the workbook does not calculate formulas)`,
              'open and save it in Excel or LibreOffice (or `soffice --headless --convert-to xlsx`) so the results are saved, then retry');
          }
          const text = cellValue();
          if (text !== null) {
            while (cells.length < column) cells.push(null);
            cells[column] = text;
          }
          break;
        }
        case 'row':
          inRow = false;
          ready.push({ number: rowNumber, cells });
          break;
      }
    },
    text(text) {
      if (into === 1) value += text;
      else if (into === 3) { if (formula!.length < 100) formula += text; }
      else if (into === 2 && phonetic === 0) inline += text;
    },
  };
  for await (const _ of reader.parseStream(sheet.path, handlers, onBytes)) {
    if (ready.length > 0) {
      yield ready;
      ready = [];
    }
  }
  if (ready.length > 0) yield ready;
}
