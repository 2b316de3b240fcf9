// README examples this branch touched, run as written (from the repository root, against `import serve`).
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startEmulator, type Emulator } from '../support/emulator.js';

let customers: Emulator;
let orders: Emulator;
beforeAll(async () => {
  customers = await startEmulator({ schema: 'examples/customers/schema.yaml' });
  orders = await startEmulator({ schema: 'examples/workbook/schema.yaml' });
});
afterAll(async () => {
  await customers?.stop();
  await orders?.stop();
});

describe('README examples', () => {
  it('import run examples/workbook/job.yaml against import serve --schema examples/workbook/schema.yaml', async () => {
    const r = await runCli(['run', 'examples/workbook/job.yaml'], { env: { IMPORT_BASE_URL: orders.url }, timeoutMs: 40_000 });
    expect(r.stderr).toContain('completed');
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('Updated impute.');
  });

  it('fields update --map "E-mail Address=email" --unmap "Internal Notes"', async () => {
    const env = { IMPORT_BASE_URL: customers.url };
    const job = (await runCli(['start', '--pipeline', 'pl_customers', '--name', 'nov', '--file', 'examples/customers/customers.csv'], { env })).stdout.trim();
    const r = await runCli(['fields', 'update', job, '--map', 'E-mail Address=email', '--unmap', 'Internal Notes', '-o', 'json'], { env });
    expect(r.exitCode).toBe(0);
    const sent = JSON.parse(r.stdout);
    expect(sent.columnFieldMapping['customers.csv']['E-mail Address']).toEqual({ field: 'email' });
    expect(sent.columnFieldMapping['customers.csv']['Internal Notes']).toBeUndefined();
  });

  it('recommends --lenient only where the command takes it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'import-lenient-'));
    await writeFile(join(dir, 'bad.csv'), 'a,b\n1,2\n3\n');
    const start = await runCli(['start', '--file', join(dir, 'bad.csv')], { env: { IMPORT_BASE_URL: customers.url } });
    expect(start.exitCode).toBe(1);
    expect(start.stderr).toContain('bad.csv:3: row has 1 cell but the header has 2; fix the row.');
    expect(start.stderr).not.toContain('--lenient');
    const init = await runCli(['init', join(dir, 'bad.csv')]);
    expect(init.exitCode).toBe(2);
    expect(init.stderr).toContain('pass --lenient');
    const lenient = await runCli(['init', join(dir, 'bad.csv'), '--lenient']);
    expect(lenient.exitCode).toBe(0);
    expect(lenient.stdout).toContain('version: 1');
  });

  it('says "1 row", not "1 rows"', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'import-one-row-'));
    await writeFile(join(dir, 'in.csv'), 'a,b\n1,2\n');
    await writeFile(join(dir, 'job.yaml'), 'version: 1\ninput: {file: ./in.csv}\n');
    const r = await runCli(['dry-run', join(dir, 'job.yaml')]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('Wrote 1 row to ');
  });
});
