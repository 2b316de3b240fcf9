/**
 * Numbers in a zero-padded number format (`00000`: US zip codes; 02134 is stored as 2134). They are
 * read as the numbers they hold, as pandas and openpyxl read them, and one warning per column says
 * that Excel shows leading zeros the values lack. The workbook is written by openpyxl, as a user's
 * script would write it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInput } from '../../../src/engine/read/index.js';
import { zeroPadding } from '../../../src/engine/read/xlsx-book.js';
import type { Row } from '../../../src/engine/types.js';
import { runCli } from '../../support/cli.js';
import { findPython, noPythonReason } from '../../support/python.js';

const python = findPython(['openpyxl']);
if (!python) console.log(noPythonReason(['openpyxl'], 'python3-openpyxl'));

const WRITE = `
import sys, openpyxl
book = openpyxl.Workbook()
sheet = book.active
sheet.title = 'Addresses'
sheet.append(['name', 'zip', 'plus4', 'count', 'id'])
for row in [['Ann', 2134, 21340001, 7, 12], ['Bo', 10001, 100010002, 8, 34567], ['Cy', 501, 5010003, 12, 8]]:
    sheet.append(row)
for r in range(2, 5):
    sheet.cell(r, 2).number_format = '00000'
    sheet.cell(r, 3).number_format = '00000-0000'
    sheet.cell(r, 4).number_format = '0'
    sheet.cell(r, 5).number_format = '#,##0'
book.save(sys.argv[1])
`;

let dir: string;
let file: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'import-zero-padded-'));
  file = join(dir, 'zips.xlsx');
  if (python) {
    const made = spawnSync(python, ['-c', WRITE, file], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(made.stderr);
  }
});
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

const warningFor = (path: string) => [
  `${path}, sheet "Addresses": column "zip" shows 2 numbers with leading zeros in Excel (number format 00000) that the stored numbers lack (B2 holds 2134, shown as 02134), so they were read as stored, as pandas and openpyxl read them; if the zeros are part of the values (zip codes, ids), store them as text in the workbook (=TEXT(B2,"00000") in Excel) and run again.`,
  `${path}, sheet "Addresses": column "plus4" shows 2 numbers with leading zeros in Excel (number format 00000-0000) that the stored numbers lack (C2 holds 21340001, shown as 02134-0001), so they were read as stored, as pandas and openpyxl read them; if the zeros are part of the values (zip codes, ids), store them as text in the workbook (=TEXT(C2,"00000-0000") in Excel) and run again.`,
];

describe('zero-padded number formats', () => {
  it('are told from other number formats', () => {
    expect(['00000', '000-00-0000', '00000\\-0000', '00000;-00000', '"-"00'].map(zeroPadding)).toEqual([
      { format: '00000', width: 5 }, { format: '000-00-0000', width: 9 }, { format: '00000-0000', width: 9 }, { format: '00000', width: 5 }, { format: '-00', width: 2 },
    ]);
    expect(['0', 'General', '#,##0', '0.00', '00.0', '#00000', '"ZIP "00000', 'yyyy-mm-dd', '@', '[Red]00000'].map(zeroPadding)).toEqual(Array(10).fill(undefined));
  });

  it.skipIf(!python)('keep the numbers the cells hold and warn once per column whose cells lack the zeros shown', async () => {
    const warnings: string[] = [];
    const table = await (await openInput({ file })).open({ warn: (message) => warnings.push(message) });
    const rows: Row[] = [];
    for await (const batch of table.batches) rows.push(...batch.rows);
    expect(rows).toEqual([['Ann', '2134', '21340001', '7', '12'], ['Bo', '10001', '100010002', '8', '34567'], ['Cy', '501', '5010003', '12', '8']]);
    expect(warnings).toEqual(warningFor(file));
  });

  it.skipIf(!python)('say so in the dry run, which exits 0 with the numbers', async () => {
    const job = join(dir, 'zips.yaml');
    await writeFile(job, 'version: 1\ninput: {file: zips.xlsx}\n');
    const r = await runCli(['dry-run', job, '--out', join(dir, 'zips.csv')], { timeoutMs: 30_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    for (const warning of warningFor(file)) expect(r.stderr.split(warning)).toHaveLength(2);
    expect(await readFile(join(dir, 'zips.csv'), 'utf8')).toBe('name,zip,plus4,count,id\nAnn,2134,21340001,7,12\nBo,10001,100010002,8,34567\nCy,501,5010003,12,8\n');
  });
});
