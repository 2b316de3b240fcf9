/** Writes the engine's output file, atomically, as CSV or Excel (engine.md step 12). */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import { osReason } from '../read/csv.js';
import type { Table } from '../types.js';
import { isWritableDescriptor, resolveWriteTarget, writeAtomic } from './atomic.js';
import { writeCsv } from './csv.js';
import { writeXlsx } from './xlsx.js';

export { writeAtomic } from './atomic.js';
export { csvField, csvLine, writeCsv } from './csv.js';
export { writeXlsx } from './xlsx.js';

/**
 * Writes `table` to `path` through a temp file renamed on success; no partial file is ever left
 * (a named pipe or a device such as /dev/tty is written directly, a descriptor we hold (/dev/stdout, /dev/fd/3) through that descriptor: see write/atomic.ts).
 * `warn` receives what the format made the writer change (characters UTF-8 or XML cannot hold, and more in Excel);
 * `beforeCommit` runs once every row is written, before the file takes the target's place (see WriteAtomicOptions).
 */
export async function writeTable(
  table: Table, path: string, format: 'csv' | 'excel', warn?: (message: string) => void, beforeCommit?: () => void | Promise<void>,
): Promise<{ rows: number }> {
  // Known here, before a row is read: a file of no columns holds only blank lines, which no reader takes for rows.
  if (table.columns.length === 0) {
    throw new UsageError(`The output ${path} would have no columns (every input column is unmapped, or a script removed them all), so nothing was written; map at least one column under config.mapping.`);
  }
  await checkWritable(path);
  // The XLSX writer patches what it wrote, so a pipe gets the finished workbook; CSV streams.
  return writeAtomic(path, (temp) => (format === 'excel' ? writeXlsx(table, temp, warn) : writeCsv(table, temp, warn)), { seeks: format === 'excel', beforeCommit });
}

/**
 * Fails early, before any row moves, when a file cannot be written at `path`: its folder (that of
 * the file a link names) is missing or not writable, or it is a folder; a pipe or a device must
 * be writable itself, and a descriptor we hold (/dev/fd/3) open for writing. `flag` names the option in the message (`--rejects`); the output when absent.
 */
export async function checkWritable(path: string, flag?: string): Promise<void> {
  const shown = flag ? `${path} (${flag})` : path;
  const other = flag ? `another ${flag} path` : 'another output path';
  const target = await resolveWriteTarget(path);
  // A descriptor we hold is written through, never opened again: it need only be open for writing.
  if (target.kind === 'descriptor') {
    if (isWritableDescriptor(target.fd)) return;
    throw new UsageError(`Cannot write ${shown}: file descriptor ${target.fd} is open for reading only; open it for writing in the shell (\`${target.fd}>>file\`) or choose ${other}.`);
  }
  if (target.kind === 'stream') {
    try {
      await access(target.path, constants.W_OK);
      return;
    } catch (error) {
      throw new UsageError(`Cannot write ${shown}: it is not writable (${osReason(error)}); choose ${other}.`);
    }
  }
  const folder = dirname(resolve(target.path));
  try {
    await access(folder, constants.W_OK);
  } catch (error) {
    const reason = osReason(error);
    const problem = reason === 'no such file or directory' ? 'does not exist' : `is not writable (${reason})`;
    throw new UsageError(`Cannot write ${shown}: folder ${folder} ${problem}; create it or choose ${other}.`);
  }
  const existing = await stat(target.path).catch(() => undefined);
  if (existing?.isDirectory()) {
    throw new UsageError(`Cannot write ${shown}: it is a folder; give a file path${flag ? ` to ${flag}` : ' for the output'}.`);
  }
}
