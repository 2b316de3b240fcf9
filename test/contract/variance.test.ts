/**
 * The real CLI against a service that answers as the seed allows but our own `import serve`
 * never does: resources absent, null, {} or with members missing, unknown members, confidence
 * missing or as text, method values in another case, `capitalize`, two data sources; update
 * answers that are empty, 204, {}, an echo or text; `start` and `run` answers of every form the
 * seed leaves open. Every case: the documented exit code, no "bug" text or stack, and every
 * update body the recording server saw is exactly in the seed's update shape.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkUpdate, type UpdateName } from '../../src/contract/check.js';
import { parseJson } from '../../src/contract/json.js';
import { BIN, runCli, type CliResult } from '../support/cli.js';
import { startRecordingServer, type RecordedRequest, type RecordingServer, type Reply } from '../support/recording-server.js';

const KEY = 'sk-variance-0123456789';

/** A job's read bodies as the seed's examples show them (a workbook input, every resource set). */
const BASE = {
  sheet: { sheetSelection: { selected: 'Sheet1', confidence: 0.8, sheets: ['Sheet1', 'Q3 orders'] } },
  fields: {
    expectedFields: ['first_name', 'last_name', 'email', 'phone', 'amount', 'signup', 'country'],
    optionalFields: ['phone'],
    inputColumns: ['First', 'Last', 'E-mail', 'Notes', 'Amount', 'Signup', 'Country'],
    columnFieldMapping: {
      'orders.xlsx': {
        First: { field: 'first_name', confidence: 0.95 }, Last: { field: 'last_name', confidence: 0.9 },
        'E-mail': { field: 'email', confidence: 0.55 }, Amount: { field: 'amount', confidence: 0.9 },
        Signup: { field: 'signup', confidence: 0.8 }, Country: { field: 'country', confidence: 0.7 },
      },
    },
  },
  combining: { columnsBeingCombined: { name: { method: 'json', methodConfig: {}, combiningOrder: ['First', 'Last'] } } },
  dataTypes: {
    fieldDataTypes: { amount: { dataType: 'rich_text', confidence: 0.4 }, signup: { dataType: 'date_time', confidence: 0.8 } },
    expectedFieldDataTypes: { amount: 'number', signup: 'date_time' },
  },
  units: { fieldUnitConversions: { signup: { columnName: 'Signup', to: null, from: null, confidence: 0.3 } }, expectedFieldUnits: { signup: 'UTC_p0' } },
  impute: { imputeMethods: { country: { imputeMethod: 'fill', imputeMethodConfig: { fillValue: 'US' }, confidence: 0.6 } }, expectedImputeMethods: { country: 'fill' } },
  pivot: {
    pivot: {
      pivotColumns: { columnNames: ['Country'], confidence: 0.7 }, valueColumns: { columnNames: ['Amount'], confidence: 0.7 },
      indexColumns: { columnNames: ['E-mail'], aggregationMethod: 'first', confidence: 0.6 },
    },
  },
  rowDropping: {
    presetRowDroppingMethods: [{ method: 'missingValues', methodConfig: { fields: ['email'] } }],
    additionalRowDroppingMethods: [{ method: 'duplicateValues', methodConfig: { fields: ['email'] }, confidence: 0.7 }],
  },
  text: { textProcessingMethods: { regexReplacement: { phone: { '[^0-9]': '' } }, casing: { country: 'upper' } } },
  scripts: { preColumnMapping: ['s1'], postClean: ['s2'] },
};
type Reads = Record<keyof typeof BASE, unknown>;

const GET: Record<keyof Reads, string> = {
  sheet: '/selected-sheet', fields: '/fields', combining: '/column-combining-methods', dataTypes: '/field-data-types', units: '/units',
  impute: '/impute-methods', pivot: '/pivot', rowDropping: '/row-dropping-methods', text: '/text-processing-methods', scripts: '/scripts',
};
/** Update paths (the sheet's update goes to /fields, seed note 6). */
const UPDATE_PATHS = ['/fields', '/column-combining-methods', '/field-data-types', '/units', '/impute-methods', '/pivot', '/row-dropping-methods', '/text-processing-methods'];

const clone = (): any => structuredClone(BASE);
/** Applies `fn` to every object inside `value` (depth first). */
function eachObject(value: unknown, fn: (o: Record<string, unknown>) => void): void {
  if (Array.isArray(value)) value.forEach((v) => eachObject(v, fn));
  else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) eachObject(v, fn);
    fn(value as Record<string, unknown>);
  }
}

/** The seed-legal variants of the read bodies. */
const READ_VARIANTS: Record<string, () => Reads> = {
  base: clone,
  // expectedFields is the one member getFields must hold (an empty list when none is expected).
  absent: () => ({ ...Object.fromEntries(Object.keys(BASE).map((k) => [k, {}])), fields: { expectedFields: [] } }) as Reads,
  null: () => ({
    sheet: { sheetSelection: null },
    fields: { expectedFields: [], optionalFields: null, inputColumns: null, columnFieldMapping: null },
    combining: { columnsBeingCombined: null },
    dataTypes: { fieldDataTypes: null, expectedFieldDataTypes: null },
    units: { fieldUnitConversions: null, expectedFieldUnits: null },
    impute: { imputeMethods: null, expectedImputeMethods: null },
    pivot: { pivot: null },
    rowDropping: { presetRowDroppingMethods: null, additionalRowDroppingMethods: null },
    text: { textProcessingMethods: null },
    scripts: null,
  }),
  empty: () => ({
    sheet: { sheetSelection: {} },
    fields: { expectedFields: [], optionalFields: [], inputColumns: [], columnFieldMapping: {} },
    combining: { columnsBeingCombined: {} },
    dataTypes: { fieldDataTypes: {}, expectedFieldDataTypes: {} },
    units: { fieldUnitConversions: {}, expectedFieldUnits: {} },
    impute: { imputeMethods: {}, expectedImputeMethods: {} },
    pivot: { pivot: {} },
    rowDropping: { presetRowDroppingMethods: [], additionalRowDroppingMethods: [] },
    text: { textProcessingMethods: {} },
    scripts: {},
  }),
  membersMissing: () => {
    const r = clone();
    delete r.sheet.sheetSelection.confidence;
    delete r.fields.optionalFields;
    delete r.fields.inputColumns;
    r.combining.columnsBeingCombined.name = { method: 'json' };
    delete r.dataTypes.expectedFieldDataTypes;
    r.units.fieldUnitConversions.signup = { to: null, from: null };
    delete r.impute.expectedImputeMethods;
    r.pivot.pivot = { pivotColumns: { columnNames: ['Country'] } };
    delete r.rowDropping.presetRowDroppingMethods;
    delete r.text.textProcessingMethods.regexReplacement;
    delete r.scripts.postClean;
    return r;
  },
  unknownMembers: () => {
    const r = clone();
    for (const body of Object.values(r) as Record<string, unknown>[]) body.etag = 'W/"42"';
    r.sheet.sheetSelection.source = 'model-2';
    r.fields.columnFieldMapping['orders.xlsx'].First.reason = 'name match';
    r.combining.columnsBeingCombined.name.note = 'x';
    r.dataTypes.fieldDataTypes.amount.sample = ['1'];
    r.units.fieldUnitConversions.signup.detected = 'UTC_m5';
    r.impute.imputeMethods.country.missingShare = 0.1;
    r.pivot.pivot.indexColumns.hint = 'id';
    r.rowDropping.additionalRowDroppingMethods[0].reason = 'key';
    r.text.textProcessingMethods.trim = true;
    return r;
  },
  confidenceMissing: () => {
    const r = clone();
    eachObject(r, (o) => { delete o.confidence; });
    return r;
  },
  confidenceString: () => {
    const r = clone();
    eachObject(r, (o) => { if (typeof o.confidence === 'number') o.confidence = String(o.confidence); });
    return r;
  },
  otherCase: () => {
    const r = clone();
    r.combining.columnsBeingCombined.name.method = 'JSON';
    r.dataTypes.fieldDataTypes.amount.dataType = 'RICH_TEXT';
    r.dataTypes.expectedFieldDataTypes.amount = 'Number';
    r.impute.imputeMethods.country.imputeMethod = 'FILL';
    r.impute.expectedImputeMethods.country = 'Fill';
    r.pivot.pivot.indexColumns.aggregationMethod = 'FIRST';
    r.rowDropping.presetRowDroppingMethods[0].method = 'MISSINGVALUES';
    r.rowDropping.additionalRowDroppingMethods[0].method = 'duplicatevalues';
    r.text.textProcessingMethods.casing.country = 'Upper';
    return r;
  },
  capitalize: () => {
    const r = clone();
    r.text.textProcessingMethods.casing = { country: 'capitalize', first_name: 'Capitalize' };
    return r;
  },
  twoSources: () => {
    const r = clone();
    r.fields.inputColumns.push('Extra');
    r.fields.columnFieldMapping['second.csv'] = { Extra: { field: 'extra', confidence: 0.5 } };
    return r;
  },
};

/** Whether a variant leaves the job without a sheet selection (so `sheet update` is exit 2). */
const hasNoSheets = (variant: string) => ['absent', 'null', 'empty'].includes(variant);

let server: RecordingServer;
let dir: string;
let jobFile: string;

/** Routes for job `jobId`: its reads, and every update path answering `update` (default: 200 `{}`). */
function serveJob(jobId: string, reads: Reads, update: Reply | ((r: RecordedRequest) => Reply) = { body: {} }, run: Reply = { body: { jobId, status: 'completed' } }): void {
  for (const [name, path] of Object.entries(GET)) server.on(`GET ${path}/${jobId}`, { body: (reads as any)[name] === null ? 'null' : (reads as any)[name], headers: { 'content-type': 'application/json' } });
  for (const path of UPDATE_PATHS) server.on(`POST ${path}/${jobId}`, update);
  server.on(`POST /run/${jobId}`, run);
}

const cli = (args: string[], input?: string): Promise<CliResult> => runCli([...args, '--base-url', server.url, '--api-key', KEY], { input, cwd: dir, timeoutMs: 60_000 });

/** The requests made for one job. */
const requestsOf = (jobId: string) => server.requests.filter((r) => r.path.endsWith(`/${encodeURIComponent(jobId)}`));

/** Asserts the common promises: exit code, no bug text or stack trace, and seed-shaped update bodies. */
function expectClean(res: CliResult, exitCode: number, jobId: string): void {
  const context = `exit ${res.exitCode}\nstdout: ${res.stdout}\nstderr: ${res.stderr}`;
  expect(res.exitCode, context).toBe(exitCode);
  expect(res.timedOut).toBe(false);
  expect(res.stderr, context).not.toMatch(/bug|Cannot read|TypeError|ReferenceError|\n\s+at /);
  if (exitCode !== 0) expect(res.stderr.trim().split('\n').filter((l) => l.startsWith('error:')), context).toHaveLength(1);
  for (const r of requestsOf(jobId)) {
    if (r.method !== 'POST' || r.path.startsWith('/run/')) continue;
    expectSeedShaped(r);
  }
}

/** An update body the recording server saw: exactly the seed's update shape, no confidence anywhere. */
function expectSeedShaped(r: RecordedRequest): void {
  const raw = r.body.toString('utf8');
  expect(raw, r.path).not.toContain('confidence');
  const body = parseJson(raw) as Record<string, unknown>;
  const name = updateNameOf(r.path, body);
  const checked = checkUpdate(name, body);
  expect(checked.ok, `${r.path}: ${raw} ${checked.ok ? '' : JSON.stringify(checked.problem)}`).toBe(true);
  // The strict schema reads values in the seed's spelling: what was sent already was.
  if (checked.ok) expect(JSON.parse(raw), r.path).toEqual(JSON.parse(JSON.stringify(checked.value, (_, v) => (v instanceof Map ? Object.fromEntries(v) : v))));
}

function updateNameOf(path: string, body: Record<string, unknown>): UpdateName {
  const segment = path.split('/')[1];
  if (segment === 'fields') return 'sheetSelection' in body ? 'sheet' : 'fields';
  const names: Record<string, UpdateName> = {
    'column-combining-methods': 'combining', 'field-data-types': 'dataTypes', units: 'units', 'impute-methods': 'impute',
    pivot: 'pivot', 'row-dropping-methods': 'rowDropping', 'text-processing-methods': 'text',
  };
  return names[segment];
}

/** The update each resource command makes with flags, and a check of the body it sends. */
const UPDATES: { noun: string; args: string[]; path: string; expectBody: (body: any) => void }[] = [
  { noun: 'sheet', args: ['Q3 orders'], path: '/fields', expectBody: (b) => expect(b).toEqual({ sheetSelection: { selected: 'Q3 orders' } }) },
  { noun: 'fields', args: ['--map', 'Notes=phone'], path: '/fields', expectBody: (b) => expect(Object.values(b.columnFieldMapping).some((c: any) => c.Notes?.field === 'phone')).toBe(true) },
  { noun: 'combining', args: ['--field', 'name', '--separator', ' '], path: '/column-combining-methods', expectBody: (b) => expect(b.columnsBeingCombined.name.methodConfig).toEqual({ separator: ' ' }) },
  { noun: 'types', args: ['--type', 'amount=number'], path: '/field-data-types', expectBody: (b) => expect(b.fieldDataTypes.amount).toEqual({ dataType: 'number' }) },
  { noun: 'units', args: ['--unit', 'signup=UTC_m5:UTC_p0'], path: '/units', expectBody: (b) => expect(b.fieldUnitConversions.signup).toEqual({ from: 'UTC_m5', to: 'UTC_p0' }) },
  { noun: 'impute', args: ['--impute', 'email=dropMissing'], path: '/impute-methods', expectBody: (b) => expect(b.imputeMethods.email).toEqual({ imputeMethod: 'dropMissing' }) },
  { noun: 'pivot', args: ['--pivot-columns', 'Country', '--value-columns', 'Amount'], path: '/pivot', expectBody: (b) => expect(b.pivot.pivotColumns).toEqual({ columnNames: ['Country'] }) },
  { noun: 'row-dropping', args: ['--drop', 'missingValues:email'], path: '/row-dropping-methods', expectBody: (b) => expect(b.additionalRowDroppingMethods).toEqual([{ method: 'missingValues', methodConfig: { fields: ['email'] } }]) },
  { noun: 'text', args: ['--case', 'last_name=title'], path: '/text-processing-methods', expectBody: (b) => expect(b.textProcessingMethods.casing.last_name).toBe('title') },
];

/** A job file for plan / run / pull: pins a mapping, a type, a fill, ordered rules. The input is a link, so nothing local is read. */
const JOB_FILE = `version: 1
pipeline: pl_variance
name: variance
input:
  googleSheet: {url: "https://docs.google.com/spreadsheets/d/abc", sheet: Sheet1}
config:
  mapping:
    Notes: phone
  dataTypes:
    amount: number
  impute:
    email: {method: dropMissing}
  text:
    regexReplacement:
      phone: {"[^0-9]": ""}
`;

beforeAll(async () => {
  server = await startRecordingServer();
  dir = mkdtempSync(join(tmpdir(), 'import-variance-'));
  jobFile = join(dir, 'job.yaml');
  writeFileSync(jobFile, JOB_FILE);
  for (const [variant, make] of Object.entries(READ_VARIANTS)) serveJob(`V-${variant}`, make());
});
afterAll(async () => { await server?.close(); });

/**
 * Which resources a variant changes, so each resource's `get` and `update` run against the
 * variants that touch it (every variant also runs plan, run job.yaml and pull, which read all).
 * A confidence is never sent, so its variants update two resources only.
 */
const ALL = ['sheet', 'fields', 'combining', 'types', 'units', 'impute', 'pivot', 'row-dropping', 'text', 'scripts'];
const TOUCHES: Record<string, { get: string[]; update: string[] }> = {
  base: { get: [], update: [] },
  absent: { get: ALL, update: ALL },
  null: { get: ALL, update: ALL },
  empty: { get: ALL, update: ALL },
  membersMissing: { get: ALL, update: ALL },
  unknownMembers: { get: ALL, update: ALL },
  confidenceMissing: { get: ALL, update: ['fields', 'types'] },
  confidenceString: { get: ALL, update: ['fields', 'types'] },
  otherCase: { get: ['combining', 'types', 'impute', 'pivot', 'row-dropping', 'text'], update: ['combining', 'types', 'impute', 'pivot', 'row-dropping', 'text'] },
  capitalize: { get: ['text'], update: ['text'] },
  twoSources: { get: ['fields'], update: ['fields'] },
};

describe.concurrent.each(Object.keys(READ_VARIANTS))('reads: %s', (variant) => {
  const jobId = `V-${variant}`;
  const gets = TOUCHES[variant].get;
  const updates = UPDATES.filter((u) => TOUCHES[variant].update.includes(u.noun));

  if (gets.length) {
    it.each(gets)('%s get reads it tolerantly and prints a table', async (noun) => {
      expectClean(await cli([noun, 'get', jobId]), 0, jobId);
    });
  }

  if (updates.length) {
    it.each(updates)('$noun update sends the complete body in the seed\'s shape', async ({ noun, args, path, expectBody }) => {
      const res = await cli([noun, 'update', jobId, ...args, '-o', 'json']);
      const exit = noun === 'sheet' && hasNoSheets(variant) ? 2 : 0;
      expectClean(res, exit, jobId);
      if (exit !== 0) {
        expect(res.stderr).toContain('has no sheets to choose from');
        return;
      }
      // Concurrent cases share the job: the body this command sent is the one its stdout shows.
      const sent = JSON.parse(res.stdout);
      expectBody(sent);
      const posted = requestsOf(jobId).filter((r) => r.method === 'POST' && r.path === `${path}/${jobId}`);
      expect(posted.some((r) => JSON.stringify(r.json) === JSON.stringify(sent))).toBe(true);
    });
  }

  // The job file's flat mapping cannot say which of two sources it means (see below).
  it.skipIf(variant === 'twoSources')('plan, run job.yaml --yes and pull read every resource and send only seed-shaped bodies', async () => {
    const plan = await cli(['plan', jobFile, '--job', jobId]);
    expectClean(plan, 0, jobId);
    expect(plan.stdout.trim().split('\n').at(-1)).toBe(jobId);

    const run = await cli(['run', jobFile, '--job', jobId, '--yes']);
    expectClean(run, 0, jobId);
    expect(run.stderr).toContain(`Job ${jobId} completed.`);

    const pull = await cli(['pull', jobId]);
    expectClean(pull, 0, jobId);
    expect(pull.stdout).toContain('version: 1');
  });
});

describe('get -o json prints the service\'s body unchanged, whatever its form', () => {
  it.each(['null', 'unknownMembers', 'confidenceString'])('%s', async (variant) => {
    const jobId = `V-${variant}`;
    const res = await cli(['pivot', 'get', jobId, '-o', 'json']);
    expectClean(res, 0, jobId);
    expect(JSON.parse(res.stdout)).toEqual((READ_VARIANTS[variant]() as any).pivot);
  });
});

describe('compressed answers (a server may compress though we ask for identity)', () => {
  it('reads a gzip-encoded read as the JSON it is, and says an unknown encoding is the service\'s answer at fault (exit 1)', async () => {
    const jobId = 'V-gzip';
    server.on(`GET /fields/${jobId}`, { body: gzipSync(JSON.stringify(BASE.fields)), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
    const res = await cli(['fields', 'get', jobId, '-o', 'json']);
    expectClean(res, 0, jobId);
    expect(JSON.parse(res.stdout)).toEqual(BASE.fields);
    expect(requestsOf(jobId)[0].headers['accept-encoding']).toBe('identity');
    server.on(`GET /fields/${jobId}`, { body: 'xx', headers: { 'content-type': 'application/json', 'content-encoding': 'compress' } });
    const unknown = await cli(['fields', 'get', jobId]);
    expectClean(unknown, 1, jobId);
    expect(unknown.stderr).toBe(`error: The service's answer to GET ${server.url}/public/client-side/v1/fields/${jobId} cannot be used: it is sent with Content-Encoding "compress", which this tool cannot decode (it reads gzip, deflate and br, and asks for none); report it to the service's operator.\n`);
  });
});

describe('ordered regular-expression rules reach the wire in written order', () => {
  it('sends --data rules as written, in the raw bytes', async () => {
    const jobId = 'V-data-rules';
    serveJob(jobId, READ_VARIANTS.base());
    const res = await cli(['text', 'update', jobId, '--data', '{"textProcessingMethods":{"regexReplacement":{"code":{"9":"X","0":"9"}},"casing":{"country":"upper"}}}', '-o', 'json']);
    expectClean(res, 0, jobId);
    const text = requestsOf(jobId).find((r) => r.method === 'POST');
    expect(text?.body.toString('utf8')).toBe('{"textProcessingMethods":{"regexReplacement":{"code":{"9":"X","0":"9"}},"casing":{"country":"upper"}}}');
    expect(res.stdout).toContain('"code": {\n        "9": "X",\n        "0": "9"');
  });
});

describe('a missing confidence is unknown: under any review bar', () => {
  it('stops run at the bar (exit 5) naming the suggestion, shows it as unknown, and --yes accepts it', async () => {
    const jobId = 'V-nobar';
    serveJob(jobId, READ_VARIANTS.confidenceMissing());
    const gated = await cli(['run', jobFile, '--job', jobId, '--min-confidence', '0.1']);
    expectClean(gated, 5, jobId);
    expect(gated.stderr).toContain('(confidence unknown)');
    expect(requestsOf(jobId).filter((r) => r.method === 'POST')).toEqual([]);
    const table = await cli(['fields', 'get', jobId]);
    expect(table.stdout).toMatch(/First\s+│?\s*first_name\s+│?\s*unknown/);
    expectClean(await cli(['run', jobFile, '--job', jobId, '--min-confidence', '0.1', '--yes']), 0, jobId);
  });
});

describe('reads that cannot be used: one sentence naming the endpoint and the member, exit 1', () => {
  const cases: [string, string, unknown, string][] = [
    ['pivot', '/pivot', { pivot: { pivotColumns: { columnNames: 'Country' }, valueColumns: { columnNames: ['Amount'] } } }, 'its member pivot.pivotColumns.columnNames must be a list, not "Country"'],
    ['types', '/field-data-types', { fieldDataTypes: { amount: { dataType: 'integer' } } }, 'its member fieldDataTypes.amount.dataType is "integer"; use one of number, rich_text, category, date_time'],
    ['fields', '/fields', { columnFieldMapping: { 'a.csv': { First: { field: 'x', confidence: 'high' } } } }, 'its member columnFieldMapping["a.csv"].First.confidence is "high", not a confidence from 0 to 1'],
    ['fields', '/fields', ['not', 'an', 'object'], 'the body must be a JSON object, not a list'],
    ['fields', '/fields', { inputColumns: ['A'], columnFieldMapping: {} }, 'its member expectedFields is absent; getFields must list the fields the pipeline expects (an empty list when none), or the required fields cannot be checked'],
    ['fields', '/fields', { expectedFields: null }, 'its member expectedFields is null; getFields must list the fields the pipeline expects (an empty list when none), or the required fields cannot be checked'],
    ['sheet', '/selected-sheet', { sheetSelection: { selected: 'Sheet1', confidence: 0.8 } }, "its member sheetSelection.sheets is absent though a selected sheet is named; getSelectedSheet must list the workbook's sheets, or no sheet name can be checked against them"],
  ];
  it.each(cases)('%s get: %s', async (noun, path, body, message) => {
    const jobId = `V-bad-${path.slice(1)}-${message.length}`;
    server.on(`GET ${path}/${jobId}`, { body });
    const res = await cli([noun, 'get', jobId]);
    expectClean(res, 1, jobId);
    expect(res.stderr).toBe(`error: The service's answer to GET ${server.url}/public/client-side/v1${path}/${jobId} cannot be used: ${message}; check --base-url, or report it to the service's operator.\n`);
  });
});

describe('a sheet read without sheets', () => {
  it('stops sheet update with exit 1 naming the endpoint and member, before anything is sent', async () => {
    const jobId = 'V-no-sheets';
    const reads = READ_VARIANTS.base();
    delete (reads.sheet as any).sheetSelection.sheets;
    serveJob(jobId, reads);
    const res = await cli(['sheet', 'update', jobId, 'Sheet1']);
    expectClean(res, 1, jobId);
    expect(res.stderr).toContain(`error: The service's answer to GET ${server.url}/public/client-side/v1/selected-sheet/${jobId} cannot be used: its member sheetSelection.sheets is absent`);
    expect(requestsOf(jobId).filter((r) => r.method === 'POST')).toEqual([]);
  });
});

describe.concurrent('update answers the seed leaves open', () => {
  const answers: [string, string, Reply | ((r: RecordedRequest) => Reply)][] = [
    ['empty', 'V-answer-empty', { status: 200, body: '' }],
    ['204', 'V-answer-204', { status: 204 }],
    ['{}', 'V-answer-object', { body: {} }],
    ['echo', 'V-answer-echo', (r) => ({ body: r.body.toString('utf8'), headers: { 'content-type': 'application/json' } })],
    ['plain text', 'V-answer-text', { body: 'OK', headers: { 'content-type': 'text/plain' } }],
  ];
  describe.each(answers)('%s', (_label, jobId, reply) => {
    beforeAll(() => serveJob(jobId, READ_VARIANTS.base(), reply));

    it.each(UPDATES.filter((u) => ['fields', 'text'].includes(u.noun)))('$noun update exits 0 and prints the body it sent', async ({ noun, args, expectBody }) => {
      const res = await cli([noun, 'update', jobId, ...args, '-o', 'json']);
      expectClean(res, 0, jobId);
      expectBody(JSON.parse(res.stdout));
    });

    it('run job.yaml applies every update and runs', async () => {
      const res = await cli(['run', jobFile, '--job', jobId, '--yes']);
      expectClean(res, 0, jobId);
      for (const resource of ['fields', 'dataTypes', 'impute']) expect(res.stderr).toContain(`Updated ${resource}.`);
    });
  });
});

describe('a flat job-file mapping against a job with two data sources', () => {
  it('is refused at config.mapping naming the sources and the fix (exit 2), nothing sent; pull still works', async () => {
    const jobId = 'V-two-flat';
    serveJob(jobId, READ_VARIANTS.twoSources());
    const plan = await cli(['plan', jobFile, '--job', jobId]);
    expectClean(plan, 2, jobId);
    expect(plan.stderr).toContain(`error: job.yaml:7:3: config.mapping is a flat mapping, which applies to a job with one data source, but the mapping of the service's job ${jobId} has 2 (orders.xlsx, second.csv), so which source's columns it means is not known; remove config.mapping and map each source's columns with \`import fields update <jobId> --data\` (columnFieldMapping keyed by source name), or start the job from one input.`);
    const run = await cli(['run', jobFile, '--job', jobId, '--yes']);
    expectClean(run, 2, jobId);
    expect(requestsOf(jobId).filter((r) => r.method === 'POST')).toEqual([]);
    expectClean(await cli(['pull', jobId]), 0, jobId);
  });
});

describe('a fields read without expectedFields', () => {
  it('stops run job.yaml with exit 1 naming the endpoint and member, before any update or run', async () => {
    const jobId = 'V-no-expected';
    const reads = READ_VARIANTS.base();
    delete (reads.fields as any).expectedFields;
    serveJob(jobId, reads);
    const res = await cli(['run', jobFile, '--job', jobId, '--yes']);
    expectClean(res, 1, jobId);
    expect(res.stderr).toContain(`error: The service's answer to GET ${server.url}/public/client-side/v1/fields/${jobId} cannot be used: its member expectedFields is absent;`);
    expect(requestsOf(jobId).filter((r) => r.method === 'POST')).toEqual([]);
  });
});

describe.concurrent('update answers that report a failure in a 2xx', () => {
  const refusals: [string, Reply, string][] = [
    ['an error member', { body: { error: { code: 'invalid', message: 'fillValue US is not allowed' } } }, 'its member error says the update failed: fillValue US is not allowed (invalid)'],
    ['success: false', { body: { success: false, errors: ['no such field'] } }, 'its member success says the update failed: no such field'],
    ['a text error', { body: 'ERROR: rejected', headers: { 'content-type': 'text/plain' } }, 'its body says the update failed: ERROR: rejected'],
  ];
  it.each(refusals)('impute update exits 1 on %s, and run job.yaml stops half configured without running', async (label, reply, said) => {
    const jobId = `V-refused-${label.replace(/\W/g, '')}`;
    serveJob(jobId, READ_VARIANTS.base());
    server.on(`POST /impute-methods/${jobId}`, reply);
    const update = await cli(['impute', 'update', jobId, '--impute', 'email=dropMissing']);
    expectClean(update, 1, jobId);
    expect(update.stderr).toBe(`error: The service answered POST ${server.url}/public/client-side/v1/impute-methods/${jobId} with 200 but ${said}; the impute update is not taken as applied.\n`);
    expect(update.stdout).toBe('');

    const run = await cli(['run', jobFile, '--job', jobId, '--yes']);
    expectClean(run, 1, jobId);
    expect(run.stderr).toContain(`Job ${jobId} is half configured: updated fields, dataTypes; not updated: impute`);
    expect(run.stderr).not.toContain('Updated impute.');
    expect(requestsOf(jobId).some((r) => r.path.startsWith('/run/'))).toBe(false);
  });
});

// One /start route for all: these run one after the other.
describe('start answers the seed leaves open', () => {
  const answers: [string, Reply, string][] = [
    ['{"jobId"}', { body: { jobId: 'S-json' } }, 'S-json'],
    ['a bare JSON string', { body: '"S-bare"', headers: { 'content-type': 'application/json' } }, 'S-bare'],
    ['plain text', { body: 'S-text\n', headers: { 'content-type': 'text/plain' } }, 'S-text'],
  ];
  it.each(answers)('start takes the job id from %s; run job.yaml goes on with it', async (_label, reply, jobId) => {
    serveJob(jobId, READ_VARIANTS.base());
    const startRoute = `POST /start`;
    server.on(startRoute, reply);
    const start = await cli(['start', '--gs-url', 'https://docs.google.com/spreadsheets/d/abc', '--gs-sheet', 'Sheet1']);
    expectClean(start, 0, jobId);
    expect(start.stdout).toBe(`${jobId}\n`);
    server.on(startRoute, reply);
    const run = await cli(['run', jobFile, '--yes', '--no-wait']);
    expectClean(run, 0, jobId);
    expect(run.stderr).toContain(`Started job ${jobId}.`);
    expect(requestsOf(jobId).at(-1)?.json).toEqual({ returnWhenComplete: false });
  });
});

describe.concurrent('run answers the seed leaves open', () => {
  const answers: [string, Reply][] = [
    ['{}', { body: {} }],
    ['empty', { status: 200, body: '' }],
    ['204', { status: 204 }],
    ['text', { status: 200, body: 'OK', headers: { 'content-type': 'text/plain' } }],
    ['status succeeded', { body: { status: 'SUCCEEDED', rowsOut: 3 } }],
  ];
  it.each(answers)('run --wait exits 0 on %s', async (label, reply) => {
    const jobId = `V-run-${label.replace(/\W/g, '')}`;
    serveJob(jobId, READ_VARIANTS.base(), undefined, reply);
    const res = await cli(['run', jobId, '--wait']);
    expectClean(res, 0, jobId);
    expect(res.stderr).toContain(`Job ${jobId} completed.`);
    expect(requestsOf(jobId).map((r) => `${r.method} ${r.path}`)).toEqual([`POST /run/${jobId}`]);
  });

  const accepted: [string, Reply][] = [
    ['202', { status: 202 }],
    ['202 with text', { status: 202, body: 'accepted', headers: { 'content-type': 'text/plain' } }],
    ['status running', { body: { status: 'running' } }],
  ];
  it.each(accepted)('run without --wait exits 0 on an acceptance (%s)', async (label, reply) => {
    const jobId = `V-run-nowait-${label.replace(/\W/g, '')}`;
    serveJob(jobId, READ_VARIANTS.base(), undefined, reply);
    const res = await cli(['run', jobId]);
    expectClean(res, 0, jobId);
    expect(res.stderr).toContain(`Job ${jobId} is running.`);
  });

  const url = (jobId: string) => `POST ${server.url}/public/client-side/v1/run/${jobId}`;
  const incomplete: [string, Reply, string][] = [
    ['202', { status: 202 }, 'its HTTP status is 202 Accepted'],
    ['202 with a body', { status: 202, body: { status: 'running' } }, 'its HTTP status is 202 Accepted'],
    ['status running', { body: { status: 'running' } }, 'its member status is "running"'],
    ['state queued', { body: { state: 'queued' } }, 'its member state is "queued"'],
    ['status In Progress', { body: { status: 'In Progress' } }, 'its member status is "In Progress"'],
  ];
  it.each(incomplete)('run --wait exits 1 when the answer does not say the job completed (%s)', async (label, reply, member) => {
    const jobId = `V-run-incomplete-${label.replace(/\W/g, '')}`;
    serveJob(jobId, READ_VARIANTS.base(), undefined, reply);
    const res = await cli(['run', jobId, '--wait']);
    expectClean(res, 1, jobId);
    expect(res.stderr).toContain(`error: The service's answer to ${url(jobId)} says job ${jobId} has not completed: ${member}, although returnWhenComplete: true asks for an answer once the whole job is complete; check the job on the service before running it again.\n`);
    expect(res.stderr).not.toContain('completed.\n');
  });

  // The call's return is the completion (seed): a word that is neither pending nor a failure, or a number, does not contradict it.
  const completed: [string, Reply][] = [
    ['status processed', { body: { status: 'processed' } }],
    ['status 200', { body: { status: 200, message: 'ok' } }],
    ['state COMPLETED', { body: { state: 'COMPLETED' } }],
  ];
  it.each(completed)('run --wait exits 0 when the answer does not contradict the completion (%s)', async (label, reply) => {
    const jobId = `V-run-completed-${label.replace(/\W/g, '')}`;
    serveJob(jobId, READ_VARIANTS.base(), undefined, reply);
    const res = await cli(['run', jobId, '--wait']);
    expectClean(res, 0, jobId);
    expect(res.stderr).toContain(`Job ${jobId} completed.`);
  });

  const failed: [string, Reply, string][] = [
    ['status failed', { body: { status: 'failed', error: { message: 'column Amount is not a number' } } }, 'column Amount is not a number'],
    ['status cancelled', { body: { status: 'cancelled', message: 'cancelled by admin' } }, 'cancelled by admin'],
    ['success false', { body: { success: false, errors: [{ message: 'validation failed: email missing' }] } }, 'validation failed: email missing'],
    ['a text FAILED', { body: 'FAILED: validation failed', headers: { 'content-type': 'text/plain' } }, 'FAILED: validation failed'],
    ['an error with a terminal escape', { body: { error: 'bad\u001b[2Jrow' } }, 'bad\\u001b[2Jrow'],
    ['gzip-encoded', { body: gzipSync(JSON.stringify({ status: 'failed', error: 'all rows rejected' })), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } }, 'all rows rejected'],
  ];
  it.each(failed)('run --wait exits 1 when the answer says the job failed (%s), with the service\'s words', async (label, reply, words) => {
    const jobId = `V-run-failed-${label.replace(/\W/g, '')}`;
    serveJob(jobId, READ_VARIANTS.base(), undefined, reply);
    const res = await cli(['run', jobId, '--wait']);
    expectClean(res, 1, jobId);
    expect(res.stderr).toContain(`error: Job ${jobId} failed: ${words}.\n`);
    expect(res.stderr + res.stdout).not.toContain('\u001b');
  });

  it('run job.yaml (which waits) exits 1 on a 202 and does not say the job completed', async () => {
    const jobId = 'V-run-jobfile-202';
    serveJob(jobId, READ_VARIANTS.base(), undefined, { status: 202 });
    const res = await cli(['run', jobFile, '--job', jobId, '--yes']);
    expectClean(res, 1, jobId);
    expect(res.stderr).toContain(`says job ${jobId} has not completed: its HTTP status is 202 Accepted`);
    expect(res.stderr).not.toContain(`Job ${jobId} completed.`);
    // --no-wait takes the same answer as the acceptance it is.
    expectClean(await cli(['run', jobFile, '--job', jobId, '--yes', '--no-wait']), 0, jobId);
  });
});

const hasOpenssl = spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0;
if (!hasOpenssl) console.log('variance.test.ts: openssl is not installed; the untrusted-certificate case is skipped.');

describe('TLS', () => {
  it.skipIf(!hasOpenssl)('says in one sentence that a self-signed certificate is not trusted, and how to trust it', async () => {
    const { createServer } = await import('node:https');
    const { readFileSync } = await import('node:fs');
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1'], { stdio: 'ignore' });
    expect(made.status).toBe(0);
    const https = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_q, r) => r.end('{}'));
    await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
    const base = `https://127.0.0.1:${(https.address() as { port: number }).port}`;
    try {
      const res = await runCli(['fields', 'get', 'J1', '--base-url', base, '--api-key', KEY], { cwd: dir });
      expect(res.exitCode).toBe(1);
      expect(res.stderr).toBe(`error: The TLS certificate of ${base} is not signed by a trusted authority (DEPTH_ZERO_SELF_SIGNED_CERT); set NODE_EXTRA_CA_CERTS to the file of its CA certificate.\n`);
    } finally {
      https.close();
    }
  });

  it('says in one sentence that a loopback server does not speak https', async () => {
    const base = server.url.replace('http:', 'https:');
    const res = await runCli(['fields', 'get', 'J1', '--base-url', base, '--api-key', KEY], { cwd: dir });
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toBe(`error: The server at ${base} does not speak https; use ${server.url} for a loopback address.\n`);
  });
});

/**
 * `import review` against the service needs a terminal: run it in a pseudo-terminal (util-linux
 * `script`) and accept every default with Enter whenever the screen has been still for a moment.
 */
function reviewInTerminal(args: string[], cwd: string): Promise<{ code: number | null; screen: string }> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('IMPORT_') && k !== 'CI' && k !== 'FORCE_COLOR') env[k] = v;
  Object.assign(env, { NO_COLOR: '1', TERM: 'xterm', HOME: cwd, XDG_CONFIG_HOME: join(cwd, '.config') });
  const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
  const child = spawn('script', ['-qfec', [process.execPath, BIN, ...args].map(quote).join(' '), '/dev/null'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let screen = '';
  let changedAt = Date.now();
  const take = (d: string) => { screen += d; changedAt = Date.now(); };
  child.stdout.setEncoding('utf8').on('data', take);
  child.stderr.setEncoding('utf8').on('data', take);
  let presses = 0;
  const timer = setInterval(() => {
    if (Date.now() - changedAt > 500 && presses < 60) { presses++; changedAt = Date.now(); child.stdin.write('\r'); }
  }, 100);
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) => child.on('exit', (code) => {
    clearInterval(timer);
    clearTimeout(killer);
    child.stdin.end();
    resolve({ code, screen: screen.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/\u001b[@-Z\\-_]/g, '') });
  }));
}

describe.skipIf(spawnSync('script', ['--version'], { stdio: 'ignore' }).status !== 0)('review against the service, in a terminal', () => {
  it.each(['confidenceMissing', 'twoSources', 'null'])('walks a job whose reads are %s, every default accepted, and prints the job id', async (variant) => {
    const jobId = `V-review-${variant}`;
    serveJob(jobId, READ_VARIANTS[variant]());
    const reviewDir = mkdtempSync(join(tmpdir(), 'import-variance-review-'));
    writeFileSync(join(reviewDir, 'orders.csv'), 'First,Last,E-mail,Notes,Amount,Signup,Country\nAda,Lovelace,ada@example.com,555 0100,12.5,2024-01-02 10:00:00,uk\n');
    writeFileSync(join(reviewDir, 'job.yaml'), 'version: 1\nname: review\ninput:\n  file: ./orders.csv\nreview:\n  minConfidence: 0.9\n');
    const { code, screen } = await reviewInTerminal(['review', 'job.yaml', '--job', jobId, '--all', '--base-url', server.url, '--api-key', KEY], reviewDir);
    expect(screen).not.toMatch(/bug|Cannot read|TypeError|\n\s+at /);
    expect(code, screen).toBe(0);
    // With no input columns read (null), there is no column to ask about.
    if (variant !== 'null') expect(screen).toContain('Map "First" to');
    expect(screen.trim().split('\n').at(-1)?.trim()).toBe(jobId);
    // A review changes nothing on the service.
    expect(requestsOf(jobId).filter((r) => r.method === 'POST')).toEqual([]);
  });
});

describe('base URL', () => {
  it('names the target of a redirect (no credentials, no query) and the base URL it implies, without following it (exit 1)', async () => {
    const jobId = 'V-redirect';
    const moved = `https://user:pw@imports.example.com/root/public/client-side/v1/scripts/${jobId}?key=${KEY}&t=1`;
    server.on(`GET /scripts/${jobId}`, { status: 301, headers: { location: moved }, body: 'Moved' });
    const res = await cli(['scripts', 'get', jobId]);
    expectClean(res, 1, jobId);
    expect(res.stderr).toBe(`error: The service answered GET ${server.url}/public/client-side/v1/scripts/${jobId} with 301 Moved Permanently to https://imports.example.com/root/public/client-side/v1/scripts/${jobId}, which this tool does not follow; if the service has moved there, set --base-url (or IMPORT_BASE_URL, or the profile's base-url) to https://imports.example.com/root.\n`);
    expect(res.stderr).not.toContain(KEY);
    expect(requestsOf(jobId)).toHaveLength(1);
  });

  it('takes a base URL copied with the seed\'s /public/client-side/v1 prefix as the service root', async () => {
    const res = await runCli(['scripts', 'get', 'V-base', '--base-url', `${server.url}/public/client-side/v1/`, '--api-key', KEY], { cwd: dir });
    expectClean(res, 0, 'V-base');
    expect(server.requests.some((r) => r.url === '/public/client-side/v1/scripts/V-base')).toBe(true);
    expect(server.requests.some((r) => r.url.includes('/v1/public/'))).toBe(false);
  });
});
