/**
 * CSV/TSV reader (engine.md "Reading input"): streams the file, decodes it, detects the delimiter
 * from the header line and the first rows and parses RFC 4180 records with Papa Parse's core parser.
 */
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { isAscii, isUtf8 } from 'node:buffer';
import { createRequire } from 'node:module';
import { TextDecoder } from 'node:util';
import type PapaNamespace from 'papaparse';
import { UsageError } from '../../errors.js';
import { isMissing, isWhitespace } from '../missing.js';
import { HEADER_LINE_LIMIT, InputLimitError, ROW_LIMIT, sizeText } from './limits.js';
import { BATCH_SIZE, REPORT_FIRST_ROWS, type Batch, type InputSource, type OpenOptions, type Row, type Table } from '../types.js';

/**
 * Bytes per read from disk. Measured (1M rows, one thread): 64 KiB against 1 MiB took peak RSS
 * from 206 to 134 MiB and CPU from 4.7 to 4.0 s: a chunk over ~1 MB decodes to an external
 * string, which every cell sliced from it keeps alive, and such chunks and their buffers wait
 * for a full GC. 16 KiB cost more system time.
 */
const READ_CHUNK = 64 << 10;
/**
 * Characters handed to the parser per call. Small slices, with their rows handed on at once, keep
 * rows short-lived; measured clearly faster than whole 1 MiB chunks (less survives each young-generation GC).
 */
const PARSE_SLICE = 16 * 1024;
/** Line break records are split on; CRLF files are split on LF and the CR dropped from the last cell. */
export type Newline = '\n' | '\r';
/** Delimiters we detect, in the order that breaks ties. */
const DELIMITERS = [',', ';', '\t', '|'] as const;

type Papa = typeof PapaNamespace;
let papa: Papa | undefined;
/**
 * Papa Parse, loaded on first use so commands that read no CSV do not pay for it. Required, not
 * imported: importing a CommonJS module from ESM first runs Node's export lexer over its 52 KB,
 * which ran hot enough in every thread for V8 to optimise it (--trace-opt).
 */
function loadPapa(): Papa {
  papa ??= createRequire(import.meta.url)('papaparse') as Papa;
  return papa;
}

/** Header cells as unique column names: empty → `column_<n>` (1-based), repeats → `name_2`, `name_3`... */
export function columnNames(cells: readonly (string | null | undefined)[]): string[] {
  return uniqueNames(cells.map((cell, i) => (isMissing(cell) ? `column_${i + 1}` : (cell as string))));
}

/** Names made unique as the readers do: the first of a name keeps it, repeats become `name_2`, `name_3`... (the rejects header too). */
export function uniqueNames(named: readonly string[]): string[] {
  const taken = new Set(named);
  const seen = new Map<string, number>();
  return named.map((name) => {
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    if (count === 1) return name;
    // Skip suffixes that are already real column names (`a, a, a_2` → `a, a_3, a_2`).
    let n = count;
    while (taken.has(`${name}_${n}`)) n++;
    seen.set(name, n);
    const unique = `${name}_${n}`;
    taken.add(unique);
    return unique;
  });
}

/**
 * What naming the columns changed, as one note for the report (or none): empty headers named
 * `column_<n>` and repeats renamed `name_2`..., so the output's columns are never a surprise.
 */
export function headerNote(cells: readonly (string | null | undefined)[], columns: readonly string[], display: string): string[] {
  const changes: string[] = [];
  for (let i = 0; i < columns.length; i++) {
    const cell = cells[i];
    if (isMissing(cell)) changes.push(`column ${i + 1} has no header and is read as "${columns[i]}"`);
    else if (cell !== columns[i]) changes.push(`column ${i + 1} repeats the header "${cell}" and is read as "${columns[i]}"`);
  }
  if (changes.length === 0) return [];
  const shown = changes.length > 5 ? [...changes.slice(0, 5), `${changes.length - 5} more`] : changes;
  return [`The header of ${display} was completed: ${shown.join('; ')}.`];
}

/** Whether text starts an HTML page (`<!doctype html`, `<html>`): a sign-in or error page saved in place of the data. */
function isHtmlPage(text: string): boolean {
  return /^\s*<(!doctype html|html[\s>])/i.test(text);
}

/**
 * A first line that is not a CSV header: Excel's `sep=;` delimiter hint, or an HTML page (a
 * sign-in or error page saved in place of the data). Refused rather than read as data.
 */
function refuseHeader(cells: readonly string[], display: string, delimiter: string): void {
  if (cells.length <= 2 && /^sep=.?$/i.test(cells[0] ?? '')) {
    throw new UsageError(`${display}: the first line "${cells.join(delimiter)}" is Excel's delimiter hint, not a header; delete that line (the delimiter is detected) and run again.`);
  }
  if (isHtmlPage(cells[0] ?? '')) {
    throw new UsageError(`${display} is an HTML page, not CSV (often a sign-in or error page saved in place of the data); download the data again, as CSV.`);
  }
}

/** The OS reason of a file-system error, e.g. `no such file or directory`. */
export function osReason(error: unknown): string {
  const err = error as NodeJS.ErrnoException;
  if (err && typeof err.code === 'string' && typeof err.message === 'string') {
    // Node's messages read "ENOENT: no such file or directory, open 'x'": keep the middle part.
    const m = /^[A-Z0-9_]+: ([^,]+)/.exec(err.message);
    return m ? m[1] : err.code;
  }
  return error instanceof Error ? error.message : String(error);
}

/** A UsageError for an input file that cannot be read. */
export function unreadableFile(display: string, error: unknown): UsageError {
  return new UsageError(`Cannot read ${display}: ${osReason(error)}; check the path and its permissions, then retry.`, { cause: error });
}

/** The text encoding named by a byte-order mark, UTF-8 without one. */
function encodingOf(head: Buffer): 'utf-8' | 'utf-16le' | 'utf-16be' | 'utf-32' {
  // UTF-32 LE's mark starts with UTF-16 LE's: looked at first.
  if (head.length >= 4 && head.readUInt32LE(0) === 0xfeff) return 'utf-32';
  if (head.length >= 4 && head.readUInt32BE(0) === 0xfeff) return 'utf-32';
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}

/**
 * Reads of a file, READ_CHUNK bytes at a time into one reused buffer: each call gives the next
 * bytes (valid until the next call), empty at the end. Synchronous: measured on the 166 MB
 * reference file, a ReadStream of 64 KiB chunks took 340 ms of CPU (a fresh buffer and a
 * thread-pool round trip per chunk), this 61 ms. Reads of `range` are at explicit positions;
 * the others at the descriptor's own offset, so a pipe reads too.
 */
class ChunkReader {
  private readonly fd: number;
  private readonly buffer = Buffer.allocUnsafeSlow(READ_CHUNK);
  private position: number | null;
  private left: number;

  constructor(path: string, range?: ByteRange) {
    this.fd = openSync(path, 'r');
    this.position = range ? range.start : null;
    this.left = range ? range.end - range.start : Infinity;
  }

  next(): Buffer {
    if (this.left <= 0) return this.buffer.subarray(0, 0);
    const n = readSync(this.fd, this.buffer, 0, Math.min(READ_CHUNK, this.left), this.position);
    if (this.position !== null) this.position += n;
    this.left = n === 0 ? 0 : this.left - n;
    return this.buffer.subarray(0, n);
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** Thrown inside decodeFile when a chunk holds a NUL; turned into a UsageError naming where. */
class NulFound extends Error {}

/**
 * Streams a text file as decoded strings: UTF-8 (a BOM is dropped, and any repeat of it) or UTF-16 LE/BE with a BOM.
 * Invalid bytes are a UsageError naming the line; a NUL (which no text holds: UTF-16 or UTF-32
 * without a BOM read as UTF-8, or a binary file) one naming its line and column, unless `allowNul`.
 */
async function* decodeFile(path: string, display: string, onBytes?: (bytes: number) => void, range?: ByteRange, allowNul = false): AsyncGenerator<string> {
  let reader: ChunkReader | undefined;
  let decoder: TextDecoder | undefined;
  let encoding = 'utf-8';
  let bytes = 0;
  // While every chunk so far was ASCII the decoder holds no partial character, so an ASCII chunk
  // is copied as Latin-1 (a plain byte copy, checked natively) instead of decoded: ~3x faster.
  let isAllAscii = true;
  // Until the first character: byte-order marks after the one the decoder drops are dropped too
  // (a tool that adds its own to a file that had one); mid-file a U+FEFF is data.
  let atStart = !(range && range.start > 0);
  try {
    reader = new ChunkReader(path, range);
    for (;;) {
      const chunk = reader.next();
      if (chunk.length === 0) break;
      if (!decoder) {
        // A range that starts past 0 is mid-file UTF-8 (no BOM to sniff).
        encoding = range && range.start > 0 ? 'utf-8' : encodingOf(chunk);
        if (encoding === 'utf-32') throw new UsageError(`${display} is UTF-32 text, which is not read; save it as UTF-8 and retry.`);
        // TextDecoder drops the BOM itself (ignoreBOM: false); mid-file a U+FEFF is data.
        decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: Boolean(range && range.start > 0) });
      }
      bytes += chunk.length;
      // One memchr per chunk for UTF-8; UTF-16 (rare, read on one thread) is checked once decoded.
      const isUtf8Text = encoding === 'utf-8';
      if (!allowNul && isUtf8Text && chunk.indexOf(0) !== -1) throw new NulFound();
      isAllAscii &&= isUtf8Text && isAscii(chunk);
      let text = isAllAscii ? chunk.toString('latin1') : decodeOrThrow(decoder, chunk);
      if (!allowNul && !isUtf8Text && text.includes('\0')) throw new NulFound();
      if (atStart) {
        let marks = 0;
        while (text.charCodeAt(marks) === 0xfeff) marks++;
        text = text.slice(marks);
        atStart = text.length === 0;
      }
      onBytes?.(bytes);
      if (text.length > 0) yield text;
      // A turn of the event loop per chunk, as a stream gives: signals (a Ctrl-C removes a partial
      // output) and V8's GC tasks run there. Without it the heap grew to 220 MiB and the run took 30% longer.
      await new Promise((resolve) => setImmediate(resolve));
    }
    const rest = decoder ? decodeOrThrow(decoder) : '';
    if (rest.length > 0) yield rest;
  } catch (error) {
    if (error instanceof NulFound) throw nulByte(path, display, encoding);
    if ((error as NodeJS.ErrnoException).code === 'ERR_ENCODING_INVALID_ENCODED_DATA') {
      throw await invalidText(path, display, encoding);
    }
    if (error instanceof UsageError) throw error;
    throw unreadableFile(display, error);
  } finally {
    reader?.close();
  }
}

function decodeOrThrow(decoder: TextDecoder, chunk?: Buffer): string {
  return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
}

/**
 * The UsageError for a file holding a NUL, naming the first one's line and column (re-reads the
 * file, decoding leniently: a file UTF-16 without a BOM is no valid UTF-8 either). Any line break
 * counts (LF, CRLF, CR): the file's own is not known yet.
 */
function nulByte(path: string, display: string, encoding: string): UsageError {
  const reader = new ChunkReader(path);
  const decoder = new TextDecoder(encoding);
  let line = 1;
  let column = 1;
  let afterCR = false;
  try {
    scan: for (let chunk = reader.next(); chunk.length > 0; chunk = reader.next()) {
      const text = decoder.decode(chunk, { stream: true });
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 0) break scan;
        if (c === 0xfeff && line === 1 && column === 1) continue; // repeated marks, dropped as decodeFile does
        if (c === 13 || (c === 10 && !afterCR)) { line++; column = 1; } else if (c !== 10) column++;
        afterCR = c === 13;
      }
    }
  } finally {
    reader.close();
  }
  const what = encoding === 'utf-8'
    ? 'a NUL byte: it looks like UTF-16/UTF-32 without a byte-order mark, or a binary file'
    : `a NUL character: it looks like a binary file rather than ${encoding.toUpperCase()} text`;
  return new UsageError(`${display}:${line}:${column} holds ${what}; save it as UTF-8 and retry.`);
}

/**
 * The UsageError for bytes that are not valid text (`source`: the file, re-read, or the bytes): the first bad byte's
 * `file:line:col`, what it is in Windows-1252 (LibreOffice's and Excel's legacy CSV encodings save
 * é, € and smart quotes as single bytes), and how to save or convert the file as UTF-8.
 */
export async function invalidText(source: string | Buffer, display: string, encoding: string, format: 'csv' | 'json' = 'csv'): Promise<UsageError> {
  if (encoding !== 'utf-8') {
    return new UsageError(`${display} is not valid ${encoding.toUpperCase()} text; save the file as UTF-8 and retry.`);
  }
  const found = await firstInvalidUtf8(typeof source === 'string' ? createReadStream(source, { highWaterMark: READ_CHUNK }) as AsyncIterable<Buffer> : [source]);
  if (!found) return new UsageError(`${display} is not valid UTF-8 text; save the file as UTF-8 and retry.`);
  const { line, column, byte, isCrOnly } = found;
  const hex = `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  // Excel's "CSV (Macintosh)" ends lines with a lone CR and is Mac Roman; other legacy exports are Windows-1252.
  const legacy = isCrOnly ? 'MACINTOSH' : 'WINDOWS-1252';
  const shown = byte >= 0x80 ? new TextDecoder(legacy === 'MACINTOSH' ? 'macintosh' : 'windows-1252').decode(Uint8Array.of(byte)) : '';
  const as = shown && !/\p{Cc}/u.test(shown) ? ` ("${shown}" in ${legacy === 'MACINTOSH' ? 'Mac Roman' : 'Windows-1252'})` : '';
  const save = format === 'csv' ? 'save it as UTF-8 (Excel: "CSV UTF-8"; LibreOffice: character set "Unicode (UTF-8)")' : 'save it as UTF-8';
  return new UsageError(
    `${display}:${line}:${column} holds the byte ${hex}${as}, which is not UTF-8: the file was saved in another encoding; ` +
      `${save} or convert it (iconv -f ${legacy} -t UTF-8 FILE > utf8.${format}) and retry.`,
  );
}

/** Where the first byte that is not UTF-8 is in some bytes (a file's chunks): 1-based line and column (characters), the byte, and whether lines end in a lone CR; undefined when they are valid UTF-8. */
async function firstInvalidUtf8(chunks: AsyncIterable<Buffer> | Iterable<Buffer>): Promise<{ line: number; column: number; byte: number; isCrOnly: boolean } | undefined> {
  // Line break bytes (CR, LF) never occur inside a multi-byte UTF-8 sequence, so lines check alone;
  // any break counts (LF, CRLF, lone CR), as the file's own is not known yet.
  let line = 1;
  let pending: Buffer[] = [];
  let afterCR = false;
  let sawLF = false;
  let sawCR = false;
  const check = (piece: Buffer) => {
    const whole = pending.length > 0 ? Buffer.concat([...pending, piece]) : piece;
    pending = [];
    if (isUtf8(whole)) return undefined;
    const at = invalidUtf8At(whole);
    return { line, column: at.column, byte: whole[at.index] ?? 0, isCrOnly: sawCR && !sawLF };
  };
  for await (const chunk of chunks) {
    let start = 0;
    for (;;) {
      const lf = chunk.indexOf(10, start);
      const cr = chunk.indexOf(13, start);
      const at = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (at === -1) break;
      const isLF = chunk[at] === 10;
      if (isLF && at === start && afterCR && pending.length === 0) {
        // The LF of a CRLF: the CR already ended the line.
        afterCR = false;
        start = at + 1;
        sawLF = true;
        continue;
      }
      const bad = check(chunk.subarray(start, at));
      if (bad) return bad;
      if (isLF) sawLF = true; else sawCR = true;
      afterCR = !isLF;
      line++;
      start = at + 1;
    }
    if (start < chunk.length) {
      pending.push(chunk.subarray(start));
      afterCR = false;
    }
  }
  return check(Buffer.alloc(0)) ?? undefined;
}

/** The index of the first byte of `bytes` that starts no valid UTF-8 sequence, and its 1-based column in characters. */
function invalidUtf8At(bytes: Buffer): { index: number; column: number } {
  let column = 1;
  for (let i = 0; i < bytes.length; column++) {
    const b = bytes[i]!;
    const length = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0 || i + length > bytes.length || !isUtf8(bytes.subarray(i, i + length))) return { index: i, column };
    i += length;
  }
  return { index: bytes.length, column };
}

/** Counts the line breaks in the first `offset` characters of the decoded file (error path only). */
async function lineAt(path: string, display: string, offset: number, newline: string): Promise<number> {
  const code = newline === '\r' ? 13 : 10;
  let line = 1;
  let seen = 0;
  for await (const text of decodeFile(path, display, undefined, undefined, true)) {
    const end = Math.min(text.length, offset - seen);
    for (let i = 0; i < end; i++) if (text.charCodeAt(i) === code) line++;
    seen += text.length;
    if (seen >= offset) break;
  }
  return line;
}

/** The file's delimiter and line break. */
export interface HeaderFormat { delimiter: string; newline: Newline }

/**
 * Characters after the header line that choosing the delimiter looks at: the rows there must split
 * like the header. Bounded, so a file is sampled once at a fixed cost (~400 rows of the reference file).
 */
const DELIMITER_SAMPLE = 64 << 10;

/** A delimiter as a message names it. */
function delimiterName(delimiter: string): string {
  return delimiter === '\t' ? 'tab' : `"${delimiter}"`;
}

/**
 * Finds the file's line break (from the header line) and delimiter (from the header line and the
 * rows of the next DELIMITER_SAMPLE characters), chunk by chunk: the header line is looked at once
 * per character, so a huge one costs time in proportion to its length (no rescans), and one over
 * HEADER_LINE_LIMIT is refused. The text it saw is kept (`text`) for the parser to start on.
 */
class FormatSniffer {
  /** Occurrences of each of DELIMITERS (`, ; tab |`) outside quotes on the header line. */
  private readonly counts = [0, 0, 0, 0];
  private inQuotes = false;
  private started = false;
  private pendingCR = false;
  /** Blank lines before the header (skipped like any blank line), for the line number of errors. */
  private blankLines = 0;
  private length = 0;
  /** The text seen so far, its length, and where the header line's break was found in it. */
  private chunks: string[] = [];
  private seen = 0;
  private headerEnd = 0;
  private newline: Newline | undefined;
  result: HeaderFormat | undefined;
  /** All the text pushed, once the result is known. */
  text = '';

  constructor(private readonly display: string, private readonly forced?: string) {}

  /** Takes the next piece of text; true once the format is known. */
  push(text: string): boolean {
    if (this.result) return true;
    this.chunks.push(text);
    const offset = this.seen;
    this.seen += text.length;
    if (!this.newline && !this.scanHeader(text, offset)) return false;
    // A .tsv file, or a header holding at most one candidate, needs no sample (nearly every file:
    // it starts as soon as before); another needs DELIMITER_SAMPLE characters past the header line.
    if (!this.forced && !this.isDecidedByHeader() && this.seen - this.headerEnd < DELIMITER_SAMPLE) return false;
    this.decide(false);
    return true;
  }

  /** The result at the end of the input (a header with no line break ends there); undefined for an empty file. */
  end(): HeaderFormat | undefined {
    if (this.result) return this.result;
    if (!this.started) return undefined;
    if (!this.newline) {
      this.newline = this.pendingCR ? '\r' : '\n';
      this.headerEnd = this.seen;
    }
    this.decide(true);
    return this.result;
  }

  /** Scans the header line on from `text` (which starts at `offset`); true once its line break is found. */
  private scanHeader(text: string, offset: number): boolean {
    let i = 0;
    const end = text.length;
    if (this.pendingCR) return this.lineEnds(text.charCodeAt(0) === 10 ? '\n' : '\r', offset + (text.charCodeAt(0) === 10 ? 1 : 0));
    if (!this.started) {
      for (; i < end; i++) {
        const c = text.charCodeAt(i);
        if (c !== 10 && c !== 13) break;
        if (c === 10 || text.charCodeAt(i + 1) !== 10) this.blankLines++;
      }
      if (i === end) return false;
      this.started = true;
    }
    // The hot loop: locals only, delimiters compared directly.
    const counts = this.counts;
    let inQuotes = this.inQuotes;
    const from = i;
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === 34) inQuotes = !inQuotes; // a doubled quote toggles twice
      else if (inQuotes) continue;
      else if (c === 44) counts[0]++;
      else if (c === 59) counts[1]++;
      else if (c === 9) counts[2]++;
      else if (c === 124) counts[3]++;
      else if (c === 10) return this.lineEnds('\n', offset + i + 1);
      else if (c === 13) {
        if (i + 1 < end) return text.charCodeAt(i + 1) === 10 ? this.lineEnds('\n', offset + i + 2) : this.lineEnds('\r', offset + i + 1);
        this.pendingCR = true; // CR LF may be split across chunks
      }
    }
    this.inQuotes = inQuotes;
    this.length += i - from;
    if (this.length > HEADER_LINE_LIMIT) {
      const line = this.blankLines + 1;
      throw new InputLimitError(
        `${this.display}:${line}: the header line is longer than ${sizeText(HEADER_LINE_LIMIT)}` +
        `${inQuotes ? ' (a quote in it is never closed)' : ' with no line break'}; check that this is a CSV file, or fix the quote.`,
        'headerLine', line);
    }
    return false;
  }

  /** Whether the header line alone decides the delimiter: it holds at most one of the candidates. */
  private isDecidedByHeader(): boolean {
    return this.counts.filter((n) => n > 0).length <= 1;
  }

  private lineEnds(newline: Newline, headerEnd: number): true {
    this.newline = newline;
    this.headerEnd = headerEnd;
    return true;
  }

  private decide(atEnd: boolean): void {
    this.text = this.chunks.length === 1 ? this.chunks[0] : this.chunks.join('');
    this.chunks = [];
    const newline = this.newline!;
    const delimiter = this.forced ?? this.chooseDelimiter(newline, atEnd);
    this.result = { delimiter, newline };
  }

  /**
   * The delimiter that splits the header line and every row of the sample into the same number of
   * cells, more than one. A header holding no candidate is one column (comma); one holding a single
   * candidate takes it (the reader then names a row that differs). Otherwise the file is refused
   * when two candidates both split evenly (pandas and Excel write `Smith, John;Austin, TX`
   * unquoted with `;`) or none does: either would be a guess.
   */
  private chooseDelimiter(newline: Newline, atEnd: boolean): string {
    const inHeader = DELIMITERS.filter((_, i) => this.counts[i] > 0);
    // No candidate: one column. One: no other could split the header (a row that differs is named).
    if (inHeader.length <= 1) return inHeader[0] ?? DELIMITERS[0];
    // An HTML page is refused by the header check, whatever it holds.
    if (isHtmlPage(this.text.slice(0, 64))) return DELIMITERS[0];
    const limit = this.headerEnd + DELIMITER_SAMPLE;
    const isWhole = atEnd && this.text.length <= limit;
    const sample = isWhole ? this.text : this.text.slice(0, limit);
    const even: { delimiter: string; width: number }[] = [];
    for (const delimiter of inHeader) {
      const widths = recordWidths(sample, delimiter, newline, isWhole);
      if (widths && widths[0] > 1 && widths.every((w) => w === widths[0])) even.push({ delimiter, width: widths[0] });
    }
    if (even.length === 1) return even[0].delimiter;
    const where = `${this.display}:${this.blankLines + 1}`;
    const hasTab = inHeader.includes('\t');
    const way = `save the file comma-separated with quotes around the fields that hold a delimiter (as Excel's "CSV UTF-8" and pandas' default to_csv do)${hasTab ? ', or name a tab-separated file .tsv,' : ''} and retry (there is no setting for the delimiter)`;
    if (even.length === 0) {
      const names = inHeader.map(delimiterName);
      throw new UsageError(`${where}: cannot tell the delimiter: the header splits on ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}, but none of them splits the first rows into as many cells as the header; fix those rows, or ${way}.`);
    }
    const names = even.map((e) => `${delimiterName(e.delimiter)} (${e.width} columns)`);
    throw new UsageError(`${where}: cannot tell the delimiter: the header and the first rows split evenly on ${names.slice(0, -1).join(', ')} and on ${names[names.length - 1]}; ${way}.`);
  }
}

/**
 * The number of cells of each record of `text` (blank lines left out) split on `delimiter`, as the
 * reader would split them; undefined when the reader would refuse the text with that delimiter (a
 * quote closed mid-field). Unless `atEnd`, an unfinished last record is left out.
 */
function recordWidths(text: string, delimiter: string, newline: Newline, atEnd: boolean): number[] | undefined {
  let records = scanRecords(text, delimiter, newline, atEnd)?.data;
  if (!records) {
    const Papa = loadPapa();
    const parsed = new Papa.Parser({ delimiter, newline, quoteChar: '"' }).parse(text, 0, !atEnd) as { data: string[][]; errors: { row: number }[] };
    if (parsed.errors.some((error) => atEnd || error.row < parsed.data.length)) return undefined;
    records = parsed.data;
  }
  const widths: number[] = [];
  for (const record of records) {
    // A blank line, or (records split on LF) one holding only the CR of a CRLF.
    if (record.length === 1 && (record[0] === '' || record[0] === '\r')) continue;
    widths.push(record.length);
  }
  return widths;
}

/**
 * For each record Papa Parse made of `text`, whether its last field was quoted and whether it was
 * a blank line: Papa gives `[""]` for both a blank line and a quoted empty field, and keeps a
 * carriage return at the end of both an unquoted CRLF line and a quoted `"x\r"`. Only called for
 * the text of a parse that holds such a record, so its cost stays proportional to the input.
 */
function recordShapes(text: string, count: number, delimiter: string, newline: Newline): { quotedLast: boolean; blank: boolean }[] {
  const shapes: { quotedLast: boolean; blank: boolean }[] = [];
  const d = delimiter.charCodeAt(0);
  const nl = newline.charCodeAt(0);
  let p = 0;
  while (shapes.length < count && p <= text.length) {
    const start = p;
    let quoted = false;
    for (;;) {
      quoted = text.charCodeAt(p) === 34;
      if (quoted) {
        p++;
        for (;;) {
          const q = text.indexOf('"', p);
          if (q === -1) { p = text.length; break; }
          if (text.charCodeAt(q + 1) === 34) { p = q + 2; continue; }
          p = q + 1;
          break;
        }
      }
      while (p < text.length && text.charCodeAt(p) !== d && text.charCodeAt(p) !== nl) p++;
      if (p < text.length && text.charCodeAt(p) === d) { p++; continue; }
      break;
    }
    // A blank line is empty, or holds only the CR of a CRLF when records are split on LF.
    shapes.push({ quotedLast: quoted, blank: p === start || (p === start + 1 && !quoted && text.charCodeAt(start) === 13) });
    p++; // past the line break
  }
  return shapes;
}

/** Records parsed from a text, and where the first record not taken (an unfinished last one) starts. */
interface ParsedRecords { data: string[][]; cursor: number }

/**
 * Splits text into RFC 4180 records as Papa Parse's core parser does (its behaviour is the
 * reference), for the well-formed text of nearly every file: quoted fields with doubled quotes,
 * a closing quote followed by the delimiter, the line break or (records split on LF) CR LF.
 * Undefined for anything else (text after a closing quote, an unclosed quote at the end), which
 * the caller hands to Papa Parse, so odd input gets Papa's exact records and errors. Papa's own
 * loop cost ~8% of a one-thread run (it also ran a regular-expression replace on every quoted
 * field). Unless `atEnd`, an unfinished last record is left for the next call; at the end, text
 * after the last line break is a record (an empty one when the text ends with a line break).
 */
export function scanRecords(text: string, delimiter: string, newline: Newline, atEnd: boolean): ParsedRecords | undefined {
  const data: string[][] = [];
  const n = text.length;
  if (n === 0) return { data, cursor: 0 };
  if (delimiter.length !== 1) return undefined;
  const d = delimiter.charCodeAt(0);
  const nl = newline.charCodeAt(0);
  const isLf = nl === 10;
  let nextDelim = text.indexOf(delimiter);
  let nextNewline = text.indexOf(newline);
  let row: string[] = [];
  let p = 0; // start of the current field
  let recordStart = 0;
  for (;;) {
    if (text.charCodeAt(p) === 34) {
      let q = p + 1;
      // The field's text up to its last doubled quote, made single, and where the rest starts:
      // built from slices as the quotes are found (a replaceAll after cost a second search).
      let head = '';
      let from = q;
      for (;;) {
        q = text.indexOf('"', q);
        if (q === -1) return atEnd ? undefined : { data, cursor: recordStart };
        if (q === n - 1) {
          if (!atEnd) return { data, cursor: recordStart };
          row.push(head + text.slice(from, q));
          data.push(row);
          return { data, cursor: n };
        }
        if (text.charCodeAt(q + 1) !== 34) break;
        head += text.slice(from, q + 1);
        q += 2;
        from = q;
      }
      const value = head + text.slice(from, q);
      const after = text.charCodeAt(q + 1);
      row.push(value);
      if (after === d) p = q + 2;
      else {
        if (after === nl) p = q + 2;
        else if (isLf && after === 13 && text.charCodeAt(q + 2) === 10) p = q + 3;
        else return undefined;
        data.push(row);
        row = [];
        recordStart = p;
      }
      if (nextDelim !== -1 && nextDelim < p) nextDelim = text.indexOf(delimiter, p);
      if (nextNewline !== -1 && nextNewline < p) nextNewline = text.indexOf(newline, p);
      continue;
    }
    if (nextDelim !== -1 && (nextDelim < nextNewline || nextNewline === -1)) {
      row.push(text.slice(p, nextDelim));
      p = nextDelim + 1;
      nextDelim = text.indexOf(delimiter, p);
      continue;
    }
    if (nextNewline !== -1) {
      row.push(text.slice(p, nextNewline));
      data.push(row);
      row = [];
      p = recordStart = nextNewline + 1;
      nextNewline = text.indexOf(newline, p);
      continue;
    }
    if (!atEnd) return { data, cursor: recordStart };
    row.push(text.slice(p));
    data.push(row);
    return { data, cursor: n };
  }
}

/** A bad record found while parsing; turned into a UsageError once its line is known. */
class RecordProblem {
  constructor(
    /** Text the record was parsed from, and that text's offset in the decoded file. */
    readonly text: string,
    readonly textOffset: number,
    /** Index of the record among the records parsed from `text`. */
    readonly index: number,
    /** The message, given where: `file:line`, or `file:line:col` when `at` is set. */
    readonly describe: (where: string) => string,
    /** Set when the problem is a size limit (InputLimitError). */
    readonly limit?: 'row',
    /** Offset in `text` of the very character at fault, when the message names its column. */
    readonly at?: number,
  ) {}
}

/** MySQL's NULL as `SELECT ... INTO OUTFILE` and `mysqldump --tab` write it. */
const MYSQL_NULL = '\\N';

/**
 * The warning for columns holding `\N`: they are kept as text, as pandas reads them (engine.md has
 * no setting for missing-value markers), with the ways to make them missing.
 */
function nullMarkWarning(display: string, columns: readonly string[], marks: ReadonlyMap<number, { rows: number; first: number }>): string {
  const rows = (n: number) => `${n} ${n === 1 ? 'row' : 'rows'}`;
  const listed = [...marks].sort(([a], [b]) => a - b).map(([k, { rows: n, first }]) =>
    `"${columns[k]}" in ${n === 1 ? `row ${first}` : `${rows(n)} (first row ${first})`}`);
  return `${display}: \\N, MySQL's NULL as SELECT ... INTO OUTFILE and mysqldump --tab write it, is kept as the text \\N (as pandas reads it; a number or date_time field counts it as a coercion failure), in ${marks.size === 1 ? 'column' : 'columns'} ${listed.join(', ')}; to read it as missing, export NULL as an empty field, or give the field the text rule '^\\\\N$': '' under config.text.regexReplacement (text rules run after impute).`;
}

/** A value quoted for a message, cut to 40 characters. */
function quoteShort(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
}

/** The line break that does not end a row in a file split on `newline`, as messages name it. */
function otherLineBreak(newline: Newline): { name: string; short: string; why: string } {
  return newline === '\n'
    ? { name: 'a lone CR (carriage return)', short: 'CR', why: 'a lone CR, which does not end a row in a file whose lines end in LF or CRLF' }
    : { name: 'an LF (line feed)', short: 'LF', why: 'an LF, which does not end a row in a file whose lines end in a lone CR' };
}

/**
 * The first line break of the other kind in `text` from `from` up to `end`, or -1: a CR not followed
 * by LF when records are split on LF (the CR of CRLF is a line end), an LF when they are split on
 * CR. Quotes are not looked at. One indexOf for an LF file; one per line for a CRLF file.
 */
function nextOtherBreak(text: string, from: number, end: number, newline: Newline): number {
  if (newline === '\r') {
    const at = text.indexOf('\n', from);
    return at < end ? at : -1;
  }
  for (let at = text.indexOf('\r', from); at !== -1 && at < end; at = text.indexOf('\r', at + 1)) {
    if (text.charCodeAt(at + 1) !== 10) return at;
  }
  return -1;
}

/** The 1-based column of offset `at` in `text` (which starts at a line start), for `file:line:col`. */
function columnAt(text: string, at: number, newline: Newline): number {
  return at - text.lastIndexOf(newline, at - 1);
}

/**
 * A line break of the other kind outside quotes: its record's index among the records of the text,
 * its offset there, and `afterQuote` when only spaces part it from a closing quote (`"x"\r`), where
 * Papa Parse drops it rather than keep it in a value.
 */
export interface StrayBreak { record: number; at: number; afterQuote?: true }

/**
 * The line breaks of the other kind (nextOtherBreak) that lie outside quoted fields in the first
 * `end` characters of `text`, which start at a record boundary and were parsed without error; the
 * first candidate, `first`, the caller found. Only called for text holding a candidate, so the
 * walk (fields found with indexOf, as scanRecords does) costs nothing on the common path.
 */
export function strayBreaks(text: string, end: number, delimiter: string, newline: Newline, first: number): StrayBreak[] {
  const found: StrayBreak[] = [];
  const nl = newline.charCodeAt(0);
  let candidate = first;
  let nextDelim = text.indexOf(delimiter);
  let nextNewline = text.indexOf(newline);
  let record = 0;
  let p = 0; // start of the current field
  while (candidate !== -1 && p < end) {
    let closedAt = -1; // just past the field's closing quote, when it is quoted
    if (text.charCodeAt(p) === 34) {
      // A quoted field holds any line break as data: step past its closing quote.
      const q = quotedFieldEnd(text, p);
      p = q === -1 ? end : q + 1;
      closedAt = p;
      while (candidate !== -1 && candidate < p) candidate = nextOtherBreak(text, candidate + 1, end, newline);
      if (nextDelim !== -1 && nextDelim < p) nextDelim = text.indexOf(delimiter, p);
      if (nextNewline !== -1 && nextNewline < p) nextNewline = text.indexOf(newline, p);
    }
    // The unquoted field (or what follows a closing quote: CR of a CRLF) runs to the delimiter or line break.
    const fieldEnd = Math.min(nextDelim === -1 ? end : nextDelim, nextNewline === -1 ? end : nextNewline, end);
    while (candidate !== -1 && candidate < fieldEnd) {
      found.push(closedAt !== -1 && /^ *$/.test(text.slice(closedAt, candidate)) ? { record, at: candidate, afterQuote: true } : { record, at: candidate });
      candidate = nextOtherBreak(text, candidate + 1, end, newline);
    }
    if (fieldEnd >= end) break;
    if (text.charCodeAt(fieldEnd) === nl) {
      record++;
      nextNewline = text.indexOf(newline, fieldEnd + 1);
    } else nextDelim = text.indexOf(delimiter, fieldEnd + 1);
    p = fieldEnd + 1;
  }
  return found;
}

/** Bytes `[start, end)` of a file, for reading one part of it (parallel runs). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where and how to read one part of a CSV file (parallel runs, src/engine/parallel): the bytes,
 * and for a part not starting at the header, the header's columns, delimiter and line break
 * (sniffed once from the file's start). Row numbers then count from the part's first row.
 */
export interface CsvPart extends ByteRange {
  preset?: { columns: string[]; delimiter: string; newline: Newline };
}

/** What a reader's generator yields: the columns once, first, then batches. */
export type TableEvent = { columns: string[]; notes?: string[] } | { batch: Batch };

/** Parses the file: first yields the columns, then batches of rows. */
async function* parseCsv(path: string, display: string, forced: string | undefined, opts: OpenOptions, part?: CsvPart): AsyncGenerator<TableEvent> {
  const Papa = loadPapa();
  const lenient = opts.lenient ?? false;
  const report = opts.report;

  let parser: InstanceType<Papa['Parser']> | undefined;
  let delimiter = ',';
  let newline: Newline = '\n';
  /** Text not yet turned into records, its offset in the decoded file, and how much of it a parse already tried. */
  let carry = '';
  let carryOffset = 0;
  let tried = 0;

  let header: string[] | undefined;
  /** What naming the columns changed (headerNote), for the report. */
  let notes: string[] = [];
  let width = 0;
  let headerSent = false;
  let dataRows = 0;
  let rows: Row[] = [];
  let numbers: number[] = [];
  const ready: Batch[] = [];
  /**
   * Under --lenient, rows whose unquoted fields hold a line break of the other kind (kept in the
   * value), and the first one's place: `kept` when the row is as wide as the header, `mixed` when
   * the break made it too short or long (lines of a file with mixed line ends run together).
   */
  const kept = { rows: 0, offset: 0, column: 0 };
  const mixed = { rows: 0, offset: 0, column: 0 };
  /** Under --lenient, rows of a one-column file cut at their first comma: the first one's place and values, and the first row numbers. */
  const cut = { rows: 0, offset: 0, kept: '', value: '', firstRows: [] as number[] };
  /** Column index -> the cells that are exactly `\N` (MySQL's NULL) and the first one's row. */
  const nullMarks = new Map<number, { rows: number; first: number }>();
  /** Notes the `\N` cells of a row (only for text holding one). A part of a parallel run leaves them to the one-thread reader, which alone warns. */
  const noteNullMarks = (cells: Row, row: number): void => {
    for (let k = 0; k < width; k++) {
      if (cells[k] !== MYSQL_NULL) continue;
      if (part) throw new Error(`${display} holds \\N, which the one-thread reader reports.`);
      const seen = nullMarks.get(k);
      if (seen) seen.rows++;
      else nullMarks.set(k, { rows: 1, first: row });
    }
  };

  /** The problem of a line break of the other kind right after a closing quote, at offset `at` of `text`. */
  const strayAfterQuote = (text: string, textOffset: number, record: number, at: number): RecordProblem =>
    new RecordProblem(text, textOffset, record, (where) =>
      `${where}: the line ends are mixed: a closing quote is followed by ${otherLineBreak(newline).why}; save the file with one kind of line end (an editor's line-ending setting does it) and retry.`, undefined, at);

  /**
   * Turns parsed records into rows (in place: Papa's arrays are ours), batching them. `strays`:
   * the line breaks of the other kind outside quotes in `text` (strayBreaks), when it holds any.
   */
  const take = (records: string[][], text: string, textOffset: number, strays: StrayBreak[] | undefined, mayHoldNull: boolean): void => {
    // Looked up only for a record that is `[""]` or whose last cell ends with a CR (see recordShapes).
    let shapes: { quotedLast: boolean; blank: boolean }[] | undefined;
    const shapeOf = (j: number) => (shapes ??= recordShapes(text, records.length, delimiter, newline))[j];
    let mayQuoteCR: boolean | undefined;
    let s = 0;
    for (let j = 0; j < records.length; j++) {
      const cells = records[j] as Row;
      let n = cells.length;
      // The first line break of the other kind outside quotes in this record, or -1.
      let stray = -1;
      if (strays !== undefined && s < strays.length && strays[s].record === j) {
        stray = strays[s].at;
        // Papa Parse dropped it (`"x"\r\r\n`), so neither --lenient's keeping nor a width says it: refused as mixed.
        if (strays[s].afterQuote) throw strayAfterQuote(text, textOffset, j, stray);
        while (s < strays.length && strays[s].record === j) s++;
      }
      // Records are split on LF; the CR of a CRLF ending stays on the last unquoted cell. A quoted
      // last cell keeps its own CR (`1,"x\r"`): it can end in CR only if the text has CR + quote.
      const last = cells[n - 1] as string;
      if (newline === '\n' && last.length > 0 && last.charCodeAt(last.length - 1) === 13) {
        mayQuoteCR ??= text.includes('\r"');
        if (!mayQuoteCR || !shapeOf(j).quotedLast) cells[n - 1] = last.slice(0, -1);
      }
      // A blank line is skipped; a line holding `""` is a row with one missing value.
      if (n === 1 && cells[0] === '' && shapeOf(j).blank) continue;
      if (!header) {
        refuseHeader(cells as string[], display, delimiter);
        header = columnNames(cells as string[]);
        notes = headerNote(cells as string[], header, display);
        width = header.length;
        continue;
      }
      const isWrongWidth = n !== width;
      if (isWrongWidth) {
        // A header with no delimiter is one column, read comma-separated: pandas' to_csv(sep=';')
        // leaves `a, b` unquoted there, and --lenient cuts such a value at its first comma.
        const isOneColumn = width === 1 && delimiter === ',' && !forced && stray === -1;
        // A part of a parallel run leaves such a cut to the one-thread reader (the run falls back), which names the rows.
        if (!lenient || (isOneColumn && part)) {
          const have = `${n} ${n === 1 ? 'cell' : 'cells'}`;
          const commas = `${n - 1} ${n === 2 ? 'comma' : 'commas'}`;
          throw new RecordProblem(text, textOffset, j, stray !== -1
            ? (where) => `${where}: the line ends are mixed: this line holds ${otherLineBreak(newline).why}, so the row has ${have} but the header has ${width}; save the file with one kind of line end (an editor's line-ending setting does it) and retry.`
            // --lenient would cut such values, so it is not offered.
            : isOneColumn
              ? (where) => `${where}: the header is one column (it holds no comma, semicolon, tab or | outside quotes) but this row holds ${commas} outside quotes; if the file is one column, quote the values that hold commas (as pandas' to_csv does with its default sep) or name the file .tsv, and if the rows hold more columns, add their names to the header.`
              : (where) => `${where}: row has ${have} but the header has ${width}; fix the row or pass --lenient to pad or cut such rows.`, undefined, stray === -1 ? undefined : stray);
        }
        if (isOneColumn) {
          if (cut.rows++ === 0) {
            cut.offset = textOffset + recordStart(Papa, text, j, delimiter, newline);
            cut.kept = cells[0] as string;
            cut.value = cells.join(delimiter);
          }
          if (cut.firstRows.length < REPORT_FIRST_ROWS) cut.firstRows.push(dataRows + 1);
        }
        if (n > width) cells.length = width;
        else for (; n < width; n++) cells.push(null);
        if (report) report.rowsRepaired++;
      }
      if (stray !== -1) {
        // Readers disagree on it (pandas ends the row there; Python's csv module ends it or, given
        // lines, refuses it): refused rather than kept as a guess. A part of a parallel run leaves it to the one-thread reader
        // (the run falls back), which alone knows the line to name and gives --lenient's warning.
        if (!lenient || part) {
          const { name, short } = otherLineBreak(newline);
          throw new RecordProblem(text, textOffset, j, (where) =>
            `${where}: an unquoted field holds ${name}, which readers disagree on (some end the row there, some refuse the file); quote the field if the ${short} is part of the value, or save the file with one kind of line end (an editor's line-ending setting does it) if it ends a line.`, undefined, stray);
        }
        const seen = isWrongWidth ? mixed : kept;
        if (seen.rows++ === 0) {
          seen.offset = textOffset + stray;
          seen.column = columnAt(text, stray, newline);
        }
      }
      for (let k = 0; k < width; k++) if (isMissing(cells[k])) cells[k] = null;
      if (mayHoldNull) noteNullMarks(cells, dataRows + 1);
      rows.push(cells);
      numbers.push(++dataRows);
      if (rows.length === BATCH_SIZE) {
        ready.push({ rows, rowNumbers: numbers });
        rows = [];
        numbers = [];
      }
    }
  };

  /** Parses `carry + piece`, keeping an unfinished last record for the next call. */
  const feed = (piece: string, atEnd: boolean): void => {
    const text = carry + piece;
    // A long quoted field spanning many slices: wait until the text doubles, so re-parsing stays linear.
    // Past ROW_LIMIT it parses at once, so an overlong row is refused before much more is held.
    if (!atEnd && text.length < 2 * tried && text.length <= ROW_LIMIT) {
      carry = text;
      return;
    }
    // A CR that ends the file ends its last row, after a closing quote too (`1,"x"\r`): parsed without it.
    const parsed = atEnd && newline === '\n' && text.endsWith('"\r') ? text.slice(0, -1) : text;
    const scanned = scanRecords(parsed, delimiter, newline, atEnd);
    const result = scanned
      ? { data: scanned.data, errors: [], meta: { cursor: scanned.cursor } }
      : parser!.parse(parsed, 0, !atEnd) as { data: string[][]; errors: { code: string; row: number; index?: number }[]; meta: { cursor: number } };
    if (!scanned) {
      // Papa Parse drops whitespace between a closing quote and the delimiter (`"x" ,y` reads `x`);
      // Python's csv module and pandas keep it (`x `): refused rather than read one way in silence.
      const padding = paddedQuote(parsed, atEnd ? parsed.length : result.meta.cursor, delimiter, newline);
      if (padding !== -1) {
        throw new RecordProblem(text, carryOffset, 0, (where) =>
          `${where}: a quoted field has whitespace after its closing quote, which readers disagree on (some drop it, Python's csv module and pandas keep it in the value); delete it, or move it inside the quotes if it is part of the value.`, undefined, padding);
      }
    }
    for (const error of result.errors) {
      // Errors on the unfinished last record are retried with more text; others are real.
      if (atEnd || error.row < result.data.length) {
        if (error.code === 'MissingQuotes') {
          throw new RecordProblem(text, carryOffset, error.row, (where) =>
            `${where}: a quoted field is never closed; add the closing quote (") or double the quotes inside the field.`);
        }
        const closing = error.index === undefined ? undefined : closingQuote(text, error.index, delimiter, newline);
        // `"a"\rb` in an LF file: the same mixed line ends as a lone CR in an unquoted field, named at the CR.
        if (closing?.isStrayBreak) throw strayAfterQuote(text, carryOffset, error.row, closing.after);
        const quote = closing?.quote ?? -1;
        // A backslash before it: quotes escaped as \" (MySQL's INTO OUTFILE, Python's csv with
        // escapechar), which RFC 4180 readers (pandas too) read otherwise; named, not unescaped as a guess.
        const isBackslashed = quote > 0 && text.charCodeAt(quote - 1) === 92;
        throw new RecordProblem(text, carryOffset, error.row, (where) => isBackslashed
          ? `${where}: a quoted field has text after its closing quote, which follows a backslash: quotes escaped as \\" (as MySQL's SELECT ... INTO OUTFILE and Python's csv with escapechar write them) are not CSV quoting; export the file with quotes inside fields doubled ("") and retry.`
          : `${where}: a quoted field has text after its closing quote; quote the whole field and double the quotes inside it ("").`, undefined, quote === -1 ? undefined : quote);
      }
    }
    const used = atEnd ? text.length : result.meta.cursor;
    // One indexOf (per line in a CRLF file) says whether to look closer; a CR that ends the file ends its last row.
    const end = atEnd && newline === '\n' && text.charCodeAt(used - 1) === 13 ? used - 1 : used;
    const other = nextOtherBreak(text, 0, end, newline);
    // One indexOf per parse, as for the line breaks: rows are looked at for `\N` only in text that holds one.
    take(result.data, text, carryOffset, other === -1 ? undefined : strayBreaks(text, end, delimiter, newline, other), text.includes(MYSQL_NULL));
    carry = used === 0 ? text : text.slice(used);
    carryOffset += used;
    tried = carry.length;
    // The unfinished record alone is over the limit: refuse it rather than hold ever more text.
    if (carry.length > ROW_LIMIT) {
      throw new RecordProblem(carry, carryOffset, 0, (where) =>
        `${where}: a row is longer than ${sizeText(ROW_LIMIT)}${carry.charCodeAt(0) === 34 || carry.includes(`${delimiter}"`) ? ' (a quoted field may never be closed)' : ''}; fix the quote or split the field.`, 'row');
    }
  };

  /** Reads the start of the file until its format is known (its text kept as chunks: one join, no rescans), then the parser. */
  const sniffer = new FormatSniffer(display, forced);
  const start = (format: HeaderFormat | undefined): boolean => {
    if (!format) return false;
    ({ delimiter, newline } = format);
    parser = new Papa.Parser({ delimiter, newline, quoteChar: '"' });
    return true;
  };

  if (part?.preset) {
    ({ delimiter, newline } = part.preset);
    header = part.preset.columns;
    width = header.length;
    parser = new Papa.Parser({ delimiter, newline, quoteChar: '"' });
  }

  try {
    for await (const chunk of decodeFile(path, display, opts.onProgress, part)) {
      let text = chunk;
      if (!parser) {
        if (!sniffer.push(chunk)) continue;
        start(sniffer.result);
        text = sniffer.text;
        sniffer.text = '';
      }
      for (let i = 0; i < text.length; i += PARSE_SLICE) {
        feed(text.slice(i, i + PARSE_SLICE), false);
        // Hand rows on slice by slice: rows that wait get promoted by the GC, which costs more than the yields.
        if (header && !headerSent) {
          headerSent = true;
          yield { columns: header, notes };
        }
        while (ready.length > 0) yield { batch: ready.shift()! };
      }
    }
    if (!parser && start(sniffer.end())) feed(sniffer.text, true);
    else if (parser) feed('', true);
  } catch (error) {
    if (!(error instanceof RecordProblem)) throw error;
    const start = error.at ?? recordStart(Papa, error.text, error.index, delimiter, newline);
    const line = await lineAt(path, display, error.textOffset + start, newline);
    const message = error.describe(`${display}:${line}${error.at === undefined ? '' : `:${columnAt(error.text, error.at, newline)}`}`);
    throw error.limit ? new InputLimitError(message, error.limit, line) : new UsageError(message);
  }
  if (mixed.rows > 0 && opts.warn) {
    const where = `${display}:${await lineAt(path, display, mixed.offset, newline)}:${mixed.column}`;
    opts.warn(`${where}: the line ends are mixed: this line holds ${otherLineBreak(newline).why}, so its row had the wrong number of cells and was padded or cut under --lenient${mixed.rows > 1 ? ` (${mixed.rows} such rows in all)` : ''}; save the file with one kind of line end (an editor's line-ending setting does it) to read the rows as written.`);
  }
  if (cut.rows > 0 && opts.warn) {
    const where = `${display}:${await lineAt(path, display, cut.offset, newline)}`;
    const rows = cut.rows === 1 ? `row ${cut.firstRows[0]}` : `${cut.rows} rows (${cut.firstRows.join(', ')}${cut.rows > cut.firstRows.length ? ', ...' : ''})`;
    opts.warn(`${where}: the header is one column (it holds no comma, semicolon, tab or | outside quotes), so --lenient cut ${rows} at the first comma outside quotes, keeping ${quoteShort(cut.kept)} of ${quoteShort(cut.value)}${cut.rows > 1 ? ' and the like' : ''}; to keep such values whole, quote them (as pandas' to_csv does with its default sep) or name the file .tsv, and if the rows hold more columns, add their names to the header.`);
  }
  if (nullMarks.size > 0 && opts.warn) opts.warn(nullMarkWarning(display, header ?? [], nullMarks));
  if (kept.rows > 0 && opts.warn) {
    const where = `${display}:${await lineAt(path, display, kept.offset, newline)}:${kept.column}`;
    const { name, short } = otherLineBreak(newline);
    opts.warn(`${where}: an unquoted field holds ${name}, kept in the value under --lenient${kept.rows > 1 ? ` (${kept.rows} rows hold one)` : ''}; quote such fields if the ${short} is part of the value, or save the file with one kind of line end if it ends a line.`);
  }
  if (!header) {
    throw new UsageError(`${display} is empty; give a file whose first line is a header row.`);
  }
  if (!headerSent) yield { columns: header, notes };
  while (ready.length > 0) yield { batch: ready.shift()! };
  if (rows.length > 0) yield { batch: { rows, rowNumbers: numbers } };
}

/** Opens one byte range of a CSV file as a table (parallel runs); `forced` as for csvSource. */
export function openCsvPart(path: string, display: string, forced: string | undefined, opts: OpenOptions, part: CsvPart): Promise<Table> {
  return tableOf(parseCsv(path, display, forced, opts, part));
}

/** The delimiter and line break the reader would use for a file, from its start; undefined for an empty file. */
export async function sniffCsvFile(path: string, display: string, forced: string | undefined): Promise<HeaderFormat | undefined> {
  const sniffer = new FormatSniffer(display, forced);
  for await (const chunk of decodeFile(path, display)) if (sniffer.push(chunk)) return sniffer.result;
  return sniffer.end();
}

/**
 * The quote that closes the quoted field starting at `from` (just past its opening quote) and is
 * followed by text, not by a delimiter, the line break or the end: its offset in `text`, the offset
 * of what follows it, and whether that is a line break of the other kind (a lone CR in an LF file,
 * an LF in a CR file); undefined if none (error path only: Papa Parse's InvalidQuotes gives the field's start).
 */
function closingQuote(text: string, from: number, delimiter: string, newline: Newline): { quote: number; after: number; isStrayBreak: boolean } | undefined {
  const quote = quotedFieldEnd(text, from - 1);
  if (quote === -1) return undefined;
  let after = quote + 1;
  while (text[after] === ' ') after++; // Papa Parse allows spaces between a closing quote and what ends the field
  const next = text[after];
  if (next === undefined || next === delimiter || next === newline) return undefined;
  if (newline === '\n' && next === '\r' && text[after + 1] === '\n') return undefined; // CRLF
  return { quote, after, isStrayBreak: next === (newline === '\n' ? '\r' : '\n') };
}

/** The offset of the quote that closes the quoted field opened at `open`, past doubled quotes; -1 when none does. */
function quotedFieldEnd(text: string, open: number): number {
  let q = open + 1;
  for (;;) {
    q = text.indexOf('"', q);
    if (q === -1 || text.charCodeAt(q + 1) !== 34) return q;
    q += 2;
  }
}

/**
 * The offset of the first whitespace (other than line breaks) between a closing quote and the
 * delimiter, line break or end (`atEnd` texts: `end` is the text's length) that ends its field, in
 * the first `end` characters of `text` (starting at a record boundary), or -1; also -1 from the first
 * quoted field followed by other text, which Papa Parse reports itself. Only called for text that
 * scanRecords left to Papa Parse (it stops at any such quote), so the walk costs nothing on the common path.
 */
function paddedQuote(text: string, end: number, delimiter: string, newline: Newline): number {
  const d = delimiter.charCodeAt(0);
  const nl = newline.charCodeAt(0);
  const isPadding = (c: number) => c !== d && c !== 10 && c !== 13 && isWhitespace(c);
  for (let p = 0; p < end;) {
    if (text.charCodeAt(p) === 34) {
      const q = quotedFieldEnd(text, p);
      if (q === -1 || q >= end) return -1;
      let i = q + 1;
      while (i < end && isPadding(text.charCodeAt(i))) i++;
      const c = text.charCodeAt(i);
      const isFieldEnd = i >= end || c === d || c === nl || (nl === 10 && c === 13 && text.charCodeAt(i + 1) === 10);
      if (!isFieldEnd) return -1;
      if (i > q + 1) return q + 1;
      p = i;
    }
    // An unquoted field, or the field end after a closing quote: on to the next field.
    while (p < end && text.charCodeAt(p) !== d && text.charCodeAt(p) !== nl) p++;
    p++;
  }
  return -1;
}

/** Character offset in `text` where its record number `index` starts (error path only). */
function recordStart(Papa: Papa, text: string, index: number, delimiter: string, newline: Newline): number {
  if (index === 0) return 0;
  // `preview` stops after `index` records; fastMode off because its preview cursor is one record late.
  const locate = new Papa.Parser({ delimiter, newline, quoteChar: '"', preview: index, fastMode: false });
  return (locate.parse(text, 0, false) as { meta: { cursor: number } }).meta.cursor;
}

/** A table from a reader's events: reads up to the columns now, then hands out the batches (once). */
export async function tableOf(events: AsyncGenerator<TableEvent>): Promise<Table> {
  const first = await events.next();
  if (first.done || !('columns' in first.value)) throw new Error('The reader yielded no header.');
  const { columns, notes } = first.value;
  return {
    columns,
    types: columns.map(() => undefined),
    ...(notes?.length ? { notes } : {}),
    batches: new EventBatches(events),
  };
}

/** A reader's batches, which can be read once (a class, so every table's share one shape: see eachBatch). */
class EventBatches implements AsyncIterable<Batch> {
  private used = false;

  constructor(private readonly events: AsyncGenerator<TableEvent>) {}

  [Symbol.asyncIterator](): AsyncIterator<Batch> {
    if (this.used) throw new Error('A table\'s batches can be read only once.');
    this.used = true;
    return batchesOf(this.events);
  }
}

/** The batches among a reader's events; the reader is closed when the reading stops. */
async function* batchesOf(events: AsyncGenerator<TableEvent>): AsyncGenerator<Batch> {
  try {
    for (;;) {
      const next = await events.next();
      if (next.done) return;
      if ('batch' in next.value) yield next.value.batch;
    }
  } finally {
    await events.return(undefined);
  }
}

/** A CSV or TSV file as an input source; `tab` forces the tab delimiter (.tsv). */
export function csvSource(path: string, display: string, name: string, size: number, tab = false): InputSource {
  const source: InputSource & { [CSV_FILE]?: CsvFile } = {
    name,
    kind: 'csv',
    size,
    async sheets() {
      return null;
    },
    open(opts: OpenOptions = {}) {
      return tableOf(parseCsv(path, display, tab ? '\t' : undefined, opts));
    },
  };
  source[CSV_FILE] = { path, display, forced: tab ? '\t' : undefined };
  return source;
}

/** The file behind a CSV source: what a parallel run needs to read parts of it itself. */
export interface CsvFile { path: string; display: string; forced: string | undefined }
const CSV_FILE = Symbol('csv file');

/** The file behind an input source made by csvSource; undefined for any other source. */
export function csvFileOf(source: InputSource): CsvFile | undefined {
  return (source as InputSource & { [CSV_FILE]?: CsvFile })[CSV_FILE];
}
