/**
 * Atomic output files: write to a temp file beside the target, rename on success, and remove the
 * temp file on any error, on exit and on SIGINT/SIGTERM/SIGHUP, so a partial output file is never
 * left behind. A temp file's name holds the pid of the process writing it
 * (`.<name>.<pid>-<random>.tmp`): what a kill -9 leaves is removed by the next write of the same
 * output (or the next start of `import serve`) once that process is gone.
 *
 * The same exit and signal handlers remove every other path registered with `removeOnExit`
 * (the parallel engine's spill folder).
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Paths to remove when the process ends: temp files being written, spill folders. */
const pending = new Set<string>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function removePending(): void {
  for (const path of pending) {
    try {
      rmSync(path, { force: true, recursive: true });
    } catch {
      // Best effort while exiting: nothing else can be done.
    }
  }
  pending.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  // Another handler (e.g. main's cancellation, serve's stop) decides what happens next: the work
  // then fails or the process exits, and the error path or the exit handler removes the paths.
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

/** Removes `path` (a file or a folder) when the process exits or is stopped by a signal; the function returned cancels that. */
export function removeOnExit(path: string): () => void {
  pending.add(path);
  install();
  return () => {
    pending.delete(path);
    if (pending.size === 0) uninstall();
  };
}

/** Whether process `pid` is alive (EPERM: it is, another user's). */
export function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const TEMP = /^\.(.+)\.(\d+)-[0-9a-f]{12}\.tmp$/;

/** The temp path used for `path`: `.<name>.<pid>-<random>.tmp` in the same directory (so the rename is atomic). */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
}

/** Removes the temp files in `dir` (of `name` only, when given) whose writing process is gone. */
export async function sweepTempFiles(dir: string, name?: string): Promise<void> {
  let entries: string[];
  try { entries = await readdir(dir); } catch { return; }
  for (const entry of entries) {
    const m = TEMP.exec(entry);
    if (!m || (name !== undefined && m[1] !== name) || isAlive(Number(m[2]))) continue;
    await rm(join(dir, entry), { force: true }).catch(() => {});
  }
}

/** Runs `write` on a temp file, then renames it to `path`; on any failure the temp file is removed and the error rethrown. */
export async function writeAtomic<T>(path: string, write: (tempPath: string) => Promise<T>): Promise<T> {
  await sweepTempFiles(dirname(path), basename(path));
  const temp = tempPathFor(path);
  const forget = removeOnExit(temp);
  try {
    const result = await write(temp);
    await rename(temp, path);
    return result;
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {});
    throw error;
  } finally {
    forget();
  }
}
