// End to end: `node bin/import.js serve` as a child process (run `npm run build` first).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnEmulator, ROOT, type SpawnedEmulator } from '../support/emulator.js';
import { call, startJob, waitForJob } from './helpers.js';

const CUSTOMERS = join(ROOT, 'examples/customers/customers.csv');
const SCHEMA = 'examples/customers/schema.yaml';
const BIG_ROWS = 400_000;

let work: string;
let bigFile: string;
const running: SpawnedEmulator[] = [];

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist', 'main.js'))) throw new Error('these tests run the built CLI: run `npm run build` first');
  work = await mkdtemp(join(tmpdir(), 'emulator-restart-'));
  bigFile = join(work, 'big.csv');
  await new Promise<void>((done, fail) => {
    const child = spawn(process.execPath, [join(ROOT, 'test/bench/generate.mjs'), String(BIG_ROWS), bigFile], { stdio: 'inherit' });
    child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`generate.mjs exited ${code}`))));
  });
}, 120_000);

afterAll(async () => {
  for (const emu of running) await emu.stop();
  await rm(work, { recursive: true, force: true });
});

async function serve(dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<SpawnedEmulator> {
  const emu = await spawnEmulator({ dataDir, schema: SCHEMA, env });
  running.push(emu);
  return emu;
}

describe('import serve as a process', () => {
  it('prints its URL on stdout, warns about the missing key, and exits 0 on SIGINT', async () => {
    const emu = await serve(join(work, 'sigint'));
    expect(emu.stdout()).toMatch(/^Listening on http:\/\/127\.0\.0\.1:\d+\n$/);
    await emu.waitForStderr(/no API key given/);
    expect((await fetch(`${emu.url}/healthz`).then((r) => r.json()) as any).executor).toBe('worker');
    emu.child.kill('SIGINT');
    expect(await emu.exited).toEqual({ code: 0, signal: null });
  });

  it('keeps jobs, their configuration and their state across a restart', async () => {
    const dataDir = join(work, 'restart');
    let emu = await serve(dataDir);
    const configured = await startJob(emu, { file: CUSTOMERS, fields: { pipelineId: 'pl_customers', jobName: 'keep me' } });
    const text = { textProcessingMethods: { casing: { country: 'upper' } } };
    expect((await call(emu, 'POST', `/text-processing-methods/${configured}`, text)).status).toBe(200);
    const fieldsBefore = (await call(emu, 'GET', `/fields/${configured}`)).body;
    const done = await startJob(emu, { file: CUSTOMERS, fields: { pipelineId: 'pl_customers' } });
    expect((await call(emu, 'POST', `/run/${done}`, { returnWhenComplete: true })).body.status).toBe('succeeded');
    emu.child.kill('SIGTERM');
    expect((await emu.exited).code).toBe(0);

    emu = await serve(dataDir);
    await emu.waitForStderr('Loaded 2 job(s)');
    expect((await call(emu, 'GET', `/text-processing-methods/${configured}`)).body).toEqual(text);
    expect((await call(emu, 'GET', `/fields/${configured}`)).body).toEqual(fieldsBefore);
    expect((await call(emu, 'POST', `/run/${done}`, {})).status).toBe(409);
    const run = await call(emu, 'POST', `/run/${configured}`, { returnWhenComplete: true });
    expect(run.body.status).toBe('succeeded');
    const output = await readFile(join(dataDir, 'output', `${configured}.csv`), 'utf8');
    expect(output.split('\n')[0]).toBe('id,full_name,email,amount,country,created_at,phone');
    expect(output).toContain(',US,');
  }, 60_000);

  it('runs again, after a SIGKILL mid-run, the interrupted job: its output is whole, and no temp or spill file is left', async () => {
    const dataDir = join(work, 'sigkill');
    // The service's own temp folder, to see every spill file it leaves.
    const temp = join(work, 'sigkill-tmp');
    await mkdir(temp, { recursive: true });
    const spills = join(temp, `import-work-${userInfo().uid}`);
    let emu = await serve(dataDir, { TMPDIR: temp });
    const killedPid = emu.child.pid;
    const jobId = await startJob(emu, { file: bigFile, fields: { pipelineId: 'pl_customers' } });
    await call(emu, 'POST', `/field-data-types/${jobId}`, { fieldDataTypes: { id: { dataType: 'number' }, amount: { dataType: 'number' } } });
    expect((await call(emu, 'POST', `/run/${jobId}`, {})).body).toEqual({ jobId, status: 'running' });
    // Kill once the output is being written, before it is complete.
    const outputDir = join(dataDir, 'output');
    const deadline = Date.now() + 30_000;
    for (;;) {
      const partial = (await readdir(outputDir)).find((f) => f.endsWith('.tmp'));
      if (partial && (await stat(join(outputDir, partial)).catch(() => undefined))?.size) break;
      if (Date.now() > deadline) throw new Error('the run never began writing');
      await new Promise((r) => setTimeout(r, 10));
    }
    emu.child.kill('SIGKILL');
    expect((await emu.exited).signal).toBe('SIGKILL');
    // What a kill -9 leaves: the parallel run's spill files, the temp output.
    expect((await readdir(join(spills, String(killedPid)))).length).toBeGreaterThan(0);
    const stored = JSON.parse(await readFile(join(dataDir, 'jobs', jobId, 'job.json'), 'utf8'));
    expect(stored.state).toBe('running');
    expect(existsSync(join(outputDir, `${jobId}.csv`))).toBe(false);

    emu = await serve(dataDir, { TMPDIR: temp });
    await emu.waitForStderr(`running again: ${jobId}`);
    expect((await call(emu, 'GET', `/fields/${jobId}`)).status).toBe(200);
    const status = await waitForJob(emu, jobId, 120_000);
    expect(status.status).toBe('succeeded');
    const job = JSON.parse(await readFile(join(dataDir, 'jobs', jobId, 'job.json'), 'utf8'));
    expect(job.run.attempts).toBe(2);
    const output = await readFile(join(outputDir, `${jobId}.csv`), 'utf8');
    expect(output.endsWith('\n')).toBe(true);
    const lines = output.split('\n').length - 1;
    // Header + every row out (quoted line breaks cannot occur in this data).
    expect(lines).toBe(status.result.rowsOut + 1);
    expect(status.result.rowsIn).toBe(BIG_ROWS);
    expect(await readdir(outputDir)).toEqual([`${jobId}.csv`]);
    // The dead service's spill folder is gone; the live one holds no spill file; on stop, nothing is left.
    const left = await readdir(spills);
    expect(left.filter((name) => name !== String(emu.child.pid))).toEqual([]);
    for (const name of left) expect(await readdir(join(spills, name))).toEqual([]);
    emu.child.kill('SIGTERM');
    expect((await emu.exited).code).toBe(0);
    expect(await readdir(spills)).toEqual([]);
  }, 180_000);
});
