import { mkdtemp, readFile, rm, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, ROOT, type Emulator } from '../support/emulator.js';
import { call, start, startJob, waitForJob } from './helpers.js';

const CUSTOMERS = join(ROOT, 'examples/customers/customers.csv');

// A small input with exactly known processing (engine.md): number parsing, slash dates,
// fill, title case, duplicate dropping.
const SMALL_CSV = [
  'id,name,amount,joined',
  '1,ann smith,"1,234.50",2024-03-05',
  '2,BOB JONES,$99.99,2024/03/06',
  '2,bob jones,99.99,2024-03-06',
  '3,,15%,',
  '',
].join('\n');

let emu: Emulator;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'emulator-endpoints-'));
  await writeFile(join(dir, 'small.csv'), SMALL_CSV);
  // Two pipelines: the service must choose between them.
  await copyFile(join(ROOT, 'examples/customers/schema.yaml'), join(dir, 'customers.yaml'));
  await writeFile(join(dir, 'orders.yaml'), [
    'id: pl_orders',
    'expectedFields: [order_id, customer, quantity, unit_price, ordered_at, status]',
    '',
  ].join('\n'));
  emu = await startEmulator({ schema: dir });
});

afterAll(async () => {
  await emu?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('start', () => {
  it('answers a job id for an uploaded CSV', async () => {
    const answer = await start(emu, { file: CUSTOMERS, fields: { pipelineId: 'pl_customers', jobName: 'customers' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ jobId: expect.stringMatching(/^job_[A-Za-z0-9_-]{16}$/) });
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('stores the upload under the job folder with its file name', async () => {
    const jobId = await startJob(emu, { file: CUSTOMERS, fields: { pipelineId: 'pl_customers' } });
    const stored = await readFile(join(emu.dataDir, 'jobs', jobId, 'input', 'customers.csv'));
    expect(stored.equals(await readFile(CUSTOMERS))).toBe(true);
    const job = JSON.parse(await readFile(join(emu.dataDir, 'jobs', jobId, 'job.json'), 'utf8'));
    expect(job).toMatchObject({ jobId, state: 'started', pipelineId: 'pl_customers', input: { name: 'customers.csv', kind: 'file' } });
  });

  it('chooses, among several pipelines, the one whose expected fields the input covers (JSON array)', async () => {
    const jobId = await startJob(emu, { file: CUSTOMERS, fields: { pipelineId: '["pl_orders","pl_customers"]' } });
    const fields = await call(emu, 'GET', `/fields/${jobId}`);
    expect(fields.body.expectedFields).toEqual(['id', 'full_name', 'email', 'amount', 'country', 'created_at', 'phone']);
  });

  it('chooses among several pipelines given as repeated parts', async () => {
    const jobId = await startJob(emu, { file: CUSTOMERS, fields: { pipelineId: ['pl_orders', 'pl_customers'] } });
    const fields = await call(emu, 'GET', `/fields/${jobId}`);
    expect(fields.body.expectedFields).toContain('full_name');
  });

  it('gives identity suggestions for a pipeline with no schema', async () => {
    const jobId = await startJob(emu, { file: join(dir, 'small.csv'), fields: { pipelineId: 'pl_unknown' } });
    const fields = await call(emu, 'GET', `/fields/${jobId}`);
    expect(fields.body).toEqual({
      expectedFields: [],
      optionalFields: [],
      inputColumns: ['id', 'name', 'amount', 'joined'],
      columnFieldMapping: {
        'small.csv': {
          id: { field: 'id', confidence: 1 },
          name: { field: 'name', confidence: 1 },
          amount: { field: 'amount', confidence: 1 },
          joined: { field: 'joined', confidence: 1 },
        },
      },
    });
  });

  it('keeps a UTF-8 file name as the data source name', async () => {
    const jobId = await startJob(emu, { content: 'a,b\n1,2\n', fileName: 'données clients.csv' });
    const fields = await call(emu, 'GET', `/fields/${jobId}`);
    expect(Object.keys(fields.body.columnFieldMapping)).toEqual(['données clients.csv']);
  });

  it('takes inline rows as jsonData', async () => {
    const rows = [{ id: 1, name: 'Ann' }, { id: 2, name: 'Bob', extra: 'x' }];
    const jobId = await startJob(emu, { fields: { jsonData: JSON.stringify(rows) } });
    const fields = await call(emu, 'GET', `/fields/${jobId}`);
    expect(fields.body.inputColumns).toEqual(['id', 'name', 'extra']);
    expect(Object.keys(fields.body.columnFieldMapping)).toEqual(['jsonData']);
  });
});

describe('reads', () => {
  let jobId: string;
  beforeAll(async () => {
    jobId = await startJob(emu, { file: CUSTOMERS, fields: { pipelineId: 'pl_customers' } });
  });

  it('returns the suggestions for fields, with confidence', async () => {
    const { status, body } = await call(emu, 'GET', `/fields/${jobId}`);
    expect(status).toBe(200);
    expect(body.inputColumns).toEqual(['Customer ID', 'First', 'Last', 'E-mail Address', 'Amount', 'Country', 'Signup Date', 'Tel', 'Internal Notes']);
    expect(body.optionalFields).toEqual(['phone']);
    const mapping = body.columnFieldMapping['customers.csv'];
    expect(mapping['E-mail Address']).toEqual({ field: 'email', confidence: expect.any(Number) });
    for (const m of Object.values(mapping) as { confidence: number }[]) {
      expect(m.confidence).toBeGreaterThanOrEqual(0);
      expect(m.confidence).toBeLessThanOrEqual(1);
    }
  });

  it('answers every other GET endpoint with the seed\'s shape', async () => {
    const get = async (path: string) => {
      const answer = await call(emu, 'GET', `/${path}/${jobId}`);
      expect(answer.status, path).toBe(200);
      return answer.body;
    };
    expect(await get('selected-sheet')).toEqual({ sheetSelection: null });
    expect(await get('column-combining-methods')).toEqual({ columnsBeingCombined: {} });
    const types = await get('field-data-types');
    expect(types.expectedFieldDataTypes).toEqual({ id: 'number', full_name: 'rich_text', email: 'rich_text', amount: 'number', country: 'category', created_at: 'date_time', phone: 'rich_text' });
    expect(types.fieldDataTypes.email).toEqual({ dataType: 'rich_text', confidence: expect.any(Number) });
    expect(await get('units')).toEqual({ fieldUnitConversions: {}, expectedFieldUnits: { created_at: 'UTC_p0' } });
    expect(await get('impute-methods')).toEqual({ imputeMethods: {}, expectedImputeMethods: { country: null } });
    expect(await get('pivot')).toEqual({ pivot: null });
    expect(await get('row-dropping-methods')).toEqual({
      presetRowDroppingMethods: [{ method: 'missingValues', methodConfig: { fields: ['id'] } }],
      additionalRowDroppingMethods: [],
    });
    expect(await get('text-processing-methods')).toEqual({ textProcessingMethods: {} });
    expect(await get('scripts')).toEqual({ preColumnMapping: [], postClean: [] });
  });
});

describe('updates', () => {
  let jobId: string;
  beforeAll(async () => {
    jobId = await startJob(emu, { file: CUSTOMERS, fields: { pipelineId: 'pl_customers' } });
  });

  it('reads a mapping update back exactly, keeping the confidence of unchanged columns', async () => {
    const before = (await call(emu, 'GET', `/fields/${jobId}`)).body;
    const source = 'customers.csv';
    const suggested = before.columnFieldMapping[source];
    const mapping: Record<string, { field: string }> = {};
    for (const [column, m] of Object.entries(suggested) as [string, { field: string }][]) mapping[column] = { field: m.field };
    mapping['Customer ID'] = { field: 'id' };
    mapping.First = { field: 'full_name' };
    mapping.Last = { field: 'full_name' };
    delete mapping['Internal Notes'];
    const update = await call(emu, 'POST', `/fields/${jobId}`, { columnFieldMapping: { [source]: mapping }, allowColumnCombining: true });
    expect(update.status).toBe(200);
    const read = await call(emu, 'GET', `/fields/${jobId}`);
    expect(update.body).toEqual(read.body);
    const got = read.body.columnFieldMapping[source];
    expect(Object.keys(got).sort()).toEqual(Object.keys(mapping).sort());
    for (const [column, { field }] of Object.entries(mapping)) {
      const expected = suggested[column]?.field === field ? suggested[column].confidence : 1;
      expect(got[column], column).toEqual({ field, confidence: expected });
    }
    // Two columns now make full_name: the combining read shows the defaults.
    const combining = await call(emu, 'GET', `/column-combining-methods/${jobId}`);
    expect(combining.body).toEqual({
      columnsBeingCombined: { full_name: { method: 'stringAppend', methodConfig: { separator: '' }, combiningOrder: ['First', 'Last'] } },
    });
  });

  it('accepts the combining method JSON in capitals and stores the seed\'s spelling', async () => {
    const answer = await call(emu, 'POST', `/column-combining-methods/${jobId}`, {
      columnsBeingCombined: { full_name: { method: 'JSON', methodConfig: {}, combiningOrder: ['Last', 'First'] } },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ columnsBeingCombined: { full_name: { method: 'json', methodConfig: {}, combiningOrder: ['Last', 'First'] } } });
    const again = await call(emu, 'POST', `/column-combining-methods/${jobId}`, {
      columnsBeingCombined: { full_name: { method: 'stringappend', methodConfig: { separator: ' ' } } },
    });
    expect(again.body.columnsBeingCombined.full_name).toEqual({ method: 'stringAppend', methodConfig: { separator: ' ' }, combiningOrder: ['First', 'Last'] });
  });

  it('reads data types back, with confidence 1 where the update changed the type', async () => {
    const before = (await call(emu, 'GET', `/field-data-types/${jobId}`)).body;
    const fieldDataTypes: Record<string, { dataType: string }> = {};
    for (const [field, t] of Object.entries(before.fieldDataTypes) as [string, { dataType: string }][]) fieldDataTypes[field] = { dataType: t.dataType };
    fieldDataTypes.country = { dataType: 'RICH_TEXT' };
    const answer = await call(emu, 'POST', `/field-data-types/${jobId}`, { fieldDataTypes });
    expect(answer.status).toBe(200);
    expect(answer.body.fieldDataTypes.country).toEqual({ dataType: 'rich_text', confidence: 1 });
    expect(answer.body.fieldDataTypes.email).toEqual(before.fieldDataTypes.email);
    expect(answer.body.expectedFieldDataTypes).toEqual(before.expectedFieldDataTypes);
    expect((await call(emu, 'GET', `/field-data-types/${jobId}`)).body).toEqual(answer.body);
  });

  it('reads units, impute, pivot, row dropping and text processing back exactly', async () => {
    const units = await call(emu, 'POST', `/units/${jobId}`, { fieldUnitConversions: { created_at: { from: 'UTC_m5', to: 'UTC_p0' } } });
    expect(units.status).toBe(200);
    expect(units.body).toEqual({
      fieldUnitConversions: { created_at: { columnName: 'Signup Date', to: 'UTC_p0', from: 'UTC_m5', confidence: 1 } },
      expectedFieldUnits: { created_at: 'UTC_p0' },
    });
    const impute = await call(emu, 'POST', `/impute-methods/${jobId}`, {
      imputeMethods: { country: { imputeMethod: 'fill', imputeMethodConfig: { fillValue: 'US' } }, email: { imputeMethod: 'DropMissing' } },
    });
    expect(impute.body).toEqual({
      imputeMethods: {
        country: { imputeMethod: 'fill', imputeMethodConfig: { fillValue: 'US' }, confidence: 1 },
        email: { imputeMethod: 'dropMissing', confidence: 1 },
      },
      expectedImputeMethods: { country: null },
    });
    const pivot = await call(emu, 'POST', `/pivot/${jobId}`, {
      pivot: { pivotColumns: { columnNames: ['country'] }, valueColumns: { columnNames: ['amount'] }, indexColumns: { columnNames: ['id'], aggregationMethod: 'FIRST' } },
    });
    expect(pivot.body).toEqual({
      pivot: {
        pivotColumns: { columnNames: ['country'], confidence: 1 },
        valueColumns: { columnNames: ['amount'], confidence: 1 },
        indexColumns: { columnNames: ['id'], aggregationMethod: 'first', confidence: 1 },
      },
    });
    expect((await call(emu, 'POST', `/pivot/${jobId}`, { pivot: null })).body).toEqual({ pivot: null });
    const drop = await call(emu, 'POST', `/row-dropping-methods/${jobId}`, {
      additionalRowDroppingMethods: [{ method: 'duplicateValues', methodConfig: { fields: ['id'] } }],
    });
    expect(drop.body).toEqual({
      presetRowDroppingMethods: [{ method: 'missingValues', methodConfig: { fields: ['id'] } }],
      additionalRowDroppingMethods: [{ method: 'duplicateValues', methodConfig: { fields: ['id'] }, confidence: 1 }],
    });
    const text = await call(emu, 'POST', `/text-processing-methods/${jobId}`, {
      textProcessingMethods: { regexReplacement: { phone: { '[^0-9+]': '' } }, casing: { full_name: 'Title', country: 'upper' } },
    });
    expect(text.body).toEqual({ textProcessingMethods: { regexReplacement: { phone: { '[^0-9+]': '' } }, casing: { full_name: 'title', country: 'upper' } } });
    for (const [path, answer] of [['units', units], ['impute-methods', impute], ['row-dropping-methods', drop], ['text-processing-methods', text]] as const) {
      expect((await call(emu, 'GET', `/${path}/${jobId}`)).body, path).toEqual(answer.body);
    }
  });

  it('accepts the row-dropping and text-processing updates on the pivot path', async () => {
    const drop = await call(emu, 'POST', `/pivot/${jobId}`, {
      additionalRowDroppingMethods: [{ method: 'missingValues', methodConfig: { fields: ['email'] } }],
    });
    expect(drop.status).toBe(200);
    expect(drop.body.additionalRowDroppingMethods).toEqual([{ method: 'missingValues', methodConfig: { fields: ['email'] }, confidence: 1 }]);
    const text = await call(emu, 'POST', `/pivot/${jobId}`, { textProcessingMethods: { casing: { country: 'lower' } } });
    expect(text.body).toEqual({ textProcessingMethods: { casing: { country: 'lower' } } });
    expect((await call(emu, 'GET', `/text-processing-methods/${jobId}`)).body).toEqual(text.body);
    expect((await call(emu, 'GET', `/pivot/${jobId}`)).body).toEqual({ pivot: null });
  });
});

describe('run', () => {
  it('writes the output file, byte for byte, and answers with the report', async () => {
    const jobId = await startJob(emu, { file: join(dir, 'small.csv'), fields: { jobName: 'small' } });
    const types = { id: 'number', name: 'rich_text', amount: 'number', joined: 'date_time' };
    const updates: [string, unknown][] = [
      ['field-data-types', { fieldDataTypes: Object.fromEntries(Object.entries(types).map(([f, t]) => [f, { dataType: t }])) }],
      ['impute-methods', { imputeMethods: { name: { imputeMethod: 'fill', imputeMethodConfig: { fillValue: 'unknown' } } } }],
      ['text-processing-methods', { textProcessingMethods: { casing: { name: 'title' } } }],
      ['row-dropping-methods', { additionalRowDroppingMethods: [{ method: 'duplicateValues', methodConfig: { fields: ['id'] } }] }],
    ];
    for (const [path, body] of updates) expect((await call(emu, 'POST', `/${path}/${jobId}`, body)).status, path).toBe(200);
    const run = await call(emu, 'POST', `/run/${jobId}`, { returnWhenComplete: true });
    expect(run.status).toBe(200);
    const outPath = join(emu.dataDir, 'output', `${jobId}.csv`);
    expect(run.body).toMatchObject({ jobId, status: 'succeeded', rowsIn: 4, rowsOut: 3, output: { fileName: `${jobId}.csv`, path: outPath, format: 'csv' } });
    expect(await readFile(outPath, 'utf8')).toBe([
      'id,name,amount,joined',
      '1,Ann Smith,1234.5,2024-03-05T00:00:00',
      '2,Bob Jones,99.99,2024-03-06T00:00:00',
      '3,Unknown,0.15,',
      '',
    ].join('\n'));
  });

  it('names the output destinationFileName and writes Excel when asked', async () => {
    const jobId = await startJob(emu, { file: join(dir, 'small.csv'), fields: { destinationFileName: 'small-out.xlsx', outputFileType: 'Excel' } });
    const run = await call(emu, 'POST', `/run/${jobId}`, { returnWhenComplete: true });
    expect(run.body).toMatchObject({ status: 'succeeded', output: { fileName: 'small-out.xlsx', format: 'excel' } });
    const bytes = await readFile(join(emu.dataDir, 'output', 'small-out.xlsx'));
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
  });

  it('answers at once without returnWhenComplete, and the job completes in the background', async () => {
    const jobId = await startJob(emu, { file: CUSTOMERS, fields: { pipelineId: 'pl_customers' } });
    const run = await call(emu, 'POST', `/run/${jobId}`);
    expect(run.status).toBe(200);
    expect(run.body).toEqual({ jobId, status: 'running' });
    const done = await waitForJob(emu, jobId);
    expect(done.status).toBe('succeeded');
    expect(done.result.rowsIn).toBe(8);
  });

  it('answers 409 to a second run and to an update after the run', async () => {
    const jobId = await startJob(emu, { file: join(dir, 'small.csv') });
    expect((await call(emu, 'POST', `/run/${jobId}`, { returnWhenComplete: true })).status).toBe(200);
    const again = await call(emu, 'POST', `/run/${jobId}`, {});
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
    const update = await call(emu, 'POST', `/field-data-types/${jobId}`, { fieldDataTypes: {} });
    expect(update.status).toBe(409);
    // Reads still work after the run.
    expect((await call(emu, 'GET', `/fields/${jobId}`)).status).toBe(200);
  });

  it('answers 422 with the reason when the configuration does not fit the columns', async () => {
    const jobId = await startJob(emu, { file: join(dir, 'small.csv') });
    // A number unit conversion on a field typed as text: valid values, invalid together.
    expect((await call(emu, 'POST', `/field-data-types/${jobId}`, { fieldDataTypes: { amount: { dataType: 'rich_text' } } })).status).toBe(200);
    expect((await call(emu, 'POST', `/units/${jobId}`, { fieldUnitConversions: { amount: { from: 'm', to: 'cm' } } })).status).toBe(200);
    const run = await call(emu, 'POST', `/run/${jobId}`, { returnWhenComplete: true });
    expect(run.status).toBe(422);
    expect(run.body.error.code).toBe('invalid_value');
    expect(run.body.error.message).toMatch(/amount/);
    // Nothing ran: the job can still be configured and run.
    expect((await call(emu, 'POST', `/units/${jobId}`, { fieldUnitConversions: {} })).status).toBe(200);
    expect((await call(emu, 'POST', `/run/${jobId}`, { returnWhenComplete: true })).body.status).toBe('succeeded');
  });
});
