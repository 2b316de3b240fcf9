/**
 * `import serve` as a process (the built CLI, engine in worker threads) under work that never ends
 * or never should: hostile regular expressions, a script stuck in a loop, runs racing for one
 * output, a job that dies with the service again and again; and its keys kept off the command line.
 * Run `npm run build` first.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnEmulator, ROOT, type SpawnedEmulator } from '../support/emulator.js';
import { runCli } from '../support/cli.js';
import { call, start, startJob, waitForJob } from './helpers.js';

const CUSTOMERS = join(ROOT, 'examples/customers/customers.csv');

let work: string;
let scripts: string;
let marker: string;
const running: SpawnedEmulator[] = [];

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist', 'main.js'))) throw new Error('these tests run the built CLI: run `npm run build` first');
  work = await mkdtemp(join(tmpdir(), 'emulator-hostile-'));
  scripts = join(work, 'scripts');
  marker = join(work, 'run-now');
  await rm(scripts, { recursive: true, force: true });
  await import('node:fs/promises').then((fs) => fs.mkdir(scripts));
  // Scripts also run at start (for the suggestions): they misbehave only once the test creates the marker file.
  await writeFile(join(scripts, 'stuck.mjs'), `import { existsSync } from 'node:fs';\nexport default (t) => { if (existsSync(process.env.HOSTILE_MARKER)) for (;;) {} return t; };\n`);
  await writeFile(join(scripts, 'slow.mjs'), `import { existsSync } from 'node:fs';\nexport default async (t) => { if (existsSync(process.env.HOSTILE_MARKER)) await new Promise((r) => setTimeout(r, 3000)); return t; };\n`);
});

afterAll(async () => {
  for (const emu of running) await emu.stop();
  await rm(work, { recursive: true, force: true });
});

async function serve(extraArgs: string[], dataDir?: string, env: NodeJS.ProcessEnv = {}): Promise<SpawnedEmulator> {
  const emu = await spawnEmulator({ dataDir, scriptsDir: scripts, extraArgs, env: { HOSTILE_MARKER: marker, ...env } });
  running.push(emu);
  return emu;
}

/** Milliseconds a call takes. */
async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = Date.now();
  const value = await work();
  return { ms: Date.now() - started, value };
}

describe('work that would never end', () => {
  it('runs (a+)+$ on 40 a and a ! in two jobs at once, and a third client starts a job meanwhile', async () => {
    await rm(marker, { force: true });
    const emu = await serve([]);
    const rows = JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ id: i, v: `${'a'.repeat(40)}!` })));
    const jobs = await Promise.all([0, 1].map(() => startJob(emu, { fields: { jsonData: rows } })));
    for (const jobId of jobs) {
      const rule = await call(emu, 'POST', `/text-processing-methods/${jobId}`, { textProcessingMethods: { regexReplacement: { v: { '(a+)+$': 'X', '^(a|a)+$': 'Y' } } } });
      expect(rule.status).toBe(200);
      expect((await call(emu, 'POST', `/run/${jobId}`, {})).body.status).toBe('running');
    }
    // Another client, while both jobs run: answered within a few seconds.
    const third = await timed(() => start(emu, { file: CUSTOMERS }));
    expect(third.value.status).toBe(200);
    expect(third.ms).toBeLessThan(5000);
    for (const jobId of jobs) {
      const done = await waitForJob(emu, jobId, 30_000);
      expect(done.status).toBe('succeeded');
      expect(done.result.report.textChanges).toMatchObject([
        { rule: 'regex (a+)+$', field: 'v', count: 0 },
        { rule: 'regex ^(a|a)+$', field: 'v', count: 0 },
      ]);
    }
  }, 60_000);

  it('ends a job past --job-timeout as failed with the reason, while other clients are served', async () => {
    await rm(marker, { force: true });
    const emu = await serve(['--job-timeout', '2s']);
    const stuck = await startJob(emu, { file: CUSTOMERS, fields: { scripts: JSON.stringify({ preColumnMapping: ['stuck'] }) } });
    await writeFile(marker, '');
    expect((await call(emu, 'POST', `/run/${stuck}`, {})).status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    // The stuck job holds one engine thread; another client's job starts and runs.
    const other = await timed(async () => {
      const jobId = await startJob(emu, { file: CUSTOMERS });
      return call(emu, 'POST', `/run/${jobId}`, { returnWhenComplete: true });
    });
    expect(other.value.body.status).toBe('succeeded');
    expect(other.ms).toBeLessThan(5000);
    const failed = await waitForJob(emu, stuck, 20_000);
    expect(failed.status).toBe('failed');
    expect(failed.error).toEqual({ code: 'job_failed', message: 'The job ran longer than this service\'s limit of 2 s (--job-timeout) and was stopped; make it smaller, or start the service with a longer --job-timeout.' });
    const run = await call(emu, 'POST', `/run/${stuck}`, { returnWhenComplete: true });
    expect(run.status).toBe(409);
    // And the service goes on: a new engine thread takes the next job.
    await rm(marker, { force: true });
    const after = await startJob(emu, { file: CUSTOMERS, fields: { scripts: JSON.stringify({ preColumnMapping: ['stuck'] }) } });
    expect((await call(emu, 'POST', `/run/${after}`, { returnWhenComplete: true })).body.status).toBe('succeeded');
  }, 60_000);

  it('runs a job that dies with the service at most 3 times, then marks it failed', async () => {
    await writeFile(marker, '');
    const dataDir = join(work, 'crashing');
    let emu = await serve(['--job-timeout', '0'], dataDir);
    await rm(marker, { force: true });
    const jobId = await startJob(emu, { file: CUSTOMERS, fields: { scripts: JSON.stringify({ preColumnMapping: ['stuck'] }) } });
    await writeFile(marker, '');
    await call(emu, 'POST', `/run/${jobId}`, {});
    for (let attempt = 1; attempt <= 3; attempt++) {
      await emu.waitForStderr(`running (attempt ${attempt} of at most 3)`);
      emu.child.kill('SIGKILL');
      await emu.exited;
      emu = await serve(['--job-timeout', '0'], dataDir);
    }
    await emu.waitForStderr('not run again after 3 attempts');
    const status = await waitForJob(emu, jobId, 10_000);
    expect(status.status).toBe('failed');
    expect(status.error.message).toMatch(/^The job was interrupted 3 times while it ran/);
  }, 90_000);

  it('refuses with 409 a run that would write the output another running job writes', async () => {
    await rm(marker, { force: true });
    const emu = await serve([]);
    const slow = await startJob(emu, { file: CUSTOMERS, fields: { destinationFileName: 'customers-out.csv', scripts: JSON.stringify({ preColumnMapping: ['slow'] }) } });
    const second = await startJob(emu, { file: CUSTOMERS, fields: { destinationFileName: 'customers-out.csv' } });
    await writeFile(marker, '');
    expect((await call(emu, 'POST', `/run/${slow}`, {})).status).toBe(200);
    const refused = await call(emu, 'POST', `/run/${second}`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(`Job ${slow} is writing customers-out.csv now (destinationFileName); run this job when it has finished, or start it with another destinationFileName.`);
    expect((await waitForJob(emu, slow, 20_000)).status).toBe('succeeded');
    expect((await call(emu, 'POST', `/run/${second}`, { returnWhenComplete: true })).body.status).toBe('succeeded');
  }, 60_000);
});

describe('keys off the command line', () => {
  it('takes keys from IMPORT_SERVE_API_KEYS and --api-key-file, and says --api-key is visible to other users', async () => {
    const keyFile = join(work, 'keys.txt');
    await writeFile(keyFile, '# CI keys\nfrom-file-1\n\nfrom-file-2\n');
    const emu = await serve(['--api-key-file', keyFile], undefined, { IMPORT_SERVE_API_KEYS: 'from-env-1, from-env-2' });
    const fields = (key?: string) => fetch(`${emu.apiUrl}/fields/job_AAAAAAAAAAAAAAAA`, { headers: key === undefined ? {} : { 'x-api-key': key } }).then((r) => r.status);
    expect(await fields()).toBe(401);
    expect(await fields('test')).toBe(401);
    for (const key of ['from-file-1', 'from-file-2', 'from-env-1', 'from-env-2']) expect(await fields(key)).toBe(404);
    expect(emu.stderr()).not.toMatch(/from-(file|env)/);
    const help = await runCli(['serve', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('visible to every local user in the process list: prefer --api-key-file or IMPORT_SERVE_API_KEYS');
    const missing = await runCli(['serve', '--port', '0', '--api-key-file', join(work, 'no-such-file')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('Cannot read the key file');
  }, 60_000);
});

describe('a header line with no line break', () => {
  // The CSV reader refuses a header line over 4 MiB (engine/read/limits.ts) with InputLimitError.
  it('answers 413 in serve and exits 2 in a dry run, fast, for a 40 MB header line', async () => {
    const file = join(work, 'one-line.csv');
    await writeFile(file, 'a,'.repeat(20 * 1024 * 1024));
    const emu = await serve([]);
    const answer = await timed(() => start(emu, { file }));
    expect(answer.value.status).toBe(413);
    expect(answer.value.body.error.code).toBe('too_large');
    expect(answer.ms).toBeLessThan(10_000);
    expect((await fetch(`${emu.url}/healthz`)).status).toBe(200);
    await writeFile(join(work, 'one-line.yaml'), 'version: 1\npipeline: p\ninput:\n  file: one-line.csv\n');
    const dry = await runCli(['dry-run', join(work, 'one-line.yaml'), '--out', join(work, 'out.csv')], { timeoutMs: 30_000 });
    expect(dry.exitCode).toBe(2);
  }, 60_000);
});
