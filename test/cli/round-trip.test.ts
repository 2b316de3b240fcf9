/**
 * `import <resource> get J -o json > b.json && import <resource> update J --data @b.json`: what
 * get prints, update takes back, for every resource, against a recording server (the exact body
 * sent) and against `import serve` (which checks bodies with the same strict schemas). Column
 * combining, once allowed, stays allowed for later `fields update`s.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startEmulator, type Emulator } from '../support/emulator.js';
import { json, startRecordingServer, type RecordingServer } from '../support/recording-server.js';
import { KEY, RESOURCES } from './reads.js';

const dir = mkdtempSync(join(tmpdir(), 'import-round-trip-'));

/** The update body a read body stands for: its read-only members dropped. */
const EXPECTED: Record<string, unknown> = {
  sheet: { sheetSelection: { selected: 'Sheet1' } },
  fields: { columnFieldMapping: { 'customers.csv': { First: { field: 'firstName' }, Last: { field: 'lastName' }, 'E-mail': { field: 'email' } } } },
  combining: { columnsBeingCombined: { name: { method: 'stringAppend', methodConfig: { separator: '' }, combiningOrder: ['First', 'Last'] } } },
  types: { fieldDataTypes: { amount: { dataType: 'rich_text' }, name: { dataType: 'rich_text' } } },
  units: { fieldUnitConversions: { signup: { from: null, to: null } } },
  impute: { imputeMethods: { country: { imputeMethod: null } } },
  pivot: { pivot: { pivotColumns: { columnNames: ['metric'] }, valueColumns: { columnNames: ['value'] }, indexColumns: { columnNames: ['date'], aggregationMethod: 'first' } } },
  'row-dropping': { additionalRowDroppingMethods: [{ method: 'duplicateValues', methodConfig: { fields: ['email'] } }] },
  text: { textProcessingMethods: { regexReplacement: { phone: { '[^0-9]': '' } }, casing: { name: 'capitalize' } } },
};

describe('against a recording server: the body sent is the read without its read-only members', () => {
  let server: RecordingServer;
  beforeAll(async () => {
    server = await startRecordingServer();
    for (const r of RESOURCES) {
      server.on(`GET ${r.get}/J1`, json(r.read));
      if (r.update) server.on(`POST ${r.update}/J1`, { status: 204 });
    }
  });
  afterAll(async () => { await server.close(); });
  const cli = (args: string[]) => runCli([...args, '--base-url', server.url, '--api-key', KEY], { cwd: dir });

  for (const r of RESOURCES.filter((x) => x.update)) {
    it(`${r.noun}`, async () => {
      server.requests.length = 0;
      const get = await cli([r.noun, 'get', 'J1', '-o', 'json']);
      expect(get.exitCode, get.stderr).toBe(0);
      const file = join(dir, `${r.noun}.json`);
      writeFileSync(file, get.stdout);
      const update = await cli([r.noun, 'update', 'J1', '--data', `@${file}`]);
      expect(update.exitCode, update.stderr).toBe(0);
      expect(update.stderr).not.toContain('error');
      const posted = server.requests.filter((q) => q.method === 'POST');
      expect(posted).toHaveLength(1);
      expect(posted[0].json).toEqual(EXPECTED[r.noun]);
    });
  }
});

describe('against import serve', () => {
  let service: Emulator;
  beforeAll(async () => { service = await startEmulator({ schema: 'examples/customers/schema.yaml' }); });
  afterAll(async () => { await service?.stop(); });
  const cli = (args: string[]) => runCli([...args, '--base-url', service.url, '--api-key', 'k'], { timeoutMs: 60_000 });

  async function ok(args: string[]): Promise<string> {
    const res = await cli(args);
    expect(res.exitCode, `${args.join(' ')}: ${res.stderr}`).toBe(0);
    return res.stdout;
  }

  async function roundTrip(noun: string, jobId: string): Promise<void> {
    const file = join(dir, `serve-${noun}.json`);
    writeFileSync(file, await ok([noun, 'get', jobId, '-o', 'json']));
    await ok([noun, 'update', jobId, '--data', `@${file}`]);
  }

  it('get -o json is taken back by update --data for every resource, and the job still runs', async () => {
    const jobId = (await ok(['start', '--pipeline', 'pl_customers', '--file', 'examples/customers/customers.csv'])).trim();
    // Set every resource to something, so each round trip carries a real body.
    await ok(['fields', 'update', jobId, '--map', 'First=full_name', '--map', 'Last=full_name', '--allow-combining']);
    await ok(['combining', 'update', jobId, '--field', 'full_name', '--separator', ' ']);
    await ok(['units', 'update', jobId, '--unit', 'created_at=UTC_m5:UTC_p0']);
    await ok(['impute', 'update', jobId, '--impute', 'country=fill:US']);
    await ok(['row-dropping', 'update', jobId, '--drop', 'duplicateValues:id']);
    await ok(['text', 'update', jobId, '--replace', 'phone=/[^0-9+]//', '--case', 'country=upper']);
    for (const noun of ['fields', 'combining', 'types', 'units', 'impute', 'pivot', 'row-dropping', 'text']) await roundTrip(noun, jobId);
    const answer = JSON.parse(await ok(['run', jobId, '--wait', '-o', 'json']));
    expect(answer.status).toBe('succeeded');
  });

  it('sheet get -o json is taken back by sheet update --data (a workbook)', async () => {
    const jobId = (await ok(['start', '--file', 'examples/workbook/orders.xlsx'])).trim();
    await roundTrip('sheet', jobId);
  });

  it('fields update keeps column combining allowed once the mapping combines columns; --no-allow-combining refuses it', async () => {
    const jobId = (await ok(['start', '--pipeline', 'pl_customers', '--file', 'examples/customers/customers.csv'])).trim();
    await ok(['fields', 'update', jobId, '--map', 'First=full_name', '--map', 'Last=full_name', '--allow-combining']);
    // A later update without the flag: the service still gets allowColumnCombining (no 422).
    await ok(['fields', 'update', jobId, '--unmap', 'Internal Notes']);
    const mapping = JSON.parse(await ok(['fields', 'get', jobId, '-o', 'json'])).columnFieldMapping;
    const columns = Object.values(mapping)[0] as Record<string, { field: string }>;
    expect([columns.First.field, columns.Last.field]).toEqual(['full_name', 'full_name']);
    const refused = await cli(['fields', 'update', jobId, '--map', 'Signup Date=created_at', '--no-allow-combining']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toBe('error: Columns "First" and "Last" would both map to field "full_name"; unmap one (--unmap "Last") or pass --allow-combining to combine them.\n');
  });
});
