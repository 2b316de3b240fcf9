import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, ROOT, type Emulator } from '../support/emulator.js';
import { call, startJob } from './helpers.js';

const ORDERS = join(ROOT, 'examples/workbook/orders.xlsx');

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ schema: join(ROOT, 'test/emulator/fixtures/pl_orders.yaml') });
});
afterAll(async () => { await emu?.stop(); });

describe('workbook inputs', () => {
  it('suggests the sheet whose header matches the expected fields, listing every sheet', async () => {
    const jobId = await startJob(emu, { file: ORDERS, fields: { pipelineId: 'pl_orders' } });
    const sheet = await call(emu, 'GET', `/selected-sheet/${jobId}`);
    expect(sheet.status).toBe(200);
    expect(sheet.body.sheetSelection.selected).toBe('Orders');
    expect(sheet.body.sheetSelection.sheets).toContain('Orders');
    expect(sheet.body.sheetSelection.sheets.length).toBeGreaterThan(1);
    expect(sheet.body.sheetSelection.confidence).toBeGreaterThan(0);
    const fields = await call(emu, 'GET', `/fields/${jobId}`);
    expect(fields.body.inputColumns).toEqual(['Order No', 'Customer', 'Qty', 'Unit Price', 'Ordered At', 'Status']);
    expect(fields.body.columnFieldMapping['orders.xlsx']['Qty']).toEqual({ field: 'quantity', confidence: expect.any(Number) });
  });

  it('selects another sheet: new columns, new suggestions, confidence 1, and runs that sheet', async () => {
    const jobId = await startJob(emu, { file: ORDERS, fields: { pipelineId: 'pl_orders' } });
    const { sheets } = (await call(emu, 'GET', `/selected-sheet/${jobId}`)).body.sheetSelection;
    const other = 'Notes';
    expect(sheets).toEqual(['Notes', 'Orders']);
    const before = (await call(emu, 'GET', `/fields/${jobId}`)).body;
    const update = await call(emu, 'POST', `/fields/${jobId}`, { sheetSelection: { selected: other } });
    expect(update.status).toBe(200);
    expect(update.body).toEqual({ sheetSelection: { selected: other, confidence: 1, sheets } });
    const after = (await call(emu, 'GET', `/fields/${jobId}`)).body;
    expect(after.inputColumns).not.toEqual(before.inputColumns);
    expect(Object.keys(after.columnFieldMapping)).toHaveLength(1);
    // Back to the suggested sheet: its suggested confidence returns.
    const back = await call(emu, 'POST', `/fields/${jobId}`, { sheetSelection: { selected: 'Orders' } });
    expect(back.body.sheetSelection.confidence).toBeLessThanOrEqual(1);
    expect((await call(emu, 'GET', `/fields/${jobId}`)).body.inputColumns).toEqual(before.inputColumns);
    await call(emu, 'POST', `/fields/${jobId}`, { sheetSelection: { selected: other } });
    const run = await call(emu, 'POST', `/run/${jobId}`, { returnWhenComplete: true });
    expect(run.status).toBe(200);
    expect(run.body.status).toBe('succeeded');
    expect(run.body).toMatchObject({ rowsIn: 1, rowsOut: 1 });
    // The Notes sheet maps to no field: the output has the pipeline's required fields, all missing.
    expect(await readFile(join(emu.dataDir, 'output', `${jobId}.csv`), 'utf8')).toBe('order_id,customer,quantity,unit_price,ordered_at,status\n,,,,,\n');
  });

  it('runs the suggested sheet of a workbook to an Excel output', async () => {
    const jobId = await startJob(emu, { file: ORDERS, fields: { pipelineId: 'pl_orders', outputFileType: 'excel' } });
    const run = await call(emu, 'POST', `/run/${jobId}`, { returnWhenComplete: true });
    expect(run.body).toMatchObject({ status: 'succeeded', output: { format: 'excel', fileName: `${jobId}.xlsx` } });
    expect(run.body.rowsOut).toBeGreaterThan(0);
  });
});
