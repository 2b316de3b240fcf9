/**
 * The parts of an XLSX workbook (ECMA-376), read with a ZIP library (yauzl, random access: any
 * part in any order, no temporary files), node:zlib for inflating, a streaming XML parser (saxes)
 * for the small parts and a purpose-built scanner (xlsx-xml.ts) for the big ones: the sheet list
 * with true names from the workbook and its relationships (relative or absolute targets), shared
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
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import type { SaxesParser, SaxesTagPlain } from 'saxes';
import type { Entry, ZipFile } from 'yauzl';
import { columnLetters } from '../cell-ref.js';
import { isMissing } from '../missing.js';
import { civilFromDays, formatDate, parseDate } from '../parse.js';
import { Name, XmlScanner, attributeText, hasWordAt, type Attributes, type XmlHandler } from './xlsx-xml.js';

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
/** A worksheet of the book; `hidden` when the workbook hides it (`state="hidden"` or `"veryHidden"`). */
export interface BookSheet { name: string; path: string; hidden: boolean }

/** A cell: its 0-based column and its value as text (null when missing or empty). */
type CellValue = string | null;

/** How `Book.rows` reads a sheet. */
export interface RowsOptions {
  /** Called with the bytes of the file read so far, for progress. */
  onBytes?: (bytes: number) => void;
  strict?: Strictness;
  /**
   * Called once the sheet is read when cells in a date format held a number that is no date of
   * years 0000-9999 (Excel shows `#####`): those cells were read as their numbers.
   */
  onUndatable?: (found: UndatableCells) => void;
  /**
   * Called once the sheet is read with the columns whose numbers a zero-padded format (`00000`)
   * shows with leading zeros they do not hold: those cells were read as their numbers.
   */
  onZeroPadded?: (found: ZeroPaddedCells[]) => void;
}

/** A column's numbers shown with leading zeros they lack: its 0-based index, how many, the first one's reference, number and shown text, and the format. */
export interface ZeroPaddedCells { column: number; count: number; first: string; value: string; shown: string; format: string }

/** Cells in a date format whose number is no date: how many, and the first one's reference and number. */
export interface UndatableCells { count: number; first: string; value: string }

/** An opened workbook: its sheets and what reading their cells needs. */
export interface Book {
  sheets: BookSheet[];
  /** Reads one sheet's rows: each row's 1-based number and its cells (0-based, dense up to the last present cell). */
  rows(sheet: BookSheet, options?: RowsOptions): AsyncGenerator<{ number: number; cells: CellValue[] }[]>;
  /**
   * Reads one sheet leniently for listing it: its first row with a present (not missing) value,
   * whole, and how many rows after it have one. Faster than `rows`: once a row has a present
   * value, the rest of it is skipped unread.
   */
  summary(sheet: BookSheet): Promise<{ first: CellValue[] | undefined; count: number }>;
  close(): void;
}

const DAY_MS = 86_400_000;
/** Bytes read and inflated at a time (see PartReader.open). */
const CHUNK = 256 * 1024;

/** Excel's built-in number formats that show dates or times (ids 14-22, 45-47, and the East Asian 27-36, 50-58). */
function isBuiltInDate(id: number): boolean {
  return (id >= 14 && id <= 22) || (id >= 27 && id <= 36) || (id >= 45 && id <= 47) || (id >= 50 && id <= 58);
}

/**
 * How a number format shows a serial: a date (with or without a time), a time of day (`h:mm`,
 * `mm:ss`: h or s, no y or d), or an elapsed time (`[h]:mm:ss`); undefined for a number format.
 */
export type DateKind = 'date' | 'time' | 'elapsed';

/**
 * What a custom number format shows, from y, m, d, h or s outside quotes, brackets, escapes (`\d`)
 * and the two-character codes `_x` (a space as wide as x) and `*x` (x repeated to fill the cell),
 * which accounting formats use with letters: `_-* #,##0.00\ _K_M_-`, `0.00_s`.
 */
export function dateKind(format: string): DateKind | undefined {
  // One pass, left to right, so `\_d` is an escaped `_` then a d, and `"a_"d` a quote then a d.
  const unquoted = format.replace(/"[^"]*"|[\\_*]./g, '');
  if (/\[(h+|m+|s+)]/i.test(unquoted)) return 'elapsed';
  const bare = unquoted.replace(/\[[^\]]*]/g, '');
  // `General` and number formats have none of these letters.
  if (!/[ymdhs]/i.test(bare)) return undefined;
  return /[yd]/i.test(bare) || !/[hs]/i.test(bare) ? 'date' : 'time';
}

/**
 * A number format that pads whole numbers with leading zeros (`00000` for US zip codes,
 * `000-00-0000`): at least two zeros and nothing else but `-` and spaces in its first section;
 * returned with those characters unquoted. Undefined for any other format (`0`, `#,##0`, `0.00`).
 */
export function zeroPadding(format: string): { format: string; width: number } | undefined {
  const first = format.replace(/"[^"]*"|\\./g, (quoted) => (quoted === '\\-' || quoted === '\\ ' ? quoted.slice(1) : quoted === '" "' || quoted === '"-"' ? quoted.slice(1, 2) : 'X')).split(';')[0];
  if (!/^[0\- ]+$/.test(first)) return undefined;
  const width = first.split('0').length - 1;
  return width >= 2 ? { format: first, width } : undefined;
}

/** How a zero-padded format shows a whole number: its digits right-aligned into the zeros (`2134` in `00000` is `02134`). */
function padShown(digits: string, format: string): string {
  let out = '';
  let d = digits.length - 1;
  for (let i = format.length - 1; i >= 0; i--) out = (format[i] === '0' ? (d >= 0 ? digits[d--] : '0') : format[i]) + out;
  return d >= 0 ? digits.slice(0, d + 1) + out : out;
}

/** Excel's built-in formats that show a time of day (18-21 `h:mm AM/PM`... `h:mm:ss`, 45 `mm:ss`, 47 `mmss.0`) or an elapsed time (46 `[h]:mm:ss`). */
function builtInKind(id: number): DateKind | undefined {
  if (id === 46) return 'elapsed';
  if ((id >= 18 && id <= 21) || id === 45 || id === 47) return 'time';
  return isBuiltInDate(id) ? 'date' : undefined;
}

/**
 * A serial in a date or time format as text, as openpyxl and pandas read it: an elapsed time as
 * `H:MM:SS` (`30:15:00`), a serial under one day as the time of day `HH:mm:ss` (whatever the
 * format: it holds no date), else the date and time. Never a date made up from a time
 * (`1899-12-30T10:30:00`).
 */
export function serialCellText(serial: number, kind: DateKind, date1904: boolean): string | null {
  if (!Number.isFinite(serial)) return null;
  if (kind === 'elapsed') {
    const seconds = Math.floor(Math.round(Math.abs(serial) * DAY_MS) / 1000);
    const sign = serial < 0 && seconds > 0 ? '-' : '';
    return `${sign}${Math.floor(seconds / 3600)}:${TWO_DIGITS[Math.floor(seconds / 60) % 60]}:${TWO_DIGITS[seconds % 60]}`;
  }
  if (serial >= 0 && serial < 1) {
    const seconds = Math.floor(Math.round(serial * DAY_MS) / 1000);
    if (seconds < 86_400) return `${TWO_DIGITS[Math.floor(seconds / 3600)]}:${TWO_DIGITS[Math.floor(seconds / 60) % 60]}:${TWO_DIGITS[seconds % 60]}`;
  }
  return serialText(serial, date1904);
}

/**
 * ISO text `YYYY-MM-DDTHH:mm:ss` of an Excel serial date: rounded to the millisecond (a serial's
 * 15 digits), then cut to the second, as a CSV date-time's fraction is. Null when the date is not
 * in years 0000-9999 (engine.md's date form has four digits; Excel shows such a cell as `#####`).
 */
export function serialText(serial: number, date1904: boolean): string | null {
  if (!Number.isFinite(serial)) return null;
  // 1900 system: day 0 is 1899-12-30 from March 1900 on; Excel's fictitious 1900-02-29 (serial 60)
  // shifts serials 1-59 by one day, as openpyxl and pandas read them.
  const days = date1904 ? serial + 1462 : serial < 60 && serial >= 1 ? serial + 1 : serial;
  const ms = Math.floor(Math.round((days - 25_569) * DAY_MS) / 1000) * 1000;
  return ms >= YEAR_0 && ms < YEAR_10000 ? isoText(ms) : null;
}

const YEAR_0 = -62_167_219_200_000; // 0000-01-01
const YEAR_10000 = 253_402_300_800_000; // 10000-01-01
const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));

/**
 * `Date#toISOString().slice(0, 19)` of a time in years 0000-9999 whole to the second, by
 * arithmetic: a large sheet has a date in every row, and a Date per cell was a tenth of the read.
 */
function isoText(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  let seconds = (ms - day * DAY_MS) / 1000;
  const { year: y, month: m, day: d } = civilFromDays(day);
  const hours = Math.floor(seconds / 3600);
  seconds -= hours * 3600;
  const minutes = Math.floor(seconds / 60);
  seconds -= minutes * 60;
  return `${TWO_DIGITS[Math.floor(y / 100)]}${TWO_DIGITS[y % 100]}-${TWO_DIGITS[m]}-${TWO_DIGITS[d]}T${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}`;
}

/**
 * Whether `text` is already what `String(Number(text))` gives: a plain decimal (`-12.5`, `1000001`)
 * without leading zeros, trailing fraction zeros or exponent, of at most 15 significant digits (so
 * it is the shortest text of its double) and not so small that JavaScript writes it with `e-7`.
 */
export function isShortestNumberText(text: string): boolean {
  const n = text.length;
  let i = text.charCodeAt(0) === 45 ? 1 : 0;
  if (i >= n) return false;
  const first = text.charCodeAt(i);
  let digits = 0;
  if (first === 48) {
    i++;
    if (i === n) return n === 1; // "0" yes, "-0" is "0"
  } else {
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c < 48 || c > 57) break;
      digits++;
    }
    if (digits === 0) return false;
    if (i === n) return digits <= 15;
  }
  if (text.charCodeAt(i) !== 46 || i + 1 === n) return false;
  i++;
  let leadingZeros = 0;
  if (digits === 0) while (i < n && text.charCodeAt(i) === 48) { leadingZeros++; i++; }
  if (leadingZeros > 5) return false;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
    digits++;
  }
  return digits > 0 && digits <= 15 && text.charCodeAt(n - 1) !== 48;
}

/**
 * Decodes the `_xHHHH_` escapes of ECMA-376 strings (`_x000D_` is a carriage return; `_x005F_` an
 * underscore). `_x005F_` before `xHHHH_` is the literal text `_xHHHH_`, whose closing `_` is its own
 * unless an escaped escape starts there: writers that escape every underscore opening an escape-like
 * text (Excel, our writer) store `_x005F_x000D_` as `_x005F_x005F_x005F_x000D_`, XlsxWriter, which
 * escapes only non-overlapping ones, as `_x005F_x005F_x000D_`; both read back as `_x005F_x000D_`.
 */
export function unescapeXString(text: string): string {
  let i = text.indexOf('_x');
  if (i < 0) return text;
  let out = '';
  let from = 0;
  for (; i >= 0; i = text.indexOf('_x', i)) {
    if (!isEscapeAt(text, i)) { i++; continue; }
    out += text.slice(from, i);
    if (isEscapedEscapeAt(text, i)) {
      const shared = isEscapedEscapeAt(text, i + 12);
      out += text.slice(i + 6, shared ? i + 12 : i + 13);
      i += shared ? 12 : 13;
    } else {
      out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
      i += 7;
    }
    from = i;
  }
  return out + text.slice(from);
}

/** Whether `_xHHHH_` (four hex digits) starts at `i`. */
function isEscapeAt(text: string, i: number): boolean {
  if (text.charCodeAt(i) !== 95 || text.charCodeAt(i + 1) !== 120 || text.charCodeAt(i + 6) !== 95) return false;
  for (let j = i + 2; j < i + 6; j++) {
    const h = text.charCodeAt(j) | 0x20;
    if (!((h >= 48 && h <= 57) || (h >= 97 && h <= 102))) return false;
  }
  return true;
}

/** Whether an escaped escape, `_x005F_` then `xHHHH_`, starts at `i`. */
function isEscapedEscapeAt(text: string, i: number): boolean {
  return isEscapeAt(text, i) && text.charCodeAt(i + 2) === 48 && text.charCodeAt(i + 3) === 48 && text.charCodeAt(i + 4) === 53
    && (text.charCodeAt(i + 5) | 0x20) === 102 && isEscapeAt(text, i + 6);
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
    const reader = new PartReader(path, zip, entries, saxes);
    const book = await readBookModel(reader);
    return {
      sheets: book.sheets,
      rows: (sheet, options = {}) => sheetRows(reader, sheet, book, options),
      summary: (sheet) => sheetSummary(reader, sheet, book),
      close: () => zip.close(),
    };
  } catch (error) {
    zip.close();
    throw error;
  }
}

/** Whether a ZIP file is a SpreadsheetML package (its directory names a workbook part), read from its directory alone. */
export async function isWorkbookPackage(path: string): Promise<boolean> {
  const { yauzl } = await loadLibraries();
  let zip: ZipFile;
  try {
    zip = await new Promise<ZipFile>((resolve, reject) => {
      yauzl.open(path, { lazyEntries: true, autoClose: false, decodeStrings: true }, (error, file) => (error ? reject(error) : resolve(file)));
    });
  } catch {
    return false; // a damaged ZIP: no workbook can be told in it
  }
  try {
    const entries = await listEntries(zip);
    return [...entries.keys()].some((name) => name === 'xl/workbook.xml' || (name.startsWith('xl/worksheets/') && name.endsWith('.xml')));
  } catch {
    return false;
  } finally {
    zip.close();
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
  constructor(private readonly path: string, private readonly zip: ZipFile, private readonly entries: Map<string, Entry>, private readonly saxes: Saxes) {}

  has(part: string): boolean {
    return this.entries.has(part.toLowerCase());
  }

  /**
   * A part's decompressed bytes as a stream. yauzl finds the part's data; it is read here in 256 KiB
   * reads (yauzl reads 16 KiB at a time) and inflated with node:zlib in 256 KiB chunks (yauzl's
   * inflate hands out 16 KiB chunks through one more stream that only counts them): half the CPU
   * time of inflating a large sheet, which runs on the thread pool beside the scan. (1 MiB chunks
   * cost no less CPU and 50 MiB more peak RSS.) The size is checked against the ZIP directory, as
   * yauzl did.
   */
  async open(part: string): Promise<{ stream: AsyncIterable<Buffer>; ratio: number; close(): void }> {
    const entry = this.entries.get(part.toLowerCase());
    if (!entry) throw new BookError(`its part ${part} is missing`);
    if (entry.isEncrypted()) throw new BookError(`its part ${part} is encrypted`);
    if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) throw new BookError(`its part ${part} uses compression method ${entry.compressionMethod}, which cannot be read`);
    const { fileDataStart } = await this.zip.readLocalFileHeaderPromise(entry, { minimal: true });
    // Progress is in file bytes: decompressed bytes times the part's compression ratio.
    const ratio = entry.uncompressedSize > 0 ? entry.compressedSize / entry.uncompressedSize : 1;
    const raw = entry.compressedSize === 0
      ? Readable.from([])
      : createReadStream(this.path, { start: fileDataStart, end: fileDataStart + entry.compressedSize - 1, highWaterMark: CHUNK });
    // Node hands stream options on to the Transform (its types leave them out): up to 1 MiB
    // inflated ahead, so inflating on the thread pool overlaps scanning on this thread.
    const options = { chunkSize: CHUNK, readableHighWaterMark: 4 * CHUNK };
    const inflate = entry.compressionMethod === 8 ? createInflateRaw(options) : undefined;
    if (inflate) {
      raw.on('error', (e: Error) => inflate.destroy(e));
      raw.pipe(inflate);
    }
    const stream = inflate ?? raw;
    return { stream: checkedSize(stream, entry.uncompressedSize, part), ratio, close: () => { raw.destroy(); inflate?.destroy(); } };
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
    const { stream, ratio, close } = await this.open(part);
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
      close();
    }
  }

  /** Scans a large part (a worksheet, the shared strings) with the purpose-built scanner, yielding after each chunk. */
  async *scan(part: string, handler: XmlHandler, onBytes?: (bytes: number) => void): AsyncGenerator<void> {
    const { stream, ratio, close } = await this.open(part);
    const scanner = new XmlScanner(part, handler);
    let bytes = 0;
    try {
      for await (const chunk of stream) {
        bytes += chunk.length;
        scanner.write(chunk);
        onBytes?.(Math.round(bytes * ratio));
        yield;
      }
      scanner.end();
    } finally {
      close();
    }
  }
}

/** The stream's chunks, failing when their total is not the size the ZIP directory gives. */
async function* checkedSize(stream: AsyncIterable<Buffer>, size: number, part: string): AsyncGenerator<Buffer> {
  let total = 0;
  for await (const chunk of stream) {
    total += chunk.length;
    if (total > size) throw new BookError(`its part ${part} is longer than the ZIP directory says (damaged)`);
    yield chunk;
  }
  if (total < size) throw new BookError(`its part ${part} is shorter than the ZIP directory says (damaged)`);
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
  dateStyles: (DateKind | undefined)[];
  /** Per cell style index: its zero-padding number format (`00000`), when it has one. */
  padStyles: ({ format: string; width: number } | undefined)[];
  date1904: boolean;
  /**
   * Whether the workbook asks to be recalculated when opened (`<calcPr fullCalcOnLoad="1"/>`):
   * its writer may not have calculated formulas, so a saved 0 may be a placeholder (XlsxWriter,
   * and pandas through it, save 0 for every one). Excel and LibreOffice do not write it.
   */
  recalculates: boolean;
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
  const listed: { name: string; rid: string; hidden: boolean }[] = [];
  let date1904 = false;
  let recalculates = false;
  await reader.parse(workbook, {
    open(name, a) {
      if (name === 'sheet') {
        const rid = Object.keys(a).find((key) => key === 'id' || key.endsWith(':id'));
        listed.push({ name: a.name ?? '', rid: rid ? a[rid] : '', hidden: a.state === 'hidden' || a.state === 'veryHidden' });
      } else if (name === 'workbookPr') {
        date1904 = a.date1904 === '1' || a.date1904 === 'true';
      } else if (name === 'calcPr') {
        recalculates = a.fullCalcOnLoad === '1' || a.fullCalcOnLoad === 'true';
      }
    },
  });
  const rels = await relationships(reader, workbook);
  const sheets: BookSheet[] = [];
  listed.forEach(({ name, rid, hidden }, i) => {
    const rel = rels.get(rid);
    // Chart, dialog and macro sheets hold no cells: they are not sheets to import.
    if (rel && !rel.type.endsWith('/worksheet')) return;
    const path = rel?.target ?? `xl/worksheets/sheet${i + 1}.xml`;
    if (reader.has(path)) sheets.push({ name, path, hidden });
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
    ...(stylesPart ? await numberStyles(reader, stylesPart) : { dateStyles: [], padStyles: [] }),
    date1904,
    recalculates,
  };
}

/** The shared strings: each `<si>`'s text runs joined; phonetic runs (`<rPh>`) are a reading aid, not the value. */
async function sharedStrings(reader: PartReader, part: string): Promise<string[]> {
  const strings: string[] = [];
  let text = '';
  let inT = false;
  let phonetic = 0;
  const handler: XmlHandler = {
    get wantsText() { return inT && phonetic === 0; },
    open(name) {
      if (name === Name.Si) text = '';
      else if (name === Name.T) inT = true;
      else if (name === Name.RPh) phonetic++;
    },
    close(name) {
      if (name === Name.T) inT = false;
      else if (name === Name.RPh) phonetic--;
      else if (name === Name.Si) strings.push(unescapeXString(text));
    },
    text(value) {
      text += value;
    },
  };
  for await (const _ of reader.scan(part, handler)) { /* the handler collects the strings */ }
  return strings;
}

/**
 * Per cell style (`cellXfs` order): whether its number format shows a date, a time of day or an
 * elapsed time, and whether it pads whole numbers with leading zeros.
 */
async function numberStyles(reader: PartReader, part: string): Promise<Pick<BookModel, 'dateStyles' | 'padStyles'>> {
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
  return {
    dateStyles: styles.map((id) => {
      const format = custom.get(id);
      return format !== undefined ? dateKind(format) : builtInKind(id);
    }),
    // No built-in format pads with zeros.
    padStyles: styles.map((id) => {
      const format = custom.get(id);
      return format !== undefined ? zeroPadding(format) : undefined;
    }),
  };
}

/** Text of a `t="d"` cell (ISO 8601) as our ISO text; the text itself when it is no date. */
function isoCellText(text: string): string {
  const parts = parseDate(text);
  return parts ? formatDate(parts) : text;
}

/** Cell types (`t`) by code; anything else reads as a number, as `n` does. */
const Type = { N: 0, S: 1, InlineStr: 2, Str: 3, B: 4, E: 5, D: 6 } as const;
const TYPES: Record<string, number> = { n: Type.N, s: Type.S, inlineStr: Type.InlineStr, str: Type.Str, b: Type.B, e: Type.E, d: Type.D };

const R = 0x72;
const T = 0x74;
const S = 0x73;

/** The type code of a cell's `t` attribute, from its bytes without making a string. */
function typeOf(a: Attributes): number {
  if (!a.present(T)) return Type.N;
  const b = a.bytes;
  const start = a.start[T];
  switch (a.end[T] - start) {
    case 1:
      switch (b[start]) {
        case S: return Type.S;
        case 0x6e: return Type.N;
        case 0x62: return Type.B;
        case 0x65: return Type.E;
        case 0x64: return Type.D;
      }
      break;
    case 3:
      if (b[start] === S && b[start + 1] === T && b[start + 2] === R) return Type.Str;
      break;
    case 9:
      if (hasWordAt(b, start, 'inlineStr')) return Type.InlineStr;
      break;
  }
  return a.isPlain(T) ? Type.N : TYPES[a.text(T)] ?? Type.N;
}

/** A whole number from an attribute's digits (`r="12"`, `s="3"`); other text as `Number` reads it. */
function numberOf(a: Attributes, letter: number): number {
  const b = a.bytes;
  const end = a.end[letter];
  let n = 0;
  for (let i = a.start[letter]; i < end; i++) {
    const c = b[i] - 48;
    if (c < 0 || c > 9 || n > 1e14) return Number(a.text(letter));
    n = n * 10 + c;
  }
  return n;
}

/** 0-based column of a cell's `r` (letters first), or -1 when it has none. */
function columnOfAttribute(a: Attributes): number {
  if (!a.isPlain(R)) return columnOf(a.text(R));
  const b = a.bytes;
  const start = a.start[R];
  const end = a.end[R];
  let col = 0;
  let i = start;
  for (; i < end; i++) {
    const c = b[i] | 0x20;
    if (c < 97 || c > 122) break;
    col = col * 26 + (c - 96);
  }
  return i === start ? -1 : col - 1;
}

/** The row number of a cell's `r` (the digits after its letters: 3 in `B3`), or -1 when it has none. */
function rowOfAttribute(a: Attributes): number {
  if (!a.isPlain(R)) {
    const digits = /^[A-Za-z]*([0-9]+)$/.exec(a.text(R).trim());
    return digits ? Number(digits[1]) : -1;
  }
  const b = a.bytes;
  const end = a.end[R];
  let i = a.start[R];
  while (i < end && ((b[i] | 0x20) >= 97 && (b[i] | 0x20) <= 122)) i++;
  if (i === end) return -1;
  let row = 0;
  for (; i < end; i++) {
    const c = b[i] - 48;
    if (c < 0 || c > 9 || row > 1e9) return -1;
    row = row * 10 + c;
  }
  return row;
}

type SheetRow = { number: number; cells: CellValue[] };

/** Turns one worksheet's elements into rows (the reader's semantics for every cell type). */
class SheetHandler implements XmlHandler {
  ready: SheetRow[] = [];
  wantsText = false;
  skipsRow = false;
  /** Summary mode (`summary`): the first row with a present value, then a count of such rows. */
  first: SheetRow | undefined;
  count = 0;
  /** Cells in a date format whose number is no date (read as the number), when there are any. */
  undatable: UndatableCells | undefined;
  /** Per column, its numbers in a zero-padded format that lack the leading zeros it shows. */
  padded: Map<number, ZeroPaddedCells> | undefined;
  /** Whether the current row has a present value (summary mode). */
  private isPresent = false;
  private rowNumber = 0;
  private cells: CellValue[] = [];
  private inRow = false;
  private column = -1;
  private type: number = Type.N;
  private style = 0;
  private value = '';
  private inline = '';
  private hasValue = false;
  /** The cell's formula (`<f>`), when it has one: `null` none, else its text (empty for a shared one). */
  private formula: string | null = null;
  /** The cell's reference as written (`B3`), read only for an error message: its bytes, then its text once it has a formula. */
  private ref = '';
  private refBytes: Buffer | undefined;
  private refStart = 0;
  private refEnd = 0;
  /** Which text the scanner is in: 1 `<v>`, 2 `<t>` of an inline string, 3 `<f>`, 0 other. */
  private into = 0;
  private phonetic = 0;
  private inInline = false;

  constructor(private readonly sheet: BookSheet, private readonly book: BookModel, private readonly strict: Strictness, private readonly summarize = false) {}

  private wantText(): void {
    this.wantsText = this.into === 1 || this.into === 3 || (this.into === 2 && this.phonetic === 0);
  }

  open(name: number, a: Attributes): void {
    switch (name) {
      case Name.Row: {
        const number = a.has(R) ? numberOf(a, R) : this.rowNumber + 1;
        // Rows are placed as they come (a streaming read): one out of order or repeated would put
        // its cells in another row's place, or make two rows of one. Excel never writes them so.
        if (number <= this.rowNumber) throw this.misplaced(number === this.rowNumber ? `has two rows numbered ${number}` : `has row ${number} after row ${this.rowNumber} (rows out of order)`);
        this.inRow = true;
        this.rowNumber = number;
        this.cells = [];
        this.column = -1;
        this.isPresent = false;
        this.skipsRow = false;
        break;
      }
      case Name.C: {
        const col = a.has(R) ? columnOfAttribute(a) : -1;
        // A cell without a reference is the next one; one with a reference at or before the last
        // cell's column would overwrite it or land beside the wrong header.
        if (col >= 0 && col <= this.column) {
          const ref = a.text(R);
          throw this.misplaced(col === this.column ? `has two cells ${ref} in row ${this.rowNumber}` : `has cell ${ref} after ${columnLetters(this.column)}${this.rowNumber} in row ${this.rowNumber} (cells out of column order)`);
        }
        // A cell naming another row than the one it is in would be read into this one.
        if (col >= 0 && this.inRow) {
          const row = rowOfAttribute(a);
          if (row >= 0 && row !== this.rowNumber) throw this.misplaced(`has cell ${a.text(R)} inside row ${this.rowNumber}`);
        }
        this.column = col >= 0 ? col : this.column + 1;
        this.type = typeOf(a);
        this.ref = '';
        this.refBytes = a.present(R) ? a.bytes : undefined;
        this.refStart = a.start[R];
        this.refEnd = a.end[R];
        this.formula = null;
        this.style = a.has(S) ? numberOf(a, S) : 0;
        this.value = '';
        this.inline = '';
        this.hasValue = false;
        this.inInline = false;
        this.phonetic = 0;
        break;
      }
      case Name.V: this.into = 1; this.hasValue = true; this.wantText(); break;
      case Name.F:
        this.into = 3;
        this.formula = '';
        // Read now: the `<c>` tag's bytes may be gone by the time the cell ends.
        this.ref = this.refBytes ? attributeText(this.refBytes, this.refStart, this.refEnd) : '';
        this.wantText();
        break;
      case Name.Is: this.inInline = true; break;
      case Name.T: if (this.inInline) { this.into = 2; this.wantText(); } break;
      case Name.RPh: this.phonetic++; this.wantText(); break;
    }
  }

  close(name: number): void {
    switch (name) {
      case Name.V: this.into = 0; this.wantsText = false; break;
      case Name.F: this.into = 0; this.wantsText = false; break;
      case Name.T: if (this.into === 2) { this.into = 0; this.wantsText = false; } break;
      case Name.RPh: this.phonetic--; this.wantText(); break;
      case Name.Is: this.inInline = false; break;
      case Name.C: {
        if (!this.inRow || this.column < 0) break;
        const { formula, hasValue, value } = this;
        if (this.strict === 'strict' && formula !== null) {
          // Its result was never calculated (no `<v>`, or openpyxl's empty `<v></v>` on a number
          // cell; an empty text result is `t="str"`), or what was saved is a placeholder the
          // workbook itself says to recalculate: importing it would lose or change a value in silence.
          const isUnsaved = !hasValue || (value === '' && this.type !== Type.Str);
          // A workbook asking to be recalculated may still hold real results (a writer that
          // calculates and sets the flag anyway): only a 0, XlsxWriter's placeholder, is refused.
          const isPlaceholder = this.book.recalculates && this.type === Type.N && value.trim() === '0';
          if (isUnsaved || isPlaceholder) throw this.uncalculated(formula, !isUnsaved);
        }
        if (this.isPresent && this.first) break; // summary mode, row already counted: its other cells are not needed
        const text = this.cellValue();
        if (text !== null) {
          const cells = this.cells;
          while (cells.length < this.column) cells.push(null);
          cells[this.column] = text;
          if (this.summarize && !isMissing(text)) {
            this.isPresent = true;
            // The first such row is the header, whole; after it only the count matters.
            if (this.first) this.skipsRow = true;
          }
        }
        break;
      }
      case Name.Row:
        this.inRow = false;
        this.skipsRow = false;
        if (!this.summarize) this.ready.push({ number: this.rowNumber, cells: this.cells });
        else if (this.isPresent && !this.first) this.first = { number: this.rowNumber, cells: this.cells };
        else if (this.isPresent) this.count++;
        break;
    }
  }

  text(text: string): void {
    if (this.into === 1) this.value += text;
    else if (this.into === 3) { if (this.formula!.length < 100) this.formula += text; }
    else if (this.into === 2 && this.phonetic === 0) this.inline += text;
  }

  /** The error for a row or cell out of place: which one comes from the file's order, which cannot be trusted. */
  private misplaced(what: string): BookError {
    return new BookError(`sheet "${this.sheet.name}" ${what}, so where its values belong cannot be told`,
      'open it in Excel or LibreOffice, check those cells, and save it again (they write every row and cell once, in order), then retry');
  }

  /** The error for a formula cell whose saved result is missing (`saved` false) or a placeholder. */
  private uncalculated(formula: string, saved: boolean): BookError {
    const where = this.ref || `row ${this.rowNumber}, column ${this.column + 1}`;
    const shown = formula.length > 60 ? `${formula.slice(0, 57)}...` : formula;
    const cell = `sheet "${this.sheet.name}", cell ${where} holds a formula${shown ? ` (=${shown})` : ''}`;
    if (!saved) {
      return new BookError(`${cell} whose result was never saved (the program that wrote the workbook does not calculate formulas)`,
        'open and save it in Excel or LibreOffice (or `soffice --headless --convert-to xlsx`) so the results are saved, then retry');
    }
    // LibreOffice keeps such placeholders unless told to recalculate: a plain conversion
    // (`soffice --convert-to xlsx`) saves the 0s again and drops the flag that marks them.
    return new BookError(`${cell} whose saved result is only a placeholder (the workbook asks to be recalculated when opened, as XlsxWriter and pandas write it, with 0 saved for every formula)`,
      'open it in Excel, or in LibreOffice Calc and run Data > Calculate > Recalculate Hard, and save it (a plain `soffice --convert-to xlsx` keeps the placeholders), or write values instead of formulas (pandas turns text starting with "=" into a formula unless its ExcelWriter gets engine_kwargs={"options": {"strings_to_formulas": False}}), then retry');
  }

  /** Counts a whole number shown with leading zeros it does not hold (2134 in `00000`), for a warning per column. */
  private notePadded(value: string, pad: { format: string; width: number }): void {
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n < 0) return;
    const digits = String(n);
    if (digits.length >= pad.width) return;
    this.padded ??= new Map();
    const found = this.padded.get(this.column);
    if (found) found.count++;
    else this.padded.set(this.column, { column: this.column, count: 1, first: `${columnLetters(this.column)}${this.rowNumber}`, value: digits, shown: padShown(digits, pad.format), format: pad.format });
  }

  private cellValue(): CellValue {
    const { hasValue, value } = this;
    switch (this.type) {
      case Type.S: {
        if (!hasValue) return null;
        const text = this.book.strings[Number(value)];
        if (text === undefined) throw new BookError(`sheet "${this.sheet.name}" row ${this.rowNumber} refers to shared string ${value}, which the workbook does not have`);
        return text;
      }
      case Type.InlineStr: return unescapeXString(this.inline === '' && hasValue ? value : this.inline);
      case Type.Str: return hasValue ? unescapeXString(value) : null;
      case Type.B: return hasValue ? (value.trim() === '1' || value.trim().toLowerCase() === 'true' ? 'true' : 'false') : null;
      case Type.E: return hasValue ? value : null;
      case Type.D: return hasValue ? isoCellText(value.trim()) : null;
      default: {
        if (!hasValue) return null;
        const kind = this.book.dateStyles[this.style];
        const pad = this.book.padStyles[this.style];
        if (pad && !this.summarize) this.notePadded(value, pad);
        // Numbers as their plain value: JavaScript's shortest text, e.g. 0.1 and 1234567.891; most
        // writers store exactly that text already.
        if (kind === undefined && isShortestNumberText(value)) return value;
        if (value.trim() === '') return null;
        const n = Number(value);
        if (!Number.isFinite(n)) return value;
        if (kind === undefined) return String(n);
        // A date format is how a number is shown; a number no date of years 0000-9999 has (Excel
        // shows #####) is kept as the number the cell holds, and counted for a warning.
        const date = serialCellText(n, kind, this.book.date1904);
        if (date !== null) return date;
        const text = isShortestNumberText(value) ? value : String(n);
        if (this.undatable) this.undatable.count++;
        else this.undatable = { count: 1, first: `${columnLetters(this.column)}${this.rowNumber}`, value: text };
        return text;
      }
    }
  }
}

/** The rows of one worksheet, a chunk's worth at a time. */
async function* sheetRows(reader: PartReader, sheet: BookSheet, book: BookModel, options: RowsOptions): AsyncGenerator<SheetRow[]> {
  const handler = new SheetHandler(sheet, book, options.strict ?? 'lenient');
  for await (const _ of reader.scan(sheet.path, handler, options.onBytes)) {
    if (handler.ready.length > 0) {
      yield handler.ready;
      handler.ready = [];
    }
  }
  if (handler.ready.length > 0) yield handler.ready;
  if (handler.undatable) options.onUndatable?.(handler.undatable);
  if (handler.padded) options.onZeroPadded?.([...handler.padded.values()]);
}

/** A sheet's first row with a present value and the count of such rows after it. */
async function sheetSummary(reader: PartReader, sheet: BookSheet, book: BookModel): Promise<{ first: CellValue[] | undefined; count: number }> {
  const handler = new SheetHandler(sheet, book, 'lenient', true);
  for await (const _ of reader.scan(sheet.path, handler)) { /* the handler counts */ }
  return { first: handler.first?.cells, count: handler.count };
}
