import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../src/contract/index.js';
import { startEmulator, ROOT, type Emulator } from '../support/emulator.js';
import { call, start, startJob } from './helpers.js';

const CUSTOMERS = join(ROOT, 'examples/customers/customers.csv');
const ORDERS = join(ROOT, 'examples/workbook/orders.xlsx');

let emu: Emulator;
let scripts: string;

beforeAll(async () => {
  scripts = await mkdtemp(join(tmpdir(), 'emulator-scripts-'));
  await writeFile(join(scripts, 'upper-headers.mjs'), 'export default ({ columns, rows }) => ({ columns: columns.map((c) => c.toUpperCase()), rows: rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k.toUpperCase(), v]))) });\n');
  emu = await startEmulator({ schema: 'examples/customers/schema.yaml', apiKeys: ['test', 'second-key'], maxUpload: 64 * 1024, scriptsDir: scripts });
});

afterAll(async () => {
  await emu?.stop();
  await rm(scripts, { recursive: true, force: true });
});

function expectError(answer: { status: number; body: any }, status: number, code: string): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body).toMatchObject({ error: { code, message: expect.any(String) } });
  expect(answer.body.error.message.length).toBeGreaterThan(10);
}

describe('401 unauthorized', () => {
  it('refuses a call without x-api-key', async () => {
    const response = await fetch(`${emu.apiUrl}/fields/job_x`);
    expectError({ status: response.status, body: await response.json() }, 401, 'unauthorized');
  });

  it('refuses a wrong key, on reads and on start, and accepts every configured key', async () => {
    expectError(await call(emu, 'GET', '/fields/job_x', undefined, { 'x-api-key': 'wrong' }), 401, 'unauthorized');
    expectError(await start(emu, { file: CUSTOMERS }, { 'x-api-key': 'wrong' }), 401, 'unauthorized');
    // A known key passes auth (and then meets the unknown job).
    expect((await call(emu, 'GET', '/fields/job_x', undefined, { 'x-api-key': 'second-key' })).status).toBe(404);
  });

  it('never logs the key', async () => {
    await call(emu, 'GET', '/fields/job_x', undefined, { 'x-api-key': 'second-key' });
    expect(emu.logs.join('\n')).not.toContain('second-key');
    expect(emu.logs.some((l) => /^GET \/public\/client-side\/v1\/fields\/job_x 404 \d+ms$/.test(l))).toBe(true);
  });
});

describe('404 not found', () => {
  it('answers 404 for an unknown job on every endpoint', async () => {
    const paths = ['selected-sheet', 'fields', 'column-combining-methods', 'field-data-types', 'units', 'impute-methods', 'pivot', 'row-dropping-methods', 'text-processing-methods', 'scripts'];
    for (const path of paths) expectError(await call(emu, 'GET', `/${path}/job_nope`), 404, 'not_found');
    expectError(await call(emu, 'POST', '/run/job_nope', {}), 404, 'not_found');
    expectError(await call(emu, 'POST', '/field-data-types/job_nope', { fieldDataTypes: {} }), 404, 'not_found');
  });

  it('answers 404 for a path that is no endpoint, and 405 for a wrong method', async () => {
    expectError(await call(emu, 'GET', '/nothing-here/job_x'), 404, 'not_found');
    const wrong = await call(emu, 'POST', '/scripts/job_x', {});
    expectError(wrong, 405, 'method_not_allowed');
    expect(wrong.headers.get('allow')).toBe('GET');
  });
});

describe('400 invalid body', () => {
  let jobId: string;
  beforeAll(async () => { jobId = await startJob(emu, { file: CUSTOMERS, fields: { pipelineId: 'pl_customers' } }); });

  it('refuses malformed JSON', async () => {
    expectError(await call(emu, 'POST', `/field-data-types/${jobId}`, '{"fieldDataTypes": '), 400, 'invalid_body');
  });

  it('refuses a body not of the seed\'s shape, naming the member', async () => {
    const notObject = await call(emu, 'POST', `/field-data-types/${jobId}`, { fieldDataTypes: { amount: 'number' } });
    expectError(notObject, 400, 'invalid_body');
    expect(notObject.body.error.message).toContain('body.fieldDataTypes.amount');
    expectError(await call(emu, 'POST', `/units/${jobId}`, { fieldUnitConversion: {} }), 400, 'invalid_body');
    expectError(await call(emu, 'POST', `/fields/${jobId}`, { columnFieldMapping: [] }), 400, 'invalid_body');
    expectError(await call(emu, 'POST', `/row-dropping-methods/${jobId}`, { additionalRowDroppingMethods: {} }), 400, 'invalid_body');
    expectError(await call(emu, 'POST', `/run/${jobId}`, { returnWhenComplete: 'yes' }), 400, 'invalid_body');
    expectError(await call(emu, 'POST', `/field-data-types/${jobId}`), 400, 'invalid_body');
  });

  it('refuses a start with no data input, or two', async () => {
    expectError(await start(emu, { fields: { pipelineId: 'pl_customers' } }), 400, 'invalid_body');
    const two = await start(emu, { file: CUSTOMERS, fields: { jsonData: '[{"a":1}]' } });
    expectError(two, 400, 'invalid_body');
    expect(two.body.error.message).toMatch(/exactly one/);
    expectError(await start(emu, { fields: { gsUrl: 'https://docs.google.com/spreadsheets/d/x' } }), 400, 'invalid_body');
  });

  it('refuses malformed form fields', async () => {
    expectError(await start(emu, { fields: { jsonData: '{"not": "an array"}' } }), 400, 'invalid_body');
    expectError(await start(emu, { file: CUSTOMERS, fields: { useFullData: 'maybe' } }), 400, 'invalid_body');
    expectError(await start(emu, { file: CUSTOMERS, fields: { pipelinId: 'typo' } }), 400, 'invalid_body');
  });

  it('leaves nothing behind after a refused start', async () => {
    const before = await readdir(join(emu.dataDir, 'jobs'));
    await start(emu, { file: CUSTOMERS, fields: { useFullData: 'maybe' } });
    expect(await readdir(join(emu.dataDir, 'jobs'))).toEqual(before);
  });

  it('refuses a start body that is not multipart with 415', async () => {
    for (const type of ['application/json', 'multipart/form-dataX; boundary=b', 'multipart/form-data-like; boundary=b']) {
      const response = await fetch(`${emu.apiUrl}/start`, { method: 'POST', headers: { 'x-api-key': 'test', 'content-type': type }, body: '--b--\r\n' });
      expectError({ status: response.status, body: await response.json() }, 415, 'unsupported_media_type');
    }
  });
});

describe('413 too large', () => {
  it('refuses an upload over --max-upload and keeps no partial file', async () => {
    const big = Buffer.alloc(200 * 1024, 'a,b\n1,2\n');
    const answer = await start(emu, { content: big, fileName: 'big.csv' });
    expectError(answer, 413, 'too_large');
    const jobs = await readdir(join(emu.dataDir, 'jobs'));
    for (const job of jobs) expect(await readdir(join(emu.dataDir, 'jobs', job, 'input'))).not.toContain('big.csv');
  });

  it('answers 413 (not a broken pipe) to an upload refused by its declared length', async () => {
    const answer = await start(emu, { content: Buffer.alloc(3 * 1024 * 1024, 'x'), fileName: 'huge.csv' });
    expectError(answer, 413, 'too_large');
  });

  it('stays up and answers the next request after a refused upload', async () => {
    expect((await start(emu, { file: CUSTOMERS })).status).toBe(200);
  });
});

describe('409 conflict', () => {
  it('refuses an update while the job runs or after, and a second run', async () => {
    const jobId = await startJob(emu, { file: CUSTOMERS, fields: { pipelineId: 'pl_customers' } });
    const first = call(emu, 'POST', `/run/${jobId}`, { returnWhenComplete: true });
    const second = call(emu, 'POST', `/run/${jobId}`, { returnWhenComplete: true });
    const answers = await Promise.all([first, second]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expectError(await call(emu, 'POST', `/text-processing-methods/${jobId}`, { textProcessingMethods: {} }), 409, 'conflict');
  });
});

describe('422 invalid value', () => {
  let jobId: string;
  beforeAll(async () => { jobId = await startJob(emu, { file: CUSTOMERS, fields: { pipelineId: 'pl_customers' } }); });

  it('refuses values the seed does not allow', async () => {
    const cases: [string, unknown][] = [
      ['field-data-types', { fieldDataTypes: { amount: { dataType: 'integer' } } }],
      ['column-combining-methods', { columnsBeingCombined: { full_name: { method: 'concat' } } }],
      ['impute-methods', { imputeMethods: { country: { imputeMethod: 'mean' } } }],
      ['impute-methods', { imputeMethods: { country: { imputeMethod: 'fill' } } }],
      ['units', { fieldUnitConversions: { created_at: { from: 'UTC_m5', to: null } } }],
      ['units', { fieldUnitConversions: { created_at: { from: 'UTC_m5', to: 'parsecs' } } }],
      ['pivot', { pivot: { pivotColumns: { columnNames: ['country'] }, valueColumns: { columnNames: ['amount'] }, indexColumns: { columnNames: ['id'], aggregationMethod: 'sum' } } }],
      ['row-dropping-methods', { additionalRowDroppingMethods: [{ method: 'outliers', methodConfig: { fields: ['id'] } }] }],
      ['text-processing-methods', { textProcessingMethods: { casing: { full_name: 'sentence' } } }],
      ['text-processing-methods', { textProcessingMethods: { regexReplacement: { phone: { '[0-9': '' } } } }],
      ['field-data-types', { fieldDataTypes: { amonut: { dataType: 'number' } } }],
    ];
    for (const [path, body] of cases) expectError(await call(emu, 'POST', `/${path}/${jobId}`, body), 422, 'invalid_value');
  });

  it('refuses two columns to one field without allowColumnCombining, naming both', async () => {
    const answer = await call(emu, 'POST', `/fields/${jobId}`, {
      columnFieldMapping: { 'customers.csv': { First: { field: 'full_name' }, Last: { field: 'full_name' } } },
    });
    expectError(answer, 422, 'invalid_value');
    expect(answer.body.error.message).toMatch(/First.*Last.*full_name/);
  });

  it('refuses a column or a data source the input does not have', async () => {
    expectError(await call(emu, 'POST', `/fields/${jobId}`, { columnFieldMapping: { 'customers.csv': { Nope: { field: 'id' } } } }), 422, 'invalid_value');
    expectError(await call(emu, 'POST', `/fields/${jobId}`, { columnFieldMapping: { 'other.csv': {} } }), 422, 'invalid_value');
  });

  it('refuses a sheet not in sheets, and a sheet for a CSV input', async () => {
    const workbookJob = await startJob(emu, { file: ORDERS });
    const answer = await call(emu, 'POST', `/fields/${workbookJob}`, { sheetSelection: { selected: 'Nope' } });
    expectError(answer, 422, 'invalid_value');
    expect(answer.body.error.message).toMatch(/Orders/);
    expectError(await call(emu, 'POST', `/fields/${jobId}`, { sheetSelection: { selected: 'Sheet1' } }), 422, 'invalid_value');
  });

  it('refuses an unknown script id at start, and accepts a known one', async () => {
    const unknown = await start(emu, { file: CUSTOMERS, fields: { scripts: '{"preColumnMapping":["nope"]}' } });
    expectError(unknown, 422, 'invalid_value');
    expect(unknown.body.error.message).toContain('upper-headers');
    const known = await startJob(emu, { file: CUSTOMERS, fields: { scripts: '{"preColumnMapping":["upper-headers"]}' } });
    expect((await call(emu, 'GET', `/scripts/${known}`)).body).toEqual({ preColumnMapping: ['upper-headers'], postClean: [] });
    expect((await call(emu, 'GET', `/fields/${known}`)).body.inputColumns).toContain('CUSTOMER ID');
  });

  it('refuses an input the engine cannot read, with its reason', async () => {
    const answer = await start(emu, { content: 'a,b\n1,2,3\n', fileName: 'ragged.csv' });
    expect(answer.status).toBe(422);
    expect(answer.body.error.message).toMatch(/ragged\.csv/);
    expect(answer.body.error.message).not.toContain(emu.dataDir);
  });

  it('refuses an unsupported outputFileType and a destinationFileName with folders', async () => {
    expectError(await start(emu, { file: CUSTOMERS, fields: { outputFileType: 'parquet' } }), 422, 'invalid_value');
    expectError(await start(emu, { file: CUSTOMERS, fields: { destinationFileName: '../escape.csv' } }), 422, 'invalid_value');
  });
});

describe('robustness', () => {
  it('answers a malformed multipart body with 400 and keeps serving', async () => {
    const response = await fetch(`${emu.apiUrl}/start`, {
      method: 'POST',
      headers: { 'x-api-key': 'test', 'content-type': 'multipart/form-data; boundary=xyz' },
      body: '--xyz\r\nContent-Disposition: form-data; name="jobName"\r\n\r\nunterminated',
    });
    expect([400, 422]).toContain(response.status);
    expect((await fetch(`${emu.url}/healthz`)).status).toBe(200);
  });

  it('serves the seed\'s prefix only', async () => {
    const response = await fetch(`${emu.url}${API_PREFIX}`, { headers: { 'x-api-key': 'test' } });
    expect(response.status).toBe(404);
  });
});
