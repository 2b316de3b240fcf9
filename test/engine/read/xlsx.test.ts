import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { openInput } from '../../../src/engine/read/index.js';
import { emptyReport, type OpenOptions, type Row } from '../../../src/engine/types.js';
import { findPython, noPythonReason } from '../../support/python.js';

const python = findPython(['zipfile']);
if (!python) console.log(noPythonReason(['zipfile'], 'python3'));

let dir: string;
let book: string;

/** A workbook with a notes sheet, a sales sheet (header on row 2, typed cells) and an empty sheet. */
async function writeBook(path: string): Promise<void> {
  const wb = new ExcelJS.Workbook();
  const notes = wb.addWorksheet('Notes');
  notes.addRow(['just', 'notes']);
  notes.addRow(['more']);

  const sales = wb.addWorksheet('Sales');
  sales.addRow([]);
  sales.addRow(['id', 'when', '', 'amount', 'id', 'paid', 'label', 'double', 'site', 'due']);
  sales.addRow([
    1,
    new Date(Date.UTC(2024, 2, 5, 14, 22, 10)),
    null,
    1234.5,
    'A-1',
    true,
    { richText: [{ text: 'Hel' }, { font: { bold: true }, text: 'lo' }] },
    { formula: 'A3*2', result: 2 },
    { text: 'Example', hyperlink: 'https://example.com' },
    { formula: 'B3+1', result: new Date(Date.UTC(2024, 2, 6)) },
  ]);
  sales.getCell('J3').numFmt = 'yyyy-mm-dd';
  sales.addRow([]);
  sales.addRow([2, null, null, 0.1, '  ', false, 'plain', { formula: 'A5*2', result: 4 }, null, null]);
  sales.addRow([3, new Date(Date.UTC(2023, 11, 31)), null, -12345678.25, 'B-3']);

  wb.addWorksheet('Empty');
  await wb.xlsx.writeFile(path);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'import-read-xlsx-'));
  book = join(dir, 'book.xlsx');
  await writeBook(book);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function readAll(path: string, opts: OpenOptions): Promise<{ columns: string[]; rows: Row[]; rowNumbers: number[] }> {
  const table = await (await openInput({ file: path })).open(opts);
  const rows: Row[] = [];
  const rowNumbers: number[] = [];
  for await (const batch of table.batches) {
    rows.push(...batch.rows);
    rowNumbers.push(...batch.rowNumbers);
  }
  return { columns: table.columns, rows, rowNumbers };
}

async function failure(run: () => Promise<unknown>): Promise<UsageError> {
  const error = await run().then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(UsageError);
  return error as UsageError;
}

describe('XLSX reader', () => {
  it('is recognised by extension and describes the file', async () => {
    const source = await openInput({ file: book });
    expect(source).toMatchObject({ kind: 'xlsx', name: 'book.xlsx' });
    expect(source.size).toBeGreaterThan(0);
  });

  it('is recognised by its ZIP signature under an .xls name, as Excel opens it', async () => {
    const path = join(dir, 'export.xls');
    await writeFile(path, await readFile(book));
    expect((await openInput({ file: path })).kind).toBe('xlsx');
  });

  it('is refused under a name that is no workbook\'s, which the service would read as that name says', async () => {
    for (const name of ['export.csv', 'export.JSON', 'export']) {
      const path = join(dir, name);
      await writeFile(path, await readFile(book));
      const error = await failure(() => openInput({ file: path }));
      const named = name.includes('.') ? `its name ends in ${name.slice(name.indexOf('.')).toLowerCase()}` : 'its name has no extension';
      expect(error.message).toBe(`${path} holds an XLSX workbook (ZIP bytes), though ${named}; rename it to export.xlsx so that the dry run and the service both read it as a workbook, and retry.`);
    }
  });

  it.skipIf(!python)('names a ZIP archive that holds no workbook as such, whatever its name (skipped without python3)', async () => {
    const path = join(dir, 'rows.csv');
    const made = spawnSync(python!, ['-c', 'import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], "w") as z: z.writestr("rows.csv", "a,b\\n1,2\\n")', path], { encoding: 'utf8' });
    expect(made.status, made.stderr).toBe(0);
    const error = await failure(() => openInput({ file: path }));
    expect(error.message).toBe(`${path} is a ZIP archive that holds no workbook; unzip it and give the CSV, TSV, XLSX or JSON file inside.`);
  });

  it('lists every sheet with its header and data-row count', async () => {
    const sheets = await (await openInput({ file: book })).sheets();
    expect(sheets).toEqual([
      { name: 'Notes', columns: ['just', 'notes'], rowCount: 1 },
      { name: 'Sales', columns: ['id', 'when', 'column_3', 'amount', 'id_2', 'paid', 'label', 'double', 'site', 'due'], rowCount: 3 },
      { name: 'Empty', columns: [], rowCount: 0 },
    ]);
  });

  it('reads the selected sheet from its first non-empty row, skipping empty rows', async () => {
    const { columns, rows, rowNumbers } = await readAll(book, { sheet: 'Sales' });
    expect(columns).toEqual(['id', 'when', 'column_3', 'amount', 'id_2', 'paid', 'label', 'double', 'site', 'due']);
    expect(rows).toHaveLength(3);
    expect(rowNumbers).toEqual([1, 2, 3]);
  });

  it('turns numbers, dates, booleans, rich text, formulas and hyperlinks into text', async () => {
    const { rows } = await readAll(book, { sheet: 'Sales' });
    expect(rows[0]).toEqual(['1', '2024-03-05T14:22:10', null, '1234.5', 'A-1', 'true', 'Hello', '2', 'Example', '2024-03-06T00:00:00']);
  });

  it('makes empty and blank cells null and pads short rows', async () => {
    const { rows } = await readAll(book, { sheet: 'Sales' });
    expect(rows[1]).toEqual(['2', null, null, '0.1', null, 'false', 'plain', '4', null, null]);
    expect(rows[2]).toEqual(['3', '2023-12-31T00:00:00', null, '-12345678.25', 'B-3', null, null, null, null, null]);
  });

  it('reads the only sheet of a one-sheet workbook without being told which', async () => {
    const path = join(dir, 'single.xlsx');
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Only').addRows([['a', 'b'], [1, 2]]);
    await wb.xlsx.writeFile(path);
    expect((await readAll(path, {})).rows).toEqual([['1', '2']]);
  });

  it('fails on a sheet that does not exist, listing the sheets', async () => {
    const error = await failure(() => readAll(book, { sheet: 'Missing' }));
    expect(error.message).toBe(`${book} has no sheet named "Missing"; choose one of: "Notes", "Sales", "Empty".`);
  });

  it('fails on an empty sheet', async () => {
    const error = await failure(() => readAll(book, { sheet: 'Empty' }));
    expect(error.message).toContain('sheet "Empty" is empty');
  });

  it('fails on a value right of the header unless lenient, which cuts and counts it', async () => {
    const path = join(dir, 'wide.xlsx');
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('S').addRows([['a', 'b'], [1, 2], [3, 4, 'stray']]);
    await wb.xlsx.writeFile(path);
    const error = await failure(() => readAll(path, { sheet: 'S' }));
    expect(error.message).toBe(`${path}, sheet "S", row 3: row has a value in column 3 but the header has 2 columns; add a header for it or pass --lenient to cut such rows.`);
    const report = emptyReport();
    expect((await readAll(path, { sheet: 'S', lenient: true, report })).rows).toEqual([['1', '2'], ['3', '4']]);
    expect(report.rowsRepaired).toBe(1);
  });

  it('fails on a file that is not a ZIP archive', async () => {
    const path = join(dir, 'fake.xlsx');
    await writeFile(path, Buffer.from([0x89, 0x00, 0xff, 0x10, 0x02, 0x00, 0x7f, 0x80]));
    const error = await failure(async () => (await openInput({ file: path })).sheets());
    expect(error.message).toMatch(new RegExp(`^${path.replace(/[.]/g, '\\.')} is not a readable XLSX workbook \\(.+\\); open it in Excel, save it again as \\.xlsx, and retry\\.$`));
  });

  it('says plainly that a text file named .xlsx is no workbook, and what to rename it to', async () => {
    const cases: [string, string | Buffer, string][] = [
      ['csv-as.xlsx', 'id,name\r\n1,Zoë\r\n', 'it holds text that looks like CSV; rename it to .csv (or .tsv) and retry.'],
      ['bom-csv-as.xlsx', '\ufeffid;name\n1;Ada\n', 'it holds text that looks like CSV; rename it to .csv (or .tsv) and retry.'],
      ['json-as.xlsm', '[{"id": 1}]', 'it holds text that looks like JSON; rename it to .json and retry.'],
      ['page-as.xlsx', '<!DOCTYPE html><html><body>Sign in</body></html>', 'it is an HTML or XML page (a sign-in or error page saved in its place?); download or export the workbook again and retry.'],
      ['empty.xlsx', '', 'it is empty; export the workbook again and retry.'],
    ];
    for (const [name, content, reason] of cases) {
      const path = join(dir, name);
      await writeFile(path, content);
      const error = await failure(() => openInput({ file: path }));
      expect(error.message).toBe(`${path} is not an Excel workbook, though its name ends in ${name.slice(name.lastIndexOf('.'))}: ${reason}`);
    }
  });

  it('fails on a truncated workbook', async () => {
    const path = join(dir, 'truncated.xlsx');
    const bytes = await readFile(book);
    await writeFile(path, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const error = await failure(() => readAll(path, { sheet: 'Sales' }));
    expect(error.message).toContain('is not a readable XLSX workbook');
  });
});

describe('XLSX cell conversions', () => {
  it('turns serial dates into ISO text in both date systems, as Excel shows them', async () => {
    const { serialText, dateKind, serialCellText, unescapeXString } = await import('../../../src/engine/read/xlsx-book.js');
    expect(serialText(45000.5, false)).toBe('2023-03-15T12:00:00');
    expect(serialText(45000.5 - 1462, true)).toBe('2023-03-15T12:00:00');
    expect(serialText(61, false)).toBe('1900-03-01T00:00:00');
    expect(serialText(59, false)).toBe('1900-02-28T00:00:00'); // before Excel's fictitious 1900-02-29
    expect(serialText(1, false)).toBe('1900-01-01T00:00:00');
    expect(serialText(41333.9999884259, false)).toBe('2013-02-28T23:59:59'); // 15 digits, rounded to the second
    expect(['yyyy-mm-dd', 'mmm yy', 'h:mm AM/PM', 'mm:ss', '[h]:mm', '[$-409]h:mm:ss', '0.00" days"', 'General', '[Red]#,##0'].map(dateKind))
      .toEqual(['date', 'date', 'time', 'time', 'elapsed', 'time', undefined, undefined, undefined]);
    expect(serialText(45000.99999421296, false)).toBe('2023-03-15T23:59:59'); // 23:59:59.5: cut to the second, as CSV fractions are
    expect([serialCellText(0.25, 'date', false), serialCellText(1.25, 'time', false), serialCellText(1.5, 'elapsed', false), serialCellText(-0.0625, 'elapsed', false)])
      .toEqual(['06:00:00', '1900-01-01T06:00:00', '36:00:00', '-1:30:00']);
    expect(unescapeXString('a_x000D_b_x005F_x000A_')).toBe('a\rb_x000A_');
    // `_x005F_x000D_` as Excel and our writer store it (every opening underscore escaped) and as XlsxWriter does (non-overlapping ones)
    expect([unescapeXString('_x005F_x005F_x005F_x000D_'), unescapeXString('_x005F_x005F_x000D_')]).toEqual(['_x005F_x000D_', '_x005F_x000D_']);
    expect([unescapeXString('_x005F_x0041_x005F_'), unescapeXString('_x005F_x0041_x005F_x0042_'), unescapeXString('a_x005F_b'), unescapeXString('_x00e9_x_X0041_')])
      .toEqual(['_x0041_x005F_', '_x0041_x0042_', 'a_b', 'éx_X0041_']);
  });

  it('tells number formats whose `_x` padding or `*x` fill uses a date letter from date formats', async () => {
    const { dateKind } = await import('../../../src/engine/read/xlsx-book.js');
    const numbers = [
      // ECMA-376's built-in number formats (ids 0-13, 37-44, 48, 49), written out as custom ones.
      'General', '0', '0.00', '#,##0', '#,##0.00', '"$"#,##0_);\\("$"#,##0\\)', '"$"#,##0.00_);[Red]\\("$"#,##0.00\\)', '0%', '0.00%',
      '0.00E+00', '# ?/?', '# ??/??', '#,##0 ;(#,##0)', '#,##0.00;[Red](#,##0.00)', '_(* #,##0_);_(* \\(#,##0\\);_(* "-"_);_(@_)',
      '_("$"* #,##0.00_);_("$"* \\(#,##0.00\\);_("$"* "-"??_);_(@_)', '##0.0E+0', '@',
      // Comma and accounting styles of locales whose currency follows the amount.
      '_-* #,##0.00\\ _K_M_-;\\-* #,##0.00\\ _K_M_-;_-* "-"??\\ _K_M_-;_-@_-', '_-* #,##0.00\\ _L_s_-;\\-* #,##0.00\\ _L_s_-;_-* "-"??\\ _L_s_-;_-@_-',
      '_-* #,##0.00\\ _d_i_n_._-;\\-* #,##0.00\\ _d_i_n_._-;_-* "-"??\\ _d_i_n_._-;_-@_-', '_-* #,##0\\ _k_r_._-', '_-* #,##0.00\\ _F_t_-',
      '_-* #,##0.00\\ "€"_-;\\-* #,##0.00\\ "€"_-;_-* "-"??\\ "€"_-;_-@_-', '_ * #,##0.00_ ;_ * \\-#,##0.00_ ;_ * "-"??_ ;_ @_ ',
      '_-* #,##0.00\\ [$€-407]_-', '0.00_s', '*s0', '*y#,##0.00', '0.00_h_m', '#,##0.00 "days"', '0.00\\ \\h',
    ];
    expect(numbers.filter((f) => dateKind(f) !== undefined)).toEqual([]);
    const dates = ['mm-dd-yy', 'd-mmm-yy', 'mmm-yy', 'm/d/yy h:mm', 'yyyy-mm-dd', 'YYYY-MM-DD', '[$-409]mmmm d, yyyy;@', '[$-F800]dddd\\,\\ mmmm\\ dd\\,\\ yyyy',
      'dd/mm/yyyy_)', '* yyyy-mm-dd', '\\_d/m/yy', '"a_"d-mmm'];
    expect(dates.map((f) => [f, dateKind(f)])).toEqual(dates.map((f) => [f, 'date']));
    expect(['h:mm AM/PM', 'h:mm:ss_)', 'mm:ss', 'mmss.0', '*-h:mm'].map(dateKind)).toEqual(['time', 'time', 'time', 'time', 'time']);
    expect(['[h]:mm:ss', '[h]:mm:ss;@', '_([mm]:ss_)'].map(dateKind)).toEqual(['elapsed', 'elapsed', 'elapsed']);
  });
});
