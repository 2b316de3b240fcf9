/**
 * The files one command reads and writes must be different files: an output written over the job
 * file, the input being read or another output would destroy it, however the paths are spelled
 * (`./a/../x`, a symbolic link, a hard link). Checked before anything runs or is written.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';

/** One file a command reads or writes. */
export interface NamedFile {
  /** The path (relative to the working folder, or absolute). */
  path: string;
  /** How the user knows it, for the message: `--out out.csv`, `the job file job.yaml`. */
  label: string;
  /** How to fix a clash by changing this file (only files the command writes need one): `choose another --out path`. */
  fix?: string;
}

/**
 * Throws a UsageError (exit 2) when two of `files` are the same file: the same real path (links
 * followed, for a file that does not exist yet too) or, for files that exist, the same device and
 * inode. Reads come first in `files`; the later file of a clash, the one written, is named first
 * with its fix. /dev/null may be named more than once.
 */
export async function checkDistinctFiles(files: NamedFile[], cwd: string): Promise<void> {
  const { resolveWriteTarget } = await import('../engine/write/atomic.js');
  const seen: { file: NamedFile; real: string; id?: string }[] = [];
  for (const file of files) {
    const absolute = resolve(cwd, file.path);
    if (absolute === '/dev/null') continue;
    const real = (await resolveWriteTarget(absolute)).path;
    const info = await stat(absolute).catch(() => undefined);
    const id = info ? `${info.dev}:${info.ino}` : undefined;
    const clash = seen.find((s) => s.real === real || (id !== undefined && s.id === id));
    if (clash) {
      const fix = file.fix ?? clash.file.fix ?? 'give each its own path';
      throw new UsageError(`${capitalize(file.label)} is the same file as ${clash.file.label}; ${fix}.`);
    }
    seen.push({ file, real, id });
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
