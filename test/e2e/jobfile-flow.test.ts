import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { copyExample, runCli } from '../support/cli.js';
import { startEmulator, type Emulator } from '../support/emulator.js';
import { forwardTo, startRecordingServer, type RecordingServer } from '../support/recording-server.js';

// The real CLI against `import serve`, through a recording proxy so each request sent is checked.
let service: Emulator;
let proxy: RecordingServer;
let dir: string;

beforeAll(async () => {
  service = await startEmulator({ schema: 'examples/customers/schema.yaml' });
  proxy = await startRecordingServer();
});
afterAll(async () => {
  await proxy?.close();
  await service?.stop();
});
beforeEach(async () => {
  proxy.reset();
  forwardTo(proxy, service.url);
  dir = await mkdtemp(join(tmpdir(), 'import-flow-'));
  await copyExample('customers', dir);
});

const cli = (args: string[]) => runCli(args, { env: { IMPORT_BASE_URL: proxy.url, IMPORT_API_KEY: 'test-key' }, timeoutMs: 30_000 });
const posts = () => proxy.requests.filter((r) => r.method === 'POST').map((r) => r.path.replace(/\/job_[^/]+$/, '/ID'));

describe('import plan', () => {
  it('starts the job, reads every resource and sends no update and no run', async () => {
    const r = await cli(['plan', join(dir, 'job.yaml')]);
    expect(r.stderr).toContain('Started job');
    expect(r.exitCode).toBe(0);
    expect(posts()).toEqual(['/start']);
    const gets = proxy.requests.filter((q) => q.method === 'GET').map((q) => q.path.split('/')[1]).sort();
    expect(gets).toEqual(['column-combining-methods', 'field-data-types', 'fields', 'impute-methods', 'pivot', 'row-dropping-methods', 'scripts', 'selected-sheet', 'text-processing-methods', 'units']);
    const lines = r.stdout.trim().split('\n');
    expect(lines.at(-1)).toMatch(/^job_/);
    expect(r.stdout).toContain('  + First: full_name');
    expect(r.stdout).toContain('Updates to send: fields, combining, units, impute, rowDropping, text');
    expect(r.stdout).toContain('Data effect (embedded engine): 8 rows in, 5 out');
  });

  it('prints the plan as data with -o json', async () => {
    const r = await cli(['plan', join(dir, 'job.yaml'), '-o', 'json']);
    expect(r.exitCode).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan.version).toBe(1);
    expect(plan.updates).toEqual(['fields', 'combining', 'units', 'impute', 'rowDropping', 'text']);
    expect(plan.entries).toContainEqual({ resource: 'mapping', key: 'First', marker: '+', suggested: null, desired: 'full_name' });
  });

  it('exits 6 with --detailed-exitcode when the job file changes something, 0 when it does not', async () => {
    const changes = await cli(['plan', join(dir, 'job.yaml'), '--detailed-exitcode']);
    expect(changes.exitCode).toBe(6);
    const jobId = changes.stdout.trim().split('\n').at(-1)!;
    const pulled = await cli(['pull', jobId, '--write', join(dir, 'pulled.yaml')]);
    expect(pulled.exitCode).toBe(0);
    // --yes: the job was only planned, so full_name has no column yet (the gate's concern, not this test's).
    const same = await cli(['plan', join(dir, 'pulled.yaml'), '--job', jobId, '--detailed-exitcode', '--yes']);
    expect(same.stdout).toContain('Nothing to update');
    expect(same.exitCode).toBe(0);
  });
});

describe('plan --job on a pulled file with columns combined', () => {
  it('marks combining the service already has as agreed, in the job file\'s shape, and a changed separator as the one update', async () => {
    const jobId = (await cli(['start', '--file', join(dir, 'customers.csv'), '--pipeline', 'pl_customers'])).stdout.trim();
    expect((await cli(['fields', 'update', jobId, '--map', 'First=full_name', '--map', 'Last=full_name', '--allow-combining'])).exitCode).toBe(0);
    expect((await cli(['combining', 'update', jobId, '--field', 'full_name', '--method', 'stringAppend', '--separator', ' ', '--order', 'Last,First'])).exitCode).toBe(0);
    const pulled = join(dir, 'pulled.yaml');
    expect((await cli(['pull', jobId, '--write', pulled])).exitCode).toBe(0);

    const same = await cli(['plan', pulled, '--job', jobId, '--detailed-exitcode']);
    expect(same.stdout).toContain('combining:\n  = full_name: {"method":"stringAppend","separator":" ","order":["Last","First"]}\n');
    expect(same.stdout).not.toContain('methodConfig');
    expect(same.stdout).toContain('Nothing to update');
    expect(same.exitCode).toBe(0);

    // A member left out takes the current value: only the separator written, and it agrees.
    const text = await readFile(pulled, 'utf8');
    const partial = join(dir, 'partial.yaml');
    await writeFile(partial, text.replace(/  combining:\n(    .*\n)+/, '  combining:\n    full_name: {separator: " "}\n'));
    const agreed = await cli(['plan', partial, '--job', jobId, '--detailed-exitcode', '-o', 'json']);
    expect(agreed.exitCode, agreed.stderr).toBe(0);
    expect(JSON.parse(agreed.stdout).entries).toContainEqual(expect.objectContaining({ resource: 'combining', key: 'full_name', marker: '=' }));

    await writeFile(partial, text.replace(/  combining:\n(    .*\n)+/, '  combining:\n    full_name: {separator: "-"}\n'));
    const changed = await cli(['plan', partial, '--job', jobId, '--detailed-exitcode']);
    expect(changed.stdout).toContain('  ~ full_name: suggested {"method":"stringAppend","separator":" ","order":["Last","First"]} -> {"method":"stringAppend","separator":"-","order":["Last","First"]}\n');
    expect(changed.stdout).toContain('Updates to send: combining\n');
    expect(changed.exitCode).toBe(6);
  });
});

describe('import run <job.yaml>', () => {
  it('sends only the differing updates, in dependency order, then runs and waits', async () => {
    const r = await cli(['run', join(dir, 'job.yaml')]);
    expect(r.stderr).toContain('completed');
    expect(r.exitCode).toBe(0);
    expect(posts()).toEqual([
      '/start', '/fields/ID', '/column-combining-methods/ID', '/units/ID', '/impute-methods/ID',
      '/row-dropping-methods/ID', '/text-processing-methods/ID', '/run/ID',
    ]);
    const run = proxy.requests.find((q) => q.path.startsWith('/run/'))!;
    expect(run.json).toEqual({ returnWhenComplete: true });
    const fields = proxy.requests.find((q) => q.method === 'POST' && q.path.startsWith('/fields/'))!;
    expect((fields.json as any).allowColumnCombining).toBe(true);
    expect((fields.json as any).columnFieldMapping['customers.csv']).toMatchObject({ First: { field: 'full_name' }, Last: { field: 'full_name' } });
    // The service's output equals the offline dry run's, byte for byte.
    const jobId = run.path.split('/')[2];
    const served = await readFile(join(service.dataDir, 'output', `${jobId}.csv`), 'utf8');
    const dry = await cli(['dry-run', join(dir, 'job.yaml'), '--out', join(dir, 'dry.csv')]);
    expect(dry.exitCode).toBe(0);
    expect(served).toBe(await readFile(join(dir, 'dry.csv'), 'utf8'));
  });

  it('stops at the review gate with exit 5, naming the suggestion, and sends no update or run', async () => {
    const r = await cli(['run', join(dir, 'job.yaml'), '--min-confidence', '0.9']);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toContain('field amount as number (confidence 0.88)');
    expect(r.stderr).toContain('config.dataTypes: {amount: number}');
    expect(posts()).toEqual(['/start']);
  });

  it('passes the gate with --yes and does not wait with --no-wait', async () => {
    const r = await cli(['run', join(dir, 'job.yaml'), '--min-confidence', '0.9', '--yes', '--no-wait']);
    expect(r.exitCode).toBe(0);
    const run = proxy.requests.find((q) => q.path.startsWith('/run/'))!;
    expect(run.json).toEqual({ returnWhenComplete: false });
  });

  it('refuses to run when the engine predicts more dropped rows than --max-dropped-rows', async () => {
    const r = await cli(['run', join(dir, 'job.yaml'), '--max-dropped-rows', '2']);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toContain('would drop 3 of 8 rows');
    expect(posts()).toEqual(['/start']);
    const ok = await cli(['run', join(dir, 'job.yaml'), '--max-dropped-rows', '50%']);
    expect(ok.exitCode).toBe(0);
  });

  it('finds nothing to update after a pull, and only runs', async () => {
    const started = await cli(['start', '--file', join(dir, 'customers.csv'), '--pipeline', 'pl_customers']);
    const jobId = started.stdout.trim();
    await cli(['pull', jobId, '--write', join(dir, 'pulled.yaml')]);
    proxy.reset();
    proxy.fallback(async (req) => {
      const r = await fetch(service.url + req.url, { method: req.method, headers: { 'content-type': String(req.headers['content-type'] ?? 'application/json') }, body: req.body.length ? new Uint8Array(req.body) : undefined });
      return { status: r.status, headers: { 'content-type': 'application/json' }, body: Buffer.from(await r.arrayBuffer()) };
    });
    // Started from flags, the job maps no column to the required full_name: the gate says so first.
    const gated = await cli(['run', join(dir, 'pulled.yaml'), '--job', jobId]);
    expect(gated.exitCode).toBe(5);
    expect(gated.stderr).toContain('required field full_name has no column');
    expect(posts()).toEqual([]);
    const r = await cli(['run', join(dir, 'pulled.yaml'), '--job', jobId, '--yes']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('Nothing to update.');
    expect(posts()).toEqual(['/run/ID']);
  });

  it('runs offline with --dry-run', async () => {
    const r = await cli(['run', join(dir, 'job.yaml'), '--dry-run', '--out', join(dir, 'x.csv')]);
    expect(r.exitCode).toBe(0);
    expect(proxy.requests).toEqual([]);
    expect((await readFile(join(dir, 'x.csv'), 'utf8')).split('\n')[0]).toBe('id,full_name,email,amount,country,created_at,phone');
  });

  it('fails with exit 2 for --interactive without a terminal, before any request', async () => {
    await writeFile(join(dir, 'empty.yaml'), 'version: 1\ninput:\n  file: ./customers.csv\n');
    const r = await cli(['run', join(dir, 'empty.yaml'), '--interactive']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('needs a terminal');
    expect(proxy.requests).toEqual([]);
  });
});
