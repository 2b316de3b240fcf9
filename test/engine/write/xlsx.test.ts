import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataType } from '../../../src/contract/index.js';
import { openInput } from '../../../src/engine/read/index.js';
import { writeTable } from '../../../src/engine/write/index.js';
import type { Batch, Row, Table } from '../../../src/engine/types.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'import-write-xlsx-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function table(columns: string[], types: (DataType | undefined)[], rows: Row[]): Table {
  return {
    columns,
    types,
    batches: (async function* (): AsyncGenerator<Batch> {
      yield { rows, rowNumbers: rows.map((_, i) => i + 1) };
    })(),
  };
}

const columns = ['id', 'amount', 'when', 'country', 'note'];
const types: (DataType | undefined)[] = ['number', 'number', 'date_time', 'category', undefined];
const rows: Row[] = [
  [1, 1234.5, '2024-03-05T14:22:10', 'US', 'first'],
  [2, null, null, null, null],
  [3, '-7.25', 'not a date', 'de', '00123'],
];

async function writeAndLoad(name: string): Promise<ExcelJS.Worksheet> {
  const path = join(dir, name);
  expect(await writeTable(table(columns, types, rows), path, 'excel')).toEqual({ rows: 3 });
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  expect(wb.worksheets.map((s) => s.name)).toEqual(['data']);
  return wb.getWorksheet('data')!;
}

describe('XLSX writer', () => {
  it('writes one worksheet named data with a header row', async () => {
    const sheet = await writeAndLoad('header.xlsx');
    expect(sheet.getRow(1).values).toEqual([undefined, ...columns]);
    expect(sheet.rowCount).toBe(4);
  });

  it('writes number columns as number cells', async () => {
    const sheet = await writeAndLoad('numbers.xlsx');
    expect(sheet.getCell('A2').value).toBe(1);
    expect(sheet.getCell('B2').value).toBe(1234.5);
    expect(sheet.getCell('B4').value).toBe(-7.25);
    expect(sheet.getCell('B2').type).toBe(ExcelJS.ValueType.Number);
  });

  it('writes date_time columns as date cells in UTC with a date format', async () => {
    const sheet = await writeAndLoad('dates.xlsx');
    const cell = sheet.getCell('C2');
    expect(cell.value).toBeInstanceOf(Date);
    expect((cell.value as Date).toISOString()).toBe('2024-03-05T14:22:10.000Z');
    expect(cell.numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    expect(sheet.getCell('C4').value).toBe('not a date');
  });

  it('writes other columns as text and missing values as empty cells', async () => {
    const sheet = await writeAndLoad('text.xlsx');
    expect(sheet.getCell('D2').value).toBe('US');
    expect(sheet.getCell('E4').value).toBe('00123');
    for (const ref of ['B3', 'C3', 'D3', 'E3']) expect(sheet.getCell(ref).value).toBeNull();
  });

  it('round-trips through the XLSX reader as text', async () => {
    const path = join(dir, 'round.xlsx');
    await writeTable(table(columns, types, rows), path, 'excel');
    const read = await (await openInput({ file: path })).open({ sheet: 'data' });
    const back: Row[] = [];
    for await (const batch of read.batches) back.push(...batch.rows);
    expect(read.columns).toEqual(columns);
    expect(back).toEqual([
      ['1', '1234.5', '2024-03-05T14:22:10', 'US', 'first'],
      ['2', null, null, null, null],
      ['3', '-7.25', 'not a date', 'de', '00123'],
    ]);
  });
});
