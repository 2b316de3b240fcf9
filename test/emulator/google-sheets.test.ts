// `start` with gsUrl + gsSheetName on the local service, against a fake Google on 127.0.0.1.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../support/emulator.js';
import { PRIVATE_ID, PUBLIC_ID, sheetLink, startFakeGoogle, WORKBOOK, type FakeGoogle } from '../support/google-sheets.js';
import { call, start, startJob, webhookListener } from './helpers.js';

const SCHEMA = `id: pl_orders
expectedFields: [order_id, customer, quantity, unit_price, ordered_at, status]
fieldDataTypes: {order_id: rich_text, customer: rich_text, quantity: number, unit_price: number, ordered_at: date_time, status: category}
`;

let google: FakeGoogle;
let emu: Emulator;
let dir: string;
beforeAll(async () => {
  google = await startFakeGoogle();
  dir = await mkdtemp(join(tmpdir(), 'emulator-sheets-'));
  await writeFile(join(dir, 'orders.yaml'), SCHEMA);
  emu = await startEmulator({ schema: join(dir, 'orders.yaml'), apiKeys: ['test'], maxUpload: 1 << 20, sheets: { baseUrl: google.url, timeoutMs: 500 } });
});
afterAll(async () => {
  await emu?.stop();
  await google?.close();
  await rm(dir, { recursive: true, force: true });
});

const sheetStart = (id: string, sheet = 'Orders', extra: Record<string, string> = {}) =>
  start(emu, { fields: { pipelineId: 'pl_orders', gsUrl: sheetLink(id), gsSheetName: sheet, ...extra } });

describe('start with a Google Sheets link', () => {
  it('reads the sheet as the uploaded workbook, keys the start webhook by the sheet name, and runs', async () => {
    const hook = await webhookListener();
    try {
      const jobId = await startJob(emu, { fields: { pipelineId: 'pl_orders', gsUrl: sheetLink(PUBLIC_ID, '/edit#gid=0'), gsSheetName: 'Orders', webhookUrl: hook.url } });
      const uploaded = await startJob(emu, { file: WORKBOOK, fields: { pipelineId: 'pl_orders' } });
      await call(emu, 'POST', `/fields/${uploaded}`, { sheetSelection: { selected: 'Orders' } });

      const [metadata] = await hook.next(1);
      expect(metadata.body.jobId).toBe(jobId);
      expect(metadata.body.dataLength).toEqual({ Orders: 4 });
      expect(Object.keys(metadata.body.inputColumns)).toEqual(['Orders']);
      expect(metadata.body.inputColumns.Orders).toEqual(['Order No', 'Customer', 'Qty', 'Unit Price', 'Ordered At', 'Status']);

      // The link names its sheet: nothing to select.
      expect((await call(emu, 'GET', `/selected-sheet/${jobId}`)).body).toEqual({ sheetSelection: null });
      const fields = (await call(emu, 'GET', `/fields/${jobId}`)).body;
      const fromFile = (await call(emu, 'GET', `/fields/${uploaded}`)).body;
      expect(Object.keys(fields.columnFieldMapping)).toEqual(['Orders']);
      expect(fields.columnFieldMapping.Orders).toEqual(fromFile.columnFieldMapping['orders.xlsx']);

      for (const id of [jobId, uploaded]) expect((await call(emu, 'POST', `/run/${id}`, { returnWhenComplete: true })).status).toBe(200);
      const out = await readFile(join(emu.dataDir, 'output', `${jobId}.csv`), 'utf8');
      expect(out).toBe(await readFile(join(emu.dataDir, 'output', `${uploaded}.csv`), 'utf8'));
      expect(out.split('\n')[0]).toBe('order_id,customer,quantity,unit_price,ordered_at,status');
      // The workbook is kept as the job's input, as an upload is.
      expect(await readdir(join(emu.dataDir, 'jobs', jobId, 'input'))).toEqual(['google-sheet.xlsx']);
    } finally {
      await hook.close();
    }
  });

  const notShared = (id: string, how: string) =>
    `The Google Sheet https://docs.google.com/spreadsheets/d/${id} is not shared publicly (${how}); share it as 'anyone with the link can view', or download it and upload it as "files".`;

  it.each([
    ['a sheet not shared publicly', PRIVATE_ID, 'Orders', 422, 'invalid_input', notShared(PRIVATE_ID, 'Google answered with a sign-in page')],
    ['an unknown spreadsheet', 'unknown-id', 'Orders', 422, 'invalid_input',
      'The Google Sheet https://docs.google.com/spreadsheets/d/unknown-id was not found (404); check the link (Share > Copy link), or download it and upload it as "files".'],
    ['a sheet the workbook does not have', PUBLIC_ID, 'Sheet1', 422, 'invalid_input',
      `The job cannot start: The Google Sheet https://docs.google.com/spreadsheets/d/${PUBLIC_ID} has no sheet named "Sheet1"; choose one of: "Notes", "Orders".`],
    ['Google failing', 'broken', 'Orders', 502, 'bad_gateway',
      'Google answered 500 to the export of https://docs.google.com/spreadsheets/d/broken; try again later, or download it and upload it as "files".'],
    ['Google not answering', 'hang', 'Orders', 502, 'bad_gateway',
      'did not answer within 500 ms while reading the Google Sheet https://docs.google.com/spreadsheets/d/hang; retry with a longer --timeout, or download it and upload it as "files".'],
  ])('answers %s with %i, leaving no job behind', async (_what, id, sheet, status, code, message) => {
    const before = await jobDirs();
    const answer = await sheetStart(id, sheet);
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.body.error.code).toBe(code);
    if (id === 'hang') expect(answer.body.error.message).toBe(`${new URL(google.url).host} ${message}`);
    else expect(answer.body.error.message).toBe(message);
    expect(await jobDirs()).toEqual(before);
  });

  it('answers a link of another form with 422 naming the form expected', async () => {
    const answer = await start(emu, { fields: { gsUrl: 'https://docs.google.com/document/d/abc/edit', gsSheetName: 'Orders' } });
    expect(answer.status).toBe(422);
    expect(answer.body.error.message).toMatch(/is not a Google Sheets link \(not a spreadsheet\); copy it with Share > Copy link, in the form https:\/\/docs.google.com\/spreadsheets\/d\/<id>\/edit/);
  });

  it('holds a workbook over --max-upload to 413', async () => {
    google.serve('large-id', Buffer.concat([await readFile(WORKBOOK), Buffer.alloc(1 << 20)]));
    const before = await jobDirs();
    const answer = await sheetStart('large-id');
    expect(answer.status).toBe(413);
    expect(answer.body.error).toEqual({ code: 'too_large', message: `The Google Sheet's workbook is over this service's upload limit of ${1 << 20} bytes (--max-upload).` });
    expect(await jobDirs()).toEqual(before);
  });
});

/** The job folders in the data dir. */
async function jobDirs(): Promise<string[]> {
  return (await readdir(join(emu.dataDir, 'jobs')).catch(() => [] as string[])).sort();
}
