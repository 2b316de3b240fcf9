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
 * /dev/tty) cannot be replaced by a rename: it is written directly, streaming, and is not atomic,
 * unless the write has a check to pass before it commits (`beforeCommit`: a dry run's output),
 * when it gets the finished temp file. A
 * descriptor this process holds, however named (/dev/stdout, /dev/fd/2, /proc/self/fd/3), is never
 * opened again: opening it anew would start over a file the shell opened for `>>` (`3>>log.csv`),
 * and cannot be done at all for a socket. It gets the whole output, written to a temp file first,
 * through the descriptor already open. A /dev/fd/N whose N this process was not given is refused.
 *
 * The same exit and signal handlers remove every other path registered with `removeOnExit`
 * (the parallel engine's spill folder).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, createReadStream, createWriteStream, fstatSync, openSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, type Stats } from 'node:fs';
import { chmod, lstat, readdir, readlink, realpath, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { UsageError } from '../../errors.js';

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
 * file or a folder (a FIFO, a character device, a socket), or anything under /dev or /proc:
 * written directly. `descriptor`: a descriptor this process holds, named by number (/dev/fd/N,
 * /proc/self/fd/N) or, for stdout (`fd` 1) and stderr (2), any path to the same device and inode
 * (/dev/stdout when fd 1 is a regular file opened for `>>` too): written into that open
 * descriptor, never opened again.
 */
export type WriteTarget = { kind: 'file' | 'stream'; path: string } | { kind: 'descriptor'; path: string; fd: number };

/**
 * Resolves `path` (relative to the working folder) to where a write goes; see WriteTarget. A
 * UsageError when `path` names a descriptor (/dev/fd/N) this process was not given.
 */
export async function resolveWriteTarget(path: string): Promise<WriteTarget> {
  const absolute = resolve(path);
  const info = await stat(absolute).catch(() => undefined);
  const fd = openDescriptor(absolute, info);
  if (fd !== undefined) return { kind: 'descriptor', path: absolute, fd };
  if (info && streams(absolute, info)) return { kind: 'stream', path: absolute };
  return { kind: 'file', path: await followLinks(absolute) };
}

/** Whether a write to `path` streams into it (WriteTarget `stream`); for code that must decide without waiting. */
export function isStreamTarget(path: string): boolean {
  const absolute = resolve(path);
  try {
    const info = statSync(absolute);
    return streams(absolute, info) && openDescriptor(absolute, info) === undefined;
  } catch {
    return false;
  }
}

/**
 * Whether descriptor `fd` may be written, as far as can be told: false when it is open for reading
 * only (`3<file`). Read from /proc/self/fdinfo; where there is none, true (the write then fails).
 */
export function isWritableDescriptor(fd: number): boolean {
  const mode = accessMode(fd);
  return mode === undefined || mode !== constants.O_RDONLY;
}

/** Whether an existing `absolute` path is written as a stream: under /dev or /proc, or neither a regular file nor a folder. */
function streams(absolute: string, info: Stats): boolean {
  return absolute.startsWith('/dev/') || absolute.startsWith('/proc/') || (!info.isFile() && !info.isDirectory());
}

/**
 * The descriptor of this process a write to `absolute` goes into, or undefined: N for /dev/fd/N,
 * /proc/self/fd/N or /proc/<our pid>/fd/N (a UsageError when N was not given to this process);
 * stdout or stderr for another name of the same file (`info`), such as /dev/stdout.
 */
function openDescriptor(absolute: string, info: Stats | undefined): number | undefined {
  const m = /^\/(?:dev\/fd|proc\/(?:self|thread-self|(\d+))\/fd)\/(\d+)$/.exec(absolute);
  if (m && (m[1] === undefined || Number(m[1]) === process.pid)) {
    const fd = Number(m[2]);
    if (!isGiven(fd)) {
      throw new UsageError(`Cannot use ${absolute}: file descriptor ${fd} is not open for this command; open it in the shell (for example \`${fd}>>out.csv\` after the command) or give a file path.`);
    }
    return fd;
  }
  return info && streams(absolute, info) ? standardStream(absolute, info) : undefined;
}

/**
 * Whether descriptor `fd` is one this process was given: open, and a file, a pipe, a socket or a
 * device. Node opens descriptors of its own from 3 on (epoll and eventfd, which are none of these,
 * and pipes it holds both ends of, which a shell never hands over): writing into one of those
 * would break Node itself, so they count as not given.
 */
function isGiven(fd: number): boolean {
  let info: Stats;
  try {
    info = fstatSync(fd);
  } catch {
    return false;
  }
  if (!(info.isFile() || info.isFIFO() || info.isSocket() || info.isCharacterDevice())) return false;
  return fd <= 2 || !info.isFIFO() || !holdsBothEnds(fd);
}

/** Whether this process holds the other end of the pipe `fd` too (Linux's /proc; false where there is none). */
function holdsBothEnds(fd: number): boolean {
  let pipe: string;
  let others: string[];
  try {
    pipe = readlinkSync(`/proc/self/fd/${fd}`);
    others = readdirSync('/proc/self/fd');
  } catch {
    return false;
  }
  const mode = accessMode(fd);
  return others.some((name) => {
    if (Number(name) === fd) return false;
    try {
      return readlinkSync(`/proc/self/fd/${name}`) === pipe && accessMode(Number(name)) !== mode;
    } catch {
      return false;
    }
  });
}

/** O_RDONLY, O_WRONLY or O_RDWR: how descriptor `fd` was opened, from /proc/self/fdinfo; undefined where that cannot be read. */
function accessMode(fd: number): number | undefined {
  try {
    const flags = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'));
    // The access mode is the two low bits (Linux O_ACCMODE); fdinfo exists on Linux only.
    return flags ? parseInt(flags[1], 8) & 3 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Which of this process's stdout (1) and stderr (2) the file `info` describes, by device and
 * inode, whatever its name; when both are that file (`2>&1`), the one the name ends with first
 * (`/dev/stderr`). /dev/null is only itself.
 */
function standardStream(absolute: string, info: Stats): 1 | 2 | undefined {
  if (absolute === '/dev/null') return undefined;
  const order = /\/stderr$/.test(absolute) ? [2, 1] as const : [1, 2] as const;
  for (const fd of order) {
    try {
      const open = fstatSync(fd);
      if (open.dev === info.dev && open.ino === info.ino) return fd;
    } catch {
      // Not open: it is not this one.
    }
  }
  return undefined;
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
  /**
   * Called once the whole file is written, before it takes the target's place: a throw leaves the
   * target as it was (a file it would replace keeps its contents; a pipe, stdout included, gets
   * nothing), so a run whose result fails a check afterwards destroys nothing. A stream target
   * then gets a temp file too, copied into it once this has passed.
   */
  beforeCommit?: () => void | Promise<void>;
}

/**
 * Runs `write` on a temp file, then renames it to `path` (to the file a link at `path` names),
 * with the permissions of the file it replaces; on any failure the temp file is removed and the error rethrown. A stream target (a FIFO,
 * /dev/tty) is handed to `write` itself; a descriptor this process holds gets the finished temp file: see WriteTarget.
 */
export async function writeAtomic<T>(path: string, write: (tempPath: string) => Promise<T>, options: WriteAtomicOptions = {}): Promise<T> {
  const target = await resolveWriteTarget(path);
  // A descriptor we hold is written through it, which a writer given a path cannot do.
  if (target.kind === 'descriptor' || (target.kind === 'stream' && (options.seeks || options.beforeCommit))) return writeThroughTemp(target, write, options.beforeCommit);
  if (target.kind === 'stream') return write(target.path);
  await sweepTempFiles(dirname(target.path), basename(target.path));
  const temp = tempPathFor(target.path);
  const forget = removeOnExit(temp);
  try {
    const result = await write(temp);
    await options.beforeCommit?.();
    // A new file gets the umask's mode; a replaced one keeps exactly its own (a private 600 stays private).
    const replaced = await stat(target.path).catch(() => undefined);
    if (replaced) await chmod(temp, replaced.mode & 0o7777);
    await rename(temp, target.path);
    return result;
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {});
    throw error;
  } finally {
    forget();
  }
}

/** Writes a stream target, or a descriptor this process holds, through a temp file in the system's temp folder, copied into it when complete. */
async function writeThroughTemp<T>(target: WriteTarget, write: (tempPath: string) => Promise<T>, beforeCommit?: () => void | Promise<void>): Promise<T> {
  const temp = join(tmpdir(), `.import-${basename(target.path)}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
  const forget = removeOnExit(temp);
  try {
    const result = await write(temp);
    await beforeCommit?.();
    if (target.kind === 'descriptor') {
      // Appended where the descriptor stands (`>>` keeps what the file held), and left open for what
      // follows; stdout and stderr through their streams, after what they hold already.
      if (target.fd === 1 || target.fd === 2) await pipeline(createReadStream(temp), target.fd === 1 ? process.stdout : process.stderr, { end: false });
      else await pipeline(createReadStream(temp), createWriteStream(target.path, { fd: target.fd, autoClose: false }));
    } else {
      // flags 'w' on a FIFO or a device truncates nothing.
      await pipeline(createReadStream(temp), createWriteStream(target.path, { flags: 'w' }));
    }
    return result;
  } catch (error) {
    // A reader waiting on a named pipe would wait for ever for a writer that never comes: it gets an empty stream.
    if (target.kind === 'stream') releaseReader(target.path);
    throw error;
  } finally {
    await rm(temp, { force: true }).catch(() => {});
    forget();
  }
}

/** Opens a named pipe for writing without waiting and closes it, so a reader blocked opening it sees its end; nothing when none waits. */
function releaseReader(path: string): void {
  try {
    closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // No reader (ENXIO), or not a pipe: nothing waits.
  }
}
