// End to end: job files and `init` on Google Sheets links, the real CLI process against a fake
// Google on 127.0.0.1 (IMPORT_SHEETS_BASE_URL) that serves examples/workbook/orders.xlsx.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli, type CliOptions } from '../support/cli.js';
import { spawnEmulator, type SpawnedEmulator } from '../support/emulator.js';
import { PRIVATE_ID, PUBLIC_ID, sheetLink, startFakeGoogle, WORKBOOK, type FakeGoogle } from '../support/google-sheets.js';

let google: FakeGoogle;
let dir: string;
/** TMPDIR of the CLI processes: checked to hold no downloaded workbook once they end. */
let temps: string;
beforeAll(async () => {
  google = await startFakeGoogle();
  dir = await mkdtemp(join(tmpdir(), 'import-sheets-e2e-'));
  temps = await mkdtemp(join(tmpdir(), 'import-sheets-tmp-'));
});
afterAll(async () => { await google?.close(); });

const BODY = `pipeline: pl_orders
name: orders
config:
  impute:
    quantity: {method: fill, value: 1}
  text:
    casing:
      customer: title
schema:
  expectedFields: [order_id, customer, quantity, unit_price, ordered_at, status]
  fieldDataTypes: {order_id: rich_text, customer: rich_text, quantity: number, unit_price: number,
                   ordered_at: date_time, status: category}
`;

/** A job file reading the sheet `sheet` of the link to `id`. */
async function sheetsJob(name: string, id = PUBLIC_ID, sheet = 'Orders', suffix?: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, `version: 1\ninput:\n  googleSheet: {url: "${sheetLink(id, suffix)}", sheet: "${sheet}"}\n${BODY}`);
  return path;
}

function cli(args: string[], o: CliOptions = {}) {
  return runCli(args, { ...o, env: { IMPORT_SHEETS_BASE_URL: google.url, TMPDIR: temps, ...o.env } });
}

async function noTempsLeft(): Promise<void> {
  expect((await readdir(temps)).filter((f) => f.startsWith('import-sheet-'))).toEqual([]);
}

describe('a job file with input.googleSheet', () => {
  it('dry-runs to the same output, byte for byte, as the workbook given as input.file', async () => {
    const sheets = await sheetsJob('sheets.yaml');
    const file = join(dir, 'file.yaml');
    await writeFile(file, `version: 1\ninput:\n  file: ${JSON.stringify(WORKBOOK)}\n${BODY.replace('config:\n', 'config:\n  sheet: Orders\n')}`);
    const fromSheet = await cli(['dry-run', sheets, '--out', join(dir, 'sheets.csv'), '-o', 'json'], { env: { IMPORT_API_KEY: 'never-sent-key' } });
    expect(fromSheet.stderr).toBe('Rows: 4 in, 4 out\nFilled in quantity: 1\nChanged by casing title in customer: 4\nWrote 4 rows to ' + join(dir, 'sheets.csv') + '\n');
    expect(fromSheet.exitCode).toBe(0);
    const fromFile = await cli(['dry-run', file, '--out', join(dir, 'file.csv'), '-o', 'json']);
    expect(fromFile.exitCode).toBe(0);
    const csv = await readFile(join(dir, 'sheets.csv'), 'utf8');
    expect(csv).toBe(await readFile(join(dir, 'file.csv'), 'utf8'));
    expect(csv.split('\n')[0]).toBe('order_id,customer,quantity,unit_price,ordered_at,status');

    const a = JSON.parse(fromSheet.stdout);
    const b = JSON.parse(fromFile.stdout);
    expect(a.runWebhook).toEqual(b.runWebhook);
    expect(a.report).toEqual(b.report);
    // engine.md: the start-webhook metadata keys a Google Sheets input by its sheet name.
    expect(a.startWebhook.dataLength).toEqual({ Orders: 4 });
    for (const key of ['dataLength', 'inputColumns', 'uniqueRatio', 'missingRowIndices', 'columnFieldMapping'] as const) {
      expect(a.startWebhook[key]).toEqual({ Orders: b.startWebhook[key]['orders.xlsx'] });
    }
    // No API key travels to Google.
    expect(google.requests.some((r) => JSON.stringify(r.headers).includes('never-sent-key'))).toBe(false);
    await noTempsLeft();
  });

  it.each([
    // Every form is checked by parseSheetsLink's tests; here two go through the whole CLI.
    ['/edit#gid=N', '/edit#gid=0'], ['the bare link', ''],
  ])('reads the link in the form %s', async (_form, suffix) => {
    const res = await cli(['dry-run', await sheetsJob(`form${suffix.replace(/\W/g, '_')}.yaml`, PUBLIC_ID, 'Orders', suffix), '--out', join(dir, 'form.csv')]);
    expect(res.stderr).toContain('Rows: 4 in, 4 out');
    expect(res.exitCode).toBe(0);
  });

  const shared = (id: string, how: string) =>
    `error: The Google Sheet https://docs.google.com/spreadsheets/d/${id} is not shared publicly (${how}); share it as 'anyone with the link can view', or download it and use input.file.\n`;

  it.each([
    ['a sheet not shared publicly', 2, PRIVATE_ID, 'Orders', shared(PRIVATE_ID, 'Google answered with a sign-in page')],
    ['a 403', 2, 'forbidden', 'Orders', shared('forbidden', 'Google answered 403')],
    ['an unknown spreadsheet', 2, 'unknown-id', 'Orders',
      'error: The Google Sheet https://docs.google.com/spreadsheets/d/unknown-id was not found (404); check the link (Share > Copy link), or download it and use input.file.\n'],
    ['a sheet name the workbook does not have', 2, PUBLIC_ID, 'Sheet1',
      `error: The Google Sheet https://docs.google.com/spreadsheets/d/${PUBLIC_ID} has no sheet named "Sheet1"; choose one of: "Notes", "Orders".\n`],
    ['Google failing', 1, 'broken', 'Orders',
      'error: Google answered 500 to the export of https://docs.google.com/spreadsheets/d/broken; try again later, or download it and use input.file.\n'],
  ])('stops on %s with exit %i and one sentence', async (_what, code, id, sheet, message) => {
    const res = await cli(['dry-run', await sheetsJob(`error-${id}.yaml`, id, sheet), '--out', join(dir, 'error.csv')]);
    expect(res.stderr).toBe(message);
    expect(res.exitCode).toBe(code);
    expect(existsSync(join(dir, 'error.csv'))).toBe(false);
    await noTempsLeft();
  });

  it('logs the download under --verbose, and never the API key', async () => {
    const sheets = await sheetsJob('verbose.yaml');
    const r = await cli(['dry-run', sheets, '--out', join(dir, 'verbose.csv'), '--verbose'], { env: { IMPORT_API_KEY: 'never-sent-key' } });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/^> GET http:\/\/127\.0\.0\.1:\d+\/spreadsheets\/d\/[^/]+\/export\?format=xlsx$/m);
    expect(r.stderr).toMatch(/^< 200 application\/vnd\.openxmlformats-officedocument\.spreadsheetml\.sheet \(\d+ ms\)$/m);
    expect(r.stderr).not.toContain('never-sent-key');
  });

  it('refuses config.sheet, which a link\'s input does not have, at its line in validate and dry-run alike (exit 2)', async () => {
    const path = join(dir, 'config-sheet.yaml');
    await writeFile(path, (await readFile(await sheetsJob('config-sheet.yaml'), 'utf8')).replace('config:\n', 'config:\n  sheet: Notes\n'));
    for (const command of ['validate', 'dry-run']) {
      const res = await cli([command, path]);
      expect(res.stderr).toBe(`error: ${path}:7:3: config.sheet does not apply to a Google Sheets input, whose sheet is input.googleSheet.sheet; remove config.sheet (or set the sheet there).\n`);
      expect(res.exitCode).toBe(2);
    }
  });

  it('refuses a link of another form, saying which form is expected (exit 2)', async () => {
    const path = join(dir, 'doc.yaml');
    await writeFile(path, `version: 1\ninput:\n  googleSheet: {url: "https://docs.google.com/document/d/abc/edit", sheet: Orders}\n${BODY}`);
    const message = `${path}:3:22: input.googleSheet.url: "https://docs.google.com/document/d/abc/edit" is not a Google Sheets link (not a spreadsheet); copy it with Share > Copy link, in the form https://docs.google.com/spreadsheets/d/<id>/edit (also /edit#gid=N or /view, with or without ?usp=sharing).`;
    const res = await cli(['dry-run', path]);
    expect(res.stderr).toBe(`error: ${message}\n`);
    expect(res.exitCode).toBe(2);
    // validate finds it offline, at the same line.
    const checked = await cli(['validate', path]);
    expect(checked.stderr).toContain(`error: ${message}\n`);
    expect(checked.exitCode).toBe(2);
  });

  it('gives up within the global --timeout when Google does not answer (exit 1)', async () => {
    const res = await cli(['dry-run', await sheetsJob('hang.yaml', 'hang'), '--timeout', '500']);
    expect(res.stderr).toBe(`error: ${new URL(google.url).host} did not answer within 500 ms while reading the Google Sheet https://docs.google.com/spreadsheets/d/hang; retry with a longer --timeout, or download it and use input.file.\n`);
    expect(res.exitCode).toBe(1);
  });

  it('says when Google cannot be reached, and suggests input.file (exit 1)', async () => {
    const closed = await startFakeGoogle();
    await closed.close();
    const res = await cli(['dry-run', await sheetsJob('offline.yaml')], { env: { IMPORT_SHEETS_BASE_URL: closed.url } });
    expect(res.stderr).toBe(`error: Cannot reach ${new URL(closed.url).host} to read the Google Sheet https://docs.google.com/spreadsheets/d/${PUBLIC_ID} (ECONNREFUSED); check the network connection, or download it and use input.file.\n`);
    expect(res.exitCode).toBe(1);
  });

  it('removes the partly downloaded workbook on Ctrl-C', async () => {
    const child = spawn(process.execPath, [BIN, 'dry-run', await sheetsJob('slow.yaml', 'slow')], {
      env: { ...process.env, IMPORT_SHEETS_BASE_URL: google.url, TMPDIR: temps, NO_COLOR: '1', CI: '1' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    const deadline = Date.now() + 15_000;
    while (!(await readdir(temps)).some((f) => f.startsWith('import-sheet-'))) {
      if (Date.now() > deadline) throw new Error(`no partial download appeared; stderr: ${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain('Interrupted.');
    await noTempsLeft();
  });
});

describe('import init on a Google Sheets link', () => {
  it('writes a job file for the sheet that dry-runs', async () => {
    const link = sheetLink(PUBLIC_ID, '/edit#gid=0');
    const target = join(dir, 'init.yaml');
    const res = await cli(['init', link, '--sheet', 'Orders', '--write', 'init.yaml'], { cwd: dir });
    expect(res.stderr).toBe('Wrote init.yaml; check it with `import dry-run init.yaml`.\n');
    expect(res.exitCode).toBe(0);
    const text = await readFile(target, 'utf8');
    expect(text).toContain(`input:\n  googleSheet:\n    url: ${link}\n    sheet: Orders # chosen with --sheet; sheets: Notes, Orders\n`);
    expect(text).toContain('name: Orders\n');
    expect(text).toContain('  mapping:\n');
    expect(text).toContain('    Order No: Order No # suggested, confidence 1.00\n');
    expect(text).not.toMatch(/^  sheet:/m);
    const dry = await cli(['dry-run', target, '--out', join(dir, 'init.csv')]);
    expect(dry.stderr).toContain('Rows: 4 in, 4 out');
    expect(dry.exitCode).toBe(0);
    expect((await readFile(join(dir, 'init.csv'), 'utf8')).split('\n')[0]).toBe('Order No,Customer,Qty,Unit Price,Ordered At,Status');
    await noTempsLeft();
  });

  it('suggests the sheet without --sheet, as for a workbook file, and refuses a sheet not there (exit 2)', async () => {
    const res = await cli(['init', sheetLink(PUBLIC_ID)]);
    expect(res.exitCode).toBe(0);
    expect(res.stdout).toContain(`  googleSheet:\n    url: ${sheetLink(PUBLIC_ID)}\n    sheet: Orders # suggested, confidence 0.80; sheets: Notes, Orders\n`);
    const bad = await cli(['init', sheetLink(PUBLIC_ID), '--sheet', 'Sheet1']);
    expect(bad.stderr).toBe('error: Sheet "Sheet1" is not in the workbook; choose one of: Notes, Orders.\n');
    expect(bad.exitCode).toBe(2);
    await noTempsLeft();
  });

  it('stops on a private sheet with the same sentence as a dry run (exit 2)', async () => {
    const res = await cli(['init', sheetLink(PRIVATE_ID), '--sheet', 'Orders']);
    expect(res.stderr).toMatch(/^error: The Google Sheet \S+ is not shared publicly \(Google answered with a sign-in page\); share it as 'anyone with the link can view', or download it and run `import init` on the file\.\n$/);
    expect(res.exitCode).toBe(2);
  });

  it('takes --sheet for a workbook file too, and refuses it for a CSV (exit 2)', async () => {
    const res = await cli(['init', WORKBOOK, '--sheet', 'Notes']);
    expect(res.exitCode).toBe(0);
    expect(res.stdout).toContain('  sheet: Notes # chosen with --sheet; sheets: Notes, Orders\n');
    const csv = await cli(['init', 'examples/customers/customers.csv', '--sheet', 'Orders']);
    expect(csv.stderr).toBe('error: --sheet is for workbooks and Google Sheets links, and examples/customers/customers.csv is not a workbook; drop --sheet.\n');
    expect(csv.exitCode).toBe(2);
  });

  it('refuses a URL that is not a Sheets link (exit 2)', async () => {
    const res = await cli(['init', 'https://example.com/data.csv']);
    expect(res.stderr).toMatch(/^error: "https:\/\/example.com\/data.csv" is not a Google Sheets link \(the host is example.com, not docs.google.com\);/);
    expect(res.exitCode).toBe(2);
  });
});

describe('against import serve', () => {
  let serve: SpawnedEmulator;
  beforeAll(async () => {
    const schema = join(dir, 'pl_orders.yaml');
    await writeFile(schema, `id: pl_orders\n${BODY.slice(BODY.indexOf('schema:\n') + 'schema:\n'.length).replace(/^ {2}/gm, '')}`);
    serve = await spawnEmulator({ schema, apiKeys: ['serve-key-123'], env: { IMPORT_SHEETS_BASE_URL: google.url } });
  });
  afterAll(async () => { await serve?.stop(); });
  const env = () => ({ IMPORT_BASE_URL: serve.url, IMPORT_API_KEY: 'serve-key-123' });

  it('runs a Sheets job file to the output its dry run writes', async () => {
    const job = await sheetsJob('serve.yaml');
    const res = await cli(['run', job, '--yes'], { env: env() });
    expect(res.exitCode, res.stderr).toBe(0);
    // An id may end in '-' (base64url), so its end is "no id character follows", not \b.
    const jobId = /\bjob_[\w-]{16}(?![\w-])/.exec(res.stderr)?.[0];
    expect(jobId, res.stderr).toBeDefined();
    const out = await readFile(join(serve.dataDir, 'output', `${jobId}.csv`), 'utf8');
    const dry = await cli(['dry-run', job, '--out', join(dir, 'serve-dry.csv')]);
    expect(dry.exitCode).toBe(0);
    expect(out).toBe(await readFile(join(dir, 'serve-dry.csv'), 'utf8'));
    // The service's key never travels to Google.
    expect(google.requests.some((r) => JSON.stringify(r.headers).includes('serve-key-123'))).toBe(false);
  });

  it('plans with the data effect predicted from the sheet, or says why it cannot', async () => {
    const plan = await cli(['plan', await sheetsJob('plan.yaml'), '--max-dropped-rows', '0'], { env: env() });
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('Data effect (embedded engine): 4 rows in, 4 out');
    // The service reads the sheet itself; here only the prediction is lost (and a limit on it refused).
    const offline = await cli(['plan', await sheetsJob('plan-offline.yaml')], { env: { ...env(), IMPORT_SHEETS_BASE_URL: 'http://127.0.0.1:9' } });
    expect(offline.exitCode, offline.stderr).toBe(0);
    expect(offline.stderr).toContain('The data effect is not shown: Cannot reach 127.0.0.1:9');
    expect(offline.stdout).not.toContain('Data effect');
  });

  it('starts with --gs-url and --gs-sheet, then runs', async () => {
    const started = await cli(['start', '--pipeline', 'pl_orders', '--gs-url', sheetLink(PUBLIC_ID, '/view?usp=sharing'), '--gs-sheet', 'Orders'], { env: env() });
    expect(started.exitCode, started.stderr).toBe(0);
    const jobId = started.stdout.trim();
    const fields = JSON.parse((await cli(['fields', 'get', jobId, '-o', 'json'], { env: env() })).stdout);
    expect(fields.inputColumns).toEqual(['Order No', 'Customer', 'Qty', 'Unit Price', 'Ordered At', 'Status']);
    const ran = await cli(['run', jobId, '--wait'], { env: env() });
    expect(ran.exitCode, ran.stderr).toBe(0);
    expect((await readFile(join(serve.dataDir, 'output', `${jobId}.csv`), 'utf8')).split('\n').length).toBe(6);
  });

  it('passes on Google\'s refusal with its sentence (a 422 from the service: exit 1)', async () => {
    const res = await cli(['start', '--gs-url', sheetLink(PRIVATE_ID), '--gs-sheet', 'Orders'], { env: env() });
    expect(res.stderr).toContain("is not shared publicly (Google answered with a sign-in page); share it as 'anyone with the link can view', or download it and upload it as \"files\".");
    expect(res.exitCode).toBe(1);
  });
});
