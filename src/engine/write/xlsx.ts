/**
 * Excel writer (engine.md step 12): one worksheet `data`, a header row, number columns as number
 * cells, date_time columns as date cells (`yyyy-mm-dd hh:mm:ss`), the rest as inline strings,
 * missing values as empty cells. The sheet's XML is built per batch and deflated as it goes
 * (Node's zlib, on its thread pool), so memory stays flat in the row count.
 *
 * Choices (README "Semantics", Output):
 * - Text is written as inline strings: a shared-string table must hold every distinct string
 *   until the end, which grows with the file; inline strings stream (xlsxwriter's constant_memory
 *   mode does the same), and deflate takes out most of their repetition.
 * - XML 1.0 cannot hold control characters other than tab, LF and CR, unpaired surrogates,
 *   U+FFFE and U+FFFF: each is replaced with U+FFFD and counted in a warning (Excel's own `_xHHHH_`
 *   escapes are read back only by Excel, not by openpyxl, pandas or exceljs). CR is written as
 *   `&#13;` so XML's line-end normalisation keeps it. Literal text of the form `_xHHHH_` is
 *   escaped as `_x005F_xHHHH_`, as the format requires, so Excel shows it as written.
 * - A cell carries its reference (`r="C7"`) only when it is its row's first or follows a missing
 *   cell: OOXML makes it optional, and a cell without one is the column after the cell before it
 *   (openpyxl, pandas, LibreOffice and our reader read the same cells; exceljs needs the row's
 *   number and its first cell's reference, which are kept). A fifth less XML to build and deflate:
 *   528 to 431 MB for the reference job's 1M rows, a third of the Excel writer's extra CPU time.
 * - Text longer than 32,767 characters (an Excel cell's limit) is cut there and counted.
 * - A date_time value before 1900-03-01 (Excel's serials are off by a day before that) is text,
 *   counted; a value that is not `YYYY-MM-DDTHH:mm:ss` (a script's) stays text.
 * - More than 1,048,576 rows or 16,384 columns (a sheet's limits) is an error: nothing is written.
 */
import { closeSync, openSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import type { DataType } from '../../contract/index.js';
import { UsageError } from '../../errors.js';
import { columnLetters } from '../cell-ref.js';
import { isMissing } from '../missing.js';
import { isoOutputSeconds } from '../parse.js';
import type { Row, Table } from '../types.js';
import { DEFLATE_CHUNK, DeflateSink } from './deflate.js';
import { ByteBuffer, newFixes, PREFORMATTED, replacedWarning, writeNumber, type OutputFixes, type PreformattedBatch, type PreformattedTable } from './csv.js';
import { crc32Combine, ZipWriter } from './zip.js';

/** Number format of date_time cells. */
export const DATE_FORMAT = 'yyyy-mm-dd hh:mm:ss';
/** A sheet's limits: rows (header included) and columns. */
export const MAX_ROWS = 1_048_576;
export const MAX_COLUMNS = 16_384;
/** An Excel cell's text limit, in UTF-16 code units. */
export const MAX_TEXT = 32_767;
/** Deflate level of the sheet: 1 is twice as fast as 6 for 18% more bytes (measured on the reference job). */
const SHEET_LEVEL = 1;
/**
 * Where a row number goes, its `r` attribute's closing quote included, is a slot of fixed width:
 * the number, the quote, then spaces up to SLOT bytes (`r="12"      >`: XML allows spaces between
 * attributes). A parallel run's workers format rows before the main thread knows which rows stay,
 * so before their numbers are known: they write a placeholder, which SheetNumberer overwrites in
 * place. Its first byte is PLACEHOLDER_BYTE, a control character the formatter never lets through,
 * so it cannot be data; its next four hold, as a little-endian uint32, how far on the next slot
 * is (the next row's, when it is its row's last), so the numberer goes from slot to slot without
 * searching the bytes between. Both paths write slots, so one and two threads give the same bytes.
 */
const SLOT = 8; // 7 digits (1,048,576 rows at most) and the quote
const PLACEHOLDER = '\x01' + ' '.repeat(SLOT - 1);
const PLACEHOLDER_BYTE = 1;

/** Adds the fixes of row `r` of a batch (from a worker's per-row record, read from `at`) to `into`; returns the next read position. */
export function addRowFixes(into: OutputFixes, record: readonly number[], at: number, r: number, kept: boolean): number {
  while (at < record.length && record[at] === r) {
    if (kept) {
      into.replaced += record[at + 1];
      into.cut += record[at + 2];
      into.early += record[at + 3];
    }
    at += 4;
  }
  return at;
}

/** The report's warnings for the fixes (none when nothing was changed). */
export function fixWarnings(fixes: OutputFixes): string[] {
  const warnings: string[] = [];
  if (fixes.replaced) warnings.push(replacedWarning('Excel output', fixes.replaced, 'XML cannot hold (control characters, unpaired surrogates, U+FFFE/U+FFFF)'));
  if (fixes.cut) warnings.push(`Excel output: ${fixes.cut} value(s) longer than ${MAX_TEXT.toLocaleString('en-US')} characters (an Excel cell's limit) were cut to that length.`);
  if (fixes.early) warnings.push(`Excel output: ${fixes.early} date_time value(s) before 1900-03-01, which Excel cannot show as dates, were written as text.`);
  return warnings;
}

/** How a table's cells are written: made once per table by sheetFormat, used per batch by SheetEncoder. */
export interface SheetFormat {
  width: number;
  /** Per column: 0 text, 1 number, 2 date_time. */
  kinds: Uint8Array;
  /** Per column: `<c r="A` (the cell's opening up to its row number). */
  opens: string[];
  /** The same openings as tags. */
  openTags: Tag[];
  fixes: OutputFixes;
}

const TEXT = 0;
const NUMBER = 1;
const DATE = 2;

/** The sheet format of a table with these columns and types. */
export function sheetFormat(columns: readonly string[], types: readonly (DataType | undefined)[], fixes: OutputFixes = newFixes()): SheetFormat {
  const kinds = new Uint8Array(columns.length);
  for (let i = 0; i < columns.length; i++) kinds[i] = types[i] === 'number' ? NUMBER : types[i] === 'date_time' ? DATE : TEXT;
  const opens = columns.map((_, i) => '<c r="' + columnLetters(i));
  return { width: columns.length, kinds, opens, openTags: opens.map(tag), fixes };
}

/** Rows as `<row>` elements in one string, numbered from `first` (tests and small callers; the writer uses SheetEncoder). */
export function sheetRowsText(rows: readonly Row[], format: SheetFormat, first: number | undefined): string {
  const encoder = new SheetEncoder(1024);
  encoder.addRows(rows, format, first);
  return encoder.buffer.toString('utf8', 0, encoder.length);
}

/** ASCII text as bytes. */
function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (ch) => ch.charCodeAt(0));
}

/**
 * Constant bytes (an element's fixed text), read as 8-byte units (the last one padded with zeros)
 * through a Float64Array over them, so putTag copies them 8 bytes a store: copied byte by byte,
 * the tags were a quarter of the encoder's time (a `<row>` holds some 300 bytes of them); a
 * native copy costs more than a few stores for so few bytes. A double's bits go through loads and
 * stores unchanged unless they are a NaN's, whose top two bytes are 0x7ff0 or more (or 0xfff0):
 * the tags are ASCII, below 0x80 in every byte, so none is.
 */
interface Tag { length: number; units: Float64Array }

/** An ASCII tag. */
function tag(text: string): Tag {
  const units = new Float64Array((text.length + 7) >> 3);
  new Uint8Array(units.buffer).set(ascii(text));
  return { length: text.length, units };
}

/**
 * Copies a tag at `at` (the buffer seen as `view`) in whole units; returns the new end. Its last
 * unit may write up to 7 bytes past the end: the encoder's room always holds them, and what
 * follows the tag overwrites them (bytes past the encoded length are never read).
 */
function putTag(view: DataView, at: number, t: Tag): number {
  const { units } = t;
  for (let i = 0; i < units.length; i++) view.setFloat64(at + 8 * i, units[i], true);
  return at + t.length;
}

/** A DataView of a whole buffer. */
function viewOf(buf: Uint8Array): DataView {
  return new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
}

const ROW_OPEN = tag('<row r="');

/**
 * A cell's openings for each kind of value: after its reference's slot (` t="inlineStr"><is><t>`),
 * or, for a cell that needs no reference, from `<c` on, joined to the closing of the cell before
 * (`</v></c><c t="inlineStr"><is><t>`): one tag where there were two (a tag copied costs about
 * what its call does). A cell's closing is written with whatever follows it: the next cell's
 * opening, or its row's end.
 */
interface CellOpenings { number: Tag; date: Tag; text: Tag; spaced: Tag }

/** The cell openings after `before` (a closing, or nothing) and `start` (`<c`, or nothing after a slot). */
function cellOpenings(before: string, start: string): CellOpenings {
  const open = (attributes: string, value: string) => tag(before + start + attributes + value);
  return {
    number: open('', '><v>'),
    date: open(' s="1"', '><v>'),
    text: open(' t="inlineStr"', '><is><t>'),
    spaced: open(' t="inlineStr"', '><is><t xml:space="preserve">'),
  };
}

/** What the last cell written leaves to close (an index of CLOSINGS): nothing at a row's start, `</v></c>`, `</t></is></c>`. */
const NONE = 0;
const NUMBER_CELL = 1;
const TEXT_CELL = 2;
const CLOSINGS = ['', '</v></c>', '</t></is></c>'];
/** Per pending closing: it alone (before a cell with a reference), it and a row's end. */
const CLOSE = CLOSINGS.map(tag);
const ROW_CLOSE = CLOSINGS.map((closing) => tag(closing + '</row>'));
/** A cell's openings after its reference's slot. */
const AFTER_SLOT = cellOpenings('', '');
/** Per pending closing: the openings of a cell without a reference, with that closing first. */
const JOINED = CLOSINGS.map((closing) => cellOpenings(closing, '<c'));
const PLACEHOLDER_BYTES = ascii(PLACEHOLDER);

/** Per ASCII code: 1 when text holding it needs escapeText (XML's specials, control characters but tab and LF, CR). */
const ASCII_SPECIAL = new Uint8Array(128);
for (let c = 0; c < 32; c++) if (c !== 9 && c !== 10) ASCII_SPECIAL[c] = 1;
for (const c of [38, 60, 62]) ASCII_SPECIAL[c] = 1;
const UNDERSCORE = 95;
/** ASCII_SPECIAL and `_` (which may start `_xHHHH_`): short text holding one of them gets the exact check. */
const MAYBE_SPECIAL = ASCII_SPECIAL.slice();
MAYBE_SPECIAL[UNDERSCORE] = 1;
const LOWER_X = 120;

/** Text cells up to this many units are copied (and checked) in JavaScript; longer ones are encoded by Node (as in CsvEncoder). */
const COPIED_TEXT = 48;
/** Bytes a cell needs besides its text: the closing before it, opening, slot, type, and its row's end after it. */
const CELL_ROOM = 96;
/** The most UTF-8 bytes escapeText makes of one UTF-16 unit (`_` of `_xHHHH_` becomes `_x005F_`). */
const ESCAPED_PER_UNIT = 7;

/** Buffer with Node's own UTF-8 and Latin-1 writes, called directly (see FastBuffer in csv.ts). */
type FastBuffer = Buffer & { utf8Write(text: string, offset: number): number; latin1Write(text: string, offset: number): number };

/**
 * Encodes rows as `<row>` elements straight into one reused buffer, as CsvEncoder does for CSV:
 * no string per cell or row (building them, then encoding, was half of an Excel run's JavaScript
 * time and fed the GC). Rows are numbered from `first`, or, when `first` is undefined, carry
 * PLACEHOLDER where each number goes (see SheetNumberer). Cell rules: see the module comment.
 */
export class SheetEncoder extends ByteBuffer {
  /** The row number's slot (see SLOT), written in place for each row. */
  private readonly slot: Tag & { bytes: Buffer } = slotTag();

  /** Appends rows; when `ends` is given it receives each row's end offset in bytes. */
  addRows(rows: readonly Row[], format: SheetFormat, first: number | undefined, ends?: number[] | Float64Array): void {
    const { width, kinds, openTags, fixes } = format;
    const perRow = fixes.rows;
    const slot = this.slot;
    let buf = this.buffer;
    let view = viewOf(buf);
    let at = this.length;
    /** The last placeholder written, whose distance to the next slot is written with that slot (see SLOT); -1 for none. */
    let lastSlot = -1;
    if (first === undefined) {
      slot.bytes.set(PLACEHOLDER_BYTES);
    }
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      if (first !== undefined) {
        writeSlot(slot.bytes, first + i);
      }
      const r0 = fixes.replaced;
      const c0 = fixes.cut;
      const e0 = fixes.early;
      if (at + CELL_ROOM > buf.length) {
        this.length = at;
        this.reserve(CELL_ROOM);
        buf = this.buffer;
        view = viewOf(buf);
      }
      at = putTag(view, at, ROW_OPEN);
      if (first === undefined) lastSlot = linkSlot(view, lastSlot, at);
      at = putTag(view, at, slot);
      buf[at++] = 62; // >
      /** The column right after the last cell written: a cell there needs no reference (see the module comment). */
      let next = 0;
      /** What the last cell written leaves to close (see CLOSINGS). */
      let open = NONE;
      for (let k = 0; k < width; k++) {
        const v = row[k];
        if (v === null || v === undefined) continue;
        const kind = kinds[k];
        let text: string | undefined;
        let seconds = NaN;
        if (typeof v === 'number') {
          if (!Number.isFinite(v)) continue;
        } else if (isMissing(v)) {
          continue;
        } else if (kind === DATE) {
          seconds = dateSeconds(v);
          if (!(seconds >= FIRST_EXACT_SECOND)) {
            if (seconds === seconds) fixes.early++; // a valid date (not NaN), too early for Excel
            text = v;
          }
        } else if (kind !== NUMBER || !DECIMAL.test(v) || !Number.isFinite(Number(v))) {
          // Text unless a decimal number a double holds (`1e400` stays text, never a cell of "Infinity").
          text = v;
        }
        const room = CELL_ROOM + (text === undefined ? 0 : ESCAPED_PER_UNIT * Math.min(text.length, MAX_TEXT));
        if (at + room > buf.length) {
          this.length = at;
          this.reserve(room);
          buf = this.buffer;
          view = viewOf(buf);
        }
        let openings = JOINED[open];
        if (k !== next || k === 0) {
          if (open !== NONE) at = putTag(view, at, CLOSE[open]);
          at = putTag(view, at, openTags[k]);
          if (first === undefined) lastSlot = linkSlot(view, lastSlot, at);
          at = putTag(view, at, slot);
          openings = AFTER_SLOT;
        }
        next = k + 1;
        if (text !== undefined) {
          at = writeTextCell(view, buf, at, text, fixes, openings);
          open = TEXT_CELL;
        } else if (typeof v === 'number' && kind === TEXT) {
          // Numbers in a text column stay text, as in the CSV: digits need no escaping.
          at = putTag(view, at, openings.text);
          at = writeDigits(buf, at, v);
          open = TEXT_CELL;
        } else if (typeof v === 'number') {
          at = putTag(view, at, openings.number);
          at = writeDigits(buf, at, v);
          open = NUMBER_CELL;
        } else if (kind === DATE) {
          at = putTag(view, at, openings.date);
          at = writeSerial(view, buf, at, seconds);
          open = NUMBER_CELL;
        } else {
          at = putTag(view, at, openings.number);
          at = writeDigits(buf, at, Number(v));
          open = NUMBER_CELL;
        }
      }
      at = putTag(view, at, ROW_CLOSE[open]);
      if (ends) ends[i] = at;
      if (perRow && (fixes.replaced !== r0 || fixes.cut !== c0 || fixes.early !== e0)) {
        perRow.push(i, fixes.replaced - r0, fixes.cut - c0, fixes.early - e0);
      }
    }
    // The last slot leads to where the next row's would be.
    if (lastSlot >= 0) linkSlot(view, lastSlot, at + ROW_OPEN.length);
    this.length = at;
  }

}

/** A row number's slot (see SLOT) as a tag whose bytes are written in place: its unit is a view of them. */
function slotTag(): Tag & { bytes: Buffer } {
  const units = new Float64Array(SLOT / 8);
  return { length: SLOT, units, bytes: Buffer.from(units.buffer) };
}

/**
 * Writes a row number's slot (see SLOT): the number, the quote, spaces. Slots are Buffers, as the
 * encoders' buffers are, so writeNumber's stores see one kind of array.
 */
function writeSlot(slot: Buffer, row: number): void {
  const digits = writeNumber(slot, 0, row);
  slot[digits] = 34;
  for (let p = digits + 1; p < SLOT; p++) slot[p] = 32; // a loop: no native call per row
}

/**
 * Writes into the placeholder at `last` (if any; the buffer seen as `view`) how far on the next
 * slot, at `next`, is; returns `next`, the placeholder the next call writes into.
 */
function linkSlot(view: DataView, last: number, next: number): number {
  if (last >= 0) view.setUint32(last + 1, next - last, true);
  return next;
}

/** Writes `String(v)` of a finite number; returns the new end. */
function writeDigits(buf: Buffer, at: number, v: number): number {
  const end = writeNumber(buf, at, v);
  return end >= 0 ? end : at + (buf as FastBuffer).latin1Write(String(v), at);
}

/** Digits written after a date serial's point: enough that the serial reads back as the double nearest its exact value (see writeSerial). */
const SERIAL_DIGITS = 17;

/**
 * A second's fraction of a day, `s / 86400`, is `s * 3125 / 27` ten-millionths: 86400 is
 * 2^7 3^3 5^2, so its first 7 digits are `floor(s * 3125 / 27)` and the rest are the digits of
 * `r / 27`, with `r = s * 3125 mod 27`, which repeat `r * 37` (as `1/27 = 0.037037...`). So the
 * digits after the 7th, rounded to SERIAL_DIGITS, depend on `r` alone: one tag per `r`, its length
 * without trailing zeros (none at all for `r = 0`, a fraction that ends within 7 digits).
 */
const SERIAL_TAILS: Tag[] = Array.from({ length: 27 }, (_, r) => {
  const period = String(r * 37).padStart(3, '0');
  const exact = period.repeat(4).slice(0, SERIAL_DIGITS - 7 + 1).split('').map(Number);
  const digits = exact.slice(0, -1);
  // Rounded half up on the next digit; never a carry out of these digits (they are never all 9s).
  if (exact[exact.length - 1] >= 5) {
    let i = digits.length - 1;
    for (; digits[i] === 9; i--) digits[i] = 0;
    digits[i]++;
  }
  const text = digits.join('');
  return { ...tag(text), length: text.replace(/0+$/, '').length };
});

/**
 * Writes the serial of a date cell's dateSeconds (at least FIRST_EXACT_SECOND): the day number,
 * then the second's fraction of a day rounded to SERIAL_DIGITS digits (trailing zeros dropped:
 * `45356.5`), from its first 7 digits and a tail (SERIAL_TAILS), in integers: no double is
 * formatted per cell (V8's shortest form is slow for such numbers), and no table per second is
 * read (a table of each second's digits missed the cache on most date cells). The decimal is
 * within 5e-18 of the exact serial, so a reader gets the double nearest it, for every second of
 * every day Excel has (a test checks each second in each power-of-two range of days; 16 digits
 * missed in 768 of them, and V8's shortest text of the fraction, appended to the day, in 800);
 * readers recover the second exactly. The tail's last unit may write 6 bytes past it, inside the
 * cell's room; what follows overwrites them.
 */
function writeSerial(view: DataView, buf: Buffer, at: number, total: number): number {
  const days = Math.floor(total / 86_400);
  const seconds = (total - days * 86_400) | 0;
  at = writeDigits(buf, at, days);
  if (seconds === 0) return at;
  buf[at] = 46; // .
  // Below 2^31: int32 arithmetic, where V8 divides by a constant with a multiplication.
  const scaled = seconds * 3125;
  let head = (scaled / 27) | 0;
  const tail = SERIAL_TAILS[scaled - head * 27];
  for (let p = at + 7; p > at; p--) {
    buf[p] = 48 + (head % 10);
    head = (head / 10) | 0;
  }
  if (tail.length > 0) return putTag(view, at + 8, tail);
  let end = at + 7;
  while (buf[end] === 48) end--;
  return end + 1;
}

/**
 * Writes an inline-string cell's opening (one of `openings`: see CellOpenings) and text, the text
 * cut to MAX_TEXT, escaped when it needs it (checked on the bytes as they are copied: the rare text
 * that does is written again). Its closing is written with what follows it.
 */
function writeTextCell(view: DataView, buf: Buffer, at: number, text: string, fixes: OutputFixes, openings: CellOpenings): number {
  const body = text.length > MAX_TEXT ? cutText(text, fixes) : text;
  at = putTag(view, at, hasEdgeSpace(body) ? openings.spaced : openings.text);
  const n = body.length;
  let written = 0;
  let special = false;
  if (n <= COPIED_TEXT) {
    // Copied here (a native call costs more), each character looked up as it is copied: one
    // that may need escaping (MAYBE_SPECIAL) sends the text to the exact check.
    let maybe = 0;
    for (; written < n; written++) {
      const c = body.charCodeAt(written);
      if (c >= 128) break;
      buf[at + written] = c;
      maybe |= MAYBE_SPECIAL[c];
    }
    if (written < n) {
      written = (buf as FastBuffer).utf8Write(body, at);
      special = SPECIAL.test(body);
    } else special = maybe !== 0 && bytesNeedEscape(buf, at, at + n, at + n);
  } else {
    written = (buf as FastBuffer).utf8Write(body, at);
    // ASCII: one byte per unit, so the bytes tell whether it needs escaping.
    special = written === n ? asciiNeedsEscape(view, buf, at, at + n) : SPECIAL.test(body);
  }
  if (special) written = (buf as FastBuffer).utf8Write(escapeText(body, fixes), at);
  return at + written;
}

/**
 * Whether the ASCII bytes from `at` to `end` need escapeText: one of ASCII_SPECIAL, or `_x`.
 * Four bytes at a time: a word none of whose bytes is below 32 or is `&`, `<`, `>` or `_` (the
 * usual text) is passed with a few word operations (bytes below 0x80 cannot carry into their
 * neighbours); a word that has one is checked byte by byte (tab and LF are below 32 but allowed).
 * Twice as fast as a lookup per byte.
 */
function asciiNeedsEscape(view: DataView, buf: Uint8Array, at: number, end: number): boolean {
  let p = at;
  for (; p + 4 <= end; p += 4) {
    const x = view.getUint32(p, true);
    const amp = x ^ 0x26262626;
    const lt = x ^ 0x3c3c3c3c;
    const gt = x ^ 0x3e3e3e3e;
    const low = x ^ 0x5f5f5f5f;
    // A byte below 32, or a zero byte in one of the xors (a byte equal to that character).
    const hit = ((x - 0x20202020) & ~x) | ((amp - 0x01010101) & ~amp) | ((lt - 0x01010101) & ~lt)
      | ((gt - 0x01010101) & ~gt) | ((low - 0x01010101) & ~low);
    if ((hit & 0x80808080) !== 0 && bytesNeedEscape(buf, p, p + 4, end)) return true;
  }
  return bytesNeedEscape(buf, p, end, end);
}

/** Whether a byte from `from` to `to` needs escapeText (`_x` may end at `end`). */
function bytesNeedEscape(buf: Uint8Array, from: number, to: number, end: number): boolean {
  for (let p = from; p < to; p++) {
    const c = buf[p];
    if (ASCII_SPECIAL[c] === 1 || (c === UNDERSCORE && p + 1 < end && buf[p + 1] === LOWER_X)) return true;
  }
  return false;
}

/** A number column's text that is a plain decimal number (a script's output): written as a number cell. */
const DECIMAL = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

/** Text that needs more than copying: XML's specials, characters XML cannot hold, CR, or `_x`. */
const SPECIAL = /[\x00-\x08\x0b-\x1f&<>\ud800-\udfff\ufffe\uffff]|_x/;

/** Whether text starts or ends with XML whitespace, which needs xml:space="preserve" or readers may trim it. */
function hasEdgeSpace(text: string): boolean {
  const a = text.charCodeAt(0);
  const z = text.charCodeAt(text.length - 1);
  return a === 32 || a === 9 || a === 10 || a === 13 || z === 32 || z === 9 || z === 10 || z === 13;
}

/** Text cut to MAX_TEXT (counted), not inside a surrogate pair. */
function cutText(text: string, fixes: OutputFixes): string {
  if (text.length <= MAX_TEXT) return text;
  fixes.cut++;
  const c = text.charCodeAt(MAX_TEXT - 1);
  return text.slice(0, c >= 0xd800 && c <= 0xdbff ? MAX_TEXT - 1 : MAX_TEXT);
}

/** An inline-string cell; `open` is the cell's opening up to and with its `r` attribute, `style` its style attribute. */
function textCell(open: string, text: string, fixes: OutputFixes, style = ''): string {
  const t = cutText(text, fixes);
  const body = SPECIAL.test(t) ? escapeText(t, fixes) : t;
  return open + style + (hasEdgeSpace(t) ? ' t="inlineStr"><is><t xml:space="preserve">' : ' t="inlineStr"><is><t>') + body + '</t></is></c>';
}

/** XML-escapes text and replaces what XML 1.0 cannot hold (see the module comment). */
export function escapeText(text: string, fixes: OutputFixes): string {
  let out = '';
  let from = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    let put: string | undefined;
    if (c === 38) put = '&amp;';
    else if (c === 60) put = '&lt;';
    else if (c === 62) put = '&gt;';
    else if (c === 13) put = '&#13;';
    else if (c < 32 && c !== 9 && c !== 10) put = '\ufffd';
    else if (c === 0xfffe || c === 0xffff) put = '\ufffd';
    else if (c >= 0xd800 && c <= 0xdbff) {
      const d = i + 1 < n ? text.charCodeAt(i + 1) : 0;
      if (d >= 0xdc00 && d <= 0xdfff) i++; // a pair: kept as is
      else put = '\ufffd';
    } else if (c >= 0xdc00 && c <= 0xdfff) put = '\ufffd';
    else if (c === 95 && isEscapeLike(text, i)) put = '_x005F_';
    if (put === undefined) continue;
    if (put === '\ufffd') fixes.replaced++;
    out += text.slice(from, i) + put;
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** Whether `_xHHHH_` starts at `i` (four hex digits between `_x` and `_`). */
function isEscapeLike(text: string, i: number): boolean {
  if (text.charCodeAt(i + 1) !== 120 || text.charCodeAt(i + 6) !== 95) return false;
  for (let j = i + 2; j < i + 6; j++) {
    const h = text.charCodeAt(j);
    if (!((h >= 48 && h <= 57) || (h >= 65 && h <= 70) || (h >= 97 && h <= 102))) return false;
  }
  return true;
}

/** 1900-03-01 (serial 61) in dateSeconds: from here on Excel's serials count days exactly (before it, its 1900 leap-year bug shifts them). */
const FIRST_EXACT_SECOND = 61 * 86_400;
/** Serial of the Unix epoch in Excel's 1900 date system. */
const EPOCH_SERIAL = 25_569;

/**
 * The seconds from Excel's day 0 (1899-12-30 00:00) to the engine's date_time text
 * `YYYY-MM-DDTHH:mm:ss`, read as a wall-clock time; NaN when the text is not such a valid date
 * (isoOutputSeconds, the one reading of that form). Its serial (days, fraction = time of day) is
 * this over 86,400; writeSerial takes the whole seconds, so no fraction is made only to be taken
 * apart.
 */
export function dateSeconds(text: string): number {
  return isoOutputSeconds(text) + EPOCH_SERIAL * 86_400;
}

/**
 * Writes each row's number over its placeholders in preformatted sheet text, in place (the text
 * is the writer's until the next batch: see PREFORMATTED). A piece starts with a row, whose slot
 * follows `<row r="`; each placeholder says where the next slot is (see SLOT), so only the slots'
 * bytes are read. A slot after a quote (`r="`) is a row's and starts the next number; a cell's
 * (after its column letter) repeats it.
 */
export class SheetNumberer {
  private readonly slot = Buffer.alloc(SLOT);

  /** `row` is the number of the row before the first one to come (1: the header). */
  constructor(private row: number) {}

  /** The last row number written. */
  get lastRow(): number {
    return this.row;
  }

  /** Writes the row numbers over the placeholders of one piece (whole rows), in place. */
  number(piece: Uint8Array): void {
    const view = viewOf(piece);
    const slot = this.slot;
    for (let at = ROW_OPEN.length; at < piece.length;) {
      // Not a placeholder: the text is not what the encoder wrote (a bug, not the data's fault).
      if (piece[at] !== PLACEHOLDER_BYTE) throw new Error(`Excel output: no row number's place at byte ${at} of a batch's text.`);
      const next = at + view.getUint32(at + 1, true);
      if (piece[at - 1] === 34) writeSlot(slot, ++this.row);
      for (let j = 0; j < SLOT; j++) piece[at + j] = slot[j];
      at = next;
    }
  }
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** The workbook's parts other than the sheet (fixed: one sheet `data`, three cell styles). */
const PARTS: [string, string][] = [
  ['[Content_Types].xml', XML_HEAD + '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    + '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    + '<Default Extension="xml" ContentType="application/xml"/>'
    + '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    + '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    + '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
    + '</Types>'],
  ['_rels/.rels', XML_HEAD + `<Relationships xmlns="${PACKAGE_REL_NS}">`
    + `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`],
  ['xl/workbook.xml', XML_HEAD + `<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">`
    + '<bookViews><workbookView/></bookViews><sheets><sheet name="data" sheetId="1" r:id="rId1"/></sheets></workbook>'],
  ['xl/_rels/workbook.xml.rels', XML_HEAD + `<Relationships xmlns="${PACKAGE_REL_NS}">`
    + `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>`
    + `<Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`],
  // Cell styles: 0 default, 1 date_time (`s="1"`), 2 the bold header (`s="2"`).
  ['xl/styles.xml', XML_HEAD + `<styleSheet xmlns="${MAIN_NS}">`
    + `<numFmts count="1"><numFmt numFmtId="164" formatCode="${DATE_FORMAT}"/></numFmts>`
    + '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>'
    + '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>'
    + '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>'
    + '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
    + '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
    + '<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
    + '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    + '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>'
    + '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>'],
];

/** The `<dimension>` element, padded with spaces to one length so it can be completed in place. */
function dimension(ref: string): string {
  const element = `<dimension ref="${ref}"/>`;
  return element + ' '.repeat(DIMENSION_LENGTH - element.length);
}
const DIMENSION_LENGTH = '<dimension ref="A1:XFD1048576"/>'.length;

/** The sheet's XML before its rows: the dimension (completed at the end), a frozen header, column widths. */
function sheetHead(columns: readonly string[], format: SheetFormat, ref: string): string {
  const cols = columns.map((name, i) => {
    // Widths from the header and the type (dates are 19 characters); cheap, and no second pass.
    const width = Math.min(60, Math.max(10, name.length + 2, format.kinds[i] === DATE ? 20 : 0));
    return `<col min="${i + 1}" max="${i + 1}" width="${width}" customWidth="1"/>`;
  }).join('');
  return XML_HEAD + `<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` + dimension(ref)
    + (columns.length ? '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' : '<sheetViews><sheetView workbookViewId="0"/></sheetViews>')
    + '<sheetFormatPr defaultRowHeight="15"/>' + (cols ? `<cols>${cols}</cols>` : '') + '<sheetData>';
}
const SHEET_TAIL = '</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>';

/** The header row: bold inline strings, each column's name as it is (a name of spaces too: only an empty one has no cell). */
function headerRow(columns: readonly string[], format: SheetFormat): string {
  if (columns.length === 0) return '';
  let line = '<row r="1">';
  for (let k = 0; k < columns.length; k++) {
    if (columns[k] !== '') line += textCell(format.opens[k] + '1"', columns[k], format.fixes, ' s="2"');
  }
  return line + '</row>';
}

/** The most bytes a deflate stored block holds (its length field has 16 bits). */
const STORED_MAX = 0xffff;

/**
 * Deflate stored blocks (uncompressed, not final) holding `bytes`, as many as it takes: the sheet's
 * head, whose `<cols>` alone passes 64 KiB from about 1,200 columns; its first block (which holds
 * the dimension) is completed in place at the end.
 */
function storedBlocks(bytes: Buffer): Buffer {
  const count = Math.max(1, Math.ceil(bytes.length / STORED_MAX));
  const out = Buffer.alloc(5 * count + bytes.length);
  let at = 0;
  for (let from = 0; at === 0 || from < bytes.length; from += STORED_MAX) {
    const length = Math.min(STORED_MAX, bytes.length - from);
    out[at] = 0; // BFINAL 0, BTYPE 00 (stored), padded to the byte
    out.writeUInt16LE(length, at + 1);
    out.writeUInt16LE(~length & 0xffff, at + 3);
    bytes.copy(out, at + 5, from, from + length);
    at += 5 + length;
  }
  return out;
}

/** Writes a table as an XLSX workbook to `path` (not atomic: see writeTable); resolves with the number of data rows. */
export async function writeXlsx(table: Table, path: string, warn: (message: string) => void = () => {}): Promise<{ rows: number }> {
  const { columns } = table;
  if (columns.length > MAX_COLUMNS) {
    throw new UsageError(`Cannot write ${path}: the output has ${columns.length} columns and an Excel sheet holds at most ${MAX_COLUMNS}; write CSV (outputFileType: csv) or map fewer fields.`);
  }
  const preformatted = (table as Partial<PreformattedTable>)[PREFORMATTED] === true;
  // A parallel run's merge counts the fixes of the rows it keeps (its workers formatted them).
  const fixes = preformatted ? (table as PreformattedTable).sheetFixes ?? newFixes() : newFixes();
  const format = sheetFormat(columns, table.types, fixes);
  const last = columns.length ? columnLetters(columns.length - 1) : 'A';
  const fd = openSync(path, 'w');
  try {
    const zip = new ZipWriter(fd, path);
    for (const [name, text] of PARTS) zip.addText(name, text);
    const entry = zip.begin('xl/worksheets/sheet1.xml');
    // The head goes first as a stored block, so its dimension can be completed in place once the
    // row count is known; the rows follow as one raw deflate stream, checksummed apart.
    const headAt = zip.position + 5;
    const firstHead = Buffer.from(sheetHead(columns, format, 'A1'), 'utf8');
    zip.write(storedBlocks(firstHead));
    let rows = 0;
    const tooMany = () => new UsageError(`Cannot write ${path}: the output has more than ${(MAX_ROWS - 1).toLocaleString('en-US')} rows, the most an Excel sheet holds below its header; write CSV (outputFileType: csv) or drop rows.`);
    const sink = new DeflateSink(SHEET_LEVEL, (compressed) => zip.write(compressed));
    // On an error, pieces still being deflated are dropped when they finish.
    const take = (bytes: Uint8Array) => sink.write(bytes);
    take(Buffer.from(headerRow(columns, format), 'utf8'));
    const numberer = preformatted ? new SheetNumberer(1) : undefined;
    const encoder = preformatted ? undefined : new SheetEncoder(DEFLATE_CHUNK);
    for await (const batch of table.batches) {
      const count = preformatted ? batch.rowNumbers.length : batch.rows.length;
      if (count === 0) continue;
      if (rows + count > MAX_ROWS - 1) throw tooMany();
      if (numberer) {
        // The pieces are valid only until the next batch is asked for: numbered in place, then copied out.
        for (const piece of (batch as PreformattedBatch)[PREFORMATTED]) {
          numberer.number(piece);
          take(piece);
        }
      } else {
        encoder!.length = 0;
        encoder!.addRows(batch.rows, format, rows + 2);
        take(encoder!.buffer.subarray(0, encoder!.length));
      }
      rows += count;
      await sink.ready();
    }
    if (numberer && numberer.lastRow !== rows + 1) throw new Error(`Excel output: numbered ${numberer.lastRow - 1} rows of ${rows}.`);
    take(Buffer.from(SHEET_TAIL, 'utf8'));
    await sink.end();
    const { crc, size } = sink;
    const head = Buffer.from(sheetHead(columns, format, columns.length ? `A1:${last}${rows + 1}` : 'A1'), 'utf8');
    // Only the dimension differs (padded to one length), and it lies in the first stored block.
    if (head.length !== firstHead.length || !head.subarray(STORED_MAX).equals(firstHead.subarray(STORED_MAX))) throw new Error('Excel output: the sheet head changed beyond its first block.');
    zip.patch(headAt, head.subarray(0, STORED_MAX));
    zip.end(entry, crc32Combine(crc32(head), crc, size), head.length + size);
    zip.finish();
    for (const message of fixWarnings(fixes)) warn(message);
    return { rows };
  } finally {
    closeSync(fd);
  }
}
