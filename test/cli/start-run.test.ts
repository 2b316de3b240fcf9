import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyExample, runCli } from '../support/cli.js';
import { json, startRecordingServer, type RecordingServer } from '../support/recording-server.js';
import { KEY } from './reads.js';

let server: RecordingServer;
beforeAll(async () => { server = await startRecordingServer(); });
afterAll(async () => { await server.close(); });
beforeEach(() => {
  server.reset();
  server.on('POST /start', json({ jobId: 'J1' }));
  server.on('POST /run/J1', json({ status: 'complete', rows: 3 }));
});

const dir = mkdtempSync(join(tmpdir(), 'import-start-'));
const csv = join(dir, 'customers.csv');
writeFileSync(csv, 'First,Last\nAda,Lovelace\n');
const rows = join(dir, 'rows.json');
writeFileSync(rows, JSON.stringify([{ name: 'Ada' }, { name: 'Grace' }]));

/** One row whose value nests arrays so that the text is `depth` levels deep (the rows array is level 1, the row 2). */
const nestedRows = (depth: number) => `[{"v": ${'['.repeat(depth - 2)}${']'.repeat(depth - 2)}}]`;

const cli = (args: string[], o: Parameters<typeof runCli>[1] = {}) => runCli([...args, '--base-url', server.url, '--api-key', KEY], { cwd: dir, ...o });
const parts = () => Object.fromEntries(server.requests[0].parts!.map((p) => [p.name, p.filename !== undefined ? { filename: p.filename, type: p.contentType, data: p.data!.toString() } : p.value]));

describe('import start', () => {
  it.each([
    ['..', '"..", which is a dot segment, which no URL path can carry'],
    ['job-1\n\u001b[2Jrm -rf x', '"job-1\\n\\u001b[2Jrm -rf x", which holds control characters (a line break or a terminal escape)'],
  ])('refuses a job id no later command can use (%j): exit 1, printed escaped, a job may exist', async (id, shown) => {
    server.on('POST /start', json({ jobId: id }));
    const res = await cli(['start', '--file', 'customers.csv']);
    expect(res.exitCode).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe(`error: The service's answer to POST ${server.url}/public/client-side/v1/start cannot be used: it gives the job id ${shown}, so no later command can use it; a job may have been created on the service; check there before starting again.\n`);
    expect(res.stderr).not.toContain('\u001b');
  });


  it('sends every flag as its form field and the file as the part "files"; prints only the id', async () => {
    const res = await cli([
      'start', '--pipeline', 'p1', '--name', 'Q3 customers', '--file', 'customers.csv', '--destination-file-name', 'out.csv',
      '--use-full-data', '--use-variable-fields', '--script', 's1', '--script', 's2', '--webhook-url', 'https://hooks.example/start',
      '--output-file-type', 'excel',
    ]);
    expect(res.stderr).toBe('');
    expect(res.exitCode).toBe(0);
    expect(res.stdout).toBe('J1\n');
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0];
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/public/client-side/v1/start');
    expect(req.headers['x-api-key']).toBe(KEY);
    expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(Number(req.headers['content-length'])).toBe(req.body.length);
    expect(parts()).toEqual({
      pipelineId: 'p1', jobName: 'Q3 customers', destinationFileName: 'out.csv', useFullData: 'true', useVariableFields: 'true',
      scripts: '{"preColumnMapping":["s1","s2"]}', webhookUrl: 'https://hooks.example/start', outputFileType: 'excel',
      files: { filename: 'customers.csv', type: 'text/csv', data: 'First,Last\nAda,Lovelace\n' },
    });
  });

  it('sends several pipelines as a JSON array and a Google Sheets link with its sheet', async () => {
    const res = await cli(['start', '--pipeline', 'p1', '--pipeline', 'p2', '--gs-url', 'https://docs.google.com/spreadsheets/d/X', '--gs-sheet', 'Sheet 1']);
    expect(res.exitCode).toBe(0);
    expect(parts()).toEqual({ pipelineId: '["p1","p2"]', gsUrl: 'https://docs.google.com/spreadsheets/d/X', gsSheetName: 'Sheet 1' });
  });

  it('sends --json-data as JSON text and prints {"jobId"} with -o json', async () => {
    const res = await cli(['start', '--json-data', 'rows.json', '--output-file-type', 'csv', '-o', 'json']);
    expect(res.exitCode).toBe(0);
    expect(res.stdout).toBe('{"jobId": "J1"}\n');
    expect(parts()).toEqual({ jsonData: '[{"name":"Ada"},{"name":"Grace"}]' });
  });

  it('reads --json-data - from stdin', async () => {
    const res = await cli(['start', '--json-data', '-'], { input: '[{"a":1}]' });
    expect(res.exitCode).toBe(0);
    expect(parts()).toEqual({ jsonData: '[{"a":1}]' });
  });

  it('accepts a bare JSON string or a plain-text id as the answer', async () => {
    server.on('POST /start', json('J-str'), { body: 'J-text', headers: { 'content-type': 'text/plain' } });
    expect((await cli(['start', '--file', 'customers.csv'])).stdout).toBe('J-str\n');
    expect((await cli(['start', '--file', 'customers.csv'])).stdout).toBe('J-text\n');
  });

  it('is never retried: a 503 is one call and exit 1', async () => {
    server.on('POST /start', { status: 503, body: { error: { message: 'try later' } } });
    const res = await cli(['start', '--file', 'customers.csv']);
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toContain('try later');
    expect(res.stderr).not.toContain('may have been created');
    expect(server.requests).toHaveLength(1);
  });

  it('says after a 502 from a gateway that a job may have been created, since the service may have taken the call', async () => {
    server.on('POST /start', { status: 502, body: 'upstream timed out', headers: { 'content-type': 'text/plain' } });
    const res = await cli(['start', '--file', 'customers.csv']);
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toBe(`error: The service answered POST ${server.url}/public/client-side/v1/start with 502 Bad Gateway: upstream timed out; a job may have been created on the service though its id never came back, so look for it there before starting again, which would create a second job.\n`);
    expect(server.requests).toHaveLength(1);
  });

  const usage: [string, string[], string, string?][] = [
    ['no data input', ['start', '--pipeline', 'p1'], 'No data input: pass one of --file <path>, --gs-url <url> with --gs-sheet <name>, or --json-data <path|->.'],
    ['two data inputs', ['start', '--file', 'customers.csv', '--json-data', 'rows.json'], 'A job takes exactly one data input, but --file and --json-data were given; keep one.'],
    ['--gs-url without --gs-sheet', ['start', '--gs-url', 'https://docs.google.com/x'], '--gs-url needs --gs-sheet <name>: the sheet within the spreadsheet to import.'],
    ['a missing file', ['start', '--file', 'nope.csv'], '--file nope.csv does not exist; check the path.'],
    ['a folder', ['start', '--file', '.'], '--file . is a folder; pass the data file itself.'],
    ['--json-data that is an object', ['start', '--json-data', '-'], '--json-data - (stdin) must be a JSON array of row objects, not an object.', '{"a":1}'],
    ['--json-data with a non-object element', ['start', '--json-data', '-'], '--json-data - (stdin): element [1] is a string, not a row object; every element must be an object such as {"name": "Ada"}.', '[{"a":1},"b"]'],
    ['--json-data that is not JSON', ['start', '--json-data', '-'], '--json-data - (stdin) is not valid JSON', 'nope'],
    ['--json-data nested deeper than import serve takes', ['start', '--json-data', '-'], '--json-data - (stdin):1:1006: arrays and objects nest more than 1000 levels deep here; flatten the value.', nestedRows(1001)],
    ['a bad --output-file-type', ['start', '--file', 'customers.csv', '--output-file-type', 'pdf'], '--output-file-type "pdf" is not supported; use csv or excel.'],
  ];
  for (const [name, args, message, input] of usage) {
    it(`refuses ${name} with exit 2 before any request`, async () => {
      const res = await cli(args, { input });
      expect(res.exitCode).toBe(2);
      expect(res.stderr.startsWith(`error: ${message}`)).toBe(true);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
      expect(res.stdout).toBe('');
      expect(server.requests).toHaveLength(0);
    });
  }

  it('sends --json-data nested exactly as deep as the limit', async () => {
    const res = await cli(['start', '--json-data', '-'], { input: nestedRows(1000) });
    expect(res.stderr).toBe('');
    expect(res.exitCode).toBe(0);
    expect(server.requests).toHaveLength(1);
    expect(parts().jsonData).toBe(nestedRows(1000).replace(/ /g, ''));
  });

  it('refuses a job file\'s input.rowsFile nested deeper than the limit with exit 2 before any request', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'import-start-deep-'));
    writeFileSync(join(folder, 'rows.json'), nestedRows(1001));
    writeFileSync(join(folder, 'job.yaml'), 'version: 1\ninput:\n  rowsFile: rows.json\n');
    const res = await cli(['plan', 'job.yaml'], { cwd: folder });
    expect(res.stderr).toBe(`error: job.yaml:3:3: input.rowsFile cannot be read: ${join(folder, 'rows.json')}:1:1006: arrays and objects nest more than 1000 levels deep here; flatten the value.\n`);
    expect(res.exitCode).toBe(2);
    expect(server.requests).toHaveLength(0);
  });

  it('reads --json-data with a UTF-8 byte-order mark (as Windows editors and PowerShell write), from a file or stdin, as a JSON input file is read', async () => {
    writeFileSync(join(dir, 'bom.json'), '\ufeff[{"name":"Ada"}]');
    const fromFile = await cli(['start', '--json-data', 'bom.json']);
    expect(fromFile.stderr).toBe('');
    expect(fromFile.exitCode).toBe(0);
    expect(parts()).toEqual({ jsonData: '[{"name":"Ada"}]' });
    server.reset();
    server.on('POST /start', json({ jobId: 'J1' }));
    const fromStdin = await cli(['start', '--json-data', '-'], { input: '\ufeff[{"name":"Grace"}]' });
    expect(fromStdin.exitCode).toBe(0);
    expect(parts()).toEqual({ jsonData: '[{"name":"Grace"}]' });
  });

  it('refuses --json-data holding a byte that is not UTF-8 at its line:col, with exit 2 and no request', async () => {
    writeFileSync(join(dir, 'latin1.json'), Buffer.concat([Buffer.from('[{"name":"Ren'), Buffer.from([0xe9]), Buffer.from('e"}]')]));
    const res = await cli(['start', '--json-data', 'latin1.json']);
    expect(res.stderr).toBe('error: --json-data latin1.json:1:14 holds the byte 0xE9 ("é" in Windows-1252), which is not UTF-8: the file was saved in another encoding; save it as UTF-8 or convert it (iconv -f WINDOWS-1252 -t UTF-8 FILE > utf8.json) and retry.\n');
    expect(res.exitCode).toBe(2);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses rows or a request body on stdin, or in a --data @file, holding a byte that is not UTF-8, with exit 2 and no request', async () => {
    const latin1 = Buffer.concat([Buffer.from('[{"name":"Ren'), Buffer.from([0xe9]), Buffer.from('e"}]')]);
    const rows = await cli(['start', '--json-data', '-'], { input: latin1 });
    expect(rows.stderr).toBe('error: stdin:1:14 holds the byte 0xE9 ("é" in Windows-1252), which is not UTF-8: the file was saved in another encoding; save it as UTF-8 or convert it (iconv -f WINDOWS-1252 -t UTF-8 FILE > utf8.json) and retry.\n');
    expect(rows.exitCode).toBe(2);
    const body = Buffer.concat([Buffer.from('{"columnFieldMapping": {"in.csv": {"caf'), Buffer.from([0xe9]), Buffer.from('": {"field": "cafe"}}}}')]);
    const update = await cli(['fields', 'update', 'J1', '--data', '-'], { input: body });
    expect(update.stderr).toMatch(/^error: stdin:1:40 holds the byte 0xE9 .*which is not UTF-8/);
    expect(update.exitCode).toBe(2);
    writeFileSync(join(dir, 'body-latin1.json'), body);
    const fromFile = await cli(['fields', 'update', 'J1', '--data', '@body-latin1.json']);
    expect(fromFile.stderr).toMatch(/^error: body-latin1\.json:1:40 holds the byte 0xE9 .*which is not UTF-8/);
    expect(fromFile.exitCode).toBe(2);
    expect(server.requests).toHaveLength(0);
  });

  it('names the file in --json-data errors', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '[1]');
    const res = await cli(['start', '--json-data', 'bad.json']);
    expect(res.stderr).toBe('error: --json-data bad.json: element [0] is a number, not a row object; every element must be an object such as {"name": "Ada"}.\n');
  });

  it('says, when the connection breaks before an answer, that a job may have been created and not to start again blindly (exit 1)', async () => {
    server.on('POST /start', { destroy: true });
    const res = await cli(['start', '--file', 'customers.csv']);
    expect(res.exitCode).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(new RegExp(`^error: The connection to ${server.url} broke during POST ${server.url}/public/client-side/v1/start \\(\\w+\\) before an answer came; a job may have been created on the service though its id never came back, so look for it there before starting again, which would create a second job\\.\n$`));
    expect(res.stderr).not.toContain(KEY);
    expect(server.requests).toHaveLength(1);
  });
});

describe('import run <jobId>', () => {
  it('sends {} when no option is given and prints the answer', async () => {
    const res = await cli(['run', 'J1']);
    expect(res.exitCode).toBe(0);
    const [req] = server.requests;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/public/client-side/v1/run/J1');
    expect(req.headers['x-api-key']).toBe(KEY);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.json).toEqual({});
    expect(res.stdout).toContain('complete');
    expect(res.stderr).toBe('Job J1 is running.\n');
  });

  it('sends returnWhenComplete for --wait and the webhook URL', async () => {
    const res = await cli(['run', 'J1', '--wait', '--webhook-url', 'https://hooks.example/run', '-o', 'json']);
    expect(res.exitCode).toBe(0);
    expect(server.requests[0].json).toEqual({ webhookUrl: 'https://hooks.example/run', returnWhenComplete: true });
    expect(JSON.parse(res.stdout)).toEqual({ status: 'complete', rows: 3 });
  });

  it('is never retried: a 503 is one call and exit 1', async () => {
    server.on('POST /run/J1', { status: 503 });
    const res = await cli(['run', 'J1', '--wait']);
    expect(res.exitCode).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it('says, when --wait times out, that the job may still be running and how to check before running it again (exit 1)', async () => {
    server.on('POST /run/J1', { hang: true });
    const res = await cli(['run', 'J1', '--wait', '--timeout', '300']);
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toBe(`error: The request POST ${server.url}/public/client-side/v1/run/J1 timed out after 300 ms with no answer; job J1 may have started and may still be running on the service, so check the pipeline's output destination before running it again, which could run it twice; raise --timeout (or IMPORT_TIMEOUT) if the service needs longer.\n`);
    expect(res.stderr).not.toContain(KEY);
    expect(server.requests).toHaveLength(1);
  });

  it('exits 1 when the answer says the job failed', async () => {
    server.on('POST /run/J1', json({ status: 'failed', error: { message: 'pipeline rejected 3 rows' } }));
    const res = await cli(['run', 'J1', '--wait']);
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toContain('Job J1 failed: pipeline rejected 3 rows.');
  });

  it('exits 4 for an unknown job', async () => {
    server.on('POST /run/nope', { status: 404, body: { error: { code: 'NOT_FOUND', message: 'unknown job' } } });
    const res = await cli(['run', 'nope']);
    expect(res.exitCode).toBe(4);
    expect(res.stderr).toContain('unknown job');
  });

  it('refuses job-file options with a job id (exit 2)', async () => {
    const res = await cli(['run', 'J1', '--dry-run']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain('--dry-run applies to a job file');
    expect(server.requests).toHaveLength(0);
  });

  it('treats a .yaml argument as a job file, not a job id', async () => {
    const res = await cli(['run', 'missing-job.yaml']);
    expect(res.exitCode).toBe(2);
    // The job-file runner reports the missing file.
    expect(res.stderr).toMatch(/missing-job\.yaml/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('import run <job.yaml> --dry-run', () => {
  // examples/customers: 8 rows in, 3 dropped (one rule each), suggestions at 0.85 to 1.00 (email and phone 0.96, amount's type 0.88).
  const example = join(dir, 'customers-example');
  beforeAll(async () => { await copyExample('customers', example); });
  const dryRun = (args: string[]) => cli(['run', 'job.yaml', '--dry-run', ...args], { cwd: example });
  const outputs = () => readdirSync(example).filter((name) => name.includes('.out.'));

  it('checks flag values as a real run does (exit 2, nothing read or written)', async () => {
    for (const [flag, message] of [
      ['--max-dropped-rows', 'error: --max-dropped-rows "abc" is not a row count or a percentage; pass e.g. --max-dropped-rows 100 or --max-dropped-rows 2%.\n'],
      ['--min-confidence', 'error: --min-confidence "abc" is not a number from 0 to 1; pass e.g. --min-confidence 0.8.\n'],
    ]) {
      const res = await dryRun([flag, 'abc']);
      expect(res.stderr).toBe(message);
      expect(res.exitCode).toBe(2);
      expect(outputs()).toEqual([]);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('exits 5 with a real run\'s message when more rows are dropped than --max-dropped-rows, and leaves no output', async () => {
    for (const limit of ['2', '30%']) {
      const res = await dryRun(['--max-dropped-rows', limit]);
      expect(res.stderr).toBe(`error: The run would drop 3 of 8 rows (missingValues: id (preset): 1, duplicateValues: id: 1, missingValues: email: 1), more than --max-dropped-rows ${limit}; check the data or raise the limit.\n`);
      expect(res.exitCode).toBe(5);
      expect(outputs()).toEqual([]);
    }
    const within = await dryRun(['--max-dropped-rows', '3', '--out', 'within.csv']);
    expect(within.exitCode).toBe(0);
    expect(within.stderr).toContain('Wrote 5 rows to within.csv');
    expect(server.requests).toHaveLength(0);
  }, 30_000);

  it('keeps an output it would replace, and sends nothing to stdout, when the run passes --max-dropped-rows', async () => {
    writeFileSync(join(example, 'kept.csv'), 'last,good\nrun,1\n');
    chmodSync(join(example, 'kept.csv'), 0o640);
    const res = await dryRun(['--max-dropped-rows', '2', '--out', 'kept.csv']);
    expect(res.exitCode).toBe(5);
    expect(readFileSync(join(example, 'kept.csv'), 'utf8')).toBe('last,good\nrun,1\n');
    expect(statSync(join(example, 'kept.csv')).mode & 0o777).toBe(0o640);
    const piped = await dryRun(['--max-dropped-rows', '2', '--out', '-']);
    expect(piped.exitCode).toBe(5);
    expect(piped.stdout).toBe('');
    expect(readdirSync(example).filter((name) => name.startsWith('.'))).toEqual([]);
  }, 30_000);

  it('stops at the review gate, before writing, for suggestions under --min-confidence; --yes accepts them', async () => {
    const gated = await dryRun(['--min-confidence', '0.9', '--out', 'gated.csv']);
    expect(gated.stderr).toBe(
      'error: 1 item needs review (unpinned suggestions below the confidence bar 0.9, or pins the input no longer matches); nothing was written:\n' +
      '  field amount as number (confidence 0.88); pin it in job.yaml: config.dataTypes: {amount: number}\n' +
      'Pin it, review with `import review job.yaml --save --dry-run`, or accept all with --yes.\n',
    );
    expect(gated.exitCode).toBe(5);
    expect(existsSync(join(example, 'gated.csv'))).toBe(false);
    const accepted = await dryRun(['--min-confidence', '0.9', '--yes', '--out', 'accepted.csv']);
    expect(accepted.exitCode).toBe(0);
    expect(accepted.stderr).toContain('? amount: number (0.88)');
    expect(existsSync(join(example, 'accepted.csv'))).toBe(true);
    expect(server.requests).toHaveLength(0);
  }, 30_000);

  it('refuses --job and --webhook-url, which name the service, with one sentence (exit 2)', async () => {
    const job = await dryRun(['--job', 'J1']);
    expect(job.stderr).toBe('error: --job and --dry-run do not go together: --dry-run runs the job file offline, while --job names a job on the service; drop one of them.\n');
    expect(job.exitCode).toBe(2);
    const hook = await dryRun(['--webhook-url', 'https://hooks.example/run']);
    expect(hook.stderr).toBe('error: --webhook-url and --dry-run do not go together: a dry run sends nothing (-o json prints the run webhook\'s body instead); drop one of them.\n');
    expect(hook.exitCode).toBe(2);
    expect(server.requests).toHaveLength(0);
  });
});

describe('a long Retry-After', () => {
  it('is announced on stderr before the wait, without --verbose', async () => {
    server.on('GET /scripts/J1', { status: 503, headers: { 'retry-after': '4' }, body: 'busy' }, json({ preColumnMapping: [], postClean: [] }));
    const started = Date.now();
    const res = await cli(['scripts', 'get', 'J1']);
    expect(res.exitCode).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_900);
    expect(res.stderr).toBe(`The service answered 503 to GET ${server.url}/public/client-side/v1/scripts/J1 and asked to retry in 4 s; waiting 4 s (attempt 2 of 3).\n`);
  });
});
