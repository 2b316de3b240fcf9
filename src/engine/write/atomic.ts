/**
 * Atomic output files: write to a temp file beside the target, rename on success, and remove the
 * temp file on any error, on exit and on Ctrl-C, so a partial output file is never left behind.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Temp files being written right now, removed by the exit and signal handlers. */
const pending = new Set<string>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function removePending(): void {
  for (const path of pending) {
    try {
      rmSync(path, { force: true });
    } catch {
      // Best effort while exiting: nothing else can be done.
    }
  }
  pending.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  // Another handler (e.g. main's cancellation) decides what happens next: the write then fails
  // or the process exits, and the error path or the exit handler removes the temp file.
  if (process.listenerCount(signal) > 1) return;
  // Nobody else handles it: clean up, restore the default action (terminate) and re-raise.
  removePending();
  uninstall();
  process.kill(process.pid, signal);
}

let installed = false;
function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', removePending);
  for (const signal of SIGNALS) process.on(signal, onSignal);
}
function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.off('exit', removePending);
  for (const signal of SIGNALS) process.off(signal, onSignal);
}

/** The temp path used for `path`: `.<name>.<random>.tmp` in the same directory (so the rename is atomic). */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
}

/** Runs `write` on a temp file, then renames it to `path`; on any failure the temp file is removed and the error rethrown. */
export async function writeAtomic<T>(path: string, write: (tempPath: string) => Promise<T>): Promise<T> {
  const temp = tempPathFor(path);
  pending.add(temp);
  install();
  try {
    const result = await write(temp);
    await rename(temp, path);
    return result;
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {});
    throw error;
  } finally {
    pending.delete(temp);
    if (pending.size === 0) uninstall();
  }
}
