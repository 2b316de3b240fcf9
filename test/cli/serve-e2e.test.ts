// End to end: the real CLI process against `import serve` (the local service, run in this process).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';
import { startEmulator, type Emulator } from '../support/emulator.js';

let service: Emulator;
beforeAll(async () => { service = await startEmulator({ schema: 'examples/customers/schema.yaml', apiKeys: ['e2e-key-1234'] }); });
afterAll(async () => { await service?.stop(); });

const env = () => ({ IMPORT_BASE_URL: service.url, IMPORT_API_KEY: 'e2e-key-1234' });
const cli = (args: string[], input?: string) => runCli(args, { env: env(), input });

async function ok(args: string[], input?: string): Promise<string> {
  const res = await cli(args, input);
  expect(res.stderr.includes('error:') ? res.stderr : '').toBe('');
  expect(res.exitCode).toBe(0);
  return res.stdout;
}

describe('the CLI against import serve', () => {
  it('start → get → update every resource with flags → run --wait gives the job file\'s dry-run output', async () => {
    const jobId = (await ok(['start', '--pipeline', 'pl_customers', '--name', 'e2e', '--file', 'examples/customers/customers.csv'])).trim();
    expect(jobId).toMatch(/^\S+$/);

    const fields = JSON.parse(await ok(['fields', 'get', jobId, '-o', 'json']));
    expect(fields.inputColumns).toContain('Customer ID');
    expect(fields.expectedFields).toContain('full_name');

    await ok(['fields', 'update', jobId, '--map', 'Customer ID=id', '--map', 'First=full_name', '--map', 'Last=full_name',
      '--map', 'Signup Date=created_at', '--unmap', 'Internal Notes', '--allow-combining']);
    await ok(['combining', 'update', jobId, '--field', 'full_name', '--method', 'stringAppend', '--separator', ' ', '--order', 'First,Last']);
    await ok(['units', 'update', jobId, '--unit', 'created_at=UTC_m5:UTC_p0']);
    await ok(['impute', 'update', jobId, '--impute', 'country=fill:US']);
    await ok(['row-dropping', 'update', jobId, '--drop', 'duplicateValues:id', '--drop', 'missingValues:email']);
    await ok(['text', 'update', jobId, '--data', '-', '--case', 'full_name=title', '--case', 'country=upper'],
      JSON.stringify({ textProcessingMethods: { regexReplacement: { phone: { '[^0-9+]': '' } } } }));

    const mapped = JSON.parse(await ok(['fields', 'get', jobId, '-o', 'json']));
    const source = Object.values(mapped.columnFieldMapping)[0] as Record<string, { field: string }>;
    expect(source.First.field).toBe('full_name');
    expect(source['Internal Notes']).toBeUndefined();
    expect(JSON.parse(await ok(['scripts', 'get', jobId, '-o', 'json']))).toEqual({ preColumnMapping: [], postClean: [] });

    const answer = JSON.parse(await ok(['run', jobId, '--wait', '-o', 'json']));
    expect(answer).toBeTypeOf('object');
    const out = await readFile(join(service.dataDir, 'output', `${jobId}.csv`), 'utf8');
    // The job file's dry run, written to a temp file (a checkout has no job.out.csv).
    const dryOut = join(mkdtempSync(join(tmpdir(), 'import-serve-e2e-')), 'dry.csv');
    await ok(['dry-run', 'examples/customers/job.yaml', '--out', dryOut]);
    expect(out).toBe(await readFile(dryOut, 'utf8'));
  });

  it('sheet get and update on a workbook; an unlisted sheet is exit 2', async () => {
    const jobId = (await ok(['start', '--file', 'examples/workbook/orders.xlsx'])).trim();
    const sheet = JSON.parse(await ok(['sheet', 'get', jobId, '-o', 'json']));
    const names: string[] = sheet.sheetSelection.sheets;
    expect(names.length).toBeGreaterThan(1);
    const bad = await cli(['sheet', 'update', jobId, 'No such sheet']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('available sheets');
    const other = names.find((n) => n !== sheet.sheetSelection.selected)!;
    await ok(['sheet', 'update', jobId, other]);
    expect(JSON.parse(await ok(['sheet', 'get', jobId, '-o', 'json'])).sheetSelection.selected).toBe(other);
  });

  it('starts from --json-data on stdin and runs without waiting', async () => {
    const jobId = (await ok(['start', '--json-data', '-'], JSON.stringify([{ id: 1, email: 'a@example.com' }, { id: 2, email: 'b@example.com' }]))).trim();
    const res = await cli(['run', jobId]);
    expect(res.exitCode).toBe(0);
  });

  it('takes --json-data as deep as import serve takes it, and refuses one level deeper before sending (exit 2)', async () => {
    const nested = (depth: number) => `[{"id": 1, "v": ${'['.repeat(depth - 2)}${']'.repeat(depth - 2)}}]`;
    expect((await ok(['start', '--json-data', '-'], nested(1000))).trim()).toMatch(/^\S+$/);
    const deeper = await cli(['start', '--json-data', '-'], nested(1001));
    expect(deeper.stderr).toBe('error: --json-data - (stdin):1:1015: arrays and objects nest more than 1000 levels deep here; flatten the value.\n');
    expect(deeper.exitCode).toBe(2);
  });

  it('maps the service\'s refusals to exit codes 3, 4 and 1', async () => {
    const wrongKey = await runCli(['fields', 'get', 'x'], { env: { ...env(), IMPORT_API_KEY: 'wrong-key-999' } });
    expect(wrongKey.exitCode).toBe(3);
    expect(wrongKey.stderr).not.toContain('wrong-key-999');
    expect((await cli(['fields', 'get', 'no-such-job'])).exitCode).toBe(4);
    const jobId = (await ok(['start', '--json-data', '-'], '[{"id":1}]')).trim();
    await ok(['run', jobId, '--wait']);
    const again = await cli(['run', jobId, '--wait']);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toMatch(/^error: The service answered POST \S+ with 409 Conflict: /);
  });
});
