import { spawnSync } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempPathFor, writeAtomic } from '../../../src/engine/write/atomic.js';
import { writeTable } from '../../../src/engine/write/index.js';
import type { Batch, Table } from '../../../src/engine/types.js';

let dir: string;
/** atomic.ts as built (npm test builds first), for child processes. */
const atomicJs = fileURLToPath(new URL('../../../dist/engine/write/atomic.js', import.meta.url));
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'import-write-atomic-'));
});

/** Runs an ES module script in a child Node process. */
function runChild(script: string): ReturnType<typeof spawnSync> {
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
}
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A table whose batches fail after the first one. */
function failingTable(): Table {
  return {
    columns: ['a'],
    types: [undefined],
    batches: (async function* (): AsyncGenerator<Batch> {
      yield { rows: [['1'], ['2']], rowNumbers: [1, 2] };
      throw new Error('source broke');
    })(),
  };
}

describe('atomic writer', () => {
  it('names the temp file .<name>.<pid>-<random>.tmp in the same folder', () => {
    const temp = tempPathFor(join(dir, 'out.csv'));
    expect(dirname(temp)).toBe(dir);
    expect(basename(temp)).toMatch(new RegExp(`^\\.out\\.csv\\.${process.pid}-[0-9a-f]{12}\\.tmp$`));
  });

  it('leaves no file when the CSV source throws', async () => {
    const sub = await mkdtemp(join(dir, 'csv-'));
    await expect(writeTable(failingTable(), join(sub, 'out.csv'), 'csv')).rejects.toThrow('source broke');
    expect(await readdir(sub)).toEqual([]);
  });

  it('leaves no file when the Excel source throws', async () => {
    const sub = await mkdtemp(join(dir, 'xlsx-'));
    await expect(writeTable(failingTable(), join(sub, 'out.xlsx'), 'excel')).rejects.toThrow('source broke');
    expect(await readdir(sub)).toEqual([]);
  });

  it('keeps an existing output file untouched when the write fails', async () => {
    const sub = await mkdtemp(join(dir, 'keep-'));
    const path = join(sub, 'out.csv');
    await writeFile(path, 'old\n');
    await expect(writeTable(failingTable(), path, 'csv')).rejects.toThrow('source broke');
    expect(await readFile(path, 'utf8')).toBe('old\n');
    expect(await readdir(sub)).toEqual(['out.csv']);
  });

  it('replaces the output only once the write has succeeded', async () => {
    const sub = await mkdtemp(join(dir, 'replace-'));
    const path = join(sub, 'out.txt');
    await writeFile(path, 'old');
    const result = await writeAtomic(path, async (temp) => {
      await writeFile(temp, 'new');
      expect(await readFile(path, 'utf8')).toBe('old');
      return 42;
    });
    expect(result).toBe(42);
    expect(await readFile(path, 'utf8')).toBe('new');
    expect(await readdir(sub)).toEqual(['out.txt']);
  });

  it('removes the temp file when the process is interrupted mid-write', async () => {
    const sub = await mkdtemp(join(dir, 'sigint-'));
    const target = join(sub, 'out.csv');
    // A child process that starts an atomic write, then gets SIGINT while the temp file exists.
    const script = `
      const { writeAtomic } = await import(${JSON.stringify(atomicJs)});
      const { writeFile } = await import('node:fs/promises');
      await writeAtomic(${JSON.stringify(target)}, async (temp) => {
        await writeFile(temp, 'partial');
        process.kill(process.pid, 'SIGINT');
        await new Promise((resolve) => setTimeout(resolve, 5000));
      });
    `;
    const child = runChild(script);
    expect(child.stderr).toBe('');
    expect(child.signal).toBe('SIGINT');
    expect(await readdir(sub)).toEqual([]);
  });

  it('removes the temp file when the process exits mid-write', async () => {
    const sub = await mkdtemp(join(dir, 'exit-'));
    const target = join(sub, 'out.csv');
    const script = `
      const { writeAtomic } = await import(${JSON.stringify(atomicJs)});
      const { writeFile } = await import('node:fs/promises');
      await writeAtomic(${JSON.stringify(target)}, async (temp) => {
        await writeFile(temp, 'partial');
        process.exit(3);
      });
    `;
    const child = runChild(script);
    expect(child.status).toBe(3);
    expect(await readdir(sub)).toEqual([]);
  });

  it('writes through a symbolic link: the link stays and the file it names is replaced', async () => {
    const sub = await mkdtemp(join(dir, 'link-'));
    await mkdir(join(sub, 'real'));
    await writeFile(join(sub, 'real', 'target.csv'), 'old');
    await symlink('real/target.csv', join(sub, 'out.csv'));
    await writeAtomic(join(sub, 'out.csv'), async (temp) => {
      // The temp file is beside the target, so the rename is atomic there.
      expect(dirname(temp)).toBe(join(sub, 'real'));
      await writeFile(temp, 'new');
    });
    expect((await lstat(join(sub, 'out.csv'))).isSymbolicLink()).toBe(true);
    expect(await readlink(join(sub, 'out.csv'))).toBe('real/target.csv');
    expect(await readFile(join(sub, 'real', 'target.csv'), 'utf8')).toBe('new');
    expect((await readdir(join(sub, 'real'))).sort()).toEqual(['target.csv']);
  });

  it('creates the file a dangling link names, keeping the link', async () => {
    const sub = await mkdtemp(join(dir, 'dangling-'));
    await mkdir(join(sub, 'real'));
    await symlink('real/later.csv', join(sub, 'out.csv'));
    await writeAtomic(join(sub, 'out.csv'), (temp) => writeFile(temp, 'new'));
    expect((await lstat(join(sub, 'out.csv'))).isSymbolicLink()).toBe(true);
    expect(await readFile(join(sub, 'real', 'later.csv'), 'utf8')).toBe('new');
  });
});
