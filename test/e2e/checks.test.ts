// What `run`, `plan`, `validate` and `dry-run` check before anything is sent, and what happens
// when an update still fails mid-way: the real CLI against `import serve` (through a recording
// proxy, so every request sent is seen) and against a recording server playing a service.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN, copyExample, ROOT, runCli } from '../support/cli.js';
import { startEmulator, type Emulator } from '../support/emulator.js';
import { forwardTo, startRecordingServer, type RecordedRequest, type RecordingServer } from '../support/recording-server.js';

let service: Emulator;
let proxy: RecordingServer;
let dir: string;
/** Shared by every CLI run of a test, as one user's machine: `start` records what `pull` reads back. */
let state: string;

/** Forwards every request to the test service, so the proxy records what the CLI sends. */
function forwardToService(server: RecordingServer): void {
  forwardTo(server, service.url);
}

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
  forwardToService(proxy);
  dir = await mkdtemp(join(tmpdir(), 'import-checks-'));
  state = await mkdtemp(join(tmpdir(), 'import-checks-state-'));
  await copyExample('customers', dir);
});

const env = () => ({ IMPORT_BASE_URL: proxy.url, IMPORT_API_KEY: 'test-key', XDG_STATE_HOME: state });
const cli = (args: string[], cwd = dir) => runCli(args, { env: env(), cwd, timeoutMs: 40_000 });
const posts = () => proxy.requests.filter((r) => r.method === 'POST').map((r) => r.path.replace(/\/job_[^/]+$/, '/ID'));

/** Writes a job file beside the customers example's data and returns its name. */
async function jobFile(text: string, name = 'job.yaml'): Promise<string> {
  await writeFile(join(dir, name), text);
  return name;
}

describe('before anything is sent (offline)', () => {
  it('run stops at the line of a mapped column the input does not have, sending no request', async () => {
    await jobFile('version: 1\npipeline: pl_customers\ninput: {file: ./customers.csv}\nconfig:\n  mapping:\n    Frist: full_name\n');
    const r = await cli(['run', 'job.yaml', '--yes']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('job.yaml:6:5: column "Frist" in config.mapping is not in customers.csv, whose columns are Customer ID, First, Last, E-mail Address, Amount, Country, Signup Date, Tel, Internal Notes; did you mean "First"?');
    expect(proxy.requests).toEqual([]);
  });

  it('plan stops at a field the job file\'s schema does not have, and at a missing input.file', async () => {
    await jobFile('version: 1\ninput: {file: ./customer.csv}\nconfig:\n  mapping: {First: ful_name}\nschema:\n  expectedFields: [id, full_name]\n');
    const r = await cli(['plan', 'job.yaml']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('job.yaml:2:9: input.file customer.csv does not exist (paths are relative to the job file\'s folder); fix the path.');
    expect(proxy.requests).toEqual([]);
    await jobFile('version: 1\ninput: {file: ./customers.csv}\nconfig:\n  mapping: {First: ful_name}\nschema:\n  expectedFields: [id, full_name]\n');
    const r2 = await cli(['plan', 'job.yaml']);
    expect(r2.exitCode).toBe(2);
    expect(r2.stderr).toContain('job.yaml:4:13: config.mapping maps "First" to "ful_name", which is not a field of the pipeline\'s schema in job.yaml (id, full_name); did you mean "full_name"?');
    expect(proxy.requests).toEqual([]);
  });

  it('run refuses a sheet selection for an input that has no sheets, sending no request', async () => {
    await jobFile('version: 1\npipeline: pl_customers\ninput: {file: ./customers.csv}\nconfig:\n  sheet: Data\n');
    const r = await cli(['run', 'job.yaml', '--yes']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('job.yaml:5:3: config.sheet selects the sheet "Data", but customers.csv is not a workbook and has no sheets; remove config.sheet.');
    expect(proxy.requests).toEqual([]);
  });

  it('validate lists the same problems, says it read the header, and accepts a good file', async () => {
    await jobFile('version: 1\ninput: {file: ./customers.csv}\nconfig:\n  mapping: {Contact: email}\n  dataTypes: {amont: number}\nschema:\n  expectedFields: [id, email, amount]\n');
    const bad = await cli(['validate', 'job.yaml']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('Read the header of customers.csv (9 columns) to check the columns and fields the job file names.');
    expect(bad.stderr).toContain('error: job.yaml:4:13: column "Contact" in config.mapping is not in customers.csv');
    expect(bad.stderr).toContain('error: job.yaml:5:15: config.dataTypes names the field "amont", but the pipeline\'s schema in job.yaml does not have it and config.mapping does not map a column to it; did you mean "amount"?');
    expect(bad.stderr).toContain('2 problems found.');
    const ok = await runCli(['validate', join(ROOT, 'examples', 'customers', 'job.yaml')]);
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout).toContain('valid');
  });

  it('dry-run refuses a job file naming a column the input lacks, and writes nothing', async () => {
    await jobFile('version: 1\ninput: {file: ./customers.csv}\nconfig:\n  dataTypes: {Amout: number}\n');
    const r = await cli(['dry-run', 'job.yaml']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('job.yaml:4:15: config.dataTypes names the field "Amout", but it is not a field of customers.csv (no schema: each column is its own field) and config.mapping does not map a column to it; did you mean "Amount"?');
    await expect(readFile(join(dir, 'job.out.csv'))).rejects.toThrow();
  });
});

describe('after start and the reads, before the first update (online)', () => {
  it('checks the job file against the service\'s fields and names the started job', async () => {
    // No schema in the file: only the service knows the pipeline's fields.
    await jobFile('version: 1\npipeline: pl_customers\ninput: {file: ./customers.csv}\nconfig:\n  dataTypes: {amont: number}\n');
    const r = await cli(['run', 'job.yaml', '--yes']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/Job (job_\S+) was started, but nothing was updated or run: the job file does not fit it\. Fix the job file, then `import run job\.yaml --job \1` reuses the job\./);
    expect(r.stderr).toMatch(/job\.yaml:5:15: config\.dataTypes names the field "amont", but the pipeline of the service's job job_\S+ does not have it and config\.mapping does not map a column to it; did you mean "amount"\?/);
    expect(posts()).toEqual(['/start']);
  });

  it('stops at a fill value that does not fit the type the service suggests, before the first update', async () => {
    // No schema in the file: only the service says amount is a number.
    await jobFile('version: 1\npipeline: pl_customers\ninput: {file: ./customers.csv}\nconfig:\n  impute:\n    amount: {method: fill, value: n/a}\n');
    const r = await cli(['run', 'job.yaml', '--yes']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/job\.yaml:6:28: config\.impute\.amount\.value: Fill value "n\/a" for field "amount" is not a number, but the field's data type is number \(the type the service suggested for job job_\S+; pin the type under config\.dataTypes if it is wrong\); write a value of that type or change the field's type\./);
    expect(posts()).toEqual(['/start']);
  });

  it('does not judge a unit conversion the service suggests and the job file never mentions as if the user wrote it', async () => {
    // Seed: unit strings other than UTC deltas are not shown; this service suggests USD -> EUR.
    proxy.fallback(async (req) => {
      if (req.method === 'GET' && req.path.startsWith('/units/')) {
        return { body: { fieldUnitConversions: { amount: { columnName: 'Amount', from: 'USD', to: 'EUR', confidence: 0.9 } }, expectedFieldUnits: {} } };
      }
      const r = await fetch(service.url + req.url, { method: req.method, headers: { 'content-type': String(req.headers['content-type'] ?? 'application/json'), 'x-api-key': 'test-key' }, body: req.body.length ? new Uint8Array(req.body) : undefined });
      return { status: r.status, headers: { 'content-type': r.headers.get('content-type') ?? 'application/json' }, body: Buffer.from(await r.arrayBuffer()) };
    });
    await jobFile('version: 1\npipeline: pl_customers\ninput: {file: ./customers.csv}\nconfig:\n  mapping: {First: full_name}\n  units:\n    created_at: {from: UTC_m5, to: UTC_p0}\n');
    const r = await cli(['plan', 'job.yaml']);
    expect(r.stderr).not.toContain('is not known');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('The data effect leaves out the service\'s suggested unit conversion of amount (USD to EUR), which the embedded engine cannot apply; the service applies it.');
    expect(r.stdout + r.stderr).toContain('Data effect (embedded engine)');
    // The job file's own unknown unit is still refused offline, at its line.
    await jobFile('version: 1\npipeline: pl_customers\ninput: {file: ./customers.csv}\nconfig:\n  units:\n    amount: {from: USD, to: EUR}\n');
    const own = await cli(['plan', 'job.yaml']);
    expect(own.exitCode).toBe(2);
    expect(own.stderr).toMatch(/job\.yaml:6:\d+: .*"USD" is not known/);
  });

  it('checks a reused job (--job) against the service\'s columns when the input is not here', async () => {
    const started = await cli(['start', '--file', join(dir, 'customers.csv'), '--pipeline', 'pl_customers']);
    const jobId = started.stdout.trim();
    proxy.reset();
    forwardToService(proxy);
    await jobFile('version: 1\ninput: {file: ./elsewhere/customers.csv}\nconfig:\n  mapping: {Mail: email}\n');
    const r = await cli(['run', 'job.yaml', '--job', jobId, '--yes']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('The input customers.csv is not here, so its columns were not checked.');
    expect(r.stderr).toContain(`job.yaml:4:13: column "Mail" in config.mapping is not in the input of the service's job ${jobId}`);
    expect(posts()).toEqual([]);
  });
});

describe('no silent empty columns', () => {
  const unmapped = 'version: 1\npipeline: pl_customers\ninput: {file: ./customers.csv}\nconfig:\n  mapping:\n    First: null\n    Last: null\n';

  it('run stops with exit 5 naming a required field with no column and the line to add; --yes runs', async () => {
    await jobFile(unmapped);
    const r = await cli(['run', 'job.yaml']);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toContain('required field full_name has no column, so it would be empty in every row; map one to it under config.mapping (job.yaml:5), e.g. "First: full_name"');
    expect(posts()).toEqual(['/start']);
    proxy.reset();
    forwardToService(proxy);
    const yes = await cli(['run', 'job.yaml', '--yes']);
    expect(yes.exitCode).toBe(0);
    expect(posts().at(-1)).toBe('/run/ID');
  });

  it('dry-run warns and puts it in the report', async () => {
    await jobFile(unmapped.replace('pipeline: pl_customers\n', '') + 'schema:\n  expectedFields: [id, full_name, email]\n');
    const r = await cli(['dry-run', 'job.yaml', '-o', 'json']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('warning: required field full_name has no column, so it is empty in every row of the output');
    expect(JSON.parse(r.stdout).report.warnings).toEqual([expect.stringContaining('required field full_name has no column')]);
  });
});

describe('pull -> validate -> run --job', () => {
  it('writes a job file validate accepts and run --job uses, sending only the run', async () => {
    const started = await cli(['start', '--file', join(dir, 'customers.csv'), '--pipeline', 'pl_customers', '--name', 'customers-nov', '--output-file-type', 'excel']);
    const jobId = started.stdout.trim();
    expect((await cli(['fields', 'update', jobId, '--map', 'First=full_name', '--map', 'Last=full_name', '--allow-combining'])).exitCode).toBe(0);

    const pulled = await cli(['pull', jobId, '--write', 'pulled.yaml']);
    expect(pulled.exitCode).toBe(0);
    const text = await readFile(join(dir, 'pulled.yaml'), 'utf8');
    expect(text.split('\n')[0]).toMatch(/^# yaml-language-server: \$schema=\S+job-file\.schema\.json$/);
    expect(text).toContain('pipeline: pl_customers\nname: customers-nov\n');
    expect(text).toContain('This job was started from customers.csv (a CSV file).');
    expect(text).toContain('  file: null\n');
    expect(text).toContain('options:\n  outputFileType: excel\n');
    expect(text).toContain('allowColumnCombining: true');

    const valid = await cli(['validate', 'pulled.yaml']);
    expect(valid.exitCode).toBe(0);
    expect(valid.stderr).toMatch(/warning: pulled\.yaml:\d+:3: input\.file is empty, a placeholder/);

    proxy.reset();
    forwardToService(proxy);
    const run = await cli(['run', 'pulled.yaml', '--job', jobId]);
    expect(run.stderr).toContain('Nothing to update.');
    expect(run.exitCode).toBe(0);
    expect(posts()).toEqual(['/run/ID']);

    // Without --job the placeholder must be filled in first: nothing is sent.
    proxy.reset();
    forwardToService(proxy);
    const fresh = await cli(['run', 'pulled.yaml']);
    expect(fresh.exitCode).toBe(2);
    expect(fresh.stderr).toMatch(/pulled\.yaml:\d+:3: input\.file is empty, a placeholder: set the path of the data file/);
    // The error alone: no warning before it saying the same.
    expect(fresh.stderr.match(/input\.file is empty/g)).toHaveLength(1);
    expect(fresh.stderr).not.toContain('warning:');
    const plan = await cli(['plan', 'pulled.yaml']);
    expect(plan.exitCode).toBe(2);
    expect(plan.stderr.match(/input\.file is empty/g)).toHaveLength(1);
    expect(plan.stderr).not.toContain('warning:');
    // A dry run has no started job to reuse: its error does not offer --job.
    const dry = await cli(['dry-run', 'pulled.yaml']);
    expect(dry.exitCode).toBe(2);
    expect(dry.stderr).toMatch(/pulled\.yaml:\d+:3: input\.file is empty, a placeholder: set the path of the data file to dry-run this file\.\n/);
    expect(dry.stderr).not.toContain('--job');
    expect(proxy.requests).toEqual([]);
  });
});

describe('pull keeps the start options', () => {
  it('writes the start options this machine sent under options, and says which the service does not return when it has no record', async () => {
    const started = await cli(['start', '--file', join(dir, 'customers.csv'), '--pipeline', 'pl_customers', '--name', 'opts',
      '--destination-file-name', 'nov.csv', '--use-full-data', '--use-variable-fields', '--webhook-url', 'http://127.0.0.1:9/start']);
    const jobId = started.stdout.trim();
    const pulled = await cli(['pull', jobId]);
    expect(pulled.exitCode, pulled.stderr).toBe(0);
    expect(pulled.stdout).toContain('options:\n  useFullData: true\n  useVariableFields: true\n  destinationFileName: nov.csv\n  outputFileType: csv\n# The job was started with a start webhook URL, not written here (a URL may hold a token):\n# add options.webhookUrl (${NAME} takes it from the environment) if new jobs should send it.\nconfig:\n');
    expect(pulled.stdout).not.toContain('127.0.0.1:9');

    // Another machine (no record of the start): the file says which options it cannot know.
    const elsewhere = await runCli(['pull', jobId, '--pipeline', 'pl_customers'], { env: { ...env(), XDG_STATE_HOME: join(dir, 'other-state') }, cwd: dir, timeoutMs: 40_000 });
    expect(elsewhere.exitCode, elsewhere.stderr).toBe(0);
    expect(elsewhere.stdout).not.toContain('options:\n');
    expect(elsewhere.stdout).toContain('# The service does not return the start options: add under options those the job was started with\n# (outputFileType: excel if it writes Excel; destinationFileName, useFullData, useVariableFields, webhookUrl).\nconfig:\n');
  });
});

describe('pull -> dry-run, plan and the drop gate give what the service runs', () => {
  it('writes the pipeline\'s schema block, so the preset row dropping counts in the dry run, the plan and --max-dropped-rows', async () => {
    const started = await cli(['start', '--file', join(dir, 'customers.csv'), '--pipeline', 'pl_customers', '--name', 'pulltest']);
    const jobId = started.stdout.trim();
    for (const args of [
      ['fields', 'update', jobId, '--map', 'First=full_name', '--map', 'Last=full_name', '--allow-combining', '--unmap', 'Internal Notes'],
      ['impute', 'update', jobId, '--impute', 'country=fill:ZZ', '--impute', 'email=dropMissing'],
      ['row-dropping', 'update', jobId, '--drop', 'duplicateValues:id'],
    ]) expect((await cli(args)).exitCode).toBe(0);
    expect((await cli(['pull', jobId, '--write', 'pulled.yaml'])).exitCode).toBe(0);
    const text = await readFile(join(dir, 'pulled.yaml'), 'utf8');
    expect(text).toContain('schema:\n');
    expect(text).toContain('  expectedFields: [ id, full_name, email, amount, country, created_at, phone ]\n  optionalFields: [ phone ]\n');
    expect(text).toContain('  fieldUnits: { created_at: UTC_p0 }\n  imputeMethods: { country: null }\n  rowDropping:\n    - { method: missingValues, fields: [ id ] }\n');
    await writeFile(join(dir, 'pulled.yaml'), text.replace('  file: null\n', '  file: ./customers.csv\n'));
    expect((await cli(['validate', 'pulled.yaml'])).exitCode).toBe(0);

    // The service's run of the job: the row with no id is dropped by the pipeline's preset.
    const run = await cli(['run', jobId, '--wait', '-o', 'json']);
    expect(run.exitCode, run.stderr).toBe(0);
    const { rowsIn, rowsOut } = JSON.parse(run.stdout);
    expect([rowsIn, rowsOut]).toEqual([8, 5]);

    const dry = await cli(['dry-run', 'pulled.yaml', '-o', 'json']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout).report.rowsOut).toBe(rowsOut);

    // plan's prediction on a new job started from the pulled file, and the gate of its run.
    const plan = await cli(['plan', 'pulled.yaml']);
    expect(plan.stdout).toContain(`Data effect (embedded engine): 8 rows in, ${rowsOut} out`);
    expect(plan.stdout).toContain('dropped by missingValues: id (preset): 1');
    const gated = await cli(['run', 'pulled.yaml', '--max-dropped-rows', '2']);
    expect(gated.stderr).toContain('The run would drop 3 of 8 rows');
    expect(gated.exitCode).toBe(5);
    const passed = await cli(['run', 'pulled.yaml', '--max-dropped-rows', '3', '-o', 'json']);
    expect(passed.exitCode, passed.stderr).toBe(0);
    expect(passed.stdout).toContain(`"rowsOut": ${rowsOut}`);
  });

  it('predicts with the service\'s preset row dropping even when the job file has no schema block', async () => {
    await jobFile('version: 1\npipeline: pl_customers\ninput: {file: ./customers.csv}\nconfig:\n  mapping: {First: full_name}\n');
    const plan = await cli(['plan', 'job.yaml', '--yes']);
    expect(plan.stdout).toContain('dropped by missingValues: id (preset): 1');
    const gated = await cli(['run', 'job.yaml', '--yes', '--max-dropped-rows', '0']);
    expect(gated.stderr).toContain('missingValues: id (preset): 1');
    expect(gated.exitCode).toBe(5);
  });
});

describe('writing job files', () => {
  it('init and pull refuse to replace a file without --force (exit 2, nothing sent)', async () => {
    await writeFile(join(dir, 'mine.yaml'), 'keep me\n');
    const init = await cli(['init', 'customers.csv', '--write', 'mine.yaml']);
    expect(init.exitCode).toBe(2);
    expect(init.stderr).toContain('mine.yaml already exists; pass --force to replace it, or choose another path with --write.');
    expect(await readFile(join(dir, 'mine.yaml'), 'utf8')).toBe('keep me\n');
    const pull = await cli(['pull', 'job_whatever', '--write', 'mine.yaml']);
    expect(pull.exitCode).toBe(2);
    expect(proxy.requests).toEqual([]);
    const forced = await cli(['init', 'customers.csv', '--write', 'mine.yaml', '--force']);
    expect(forced.exitCode).toBe(0);
    expect(await readFile(join(dir, 'mine.yaml'), 'utf8')).toContain('version: 1');
  });

  it('init points editors at the installed schema, or at one written beside it with --schema-file', async () => {
    const plain = await cli(['init', 'customers.csv', '--schema', 'schema.yaml', '--write', 'a.yaml']);
    expect(plain.exitCode).toBe(0);
    const first = (await readFile(join(dir, 'a.yaml'), 'utf8')).split('\n')[0];
    const path = /^# yaml-language-server: \$schema=(.+)$/.exec(first)?.[1];
    expect(path).toBeDefined();
    const schema = JSON.parse(await readFile(resolve(dir, path!), 'utf8'));
    expect(schema.$id).toBe('urn:import-jobs:job-file:v1');

    const beside = await cli(['init', 'customers.csv', '--write', 'jobs/b.yaml', '--schema-file']);
    expect(beside.exitCode).toBe(0);
    expect((await readFile(join(dir, 'jobs', 'b.yaml'), 'utf8')).split('\n')[0]).toBe('# yaml-language-server: $schema=./job-file.schema.json');
    expect(await readFile(join(dir, 'jobs', 'job-file.schema.json'), 'utf8')).toBe((await runCli(['schema'])).stdout);
  });

  it('init says where a required field is left without a column, in words the gate stops on', async () => {
    // No column of this export looks like signed_up_at by name or by values.
    const csv = join(dir, 'signups-notes.csv');
    await writeFile(csv, 'Cust #,Contact,Notes,Plan,Spend (USD)\nC-1001,ann@example.com,called twice,pro,"1,200.00"\nC-1002,bob@example.com,no answer,free,0\n');
    const r = await runCli(['init', csv, '--schema', join(ROOT, 'examples', 'review', 'schema.yaml')]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Notes: null # no field suggested');
    expect(r.stdout).toContain('# required field signed_up_at has no column: map one to it here, e.g. "Notes: signed_up_at"; until then `import run` stops (exit 5)');
  });
});

describe('dry-run --out', () => {
  it('writes the format the extension says, whatever outputFileType says', async () => {
    const book = await mkdtemp(join(tmpdir(), 'import-checks-book-'));
    await copyExample('workbook', book);
    const csv = await runCli(['dry-run', join(book, 'job.yaml'), '--out', join(book, 'x.csv')]);
    expect(csv.exitCode).toBe(0);
    expect(csv.stderr).toContain('Writing CSV because --out ends in .csv (the job file\'s outputFileType is excel).');
    expect((await readFile(join(book, 'x.csv'), 'utf8')).split('\n')[0]).toBe('order_id,customer,quantity,unit_price,ordered_at,status');
    const xlsx = await cli(['dry-run', 'job.yaml', '--out', 'y.xlsx']);
    expect(xlsx.exitCode).toBe(0);
    expect((await readFile(join(dir, 'y.xlsx'))).subarray(0, 2).toString()).toBe('PK');
    const xls = await cli(['dry-run', 'job.yaml', '--out', 'z.xls']);
    expect(xls.exitCode).toBe(2);
  });
});

describe('inline rows keep their written key order', () => {
  it('sends jsonData in written order and the dry run reads the columns in that order', async () => {
    await jobFile('version: 1\npipeline: pl_years\ninput:\n  rows:\n    - {TQ: a, "1976": "1", "1962": "2"}\n    - {TQ: b, "1976": "3", "1962": "4"}\n');
    const r = await cli(['plan', 'job.yaml']);
    expect(r.exitCode).toBe(0);
    const start = proxy.requests.find((q: RecordedRequest) => q.path === '/start')!;
    expect(start.parts?.find((p) => p.name === 'jsonData')?.value).toBe('[{"TQ":"a","1976":"1","1962":"2"},{"TQ":"b","1976":"3","1962":"4"}]');
    const dry = await cli(['dry-run', 'job.yaml']);
    expect(dry.exitCode).toBe(0);
    expect(await readFile(join(dir, 'job.out.csv'), 'utf8')).toBe('TQ,1976,1962\na,1,2\nb,3,4\n');
  });
});

describe('the base URL and the config', () => {
  it('accepts a base URL that already ends in /public/client-side/v1', async () => {
    const started = await cli(['start', '--file', join(dir, 'customers.csv')]);
    const r = await runCli(['fields', 'get', started.stdout.trim(), '-o', 'json'], { env: { IMPORT_API_KEY: 'k', IMPORT_BASE_URL: `${proxy.url}/public/client-side/v1/` } });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).inputColumns).toContain('Customer ID');
  });

  it('does not warn about plain http to loopback, and does for another host', async () => {
    const home = await mkdtemp(join(tmpdir(), 'import-checks-home-'));
    const local = await runCli(['config', 'set', 'base-url', 'http://127.0.0.1:8787'], { env: { XDG_CONFIG_HOME: home } });
    expect(local.exitCode).toBe(0);
    expect(local.stderr).not.toContain('warning');
    const remote = await runCli(['config', 'set', 'base-url', 'http://imports.example.com'], { env: { XDG_CONFIG_HOME: home } });
    expect(remote.stderr).toContain('warning: plain http:// to imports.example.com is refused unless insecure is set');
    const prefixed = await runCli(['config', 'set', 'base-url', 'https://imports.example.com/public/client-side/v1'], { env: { XDG_CONFIG_HOME: home } });
    expect(prefixed.stderr).toContain('Saving the service root https://imports.example.com');
    expect((await runCli(['config', 'get', 'base-url'], { env: { XDG_CONFIG_HOME: home } })).stdout.trim()).toBe('https://imports.example.com');
  });
});

/** Runs the CLI with its stdout closed as soon as it starts, as `| head` does once it has enough. */
function runWithClosedStdout(args: string[], extraEnv: Record<string, string> = {}): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', CI: '1', ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('close', (code) => { clearTimeout(timer); done({ code, stderr }); });
  });
}

describe('a closed stdout (import ... | head)', () => {
  it('ends --help quietly with 141', async () => {
    const r = await runWithClosedStdout(['--help']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(141);
  });

  it('ends fields get -o json quietly with 141', async () => {
    const started = await cli(['start', '--file', join(dir, 'customers.csv')]);
    const r = await runWithClosedStdout(['fields', 'get', started.stdout.trim(), '-o', 'json'], { ...env(), HOME: dirname(dir) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(141);
  });
});
