/**
 * Rows and cells a workbook holds twice or out of order. The reader places rows and cells as they
 * come (it streams), so such a sheet would put values in the wrong row or column, or keep the last
 * of two cells, without a word; it is refused instead, naming the sheet and the row or cell. Excel
 * never writes such a sheet, so the workbooks are written by hand (Python's zipfile), as other
 * generators might write them; a row or cell without `r` ("the next one") still reads.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { openInput } from '../../../src/engine/read/index.js';
import type { Row } from '../../../src/engine/types.js';
import { runCli } from '../../support/cli.js';
import { findPython, noPythonReason } from '../../support/python.js';

const python = findPython(['zipfile']);
if (!python) console.log(noPythonReason(['zipfile'], 'python3'));

/** Writes a one-sheet workbook (sheet "Data") whose `<sheetData>` holds `rows`, part by part. */
const WRITE = `
import sys, zipfile
path, rows = sys.argv[1], sys.stdin.read()
M = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
P = 'http://schemas.openxmlformats.org/package/2006/relationships'
with zipfile.ZipFile(path, 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>')
    z.writestr('_rels/.rels', f'<?xml version="1.0"?><Relationships xmlns="{P}"><Relationship Id="rId1" Type="{R}/officeDocument" Target="xl/workbook.xml"/></Relationships>')
    z.writestr('xl/workbook.xml', f'<?xml version="1.0"?><workbook {M} xmlns:r="{R}"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>')
    z.writestr('xl/_rels/workbook.xml.rels', f'<?xml version="1.0"?><Relationships xmlns="{P}"><Relationship Id="rId1" Type="{R}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>')
    z.writestr('xl/worksheets/sheet1.xml', f'<?xml version="1.0"?><worksheet {M}><sheetData>{rows}</sheetData></worksheet>')
`;

let dir: string;
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'import-xlsx-order-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

/** A text cell, with or without a reference. */
const text = (value: string, ref?: string) => `<c${ref ? ` r="${ref}"` : ''} t="inlineStr"><is><t>${value}</t></is></c>`;
/** A number cell, with or without a reference. */
const num = (value: number, ref?: string) => `<c${ref ? ` r="${ref}"` : ''}><v>${value}</v></c>`;

/** Writes `name` holding `rows` (the XML inside `<sheetData>`) and returns its path. */
function book(name: string, rows: string): string {
  const path = join(dir, name);
  const made = spawnSync(python!, ['-c', WRITE, path], { input: rows, encoding: 'utf8' });
  expect(made.status, made.stderr).toBe(0);
  return path;
}

/** The columns and rows of the sheet. */
async function read(path: string): Promise<{ columns: string[]; rows: Row[] }> {
  const table = await (await openInput({ file: path })).open();
  const rows: Row[] = [];
  for await (const batch of table.batches) rows.push(...batch.rows);
  return { columns: table.columns, rows };
}

/** The message of the UsageError that reading (or listing, with `list`) the sheet throws. */
async function refusal(path: string, list = false): Promise<string> {
  const error = await (list ? openInput({ file: path }).then((s) => s.sheets()) : read(path)).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(UsageError);
  return (error as Error).message;
}

const FIX = 'open it in Excel or LibreOffice, check those cells, and save it again (they write every row and cell once, in order), then retry.';
const HEADER = `<row r="1">${text('id', 'A1')}${text('name', 'B1')}</row>`;

describe.skipIf(!python)('XLSX rows and cells out of place', () => {
  it('refuses two cells with the same reference, naming the sheet and the cell', async () => {
    const path = book('twice.xlsx', `${HEADER}<row r="2">${num(1, 'A2')}${text('Ann', 'B2')}${text('Bob', 'B2')}</row>`);
    expect(await refusal(path)).toBe(`${path}: sheet "Data" has two cells B2 in row 2, so where its values belong cannot be told; ${FIX}`);
  });

  it('refuses them in the header when listing the sheets too (listing reads only the header row whole)', async () => {
    const path = book('twice-header.xlsx', `<row r="1">${text('id', 'A1')}${text('name', 'B1')}${text('mail', 'B1')}</row><row r="2">${num(1, 'A2')}</row>`);
    expect(await refusal(path, true)).toBe(`${path}: sheet "Data" has two cells B1 in row 1, so where its values belong cannot be told; ${FIX}`);
  });

  it('refuses a row written before one it follows, and a row number given twice', async () => {
    const back = book('back.xlsx', `${HEADER}<row r="5">${num(5, 'A5')}</row><row r="3">${num(3, 'A3')}</row>`);
    expect(await refusal(back)).toBe(`${back}: sheet "Data" has row 3 after row 5 (rows out of order), so where its values belong cannot be told; ${FIX}`);
    const again = book('again.xlsx', `${HEADER}<row r="2">${num(1, 'A2')}</row><row r="2">${text('Ann', 'B2')}</row>`);
    expect(await refusal(again)).toBe(`${again}: sheet "Data" has two rows numbered 2, so where its values belong cannot be told; ${FIX}`);
    // A row without a number after row 1 is row 2, so a row 2 after it is one row twice.
    const next = book('next.xlsx', `${HEADER}<row>${num(1)}</row><row r="2">${num(2, 'A2')}</row>`);
    expect(await refusal(next)).toBe(`${next}: sheet "Data" has two rows numbered 2, so where its values belong cannot be told; ${FIX}`);
  });

  it('refuses a cell written before one left of it in its row', async () => {
    const path = book('columns.xlsx', `${HEADER}<row r="2">${text('Ann', 'B2')}${num(1, 'A2')}</row>`);
    expect(await refusal(path)).toBe(`${path}: sheet "Data" has cell A2 after B2 in row 2 (cells out of column order), so where its values belong cannot be told; ${FIX}`);
  });

  it('refuses a cell whose reference names another row than the one it is in', async () => {
    const path = book('other-row.xlsx', `${HEADER}<row r="2">${num(1, 'A2')}${text('Ann', 'B3')}</row>`);
    expect(await refusal(path)).toBe(`${path}: sheet "Data" has cell B3 inside row 2, so where its values belong cannot be told; ${FIX}`);
    // A row without a number after row 1 is row 2: its cells must say so too.
    const next = book('other-row-next.xlsx', `${HEADER}<row>${num(1, 'A3')}</row>`);
    expect(await refusal(next)).toBe(`${next}: sheet "Data" has cell A3 inside row 2, so where its values belong cannot be told; ${FIX}`);
  });

  it('reads rows and cells without a reference as the next ones, and gaps as empty', async () => {
    const path = book('next-ones.xlsx', `${HEADER}<row>${num(1)}${text('Ann')}</row><row r="4">${text('Cy', 'B4')}</row><row>${num(5)}${text('Di')}</row>`
      + `<row r="6">${num(6, 'A6')}</row>`);
    expect(await read(path)).toEqual({ columns: ['id', 'name'], rows: [['1', 'Ann'], [null, 'Cy'], ['5', 'Di'], ['6', null]] });
  });

  it('stops a dry run with exit 2 and one sentence, writing nothing', async () => {
    book('twice-cli.xlsx', `${HEADER}<row r="2">${num(1, 'A2')}${text('Ann', 'B2')}${text('Bob', 'B2')}</row>`);
    const job = join(dir, 'twice.yaml');
    await writeFile(job, 'version: 1\ninput: {file: twice-cli.xlsx}\n');
    const r = await runCli(['dry-run', job], { timeoutMs: 30_000 });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/twice-cli\.xlsx: sheet "Data" has two cells B2 in row 2, so where its values belong cannot be told; open it in Excel or LibreOffice/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(dir, 'twice.out.csv'))).toBe(false);
  });
});
