/**
 * `import serve` as a process (the built CLI, engine in worker threads): a job of 8 MiB or more
 * runs on an engine thread of its own that has run nothing before and ends with the run
 * (executor.ts, FRESH_THREAD_MIN_BYTES). Runs at once, one after another, and after a thread was
 * stopped at its time limit all give the same output. Run `npm run build` first.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRESH_THREAD_MIN_BYTES } from '../../src/emulator/executor.js';
import { spawnEmulator, ROOT, type SpawnedEmulator } from '../support/emulator.js';
import { call, startJob, waitForJob } from './helpers.js';

let work: string;
let large: string;
let scripts: string;
let marker: string;
const running: SpawnedEmulator[] = [];

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist', 'main.js'))) throw new Error('these tests run the built CLI: run `npm run build` first');
  work = await mkdtemp(join(tmpdir(), 'emulator-fresh-'));
  // The customers example repeated past the size that takes a fresh thread.
  const [header, ...rows] = readFileSync(join(ROOT, 'examples/customers/customers.csv'), 'utf8').trimEnd().split('\n');
  const block = rows.join('\n') + '\n';
  const copies = Math.ceil((FRESH_THREAD_MIN_BYTES + 512 * 1024) / Buffer.byteLength(block));
  large = join(work, 'large.csv');
  await writeFile(large, header + '\n' + block.repeat(copies));
  scripts = join(work, 'scripts');
  marker = join(work, 'stuck-now');
  await mkdir(scripts);
  // Runs at start too (for the suggestions): it loops only once the test creates the marker file.
  await writeFile(join(scripts, 'stuck.mjs'), `import { existsSync } from 'node:fs';\nexport default (t) => { if (existsSync(process.env.FRESH_MARKER)) for (;;) {} return t; };\n`);
});

afterAll(async () => {
  for (const emu of running) await emu.stop();
  await rm(work, { recursive: true, force: true });
});

async function serve(extraArgs: string[] = []): Promise<SpawnedEmulator> {
  const emu = await spawnEmulator({ scriptsDir: scripts, extraArgs, env: { FRESH_MARKER: marker } });
  running.push(emu);
  return emu;
}

/** Runs a job to its end; its answer body and its output's bytes. */
async function runToEnd(emu: SpawnedEmulator, jobId: string): Promise<{ body: any; output: Buffer }> {
  const answer = await call(emu, 'POST', `/run/${jobId}`, { returnWhenComplete: true });
  expect(answer.body.status, JSON.stringify(answer.body)).toBe('succeeded');
  return { body: answer.body, output: await readFile(answer.body.output.path) };
}

describe('large jobs on fresh engine threads', () => {
  it('runs two large jobs at once, then a third, with the same output and report', async () => {
    const emu = await serve();
    const [a, b] = await Promise.all([startJob(emu, { file: large }), startJob(emu, { file: large })]);
    const both = await Promise.all([runToEnd(emu, a), runToEnd(emu, b)]);
    const third = await runToEnd(emu, await startJob(emu, { file: large }));
    for (const r of [both[1], third]) {
      expect(r.output.equals(both[0].output)).toBe(true);
      expect({ ...r.body, jobId: '', output: undefined }).toEqual({ ...both[0].body, jobId: '', output: undefined });
    }
    expect(both[0].body.rowsIn).toBeGreaterThan(50_000);
  }, 120_000);

  it('after a large run stopped at --job-timeout, the next large job runs', async () => {
    await rm(marker, { force: true });
    const emu = await serve(['--job-timeout', '3s']);
    const stuck = await startJob(emu, { file: large, fields: { scripts: JSON.stringify({ preColumnMapping: ['stuck'] }) } });
    await writeFile(marker, '');
    expect((await call(emu, 'POST', `/run/${stuck}`, {})).status).toBe(200);
    const failed = await waitForJob(emu, stuck, 30_000);
    expect(failed.error.message).toMatch(/^The job ran longer than this service's limit of 3 s \(--job-timeout\)/);
    await rm(marker, { force: true });
    const next = await runToEnd(emu, await startJob(emu, { file: large }));
    expect(next.body.rowsIn).toBeGreaterThan(50_000);
  }, 120_000);
});
