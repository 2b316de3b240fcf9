/** Helpers of the differential probes (CSV, XLSX, JSON readers against Python's readers): make the files with a probe's generator, read one as our reader does, and name the first cell where two tables differ. */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { openInput } from '../../src/engine/read/index.js';
import type { Row } from '../../src/engine/types.js';

/** A table as read, or the error that refused it. */
export type Reading = { columns: string[]; rows: Row[] } | { refused: unknown };

/** Reads `file` (its `sheet`, for a workbook) through the engine's reader, as the dry run does. */
export async function readTable(file: string, sheet?: string): Promise<Reading> {
  try {
    const table = await (await openInput({ file })).open(sheet === undefined ? {} : { sheet });
    const rows: Row[] = [];
    for await (const batch of table.batches) rows.push(...batch.rows);
    return { columns: table.columns, rows };
  } catch (error) {
    return { refused: error };
  }
}

/** The first place where two tables differ (the columns, or a row's first three differing cells), said in a line; undefined when they are the same. */
export function firstDifference(got: { columns: string[]; rows: Row[] }, want: { columns: string[]; rows: Row[] }): string | undefined {
  if (JSON.stringify(got.columns) !== JSON.stringify(want.columns)) return `columns ${JSON.stringify(got.columns)} != ${JSON.stringify(want.columns)}`;
  for (let i = 0; i < Math.max(got.rows.length, want.rows.length); i++) {
    const a = got.rows[i];
    const b = want.rows[i];
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    const width = Math.max(a?.length ?? 0, b?.length ?? 0);
    const cells: string[] = [];
    for (let c = 0; c < width && cells.length < 3; c++) {
      const x = JSON.stringify(a?.[c]);
      const y = JSON.stringify(b?.[c]);
      if (x !== y) cells.push(`column ${JSON.stringify(want.columns[c] ?? c + 1)}: ${x?.slice(0, 200)} != ${y?.slice(0, 200)}`);
    }
    return `row ${i + 1}: ${cells.join('; ')} (${got.rows.length} rows read, ${want.rows.length} expected)`;
  }
  return undefined;
}

/** The manifest.json a probe's generator writes into `dir`: one entry per file it made. */
export async function readManifest<T>(dir: string): Promise<T[]> {
  return JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as T[];
}

/**
 * Runs a probe's seeded generator (`python [pythonArgs] generator DIR --seed S --count N`) into a
 * new temp folder (`import-<name>-probe-*`, removed again if the generator fails) and reads its manifest.
 */
async function generateProbe<T>(
  python: string, generator: string, name: string, seed: number, count: number, options: { pythonArgs?: string[]; timeoutMs?: number } = {},
): Promise<{ dir: string; manifest: T[] }> {
  const dir = await mkdtemp(join(tmpdir(), `import-${name}-probe-`));
  const made = spawnSync(python, [...(options.pythonArgs ?? []), generator, dir, '--seed', String(seed), '--count', String(count)], { encoding: 'utf8', timeout: options.timeoutMs ?? 60_000 });
  if (made.status !== 0) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`${basename(generator)} failed: ${made.stderr}`);
  }
  return { dir, manifest: await readManifest<T>(dir) };
}

/**
 * A test file's probe files: made by the generator before the file's tests (when `python` was
 * found; see generateProbe) and removed after them. The object returned is filled in then.
 */
export function useProbe<T>(
  python: string | undefined, generator: string, name: string, seed: number, count: number,
  options: { pythonArgs?: string[]; timeoutMs?: number; hookTimeoutMs?: number } = {},
): { dir: string; manifest: T[] } {
  const made: { dir: string; manifest: T[] } = { dir: '', manifest: [] };
  beforeAll(async () => {
    if (!python) return;
    Object.assign(made, await generateProbe<T>(python, generator, name, seed, count, options));
  }, options.hookTimeoutMs);
  afterAll(async () => {
    if (made.dir) await rm(made.dir, { recursive: true, force: true });
  });
  return made;
}
