/**
 * Where the parallel path's spill files go: one folder per process,
 * `$TMPDIR/import-work-<uid>/<pid>/`, removed when the process exits or is stopped by a signal
 * (write/atomic.ts). A kill -9 leaves the folder behind; the next process that spills, and every
 * start of `import serve`, removes the folders of processes that are gone.
 */
import { lstatSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { isAlive, removeOnExit } from '../write/atomic.js';

/** The folder holding every process's spill folder, one per user (others cannot write in it). */
export function spillRoot(): string {
  let uid: number | string = 'user';
  try { uid = userInfo().uid; } catch { /* no user entry: one shared name */ }
  return join(tmpdir(), `import-work-${uid}`);
}

let own: string | undefined;

/** This process's spill folder, made on first use (the folders of dead processes are removed then). */
export function spillDir(): string {
  if (own) return own;
  const root = spillRoot();
  mkdirSync(root, { recursive: true, mode: 0o700 });
  // A folder someone else made (or a link) is not ours to write into.
  const stat = lstatSync(root);
  if (!stat.isDirectory() || (typeof process.getuid === 'function' && stat.uid !== process.getuid())) {
    throw new Error(`${root} is not a folder of this user; remove it or set TMPDIR to another folder`);
  }
  sweepSpills();
  const dir = join(root, String(process.pid));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  removeOnExit(dir);
  own = dir;
  return dir;
}

/** Removes the spill folders of processes that are gone (a kill -9, a crash). */
export function sweepSpills(): void {
  let names: string[];
  try { names = readdirSync(spillRoot()); } catch { return; }
  for (const name of names) {
    if (!/^\d+$/.test(name) || isAlive(Number(name))) continue;
    try { rmSync(join(spillRoot(), name), { recursive: true, force: true }); } catch { /* another process swept it */ }
  }
}

/** Removes this process's spill folder now (`import serve` on stop: its engine threads are gone). */
export function removeOwnSpills(): void {
  const dir = join(spillRoot(), String(process.pid));
  try { rmSync(dir, { recursive: true, force: true }); } catch { /* best effort */ }
  own = undefined;
}
