/**
 * CSV writer (engine.md step 12): UTF-8 without BOM, comma, `\n`, a header row; a field is quoted
 * only when it holds a comma, a quote, CR or LF, or starts or ends with a space.
 */
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Row, Table, Value } from '../types.js';

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

/** The file's text in large pieces: the header line, then one piece per batch. */
async function* csvText(table: Table, counter: { rows: number }): AsyncGenerator<string> {
  yield csvLine(table.columns) + '\n';
  // Numbers and dates are written from values the engine made (`String(n)`, `YYYY-MM-DDTHH:mm:ss`):
  // they never need quotes, so only the other columns are checked.
  const width = table.columns.length;
  const checked: boolean[] = table.columns.map((_, i) => table.types[i] !== 'date_time');
  const cells = new Array<string>(width);
  for await (const batch of table.batches) {
    const rows: Row[] = batch.rows;
    if (rows.length === 0) continue;
    // Lines joined natively into one flat string per batch: no cons-string chains for the GC to
    // walk, and nothing kept alive across batches.
    const lines = new Array<string>(rows.length + 1);
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
    }
    lines[rows.length] = '';
    counter.rows += rows.length;
    yield lines.join('\n');
  }
}

/** A field in quotes, inner quotes doubled. */
function quote(value: string): string {
  return value.indexOf('"') === -1 ? '"' + value + '"' : '"' + value.replace(/"/g, '""') + '"';
}

/** Writes a table as CSV to `path` (not atomic: see writeTable); resolves with the number of data rows. */
export async function writeCsv(table: Table, path: string): Promise<{ rows: number }> {
  const counter = { rows: 0 };
  // pipeline applies backpressure, and on any error (the rows' or the disk's) destroys both ends.
  await pipeline(Readable.from(csvText(table, counter), { objectMode: false }), createWriteStream(path, { highWaterMark: 1 << 20 }));
  return counter;
}
