/**
 * CSV writer (engine.md step 12): UTF-8 without BOM, comma, `\n`, a header row; a field is quoted
 * only when it holds a comma, a quote, CR or LF, or starts or ends with a space.
 */
import { closeSync, createWriteStream, openSync, writeSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { DataType } from '../../contract/index.js';
import type { Batch, Row, Table, Value } from '../types.js';

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

/** One row as a CSV line, without its line break. */
export function csvLine(row: readonly (Value | undefined)[]): string {
  let line = row.length > 0 ? csvField(row[0]) : '';
  for (let i = 1; i < row.length; i++) line += ',' + csvField(row[i]);
  return line;
}

/** A text field that must be quoted: it holds a comma, a quote, CR or LF, or starts or ends with a space. */
const NEEDS_QUOTES = /[",\r\n]|^ | $/;

/** How a table's rows become CSV lines: made once per table by rowFormat, used per batch by csvBatchText. */
export interface RowFormat { width: number; checked: boolean[]; cells: string[] }

/** The row format of a table with these columns and types. */
export function rowFormat(columns: readonly string[], types: readonly (DataType | undefined)[]): RowFormat {
  // Numbers and dates are written from values the engine made (`String(n)`, `YYYY-MM-DDTHH:mm:ss`):
  // they never need quotes, so only the other columns are checked.
  const width = columns.length;
  return { width, checked: columns.map((_, i) => types[i] !== 'date_time'), cells: new Array<string>(width) };
}

/**
 * Rows as CSV lines, each ending in `\n`, joined into one string; when `ends` is given it receives
 * each line's end offset in that string (parallel runs cut kept lines out of a batch's text).
 */
export function csvBatchText(rows: readonly Row[], format: RowFormat, ends?: number[]): string {
  const { width, checked, cells } = format;
  // Lines joined natively into one flat string per batch: no cons-string chains for the GC to
  // walk, and nothing kept alive across batches.
  const lines = new Array<string>(rows.length + 1);
  let end = 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    for (let k = 0; k < width; k++) {
      const v = row[k];
      if (typeof v === 'string') {
        cells[k] = checked[k] && NEEDS_QUOTES.test(v) ? quote(v) : v;
      } else if (typeof v === 'number') {
        cells[k] = Number.isFinite(v) ? String(v) : '';
      } else {
        cells[k] = '';
      }
    }
    lines[i] = cells.join(',');
    if (ends) ends[i] = end += lines[i].length + 1;
  }
  lines[rows.length] = '';
  return lines.join('\n');
}

/**
 * Marks a table whose batches come formatted (parallel runs format in worker threads): the table
 * has `[PREFORMATTED]: true` and each batch `[PREFORMATTED]: Uint8Array[]`, UTF-8 pieces of its
 * lines that stay valid only until the next batch is asked for (they are views of reused
 * buffers), so such a table is written synchronously; `rows` is not read.
 */
export const PREFORMATTED = Symbol('preformatted CSV text');
/** A batch carrying its CSV text (see PREFORMATTED). */
export type PreformattedBatch = Batch & { [PREFORMATTED]: Uint8Array[] };
/** A table of preformatted batches (see PREFORMATTED). */
export type PreformattedTable = Table & { [PREFORMATTED]: true };

/** Bytes gathered before a write of preformatted text: few system calls for many small pieces. */
const WRITE_CHUNK = 1 << 20;

/** Writes a preformatted table: each batch's pieces are copied out before the next batch is asked for. */
async function writePreformatted(table: PreformattedTable, path: string): Promise<{ rows: number }> {
  const fd = openSync(path, 'w');
  const out = Buffer.allocUnsafeSlow(WRITE_CHUNK);
  let used = 0;
  const flush = () => {
    for (let at = 0; at < used;) at += writeSync(fd, out, at, used - at);
    used = 0;
  };
  let rows = 0;
  try {
    writeSync(fd, csvLine(table.columns) + '\n');
    for await (const batch of table.batches) {
      rows += batch.rowNumbers.length;
      for (const piece of (batch as PreformattedBatch)[PREFORMATTED]) {
        if (used + piece.length > out.length) flush();
        if (piece.length > out.length) {
          for (let at = 0; at < piece.length;) at += writeSync(fd, piece, at, piece.length - at);
        } else {
          out.set(piece, used);
          used += piece.length;
        }
      }
    }
    flush();
  } finally {
    closeSync(fd);
  }
  return { rows };
}

/** The file's text in large pieces: the header line, then one piece per batch. */
async function* csvText(table: Table, counter: { rows: number }): AsyncGenerator<string> {
  yield csvLine(table.columns) + '\n';
  const format = rowFormat(table.columns, table.types);
  for await (const batch of table.batches) {
    const rows: Row[] = batch.rows;
    if (rows.length === 0) continue;
    counter.rows += rows.length;
    yield csvBatchText(rows, format);
  }
}

/** A field in quotes, inner quotes doubled. */
function quote(value: string): string {
  return value.indexOf('"') === -1 ? '"' + value + '"' : '"' + value.replace(/"/g, '""') + '"';
}

/** Writes a table as CSV to `path` (not atomic: see writeTable); resolves with the number of data rows. */
export async function writeCsv(table: Table, path: string): Promise<{ rows: number }> {
  if ((table as Partial<PreformattedTable>)[PREFORMATTED]) return writePreformatted(table as PreformattedTable, path);
  const counter = { rows: 0 };
  // pipeline applies backpressure, and on any error (the rows' or the disk's) destroys both ends.
  await pipeline(Readable.from(csvText(table, counter), { objectMode: false }), createWriteStream(path, { highWaterMark: 1 << 20 }));
  return counter;
}
