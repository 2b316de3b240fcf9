/** Writes the engine's output file, atomically, as CSV or Excel (engine.md step 12). */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import { osReason } from '../read/csv.js';
import type { Table } from '../types.js';
import { writeAtomic } from './atomic.js';
import { writeCsv } from './csv.js';
import { writeXlsx } from './xlsx.js';

export { writeAtomic } from './atomic.js';
export { csvField, csvLine, writeCsv } from './csv.js';
export { writeXlsx } from './xlsx.js';

/**
 * Writes `table` to `path` through a temp file renamed on success; no partial file is ever left.
 * `warn` receives what the format made the writer change (Excel: characters XML cannot hold).
 */
export async function writeTable(table: Table, path: string, format: 'csv' | 'excel', warn?: (message: string) => void): Promise<{ rows: number }> {
  await checkWritable(path);
  return writeAtomic(path, (temp) => (format === 'excel' ? writeXlsx(table, temp, warn) : writeCsv(table, temp)));
}

/** Fails early, before any row moves, when the output cannot be created. */
async function checkWritable(path: string): Promise<void> {
  const folder = dirname(resolve(path));
  try {
    await access(folder, constants.W_OK);
  } catch (error) {
    const reason = osReason(error);
    const problem = reason === 'no such file or directory' ? 'does not exist' : `is not writable (${reason})`;
    throw new UsageError(`Cannot write ${path}: folder ${folder} ${problem}; create it or choose another output path.`);
  }
  const existing = await stat(path).catch(() => undefined);
  if (existing?.isDirectory()) {
    throw new UsageError(`Cannot write ${path}: it is a folder; give a file path for the output.`);
  }
}
