/**
 * CSV writer (engine.md step 12): UTF-8 without BOM, comma, `\n`, a header row; a field is quoted
 * only when it holds a comma, a quote, CR or LF, or starts or ends with a space. Engine.md leaves
 * open the one-column row whose value is missing: we write `""`, since readers skip an empty line.
 */
import { closeSync, openSync } from 'node:fs';
import type { Batch, Row, Table, Value } from '../types.js';
import { writeAll } from './fd.js';

/** Whether a text field must be quoted. */
function needsQuotes(text: string): boolean {
  const n = text.length;
  if (n === 0) return false;
  if (text.charCodeAt(0) === 32 || text.charCodeAt(n - 1) === 32) return true;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 44 || c === 34 || c === 10 || c === 13) return true;
  }
  return false;
}

/** One value as a CSV field: missing → empty, numbers as `String(n)`, text quoted only when needed. */
export function csvField(value: Value | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (!needsQuotes(value)) return value;
  return value.indexOf('"') === -1 ? '"' + value + '"' : '"' + value.replace(/"/g, '""') + '"';
}

/** One row as a CSV line, without its line break; a one-column row whose value is empty is `""` (an empty line is no row to readers). */
export function csvLine(row: readonly (Value | undefined)[]): string {
  let line = row.length > 0 ? csvField(row[0]) : '';
  if (row.length === 1 && line === '') return '""';
  for (let i = 1; i < row.length; i++) line += ',' + csvField(row[i]);
  return line;
}

/**
 * What a writer changed in the data because its format cannot hold it, for the report's warnings:
 * the CSV encoder counts only `replaced`; the Excel one all three. A parallel run's workers also
 * record them per row (`rows`), so the merge counts only the rows that stay.
 */
export interface OutputFixes {
  /** Characters replaced with U+FFFD. */
  replaced: number;
  /** Values cut to an Excel cell's limit. */
  cut: number;
  /** date_time values before 1900-03-01 written as text. */
  early: number;
  /** NUL characters (U+0000) a CSV file holds as they are (see nulWarning); counted on the bytes written, not per row. */
  nul: number;
  /** When set, receives `[row index in batch, replaced, cut, early]` for each row that had fixes. */
  rows?: number[];
}

/** Fresh counters; `perRow` also records which rows had fixes (a parallel run's workers). */
export function newFixes(perRow = false): OutputFixes {
  return { replaced: 0, cut: 0, early: 0, nul: 0, rows: perRow ? [] : undefined };
}

/** Which file a warning about replaced characters is about. */
export type FixedFile = 'CSV output' | 'Excel output' | 'CSV rejects file';

/** The warning for `count` characters a file could not hold and replaced with U+FFFD: one wording for CSV, Excel and the rejects. */
export function replacedWarning(file: FixedFile, count: number, cannotHold: string): string {
  return `${file}: ${count} character(s) that ${cannotHold} were replaced with U+FFFD.`;
}

/**
 * The report's warnings for what a CSV writer changed (none when nothing was): the output's, or
 * `file`'s; and for NUL characters it kept, which CSV holds but pandas' default reader does not.
 */
export function csvFixWarnings(fixes: OutputFixes, file: FixedFile = 'CSV output'): string[] {
  const warnings = fixes.replaced ? [replacedWarning(file, fixes.replaced, 'UTF-8 cannot hold (unpaired surrogates)')] : [];
  if (fixes.nul) warnings.push(nulWarning(file, fixes.nul));
  return warnings;
}

/**
 * The warning for NUL characters (U+0000) in a CSV file (a JSON input's `\u0000`, a text rule's or
 * a fill's). CSV holds them and the csv module, Excel and LibreOffice read them back, so they are
 * kept; but pandas' read_csv (its default C parser, quoted or not) ends the value at one: `a<NUL>b`
 * reads as `a`, a lone NUL as missing. Said, not changed: the data stays as the job made it.
 */
export function nulWarning(file: FixedFile, count: number): string {
  return `${file}: ${count} NUL character(s) (U+0000) were written as they are; pandas' read_csv ends a value at one ("a<NUL>b" reads as "a"), so read it with engine="python", or remove them with a text rule (regexReplacement "\\x00": "").`;
}

/** How many NUL bytes `bytes` holds (in UTF-8 only U+0000 makes one): a memchr per written chunk, no work per cell. */
export function nulBytes(bytes: Uint8Array): number {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  let count = 0;
  for (let at = view.indexOf(0); at !== -1; at = view.indexOf(0, at + 1)) count++;
  return count;
}

/** How many unpaired surrogates `text` holds (each becomes U+FFFD in UTF-8). */
export function loneSurrogates(text: string): number {
  if (isWellFormed(text)) return 0;
  let count = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    const d = c <= 0xdbff && i + 1 < n ? text.charCodeAt(i + 1) : 0;
    if (d >= 0xdc00 && d <= 0xdfff) i++; // a pair
    else count++;
  }
  return count;
}

/** Whether text is well-formed UTF-16 (no unpaired surrogate): V8's native check (Node 20). */
const isWellFormed = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed();

/**
 * The header line (with its line break). A first name starting with U+FEFF is quoted: written bare,
 * the file would begin with EF BB BF, which readers take for a byte-order mark and strip (engine.md:
 * no BOM), renaming the column.
 */
export function csvHeader(columns: readonly string[]): string {
  const line = csvLine(columns);
  return (columns.length > 0 && columns[0].charCodeAt(0) === 0xfeff && line.charCodeAt(0) !== 34 ? quote(columns[0]) + line.slice(columns[0].length) : line) + '\n';
}

/** How a table's rows become CSV lines: made once per table by rowFormat, used per batch by CsvEncoder. */
export interface RowFormat { width: number; fixes: OutputFixes }

/** The row format of a table with these columns; `fixes` counts the characters UTF-8 could not hold. */
export function rowFormat(columns: readonly string[], fixes: OutputFixes = newFixes()): RowFormat {
  // Every text cell is checked, whatever its column's type: text rules, fill, pivot and scripts run
  // after the data-type step and may put a comma or a space in a date_time column's value (its
  // engine-made `YYYY-MM-DDTHH:mm:ss` is 19 ASCII units, checked in the copy loop at no extra cost).
  return { width: columns.length, fixes };
}

/**
 * Text cells up to this many units are copied and checked in JavaScript, then quoted in place when
 * they must be; longer ones are copied with their quotes doubled on the way.
 */
const COPIED_TEXT = 48;

/** Bytes reserved before writeNumber: a separator, a sign, 15 digits, a point. */
const NUMBER_ROOM = 24;

/**
 * Writes `String(v)` of a common number without making the string (String of a non-integer was
 * ~10% of a worker's time): integers below 1e15 and values with at most two decimals below 1e13,
 * whose shortest round-trip text is exactly their digits. Returns the new end, or -1 for any other
 * number (the caller then writes String(v)).
 */
export function writeNumber(buf: Uint8Array, at: number, v: number): number {
  if (v === 0) { // 0 and -0 both read "0"
    buf[at] = 48;
    return at + 1;
  }
  let a = v < 0 ? -v : v;
  let decimals = 0;
  let scaled = a;
  if (Math.floor(a) !== a) {
    // v has at most two decimals when the two-decimal value read back is v itself; below 1e13
    // that text has at most 15 significant digits, so no shorter text reads back as v.
    scaled = Math.round(a * 100);
    if (a >= 1e13 || scaled / 100 !== a) return -1;
    decimals = scaled % 10 === 0 ? 1 : 2;
    if (decimals === 1) scaled /= 10;
  } else if (a >= 1e15) return -1;
  a = scaled;
  if (v < 0) buf[at++] = 45;
  // The digits' count by comparisons (a division per digit was a tenth of the encoder's time).
  let digits = 1;
  while (a >= POWERS_OF_TEN[digits]) digits++;
  // The point goes `decimals` digits from the end, after at least one integer digit.
  if (digits <= decimals) digits = decimals + 1;
  const end = at + digits + (decimals > 0 ? 1 : 0);
  const point = decimals > 0 ? end - decimals - 1 : -1;
  if (point >= 0) buf[point] = 46;
  // Digits from the last one back, past the point: in floating point while the value is beyond
  // int32, then in integers, where V8 divides by 10 with a multiplication.
  let p = end;
  for (; a >= 2 ** 31; a = Math.floor(a / 10)) {
    if (--p === point) --p;
    buf[p] = 48 + (a % 10);
  }
  for (let n = a | 0; p > at; n = (n / 10) | 0) {
    if (--p === point) --p;
    buf[p] = 48 + (n % 10);
  }
  return end;
}

/** 10^0 to 10^15: writeNumber's values are below 10^15. */
const POWERS_OF_TEN = Array.from({ length: 16 }, (_, i) => 10 ** i);

/**
 * Buffer with Node's own UTF-8 write (on every Buffer since Node 0.x, used by Buffer#write), called
 * directly: Buffer#write's argument checks were about 5% of a run.
 */
type FastBuffer = Buffer & { utf8Write(text: string, offset: number): number };

/** Bytes appended into one reused buffer, grown by doubling: what the CSV and sheet encoders write into. */
export class ByteBuffer {
  /** The bytes encoded so far: `buffer.subarray(0, length)`. */
  buffer: Buffer;
  length = 0;

  constructor(size = 1 << 20) {
    this.buffer = Buffer.allocUnsafeSlow(size);
  }

  /** Keeps room for `more` bytes past the current end. */
  protected reserve(more: number): void {
    const need = this.length + more;
    if (need <= this.buffer.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(need, this.buffer.length * 2));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
}

/**
 * Encodes rows as UTF-8 CSV lines straight into one reused buffer: ASCII text is copied byte by
 * byte while it is checked for quoting, so no per-cell or per-line strings are made (building the
 * lines as strings, then encoding them, took about 15% of a one-thread run and fed the GC).
 */
export class CsvEncoder extends ByteBuffer {
  /** Appends rows as lines, each ending in `\n`; when `ends` is given it receives each line's end offset in bytes. */
  addRows(rows: readonly Row[], format: RowFormat, ends?: number[] | Float64Array): void {
    const { width, fixes } = format;
    const perRow = fixes.rows;
    // One loop over locals: the buffer and offset live in registers, not in fields, until the end.
    let buf = this.buffer;
    let at = this.length;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      const replaced = fixes.replaced;
      for (let k = 0; k < width; k++) {
        const v = row[k];
        let s: string;
        if (typeof v === 'string') s = v;
        else if (typeof v === 'number' && Number.isFinite(v)) {
          if (at + NUMBER_ROOM > buf.length) {
            this.length = at;
            this.reserve(NUMBER_ROOM);
            buf = this.buffer;
          }
          if (k > 0) buf[at++] = 44;
          const end = writeNumber(buf, at, v);
          if (end >= 0) {
            at = end;
            continue;
          }
          if (k > 0) at--; // written again below, with its text
          s = String(v);
        } else s = '';
        const n = s.length;
        // Quoting doubles a quote (2 bytes per unit at most); UTF-8 takes at most 3 bytes per UTF-16 unit.
        if (at + 6 * n + 4 > buf.length) {
          this.length = at;
          this.reserve(6 * n + 4);
          buf = this.buffer;
        }
        if (k > 0) buf[at++] = 44;
        if (n === 0) {
          // A one-column row whose value is missing is `""`: an empty line is skipped by readers.
          if (width === 1) {
            buf[at++] = 34;
            buf[at++] = 34;
          }
          continue;
        }
        // ASCII text is copied here while it is checked for quoting (a native call costs more than
        // the copy of short text); text that is not ASCII is encoded by Node and checked as a string.
        // A number's own text (`1e+21`, `-1.5e-7`) never needs quotes.
        const check = typeof v === 'string';
        let written = 0;
        let quotes = 0;
        let quoted = false;
        if (n <= COPIED_TEXT) {
          for (; written < n; written++) {
            const c = s.charCodeAt(written);
            if (c >= 128) break;
            buf[at + written] = c;
            if (c === 34) quotes++;
            else if (c === 44 || c === 10 || c === 13) quoted = true;
          }
          if (written < n) {
            // Not ASCII: Node's UTF-8 writes an unpaired surrogate as U+FFFD, counted for the report.
            if (!isWellFormed(s)) fixes.replaced += loneSurrogates(s);
            written = (buf as FastBuffer).utf8Write(s, at);
          }
        } else {
          // (Only text is this long: a number's text is at most 25 units.)
          // Longer text that may need quotes (notes, descriptions: often quoted in the input too) is
          // copied one byte on, its quotes doubled as it goes, so quoting costs no second pass.
          let to = at + 1;
          for (; written < n; written++) {
            const c = s.charCodeAt(written);
            if (c >= 128) break;
            buf[to++] = c;
            if (c === 34) {
              buf[to++] = 34;
              quotes++;
            } else if (c === 44 || c === 10 || c === 13) quoted = true;
          }
          if (written === n) {
            if (quoted || quotes > 0 || s.charCodeAt(0) === 32 || s.charCodeAt(n - 1) === 32) {
              buf[at] = 34;
              buf[to] = 34;
              at = to + 1;
            } else {
              buf.copyWithin(at, at + 1, to);
              at += n;
            }
            continue;
          }
          if (!isWellFormed(s)) fixes.replaced += loneSurrogates(s);
          written = (buf as FastBuffer).utf8Write(s, at);
        }
        if (!check) {
          at += written;
          continue;
        }
        if (written !== n) {
          // Not ASCII: quoted by the string's own check, and written again.
          at = needsQuotes(s) ? at + buf.write(quote(s), at, 'utf8') : at + written;
          continue;
        }
        const end = at + n;
        if (buf[at] === 32 || buf[end - 1] === 32) quoted = true;
        if (!quoted && quotes === 0) {
          at = end;
          continue;
        }
        // Quoted in place, from the end backwards: `"`, the bytes with quotes doubled, `"`.
        let to = end + quotes + 1;
        buf[to] = 34;
        for (let p = end - 1; p >= at; p--) {
          const c = buf[p];
          buf[--to] = c;
          if (c === 34) buf[--to] = 34;
        }
        buf[at] = 34;
        at = end + quotes + 2;
      }
      buf[at++] = 10;
      if (ends) ends[i] = at;
      if (perRow && fixes.replaced !== replaced) perRow.push(i, fixes.replaced - replaced, 0, 0);
    }
    this.length = at;
  }

}

/**
 * Marks a table whose batches come formatted (parallel runs format in worker threads): the table
 * has `[PREFORMATTED]: true` and each batch `[PREFORMATTED]: Uint8Array[]`, UTF-8 pieces of its
 * lines that stay valid only until the next batch is asked for (they are views of reused
 * buffers), so such a table is written synchronously; `rows` is not read. Until then the writer
 * may change them in place (the Excel writer writes row numbers over placeholders).
 */
export const PREFORMATTED = Symbol('preformatted CSV text');
/** A batch carrying its CSV text (see PREFORMATTED). */
export type PreformattedBatch = Batch & { [PREFORMATTED]: Uint8Array[] };
/** A table of preformatted batches (see PREFORMATTED), with what the formatters changed in the rows kept. */
export type PreformattedTable = Table & { [PREFORMATTED]: true; sheetFixes?: OutputFixes };

/** Bytes gathered before a write of preformatted text: few system calls for many small pieces. */
const WRITE_CHUNK = 1 << 20;

/** Writes a preformatted table: each batch's pieces are copied out before the next batch is asked for. */
async function writePreformatted(table: PreformattedTable, path: string, warn: (message: string) => void): Promise<{ rows: number }> {
  const fd = openSync(path, 'w');
  const out = Buffer.allocUnsafeSlow(WRITE_CHUNK);
  let used = 0;
  const fixes = table.sheetFixes ?? newFixes();
  // NULs are counted on the bytes written: only the rows that stay, whichever thread formatted them.
  const write = (bytes: Uint8Array) => {
    fixes.nul += nulBytes(bytes);
    writeAll(fd, bytes);
  };
  const flush = () => {
    write(out.subarray(0, used));
    used = 0;
  };
  let rows = 0;
  try {
    write(Buffer.from(csvHeader(table.columns)));
    fixes.replaced += headerFixes(table.columns);
    for await (const batch of table.batches) {
      rows += batch.rowNumbers.length;
      for (const piece of (batch as PreformattedBatch)[PREFORMATTED]) {
        if (used + piece.length > out.length) flush();
        if (piece.length > out.length) write(piece);
        else {
          out.set(piece, used);
          used += piece.length;
        }
      }
    }
    flush();
    for (const message of csvFixWarnings(fixes)) warn(message);
  } finally {
    closeSync(fd);
  }
  return { rows };
}

/** The unpaired surrogates of a header's names (each column's own, so a pair is never made across two). */
function headerFixes(columns: readonly string[]): number {
  let count = 0;
  for (const name of columns) if (!isWellFormed(name)) count += loneSurrogates(name);
  return count;
}

/** A field in quotes, inner quotes doubled. */
function quote(value: string): string {
  return value.indexOf('"') === -1 ? '"' + value + '"' : '"' + value.replace(/"/g, '""') + '"';
}

/** Writes a table as CSV to `path` (not atomic: see writeTable); resolves with the number of data rows; `warn` gets what UTF-8 could not hold. */
export async function writeCsv(table: Table, path: string, warn: (message: string) => void = () => {}): Promise<{ rows: number }> {
  if ((table as Partial<PreformattedTable>)[PREFORMATTED]) return writePreformatted(table as PreformattedTable, path, warn);
  const fd = openSync(path, 'w');
  const encoder = new CsvEncoder(2 * WRITE_CHUNK);
  const format = rowFormat(table.columns);
  format.fixes.replaced += headerFixes(table.columns);
  let rows = 0;
  const write = (bytes: Uint8Array) => {
    format.fixes.nul += nulBytes(bytes);
    writeAll(fd, bytes);
  };
  const flush = () => {
    write(encoder.buffer.subarray(0, encoder.length));
    encoder.length = 0;
  };
  try {
    write(Buffer.from(csvHeader(table.columns)));
    for await (const batch of table.batches) {
      rows += batch.rows.length;
      encoder.addRows(batch.rows, format);
      // Written synchronously in large pieces, between batches: the buffer is reused at once.
      if (encoder.length >= WRITE_CHUNK) flush();
    }
    flush();
    for (const message of csvFixWarnings(format.fixes)) warn(message);
  } finally {
    closeSync(fd);
  }
  return { rows };
}
