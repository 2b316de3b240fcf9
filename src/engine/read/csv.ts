/**
 * CSV/TSV reader (engine.md "Reading input"): streams the file, decodes it, detects the delimiter
 * from the header line and parses RFC 4180 records with Papa Parse's core parser.
 */
import { createReadStream } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { TextDecoder } from 'node:util';
import type PapaNamespace from 'papaparse';
import { UsageError } from '../../errors.js';
import { isMissing } from '../missing.js';
import { BATCH_SIZE, type Batch, type InputSource, type OpenOptions, type Row, type Table } from '../types.js';

/** Bytes per read from disk: large reads keep the syscall and stream overhead low. */
const READ_CHUNK = 1 << 20;
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
/** Papa Parse, loaded on first use so commands that read no CSV do not pay for it. */
async function loadPapa(): Promise<Papa> {
  papa ??= (await import('papaparse')).default;
  return papa;
}

/** Header cells as unique column names: empty → `column_<n>` (1-based), repeats → `name_2`, `name_3`... */
export function columnNames(cells: readonly (string | null | undefined)[]): string[] {
  const named = cells.map((cell, i) => (isMissing(cell) ? `column_${i + 1}` : (cell as string)));
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
function encodingOf(head: Buffer): 'utf-8' | 'utf-16le' | 'utf-16be' {
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}

/**
 * Streams a text file as decoded strings: UTF-8 (a BOM is dropped) or UTF-16 LE/BE with a BOM.
 * Invalid bytes are a UsageError naming the line.
 */
async function* decodeFile(path: string, display: string, onBytes?: (bytes: number) => void, range?: ByteRange): AsyncGenerator<string> {
  // createReadStream's `end` is inclusive; a range that starts past 0 is mid-file UTF-8 (no BOM to sniff).
  const stream = createReadStream(path, { highWaterMark: range?.readBytes ?? READ_CHUNK, start: range?.start, end: range ? range.end - 1 : undefined });
  let decoder: TextDecoder | undefined;
  let encoding = 'utf-8';
  let bytes = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (!decoder) {
        encoding = range && range.start > 0 ? 'utf-8' : encodingOf(chunk);
        // TextDecoder drops the BOM itself (ignoreBOM: false); mid-file a U+FEFF is data.
        decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: Boolean(range && range.start > 0) });
      }
      bytes += chunk.length;
      const text = decodeOrThrow(decoder, chunk);
      onBytes?.(bytes);
      if (text.length > 0) yield text;
    }
    const rest = decoder ? decodeOrThrow(decoder) : '';
    if (rest.length > 0) yield rest;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_ENCODING_INVALID_ENCODED_DATA') {
      throw await invalidText(path, display, encoding);
    }
    if (error instanceof UsageError) throw error;
    throw unreadableFile(display, error);
  } finally {
    stream.destroy();
  }
}

function decodeOrThrow(decoder: TextDecoder, chunk?: Buffer): string {
  return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
}

/** The UsageError for bytes that are not valid text, naming the first bad line (re-reads the file). */
async function invalidText(path: string, display: string, encoding: string): Promise<UsageError> {
  if (encoding !== 'utf-8') {
    return new UsageError(`${display} is not valid ${encoding.toUpperCase()} text; save the file as UTF-8 and retry.`);
  }
  const line = await firstInvalidUtf8Line(path);
  const where = line ? `${display}: line ${line}` : display;
  return new UsageError(`${where} is not valid UTF-8 text; save the file as UTF-8 and retry.`);
}

/** The 1-based number of the first line that is not valid UTF-8, or undefined. */
async function firstInvalidUtf8Line(path: string): Promise<number | undefined> {
  // A line break byte (0x0A) never occurs inside a multi-byte UTF-8 sequence, so lines check alone.
  let line = 1;
  let pending: Buffer[] = [];
  for await (const chunk of createReadStream(path, { highWaterMark: READ_CHUNK }) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      const whole = pending.length > 0 ? Buffer.concat([...pending, piece]) : piece;
      if (!isUtf8(whole)) return line;
      pending = [];
      line++;
      start = nl + 1;
    }
    pending.push(chunk.subarray(start));
  }
  const last = Buffer.concat(pending);
  return isUtf8(last) ? undefined : line;
}

/** Counts the line breaks in the first `offset` characters of the decoded file (error path only). */
async function lineAt(path: string, display: string, offset: number, newline: string): Promise<number> {
  const code = newline === '\r' ? 13 : 10;
  let line = 1;
  let seen = 0;
  for await (const text of decodeFile(path, display)) {
    const end = Math.min(text.length, offset - seen);
    for (let i = 0; i < end; i++) if (text.charCodeAt(i) === code) line++;
    seen += text.length;
    if (seen >= offset) break;
  }
  return line;
}

/** Delimiter and line break of the header line, or undefined while the line is incomplete. */
function sniffHeader(text: string, atEnd: boolean, forced?: string): { delimiter: string; newline: Newline } | undefined {
  const counts = new Map<number, number>(DELIMITERS.map((d) => [d.charCodeAt(0), 0]));
  let i = 0;
  // Blank lines before the header are skipped like any blank line.
  while (i < text.length && (text.charCodeAt(i) === 10 || text.charCodeAt(i) === 13)) i++;
  let inQuotes = false;
  let newline: Newline | undefined;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) inQuotes = !inQuotes; // a doubled quote toggles twice
    else if (inQuotes) continue;
    else if (c === 10) { newline = '\n'; break; }
    else if (c === 13) {
      if (i + 1 === text.length && !atEnd) return undefined; // CR LF may be split across chunks
      newline = text.charCodeAt(i + 1) === 10 ? '\n' : '\r';
      break;
    } else {
      const n = counts.get(c);
      if (n !== undefined) counts.set(c, n + 1);
    }
  }
  if (newline === undefined) {
    if (!atEnd) return undefined;
    newline = '\n';
  }
  if (forced) return { delimiter: forced, newline };
  let delimiter: string = DELIMITERS[0];
  let best = 0;
  for (const d of DELIMITERS) {
    const n = counts.get(d.charCodeAt(0)) ?? 0;
    if (n > best) { best = n; delimiter = d; }
  }
  return { delimiter, newline };
}

/** A bad record found while parsing; turned into a UsageError once its line is known. */
class RecordProblem {
  constructor(
    /** Text the record was parsed from, and that text's offset in the decoded file. */
    readonly text: string,
    readonly textOffset: number,
    /** Index of the record among the records parsed from `text`. */
    readonly index: number,
    readonly describe: (where: string) => string,
  ) {}
}

/** Bytes `[start, end)` of a file, for reading one part of it (parallel runs). */
export interface ByteRange {
  start: number;
  end: number;
  /** Bytes per read (READ_CHUNK when absent): workers read less at a time, so fewer large buffers wait for their GC. */
  readBytes?: number;
}

/**
 * Where and how to read one part of a CSV file (parallel runs, src/engine/parallel): the bytes,
 * and for a part not starting at the header, the header's columns, delimiter and line break
 * (sniffed once from the file's start). Row numbers then count from the part's first row.
 */
export interface CsvPart extends ByteRange {
  preset?: { columns: string[]; delimiter: string; newline: Newline };
  /** Rows per batch (BATCH_SIZE when absent): workers use smaller batches, so less is live at each young-generation GC. */
  batchRows?: number;
}

/** What a reader's generator yields: the columns once, first, then batches. */
export type TableEvent = { columns: string[] } | { batch: Batch };

/** Parses the file: first yields the columns, then batches of rows. */
async function* parseCsv(path: string, display: string, forced: string | undefined, opts: OpenOptions, part?: CsvPart): AsyncGenerator<TableEvent> {
  const Papa = await loadPapa();
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
  let width = 0;
  let headerSent = false;
  let dataRows = 0;
  let rows: Row[] = [];
  let numbers: number[] = [];
  const ready: Batch[] = [];
  const batchRows = part?.batchRows ?? BATCH_SIZE;

  /** Turns parsed records into rows (in place: Papa's arrays are ours), batching them. */
  const take = (records: string[][], text: string, textOffset: number): void => {
    for (let j = 0; j < records.length; j++) {
      const cells = records[j] as Row;
      let n = cells.length;
      // Records are split on LF; the CR of a CRLF ending stays on the last unquoted cell.
      const last = cells[n - 1] as string;
      if (last.length > 0 && last.charCodeAt(last.length - 1) === 13) cells[n - 1] = last.slice(0, -1);
      if (n === 1 && cells[0] === '') continue; // a completely blank line
      if (!header) {
        header = columnNames(cells as string[]);
        width = header.length;
        continue;
      }
      if (n !== width) {
        if (!lenient) {
          const have = n;
          throw new RecordProblem(text, textOffset, j, (where) =>
            `${where}: row has ${have} ${have === 1 ? 'cell' : 'cells'} but the header has ${width}; fix the row or pass --lenient to pad or cut such rows.`);
        }
        if (n > width) cells.length = width;
        else for (; n < width; n++) cells.push(null);
        if (report) report.rowsRepaired++;
      }
      for (let k = 0; k < width; k++) if (isMissing(cells[k])) cells[k] = null;
      rows.push(cells);
      numbers.push(++dataRows);
      if (rows.length === batchRows) {
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
    if (!atEnd && text.length < 2 * tried) {
      carry = text;
      return;
    }
    const result = parser!.parse(text, 0, !atEnd) as { data: string[][]; errors: { code: string; row: number }[]; meta: { cursor: number } };
    for (const error of result.errors) {
      // Errors on the unfinished last record are retried with more text; others are real.
      if (atEnd || error.row < result.data.length) {
        const unclosed = error.code === 'MissingQuotes';
        throw new RecordProblem(text, carryOffset, error.row, (where) => unclosed
          ? `${where}: a quoted field is never closed; add the closing quote (") or double the quotes inside the field.`
          : `${where}: a quoted field has text after its closing quote; quote the whole field and double the quotes inside it ("").`);
      }
    }
    take(result.data, text, carryOffset);
    const used = atEnd ? text.length : result.meta.cursor;
    carry = used === 0 ? text : text.slice(used);
    carryOffset += used;
    tried = carry.length;
  };

  /** Text read before the header line is complete, and the parser once it is. */
  let head = '';
  const start = (atEnd: boolean): boolean => {
    const found = sniffHeader(head, atEnd, forced);
    if (!found) return false;
    ({ delimiter, newline } = found);
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
        head += chunk;
        if (!start(false)) continue;
        text = head;
        head = '';
      }
      for (let i = 0; i < text.length; i += PARSE_SLICE) {
        feed(text.slice(i, i + PARSE_SLICE), false);
        // Hand rows on slice by slice: rows that wait get promoted by the GC, which costs more than the yields.
        if (header && !headerSent) {
          headerSent = true;
          yield { columns: header };
        }
        while (ready.length > 0) yield { batch: ready.shift()! };
      }
    }
    if (!parser && start(true)) feed(head, true);
    else if (parser) feed('', true);
  } catch (error) {
    if (!(error instanceof RecordProblem)) throw error;
    const offset = error.textOffset + recordStart(Papa, error.text, error.index, delimiter, newline);
    const line = await lineAt(path, display, offset, newline);
    throw new UsageError(error.describe(`${display}:${line}`));
  }
  if (!header) {
    throw new UsageError(`${display} is empty; give a file whose first line is a header row.`);
  }
  if (!headerSent) yield { columns: header };
  while (ready.length > 0) yield { batch: ready.shift()! };
  if (rows.length > 0) yield { batch: { rows, rowNumbers: numbers } };
}

/** Opens one byte range of a CSV file as a table (parallel runs); `forced` as for csvSource. */
export function openCsvPart(path: string, display: string, forced: string | undefined, opts: OpenOptions, part: CsvPart): Promise<Table> {
  return tableOf(parseCsv(path, display, forced, opts, part));
}

/** The delimiter and line break the reader would use for a file, from its header line; undefined for an empty file. */
export async function sniffCsvFile(path: string, display: string, forced: string | undefined): Promise<{ delimiter: string; newline: Newline } | undefined> {
  let head = '';
  for await (const chunk of decodeFile(path, display)) {
    head += chunk;
    const found = sniffHeader(head, false, forced);
    if (found) return found;
  }
  return sniffHeader(head, true, forced);
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
  const columns = first.value.columns;
  let used = false;
  return {
    columns,
    types: columns.map(() => undefined),
    batches: {
      async *[Symbol.asyncIterator]() {
        if (used) throw new Error('A table\'s batches can be read only once.');
        used = true;
        try {
          for (;;) {
            const next = await events.next();
            if (next.done) return;
            if ('batch' in next.value) yield next.value.batch;
          }
        } finally {
          await events.return(undefined);
        }
      },
    },
  };
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
