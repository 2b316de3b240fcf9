/**
 * The dry run under hostile input and faults (issue 12), through the real CLI: a regular expression
 * that backtracks forever in a backtracking engine, one the engine cannot run in linear time, and
 * kill -9 / SIGTERM of a two-thread run (its spill files and temp output). Run `npm run build` first.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, runCli } from '../support/cli.js';

let work: string;
let bigDir: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'import-e2e-hostile-'));
  // The reference job on 100,000 rows (~17 MB): enough for the two-thread path.
  bigDir = join(work, 'big');
  await mkdir(bigDir);
  await new Promise<void>((done, fail) => {
    const child = spawn(process.execPath, [join(ROOT, 'test/bench/generate.mjs'), '100000', join(bigDir, 'in_1m.csv')], { stdio: 'ignore' });
    child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`generate.mjs exited ${code}`))));
  });
  copyFileSync(join(ROOT, 'test/bench/job-1m.yaml'), join(bigDir, 'job.yaml'));
}, 120_000);

afterAll(async () => { await rm(work, { recursive: true, force: true }); });

async function jobWithRule(name: string, pattern: string): Promise<string> {
  const dir = join(work, name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'data.csv'), ['id,v', ...Array.from({ length: 500 }, (_, i) => `${i},${'a'.repeat(40)}!`), ''].join('\n'));
  await writeFile(join(dir, 'job.yaml'), `version: 1\npipeline: p\ninput:\n  file: data.csv\nconfig:\n  text:\n    regexReplacement:\n      v: {${JSON.stringify(pattern)}: "X"}\n`);
  return join(dir, 'job.yaml');
}

describe('regular expressions in a dry run', () => {
  it('runs (a+)+$ over forty a and a ! without hanging, with the ECMAScript result', async () => {
    const job = await jobWithRule('redos', '(a+)+$');
    const r = await runCli(['dry-run', job, '--out', join(work, 'redos', 'out.csv'), '-o', 'json'], { timeoutMs: 30_000 });
    expect(r.timedOut).toBe(false);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).report.textChanges).toMatchObject([{ rule: 'regex (a+)+$', field: 'v', count: 0 }]);
  });

  it('refuses, with exit 2 in validate and dry-run, a pattern the linear engine cannot run', async () => {
    const job = await jobWithRule('backref', '(a)\\1');
    for (const command of ['validate', 'dry-run']) {
      const r = await runCli([command, job, ...(command === 'dry-run' ? ['--out', join(work, 'backref', 'out.csv')] : [])]);
      expect(r.exitCode, `${command}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain('cannot be run in linear time');
    }
    expect(existsSync(join(work, 'backref', 'out.csv'))).toBe(false);
  });
});

/** Starts a two-thread dry run of the big job with its own TMPDIR; resolves once it has spill files. */
async function spillingRun(temp: string, out: string) {
  const child = spawn(process.execPath, [BIN, 'dry-run', join(bigDir, 'job.yaml'), '--out', out], {
    env: { ...process.env, TMPDIR: temp, NO_COLOR: '1', CI: '1' }, stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.on('exit', (code, signal) => done({ code, signal })));
  const folder = join(temp, `import-work-${userInfo().uid}`, String(child.pid));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if ((await readdir(folder).catch(() => [])).length > 0) break;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the dry run never spilled: ${stderr}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return { child, exited, folder };
}

describe('temp and spill files of a two-thread dry run', () => {
  it('are removed on SIGTERM', async () => {
    const temp = join(work, 'tmp-term');
    await mkdir(temp);
    const out = join(work, 'term.csv');
    const run = await spillingRun(temp, out);
    run.child.kill('SIGTERM');
    await run.exited;
    expect(existsSync(run.folder)).toBe(false);
    expect((await readdir(work)).filter((f) => f.startsWith('.term.csv.'))).toEqual([]);
  }, 120_000);

  it('left by kill -9, are removed by the next run', async () => {
    const temp = join(work, 'tmp-kill');
    await mkdir(temp);
    const outDir = join(work, 'kill-out');
    await mkdir(outDir);
    const out = join(outDir, 'out.csv');
    const run = await spillingRun(temp, out);
    // Let the merge begin writing the output, then kill.
    await new Promise((r) => setTimeout(r, 300));
    run.child.kill('SIGKILL');
    await run.exited;
    expect((await readdir(run.folder)).length).toBeGreaterThan(0);

    const again = await runCli(['dry-run', join(bigDir, 'job.yaml'), '--out', out], { env: { TMPDIR: temp }, timeoutMs: 90_000 });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(existsSync(run.folder)).toBe(false);
    expect(await readdir(join(temp, `import-work-${userInfo().uid}`))).toEqual([]);
    expect(await readdir(outDir)).toEqual(['out.csv']);
  }, 180_000);
});

describe('Ctrl-C during a one-thread dry run', () => {
  it('stops the run at once (the reader gives the event loop a turn per chunk) and leaves no output', async () => {
    const outDir = join(work, 'int-out');
    await mkdir(outDir);
    const child = spawn(process.execPath, [BIN, 'dry-run', join(bigDir, 'job.yaml'), '--out', join(outDir, 'out.csv')], {
      env: { ...process.env, IMPORT_ENGINE_THREADS: '1', NO_COLOR: '1', CI: '1' }, stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.on('exit', (code, signal) => done({ code, signal })));
    // Once the temp output exists the run is writing rows; it still has most of the file to read.
    const deadline = Date.now() + 60_000;
    while ((await readdir(outDir)).length === 0) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the dry run never wrote: ${stderr}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    child.kill('SIGINT');
    const { code, signal } = await exited;
    expect(signal === 'SIGINT' || code === 130, `code ${code}, signal ${signal}: ${stderr}`).toBe(true);
    expect(await readdir(outDir)).toEqual([]);
  }, 120_000);
});
