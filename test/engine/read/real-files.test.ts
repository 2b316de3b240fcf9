/**
 * Workbooks written by other programs (test/fixtures/real, see its README): every one lists its
 * sheets under their true names and reads cell by cell as the table written by hand below, in the
 * reader and through the real CLI's dry run.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInput } from '../../../src/engine/read/index.js';
import type { Row } from '../../../src/engine/types.js';
import { ROOT, runCli } from '../../support/cli.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'real');
const WORKBOOKS = ['openpyxl', 'pandas-openpyxl', 'xlsxwriter', 'pandas-xlsxwriter', 'libreoffice', 'sheetjs', 'sheetjs-sst-dates'];
const COLUMNS = ['date', 'observed_at', 'city', 'temp_c', 'rain_mm', 'sunny', 'note', 'station_code'];

/** The weather_2013 sheet as read: text values, dates as ISO text, missing as null. */
function expectedRows(writer: string): Row[] {
  // LibreOffice stores a cell's CRLF as LF when it saves: that is the value in its file.
  const lineBreak = writer === 'libreoffice' ? '\n' : '\r\n';
  return [
    ['2013-01-01T00:00:00', '2013-01-01T06:30:00', 'Seattle', '5.6', '0', 'true', 'plain', '00123'],
    ['2013-02-28T00:00:00', '2013-02-28T23:59:59', 'São Paulo', '-3.25', '12.5', 'false', 'a & b <c> "q"', '007'],
    ['2013-12-31T00:00:00', '2013-12-31T00:00:00', 'Zürich 🌧', '0.1', '1234567.891', 'true', `two${lineBreak}lines`, 'A-9'],
    ['1999-12-31T00:00:00', '2000-02-29T12:00:00', null, '-0.5', '42', 'false', '  spaced  ', null],
  ];
}

async function readSheet(file: string, sheet: string): Promise<{ columns: string[]; rows: Row[] }> {
  const table = await (await openInput({ file })).open({ sheet });
  const rows: Row[] = [];
  for await (const batch of table.batches) rows.push(...batch.rows);
  return { columns: table.columns, rows };
}

let dir: string;
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'import-real-files-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

describe.each(WORKBOOKS)('a workbook written by %s', (writer) => {
  const file = join(FIXTURES, `${writer}.xlsx`);

  it('lists its sheets under their true names, in workbook order', async () => {
    const sheets = await (await openInput({ file })).sheets();
    expect(sheets).toEqual([
      { name: 'Notes', columns: ['topic', 'text'], rowCount: 1 },
      { name: 'weather_2013', columns: COLUMNS, rowCount: 4 },
      { name: 'Q1 & Q2 <draft>', columns: ['quarter', 'value'], rowCount: 2 },
    ]);
  });

  it('reads the data sheet cell by cell: header after empty rows, dates, numbers, booleans, text', async () => {
    const { columns, rows } = await readSheet(file, 'weather_2013');
    expect(columns).toEqual(COLUMNS);
    expect(rows).toEqual(expectedRows(writer));
  });

  it('dry-runs through the CLI with the sheet named in the job file', async () => {
    const job = join(dir, `${writer}.yaml`);
    await writeFile(job, [
      'version: 1',
      'input:',
      `  file: ${JSON.stringify(file)}`,
      'config:',
      '  sheet: weather_2013',
      'schema:',
      `  expectedFields: [${COLUMNS.join(', ')}]`,
      '  fieldDataTypes: {date: date_time, observed_at: date_time, temp_c: number, rain_mm: number, sunny: category, city: rich_text, note: rich_text, station_code: category}',
      '',
    ].join('\n'));
    const out = join(dir, `${writer}.csv`);
    const r = await runCli(['dry-run', job, '--out', out], { timeoutMs: 30_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    const note = writer === 'libreoffice' ? '"two\nlines"' : '"two\r\nlines"';
    expect(await readFile(out, 'utf8')).toBe([
      COLUMNS.join(','),
      '2013-01-01T00:00:00,2013-01-01T06:30:00,Seattle,5.6,0,true,plain,00123',
      '2013-02-28T00:00:00,2013-02-28T23:59:59,São Paulo,-3.25,12.5,false,"a & b <c> ""q""",007',
      `2013-12-31T00:00:00,2013-12-31T00:00:00,Zürich 🌧,0.1,1234567.891,true,${note},A-9`,
      '1999-12-31T00:00:00,2000-02-29T12:00:00,,-0.5,42,false,"  spaced  ",',
      '',
    ].join('\n'));
  });
});

describe.each(['openpyxl', 'xlsxwriter', 'libreoffice'])('times written by %s (times-*.xlsx)', (writer) => {
  it('reads a time of day as HH:mm:ss and an elapsed time as H:MM:SS, never as a date made up from them; a fraction of a second is cut, as in CSV', async () => {
    const { columns, rows } = await readSheet(join(FIXTURES, `times-${writer}.xlsx`), 'shifts');
    expect(columns).toEqual(['shift', 'starts', 'lasted', 'stamp', 'day', 'lap']);
    expect(rows).toEqual([
      ['early', '06:30:00', '30:15:00', '2024-03-05T14:22:10', '2024-03-05T00:00:00', '00:01:05'],
      ['late', '23:59:59', '0:00:00', '2024-03-06T00:00:00', '2024-03-06T00:00:00', '00:00:59'],
    ]);
  });
});

describe('a workbook written by hand with what simple readers get wrong', () => {
  const file = join(FIXTURES, 'handmade.xlsx');

  it('lists its sheets from the workbook part whatever the ZIP order, absolute targets and prefixes', async () => {
    expect(await (await openInput({ file })).sheets()).toEqual([
      { name: 'Edge & <Cases>', columns: ['name', 'value', 'when', 'note'], rowCount: 4 },
      { name: 'Hidden', columns: ['secret'], rowCount: 0, hidden: true },
    ]);
  });

  it('reads every cell as written', async () => {
    const { rows } = await readSheet(file, 'Edge & <Cases>');
    expect(rows).toEqual([
      // rich-text runs joined; a number in a non-date format; built-in date format 14; two inline runs
      ['Hello', '1.5', '2023-03-15T00:00:00', 'x y'],
      // the phonetic reading is not the value; an empty cell element; custom date format; literal `&lt;`
      ['東京', null, '2023-03-15T12:00:00', '&lt;'],
      // `_x000D_` is a CR; an error cell's text; an ISO date cell; `_x005F_` escapes the underscore
      ['a\rb', '#DIV/0!', '2024-02-29T10:00:00', '_x000D_ literal'],
      // a boolean formula, a string formula, no cell, 1E-3 as plain decimal text
      ['true', 'computed', null, '0.001'],
    ]);
  });

  it('stops at a formula whose result was never saved, naming the cell and the way out, instead of importing it as missing', async () => {
    await expect(readSheet(file, 'Hidden')).rejects.toThrow(`${file}: sheet "Hidden", cell A2 holds a formula (=A1*2) whose result was never saved (the program that wrote the workbook does not calculate formulas); open and save it in Excel or LibreOffice (or \`soffice --headless --convert-to xlsx\`) so the results are saved, then retry.`);
  });
});

describe('formulas whose saved results are placeholders (formulas-*.xlsx)', () => {
  const placeholder = 'whose saved result is only a placeholder (the workbook asks to be recalculated when opened, as XlsxWriter and pandas write it, with 0 saved for every formula); open it in Excel, or in LibreOffice Calc and run Data > Calculate > Recalculate Hard, and save it (a plain `soffice --convert-to xlsx` keeps the placeholders), or write values instead of formulas (pandas turns text starting with "=" into a formula unless its ExcelWriter gets engine_kwargs={"options": {"strings_to_formulas": False}}), then retry.';

  it('stops at the first formula of an XlsxWriter workbook, which saved 0 as every result and asks to be recalculated, naming the sheet, cell and formula', async () => {
    const file = join(FIXTURES, 'formulas-xlsxwriter.xlsx');
    await expect(readSheet(file, 'orders')).rejects.toThrow(`${file}: sheet "orders", cell D2 holds a formula (=B2*C2) ${placeholder}`);
    // Listing the sheets reads it leniently, as it does formulas never calculated.
    expect(await (await openInput({ file })).sheets()).toEqual([{ name: 'orders', columns: ['item', 'qty', 'price', 'total'], rowCount: 3 }]);
  });

  it('stops at text pandas turned into a formula (its default writer makes any text starting with "=" one)', async () => {
    const file = join(FIXTURES, 'formulas-pandas.xlsx');
    await expect(readSheet(file, 'Sheet1')).rejects.toThrow(`${file}: sheet "Sheet1", cell B3 holds a formula (=== see below ===) ${placeholder}`);
  });

  it('reads that text as written when pandas is told to keep it (the way out the error gives)', async () => {
    expect(await readSheet(join(FIXTURES, 'formulas-pandas-text.xlsx'), 'Sheet1')).toEqual({
      columns: ['id', 'note'],
      rows: [['1', 'ok'], ['2', '=== see below ==='], ['3', '=N/A']],
    });
  });

  it('reads the results LibreOffice calculated and saved (it writes no recalculation flag)', async () => {
    expect(await readSheet(join(FIXTURES, 'formulas-libreoffice.xlsx'), 'orders')).toEqual({
      columns: ['item', 'qty', 'price', 'total'],
      rows: [['pen', '2', '1.5', '3'], ['book', '3', '12', '36'], ['lamp', '1', '30', '30']],
    });
  });

  it('fails the dry run with exit 2 and the one-sentence error', async () => {
    const file = join(FIXTURES, 'formulas-xlsxwriter.xlsx');
    const job = join(dir, 'formulas.yaml');
    await writeFile(job, ['version: 1', 'input:', `  file: ${JSON.stringify(file)}`, ''].join('\n'));
    const r = await runCli(['dry-run', job, '--out', join(dir, 'formulas.csv')], { timeoutMs: 30_000 });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(`sheet "orders", cell D2 holds a formula (=B2*C2) ${placeholder}`);
  });
});

describe('number formats written by XlsxWriter (formats-xlsxwriter.xlsx)', () => {
  const file = join(FIXTURES, 'formats-xlsxwriter.xlsx');

  it('reads a number in an accounting format whose padding (`_x`) or fill (`*x`) is a date letter as the number, and a date format as a date', async () => {
    const { rows } = await readSheet(file, 'formats');
    const values = rows.map((row) => row[1]);
    expect(values).toEqual([...Array<string>(12).fill('1234.5'), ...Array<string>(5).fill('2023-03-15T06:00:00')]);
  });
});

describe('serials in a date format that no date of years 0000-9999 has (formats-xlsxwriter.xlsx)', () => {
  const file = join(FIXTURES, 'formats-xlsxwriter.xlsx');
  const warning = `${file}, sheet "out of range": cell B2 and 2 more have a date format but hold numbers that no date of years 0000-9999 has (B2: 10000000000; Excel shows #####), so they were read as numbers; correct them in the workbook if they are meant as dates.`;

  it('keeps the number the cell holds, never an empty cell or a malformed date, and warns once naming the first cell and the count', async () => {
    const warnings: string[] = [];
    const table = await (await openInput({ file })).open({ sheet: 'out of range', warn: (message) => warnings.push(message) });
    const rows: Row[] = [];
    for await (const batch of table.batches) rows.push(...batch.rows);
    expect(rows).toEqual([
      ['huge', '10000000000'], ['over9999', '3000000'], ['id_like', '20240305'],
      // Excel's last day, and a negative serial, which openpyxl and pandas read as the day before 1899-12-30
      ['last_day', '9999-12-31T12:00:00'], ['pre_1900', '1899-12-29T00:00:00'],
    ]);
    expect(warnings).toEqual([warning]);
  });

  it('says so in the dry run, which exits 0 with the numbers', async () => {
    const job = join(dir, 'out-of-range.yaml');
    await writeFile(job, ['version: 1', 'input:', `  file: ${JSON.stringify(file)}`, 'config:', '  sheet: out of range', 'schema:', '  expectedFields: [label, v]', '  fieldDataTypes: {label: rich_text, v: rich_text}', ''].join('\n'));
    const out = join(dir, 'out-of-range.csv');
    const r = await runCli(['dry-run', job, '--out', out], { timeoutMs: 30_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(warning);
    expect(await readFile(out, 'utf8')).toBe('label,v\nhuge,10000000000\nover9999,3000000\nid_like,20240305\nlast_day,9999-12-31T12:00:00\npre_1900,1899-12-29T00:00:00\n');
  });
});

describe('text that looks like an escape, written by XlsxWriter (strings-xlsxwriter.xlsx)', () => {
  const file = join(FIXTURES, 'strings-xlsxwriter.xlsx');
  const texts = ['_x000D_', '_x005F_x000D_', '_x005F_x005F_x000D_', '_x0041_x0042_', '_x0041_x005F_', 'a_x005F_b', 'line\r\nbreak', 'tab\there', '_x12_ not an escape'];

  it('reads each text as written: an escaped escape is the literal text, never a character', async () => {
    const { rows } = await readSheet(file, 'strings');
    expect(rows.map((row) => row[1])).toEqual(texts);
  });

  it('keeps that text through our Excel output and back (which escapes every underscore opening an escape-like text, as Excel does)', async () => {
    const job = join(dir, 'strings.yaml');
    await writeFile(job, ['version: 1', 'input:', `  file: ${JSON.stringify(file)}`, 'schema:', '  expectedFields: [id, text]', '  fieldDataTypes: {id: number, text: rich_text}', ''].join('\n'));
    const out = join(dir, 'strings-out.xlsx');
    const r = await runCli(['dry-run', job, '--out', out], { timeoutMs: 30_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    const { rows } = await readSheet(out, 'data');
    expect(rows.map((row) => row[1])).toEqual(texts);
  });
});

describe('a hidden sheet, written by openpyxl (hidden-openpyxl.xlsx)', () => {
  const file = join(FIXTURES, 'hidden-openpyxl.xlsx');

  it('lists the hidden sheet as hidden', async () => {
    expect(await (await openInput({ file })).sheets()).toEqual([
      { name: 'Orders', columns: ['id', 'amount'], rowCount: 3 },
      { name: 'Lookup', columns: ['code', 'label'], rowCount: 10, hidden: true },
    ]);
  });

  it('suggests the visible sheet, not the hidden one holding more rows, when nothing else decides', async () => {
    const job = join(dir, 'hidden.yaml');
    await writeFile(job, ['version: 1', 'input:', `  file: ${JSON.stringify(file)}`, ''].join('\n'));
    const out = join(dir, 'hidden.csv');
    const r = await runCli(['dry-run', job, '--out', out], { timeoutMs: 30_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await readFile(out, 'utf8')).toBe('id,amount\n1,10.5\n2,20\n3,7.25\n');
  });
});

describe('a report title above the table, written by openpyxl (title-openpyxl.xlsx)', () => {
  const file = join(FIXTURES, 'title-openpyxl.xlsx');

  it('refuses it saying the first row looks like a title, with or without --lenient (which would cut the table to one column)', async () => {
    const job = join(dir, 'title.yaml');
    await writeFile(job, ['version: 1', 'input:', `  file: ${JSON.stringify(file)}`, ''].join('\n'));
    const message = `${file}, sheet "Sales": row 1 holds one value ("Sales report 2024") and row 3 holds 2, so row 1 looks like a title above the table, not its header (the header is the first non-empty row); delete the rows above the header in the workbook and retry.`;
    for (const extra of [[], ['--lenient']]) {
      const r = await runCli(['dry-run', job, '--out', join(dir, 'title.csv'), ...extra], { timeoutMs: 30_000 });
      expect(r.exitCode).toBe(2);
      expect(r.stderr.trim()).toBe(`error: ${message}`);
    }
  });
});

describe('CSV saved in a legacy encoding (libreoffice-windows-1252.csv, mac-roman-cr.csv; make-encodings.sh)', () => {
  it('refuses LibreOffice\'s Windows-1252 export at the first such byte\'s file:line:col, saying what it is and how to convert it', async () => {
    const file = join(FIXTURES, 'libreoffice-windows-1252.csv');
    const error = await openInput({ file }).then((input) => input.open({})).then(() => undefined, (e: unknown) => e);
    expect((error as Error).message).toBe(`${file}:2:5 holds the byte 0xE9 ("é" in Windows-1252), which is not UTF-8: the file was saved in another encoding; save it as UTF-8 (Excel: "CSV UTF-8"; LibreOffice: character set "Unicode (UTF-8)") or convert it (iconv -f WINDOWS-1252 -t UTF-8 FILE > utf8.csv) and retry.`);
  });

  it('counts lone-CR lines in Excel\'s "CSV (Macintosh)" form and names Mac Roman, in the dry run (exit 2)', async () => {
    const file = join(FIXTURES, 'mac-roman-cr.csv');
    const job = join(dir, 'mac.yaml');
    await writeFile(job, ['version: 1', 'input:', `  file: ${JSON.stringify(file)}`, ''].join('\n'));
    const r = await runCli(['dry-run', job, '--out', join(dir, 'mac.csv')], { timeoutMs: 30_000 });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${file}:2:5 holds the byte 0x8E ("é" in Mac Roman), which is not UTF-8`);
    expect(r.stderr).toContain('(iconv -f MACINTOSH -t UTF-8 FILE > utf8.csv)');
  });
});

describe('JSON written by pandas to_json in each orient (pandas-orient-*.json; make-json.py)', () => {
  it.each([
    ['columns', 'to_json() (orient "columns", its default, or "index")', 'holds an object, not an array of objects'],
    ['index', 'to_json() (orient "columns", its default, or "index")', 'holds an object, not an array of objects'],
    ['split', 'to_json(orient="split")', 'holds an object, not an array of objects'],
    ['table', 'to_json(orient="table")', 'holds an object, not an array of objects'],
    ['values', 'to_json(orient="values")', ': element 0 (0-based) is an array, not an object'],
  ])('refuses orient %s naming the pandas call that wrote it and the orient to write', async (orient, call, what) => {
    const file = join(FIXTURES, `pandas-orient-${orient}.json`);
    const error = await openInput({ file }).then((input) => input.open({})).then(() => undefined, (e: unknown) => e);
    expect((error as Error).message).toBe(`${file}${what.startsWith(':') ? '' : ' '}${what}; it looks like pandas' ${call}; write it with to_json(orient="records") (a JSON array of row objects) and retry.`);
  });

  it('reads orient records as written', async () => {
    const { columns, rows } = await readSheet(join(FIXTURES, 'pandas-orient-records.json'), '');
    expect(columns).toEqual(['id', 'name', 'amount']);
    expect(rows).toEqual([['1', 'Ada', '1.5'], ['2', null, '3.25']]);
  });
});

describe('CSV written by pandas with MultiIndex columns (pandas-multiindex*.csv; make-multiindex.py)', () => {
  const job = async (name: string) => {
    const path = join(dir, `${name}.yaml`);
    await writeFile(path, `version: 1\npipeline: p\ninput:\n  file: ${join(FIXTURES, name)}\nschema:\n  expectedFields: [sales]\n`);
    return path;
  };

  it.each([
    ['pandas-multiindex.csv', '"units" in "sales", "amount" in "sales_2", "day" in "when"'],
    ['pandas-multiindex-noindex.csv', '"units" in "sales", "amount" in "sales_2", "day" in "when"'],
  ])('warns that the second header row of %s is read as data, naming its cells above numbers or dates', async (name, cells) => {
    const result = await runCli(['dry-run', await job(name), '--out', join(dir, `${name}.out.csv`)]);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(`warning: The first row under the header of ${name} looks like a second header row (${cells}: text above numbers or dates); it is read as data. If it is a header (pandas writes two header rows for MultiIndex columns), delete that line or join it into the first, and run again.`);
  });

  it('says nothing of the same frame written with one header row', async () => {
    const result = await runCli(['dry-run', await job('pandas-one-header.csv'), '--out', join(dir, 'one.out.csv')]);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).not.toContain('second header row');
  });
});
