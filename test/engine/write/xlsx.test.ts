import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataType } from '../../../src/contract/index.js';
import { openInput } from '../../../src/engine/read/index.js';
import { writeTable } from '../../../src/engine/write/index.js';
import { dateSeconds, MAX_COLUMNS, MAX_ROWS, MAX_TEXT, sheetFormat, sheetRowsText } from '../../../src/engine/write/xlsx.js';
import { crc32Combine } from '../../../src/engine/write/zip.js';
import { makeTable } from '../../support/rows.js';
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

/** Writes rows (all of `type`) to a workbook; resolves with its only sheet (exceljs) and the warnings given. */
async function writeColumn(name: string, values: Row[], type: DataType | undefined): Promise<{ sheet: ExcelJS.Worksheet; warnings: string[] }> {
  const path = join(dir, name);
  const warnings: string[] = [];
  await writeTable(table(['v'], [type], values), path, 'excel', (m) => warnings.push(m));
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  return { sheet: wb.getWorksheet('data')!, warnings };
}

describe('XLSX writer, text in a number column (a script\'s output)', () => {
  it('writes a decimal a double holds as a number cell, and one past a double\'s range as the text it is', async () => {
    const { sheet } = await writeColumn('script-numbers.xlsx', [['12.5'], ['1e400'], ['-1e-3']], 'number');
    expect(sheet.getCell('A2').value).toBe(12.5);
    expect(sheet.getCell('A3').value).toBe('1e400');
    expect(sheet.getCell('A3').type).toBe(ExcelJS.ValueType.String);
    expect(sheet.getCell('A4').value).toBe(-0.001);
  });
});

describe('XLSX writer, what XML and Excel cannot hold', () => {
  it('replaces characters XML 1.0 cannot hold with U+FFFD and says how many', async () => {
    const { sheet, warnings } = await writeColumn('control.xlsx', [['a\x00b\x07c'], ['x\ud800y'], ['\ufffe'], ['fine\ttab\nline']], 'rich_text');
    expect(sheet.getCell('A2').value).toBe('a\ufffdb\ufffdc');
    expect(sheet.getCell('A3').value).toBe('x\ufffdy');
    expect(sheet.getCell('A4').value).toBe('\ufffd');
    expect(sheet.getCell('A5').value).toBe('fine\ttab\nline');
    expect(warnings).toEqual([expect.stringMatching(/^Excel output: 4 character\(s\) that XML cannot hold .* were replaced with U\+FFFD\.$/)]);
  });

  it('keeps carriage returns, surrogate pairs and edge spaces', async () => {
    const { sheet, warnings } = await writeColumn('keep.xlsx', [['a\r\nb\r'], ['😀'], ['  both  ']], 'rich_text');
    expect(sheet.getCell('A2').value).toBe('a\r\nb\r');
    expect(sheet.getCell('A3').value).toBe('😀');
    expect(sheet.getCell('A4').value).toBe('  both  ');
    expect(warnings).toEqual([]);
  });

  it('escapes text that looks like an Excel _xHHHH_ escape, so Excel shows it as written', () => {
    expect(sheetRowsText([['_x0041_ and _x12_ and _xABCD_']], sheetFormat(['v'], ['rich_text']), 2))
      .toContain('<t>_x005F_x0041_ and _x12_ and _x005F_xABCD_</t>');
  });

  it('cuts text longer than an Excel cell holds and says so', async () => {
    const long = 'é'.repeat(MAX_TEXT + 10);
    const pair = 'a'.repeat(MAX_TEXT - 1) + '😀';
    const { sheet, warnings } = await writeColumn('long.xlsx', [[long], [pair]], 'rich_text');
    expect(sheet.getCell('A2').value).toBe('é'.repeat(MAX_TEXT));
    expect(sheet.getCell('A3').value).toBe('a'.repeat(MAX_TEXT - 1)); // not half a surrogate pair
    expect(warnings).toEqual([expect.stringContaining('2 value(s) longer than 32,767 characters')]);
  });

  it('writes dates before 1900-03-01 as text and says so; other text in a date column stays text silently', async () => {
    const { sheet, warnings } = await writeColumn('early.xlsx', [['1899-12-31T00:00:00'], ['1900-03-01T00:00:00'], ['2024-02-30T00:00:00'], ['soon']], 'date_time');
    expect(sheet.getCell('A2').value).toBe('1899-12-31T00:00:00');
    expect((sheet.getCell('A3').value as Date).toISOString()).toBe('1900-03-01T00:00:00.000Z');
    expect(sheet.getCell('A4').value).toBe('2024-02-30T00:00:00');
    expect(sheet.getCell('A5').value).toBe('soon');
    expect(warnings).toEqual([expect.stringContaining('1 date_time value(s) before 1900-03-01')]);
  });

  it('writes the serial of every second of a day so readers get the second back', () => {
    const format = sheetFormat(['v'], ['date_time']);
    for (let s = 0; s < 86_400; s += 17) {
      const time = [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60].map((n) => String(n).padStart(2, '0')).join(':');
      const xml = sheetRowsText([[`2024-03-05T${time}`]], format, 2);
      const serial = Number(/<v>([^<]*)<\/v>/.exec(xml)![1]);
      expect(Math.abs(serial - dateSeconds(`2024-03-05T${time}`) / 86_400)).toBeLessThan(1e-10);
      expect(new Date(Math.round((serial - 25_569) * 86_400) * 1000).toISOString().slice(11, 19)).toBe(time);
    }
  });

  it('takes as a date only YYYY-MM-DDTHH:mm:ss with a digit in each digit place', () => {
    const good = '2024-03-05T06:07:08';
    expect(dateSeconds(good)).toBe((45356 * 86_400) + 6 * 3600 + 7 * 60 + 8);
    // Around the Unix epoch (the shared reading counts from it) and day 0.
    expect(dateSeconds('1969-12-31T23:59:59')).toBe(25_569 * 86_400 - 1);
    expect(dateSeconds('1970-01-01T00:00:00')).toBe(25_569 * 86_400);
    expect(dateSeconds('1899-12-30T00:00:00')).toBe(0);
    for (let i = 0; i < good.length; i++) {
      for (const c of ['x', '/', ':', ' ']) {
        const text = good.slice(0, i) + c + good.slice(i + 1);
        if (text !== good) expect(dateSeconds(text), text).toBeNaN();
      }
    }
    for (const text of ['2024-13-05T06:07:08', '2023-02-29T06:07:08', '2024-03-05T24:07:08', '2024-03-05T06:60:08', '2024-03-05T06:07:60', '2024-03-5T06:07:08', '2024-03-05T06:07:08Z']) {
      expect(dateSeconds(text), text).toBeNaN();
    }
  });

  it('writes each date serial as the decimal that reads back as the double nearest the exact serial', () => {
    // writeSerial makes 17 digits of the fraction from its exact decimal, without a double or a
    // table. Which double a decimal reads as depends on the day's power-of-two range, so one day
    // of each range from 1900-03-01 (serial 61) to 9999-12-31 (2958465) is checked: every second
    // of four of them, every 7th second of the rest. The exact serial comes from BigInt digits.
    const format = sheetFormat(['v'], ['date_time']);
    const pad = (n: number, width = 2) => String(n).padStart(width, '0');
    const days = [61, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 45414, 65535, 65536, 131072, 262144, 524288, 1048576, 2097152, 2958465];
    const everySecond = new Set([61, 45414, 65536, 2958465]);
    const wrong: string[] = [];
    for (const day of days) {
      const date = new Date(Date.UTC(1899, 11, 30) + day * 86_400_000);
      const ymd = `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
      const seconds: number[] = [];
      for (let s = 0; s < 86_400; s += everySecond.has(day) ? 1 : 7) seconds.push(s);
      const times = seconds.map((s) => `${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`);
      const xml = sheetRowsText(times.map((time) => [`${ymd}T${time}`]), format, 2);
      const written = [...xml.matchAll(/<v>([^<]*)<\/v>/g)].map((m) => m[1]);
      expect(written).toHaveLength(seconds.length);
      seconds.forEach((s, i) => {
        const exact = Number(`${day}.${(BigInt(s) * 10n ** 30n / 86_400n).toString().padStart(30, '0')}`);
        if (Number(written[i]) !== exact || !/^\d+(\.\d{1,17})?$/.test(written[i]) || (written[i].endsWith('0') && s !== 0)) {
          wrong.push(`${ymd}T${times[i]}: ${written[i]}`);
        }
      });
    }
    expect(wrong).toEqual([]);
  });

  it('refuses more columns than a sheet holds, before writing anything', async () => {
    const wide = Array.from({ length: MAX_COLUMNS + 1 }, (_, i) => `c${i}`);
    const path = join(dir, 'wide.xlsx');
    await expect(writeTable(table(wide, wide.map(() => undefined), [[]]), path, 'excel')).rejects.toThrow(/16385 columns and an Excel sheet holds at most 16384/);
    await expect(stat(path)).rejects.toThrow();
  });

  it('refuses more rows than a sheet holds and leaves no file', async () => {
    const path = join(dir, 'tall.xlsx');
    const tall: Table = {
      columns: ['n'],
      types: ['number'],
      batches: (async function* (): AsyncGenerator<Batch> {
        for (let at = 0; at < MAX_ROWS; at += 65_536) {
          const rows: Row[] = Array.from({ length: 65_536 }, (_, i) => [at + i]);
          yield { rows, rowNumbers: rows.map((_, i) => at + i + 1) };
        }
      })(),
    };
    await expect(writeTable(tall, path, 'excel')).rejects.toThrow(/more than 1,048,575 rows/);
    expect((await readdir(dir)).filter((f) => f.startsWith('.tall.xlsx') || f === 'tall.xlsx')).toEqual([]);
  }, 60_000);

  it('writes the same bytes for the same rows, whatever the batches', async () => {
    const many: Row[] = Array.from({ length: 5000 }, (_, i) => [i, `t${i}`]);
    const a = join(dir, 'batches-a.xlsx');
    const b = join(dir, 'batches-b.xlsx');
    await writeTable(makeTable(['n', 't'], many, { types: ['number', 'rich_text'], batchSize: 333 }), a, 'excel');
    await writeTable(makeTable(['n', 't'], many, { types: ['number', 'rich_text'] }), b, 'excel');
    expect((await readFile(a)).equals(await readFile(b))).toBe(true);
  });
});

describe('crc32Combine', () => {
  it('gives the CRC-32 of two parts joined', () => {
    const a = Buffer.from('<worksheet><dimension ref="A1:B9"/>');
    for (const size of [0, 1, 7, 1000, 70_000]) {
      const b = Buffer.alloc(size, 'x<row/>');
      expect(crc32Combine(crc32(a), crc32(b), b.length)).toBe(crc32(Buffer.concat([a, b])));
    }
  });
});
