/**
 * Atomic output files: write to a temp file beside the target, rename on success, and remove the
 * temp file on any error, on exit and on SIGINT/SIGTERM/SIGHUP, so a partial output file is never
 * left behind. A temp file's name holds the pid of the process writing it
 * (`.<name>.<pid>-<random>.tmp`): what a kill -9 leaves is removed by the next write of the same
 * output (or the next start of `import serve`) once that process is gone.
 *
 * A target that is a symbolic link is written through: the temp file goes beside the file the
 * link names and is renamed over that file, so the link stays and its target changes atomically.
 * A target that exists and is not a regular file (a named pipe, a character device such as
 * /dev/stdout, /dev/fd/N from a shell's process substitution) cannot be replaced by a rename: it
 * is written directly, streaming, and is not atomic.
 *
 * The same exit and signal handlers remove every other path registered with `removeOnExit`
 * (the parallel engine's spill folder).
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, rmSync, statSync, type Stats } from 'node:fs';
import { lstat, readdir, readlink, realpath, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';

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

/**
 * Removes the temp files in `dir` that this process was writing: for writers that were stopped
 * where their own clean-up could not run (an engine thread terminated by `import serve`'s stop).
 */
export async function removeOwnTempFiles(dir: string): Promise<void> {
  let entries: string[];
  try { entries = await readdir(dir); } catch { return; }
  for (const entry of entries) {
    const m = TEMP.exec(entry);
    if (m && Number(m[2]) === process.pid) await rm(join(dir, entry), { force: true }).catch(() => {});
  }
}

/**
 * Where a write to `path` goes. `file`: a regular file (or none yet) at `path`, the file a
 * symbolic link at `path` names (followed to its end, even when that file does not exist yet):
 * written through a temp file beside it. `stream`: something that exists and is not a regular
 * file or a folder (a FIFO, a character device, a socket), or anything under /dev or /proc
 * (/dev/stdout names whatever fd 1 is, even a regular file): written directly.
 */
export type WriteTarget = { kind: 'file' | 'stream'; path: string };

/** Resolves `path` (relative to the working folder) to where a write goes; see WriteTarget. */
export async function resolveWriteTarget(path: string): Promise<WriteTarget> {
  const absolute = resolve(path);
  const info = await stat(absolute).catch(() => undefined);
  if (info && streams(absolute, info)) return { kind: 'stream', path: absolute };
  return { kind: 'file', path: await followLinks(absolute) };
}

/** Whether a write to `path` streams into it (WriteTarget `stream`); for code that must decide without waiting. */
export function isStreamTarget(path: string): boolean {
  const absolute = resolve(path);
  try {
    return streams(absolute, statSync(absolute));
  } catch {
    return false;
  }
}

/** Whether an existing `absolute` path is written as a stream: under /dev or /proc, or neither a regular file nor a folder. */
function streams(absolute: string, info: Stats): boolean {
  return absolute.startsWith('/dev/') || absolute.startsWith('/proc/') || (!info.isFile() && !info.isDirectory());
}

/** The real path of the file `path` names, following links (a dangling link's final name too), with the real path of its folder. */
async function followLinks(path: string): Promise<string> {
  let current = path;
  for (let hops = 0; hops < 40; hops++) {
    const info = await lstat(current).catch(() => undefined);
    if (!info?.isSymbolicLink()) break;
    current = resolve(dirname(current), await readlink(current));
  }
  const folder = await realpath(dirname(current)).catch(() => dirname(current));
  return join(folder, basename(current));
}

/** Options of writeAtomic. */
export interface WriteAtomicOptions {
  /**
   * The writer goes back over what it wrote (the XLSX writer patches ZIP headers; a rejects file
   * starts over): a stream target then gets a temp file in the system's temp folder, copied into
   * it once complete.
   */
  seeks?: boolean;
}

/**
 * Runs `write` on a temp file, then renames it to `path` (to the file a link at `path` names);
 * on any failure the temp file is removed and the error rethrown. A stream target (a FIFO,
 * /dev/stdout) is handed to `write` itself: see WriteTarget.
 */
export async function writeAtomic<T>(path: string, write: (tempPath: string) => Promise<T>, options: WriteAtomicOptions = {}): Promise<T> {
  const target = await resolveWriteTarget(path);
  if (target.kind === 'stream') return options.seeks ? writeThroughTemp(target.path, write) : write(target.path);
  await sweepTempFiles(dirname(target.path), basename(target.path));
  const temp = tempPathFor(target.path);
  const forget = removeOnExit(temp);
  try {
    const result = await write(temp);
    await rename(temp, target.path);
    return result;
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {});
    throw error;
  } finally {
    forget();
  }
}

/** Writes a stream target through a temp file in the system's temp folder, copied into it when complete. */
async function writeThroughTemp<T>(path: string, write: (tempPath: string) => Promise<T>): Promise<T> {
  const temp = join(tmpdir(), `.import-${basename(path)}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
  const forget = removeOnExit(temp);
  try {
    const result = await write(temp);
    // flags 'w' on a FIFO or a device truncates nothing; on /dev/stdout redirected to a file it starts it over, as `cp x /dev/stdout` does.
    await pipeline(createReadStream(temp), createWriteStream(path, { flags: 'w' }));
    return result;
  } finally {
    await rm(temp, { force: true }).catch(() => {});
    forget();
  }
}
