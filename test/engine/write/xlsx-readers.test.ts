/**
 * The Excel writer's files read back by readers we did not write: openpyxl and LibreOffice (Debian
 * packages python3-openpyxl and libreoffice-calc-nogui; each test skips with a printed reason when
 * its package is absent), and exceljs and our own XLSX reader (always). Every cell must come back
 * with the right type (number, date, text, empty) and value.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataType } from '../../../src/contract/index.js';
import { openInput } from '../../../src/engine/read/index.js';
import type { Row } from '../../../src/engine/types.js';
import { writeTable } from '../../../src/engine/write/index.js';
import { makeTable } from '../../support/rows.js';

const run = promisify(execFile);

/** A cell as every reader should see it: its type and value (dates as ISO text without zone). */
type Cell = null | { n: number } | { d: string } | { s: string };

const columns = ['id', 'amount', 'when', 'country', 'note', 'other'];
const types: (DataType | undefined)[] = ['number', 'number', 'date_time', 'category', 'rich_text', undefined];
/** Hand-picked rows: XML specials, whitespace at the edges, non-ASCII, number and date edges. */
const special: Row[] = [
  [1, 1234.5, '2024-03-05T14:22:10', 'US', 'first & <b>"q"</b>', ' lead and trail '],
  [2, null, null, null, null, null],
  [3, -7.25, '1900-03-01T00:00:00', 'de', '00123', 'é€😀 ü 中文'],
  [4, 1e21, '9999-12-31T23:59:59', 'x', 'line\nbreak', 'tab\there'],
  [5, 0.1, '2024-02-29T00:00:01', "it's", '=1+1', '1e3'],
  [6, -0, '1970-01-01T00:00:00', 'TRUE', '   ', '-0'],
  [7, '42', 'not a date', 'a', 'b', 'c'],
  [8, 123456789012345, '2000-01-01T12:00:00', 'z', 'y', 'x'],
];
/** Generated rows past one batch, so batches join correctly. */
const generated: Row[] = Array.from({ length: 3000 }, (_, i) => [
  100 + i, i % 7 === 0 ? null : Math.round(i * 1.37 * 100) / 100,
  `2024-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}T${String(i % 24).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:${String((i * 7) % 60).padStart(2, '0')}`,
  ['US', 'DE', 'FR'][i % 3], `note ${i}, with "quotes" & more`, i % 5 === 0 ? null : `v${i}`,
]);
const rows = [...special, ...generated];

/** What each cell must read back as. */
function expected(): Cell[][] {
  const header: Cell[] = columns.map((s) => ({ s }));
  return [header, ...rows.map((row) => row.map((v, k): Cell => {
    if (v === null) return null;
    if (typeof v === 'number') return types[k] === 'number' ? { n: v === 0 ? 0 : v } : { s: String(v) };
    if (types[k] === 'number' && /^-?\d+(\.\d+)?$/.test(v)) return { n: Number(v) };
    if (types[k] === 'date_time' && /^\d{4}-/.test(v)) return { d: v };
    if (v.trim() === '') return null;
    return { s: v };
  }))];
}

let dir: string;
let path: string;
const warnings: string[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'import-xlsx-readers-'));
  path = join(dir, 'out.xlsx');
  const result = await writeTable(makeTable(columns, rows, { types, batchSize: 1000 }), path, 'excel', (m) => warnings.push(m));
  expect(result).toEqual({ rows: rows.length });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The first command of `candidates` that runs `args` successfully, or undefined. */
async function firstWorking(candidates: string[], args: string[]): Promise<string | undefined> {
  for (const command of candidates) {
    try {
      await run(command, args, { timeout: 30_000 });
      return command;
    } catch {
      // not this one
    }
  }
  return undefined;
}

/** Python with openpyxl: Debian's python first (a pyenv or venv python on PATH may lack it). */
const python = await firstWorking(['/usr/bin/python3', 'python3'], ['-c', 'import openpyxl']);
const soffice = await firstWorking(['soffice', 'libreoffice'], ['--version']);

describe('XLSX writer, read back by other readers', () => {
  it('gives no warnings for data XML can hold', () => {
    expect(warnings).toEqual([]);
  });

  it.skipIf(!python)('reads back in openpyxl with every type and value', async () => {
    const script = `
import json, sys, datetime, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
ws = wb['data']
def cell(c):
    v = c.value
    if v is None: return None
    if isinstance(v, datetime.datetime):
        assert c.number_format == 'yyyy-mm-dd hh:mm:ss', c.number_format
        return {'d': v.isoformat()}
    if isinstance(v, bool): return {'b': v}
    if isinstance(v, (int, float)): return {'n': v}
    return {'s': v}
print(json.dumps({'sheets': wb.sheetnames, 'dimension': ws.dimensions,
  'rows': [[cell(c) for c in row] for row in ws.iter_rows()]}))
`;
    const { stdout } = await run(python!, ['-c', script, path], { maxBuffer: 64 << 20, timeout: 60_000 });
    const got = JSON.parse(stdout) as { sheets: string[]; dimension: string; rows: Cell[][] };
    expect(got.sheets).toEqual(['data']);
    expect(got.dimension).toBe(`A1:F${rows.length + 1}`);
    expect(got.rows).toEqual(expected());
  }, 90_000);

  it.skipIf(!soffice)('reads back in LibreOffice with every type and value', async () => {
    const out = join(dir, 'lo');
    // A profile of its own, so a LibreOffice another process runs does not take the conversion.
    await run(soffice!, [`-env:UserInstallation=file://${join(dir, 'lo-profile')}`, '--headless', '--convert-to', 'fods', '--outdir', out, path], { timeout: 120_000 });
    const fods = await readFile(join(out, (await readdir(out)).find((f) => f.endsWith('.fods'))!), 'utf8');
    expect(fods).toContain('table:name="data"');
    expect(fodsCells(fods)).toEqual(expected());
  }, 150_000);

  it('reads back in exceljs with every type and value', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path);
    expect(wb.worksheets.map((s) => s.name)).toEqual(['data']);
    const got: Cell[][] = [];
    wb.getWorksheet('data')!.eachRow({ includeEmpty: true }, (row) => {
      got.push(columns.map((_, k) => {
        const cell = row.getCell(k + 1);
        const v = cell.value;
        if (v === null || v === undefined) return null;
        if (v instanceof Date) {
          expect(cell.numFmt).toBe('yyyy-mm-dd hh:mm:ss');
          return { d: new Date(Math.round(v.getTime() / 1000) * 1000).toISOString().slice(0, 19) };
        }
        if (typeof v === 'number') return { n: v };
        return { s: v as string };
      }));
    });
    expect(got).toEqual(expected());
  });

  it('round-trips through our XLSX reader as the text the CSV writer would write', async () => {
    const read = await (await openInput({ file: path })).open({ sheet: 'data' });
    const back: Row[] = [];
    for await (const batch of read.batches) back.push(...batch.rows);
    expect(read.columns).toEqual(columns);
    const text = expected().slice(1).map((row) => row.map((c) => (c === null ? null : 'n' in c ? String(c.n) : 'd' in c ? c.d : c.s)));
    expect(back).toEqual(text);
  });
});

/** The cells of the first sheet of a flat ODS document (LibreOffice's view of the workbook). */
function fodsCells(fods: string): Cell[][] {
  const table = fods.slice(fods.indexOf('<table:table '), fods.indexOf('</table:table>'));
  const rowsOut: Cell[][] = [];
  for (const rowMatch of table.matchAll(/<table:table-row[^>]*>([\s\S]*?)<\/table:table-row>/g)) {
    const cells: Cell[] = [];
    for (const m of rowMatch[1].matchAll(/<table:table-cell([^>]*?)(?:\/>|>([\s\S]*?)<\/table:table-cell>)/g)) {
      const attrs = m[1];
      const attr = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(attrs)?.[1];
      const repeat = Math.min(Number(attr('table:number-columns-repeated') ?? 1), columns.length);
      const kind = attr('office:value-type');
      let cell: Cell = null;
      if (kind === 'float') cell = { n: Number(attr('office:value')) };
      else if (kind === 'date') cell = { d: attr('office:date-value')!.padEnd(19, 'T00:00:00') };
      else if (kind === 'string') cell = { s: odfText(m[2] ?? '') };
      else if (kind) cell = { s: `unexpected type ${kind}` };
      for (let r = 0; r < repeat; r++) cells.push(cell);
    }
    rowsOut.push(cells.slice(0, columns.length));
  }
  while (rowsOut.length && rowsOut.at(-1)!.every((c) => c === null)) rowsOut.pop();
  return rowsOut;
}

/** The text of an ODF cell: paragraphs joined by line breaks, `<text:s/>` spaces and `<text:tab/>` tabs expanded, entities decoded. */
function odfText(xml: string): string {
  const paragraphs = [...xml.matchAll(/<text:p>([\s\S]*?)<\/text:p>|<text:p\/>/g)].map((m) => m[1] ?? '');
  return paragraphs.map((p) => p
    .replace(/<text:s text:c="(\d+)"\/>/g, (_, n: string) => ' '.repeat(Number(n)))
    .replace(/<text:s\/>/g, ' ')
    .replace(/<text:tab\/>/g, '\t')
    .replace(/<text:line-break\/>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&')).join('\n');
}

describe('XLSX writer, headers read back by other readers', () => {
  /** The rows openpyxl reads from a workbook's `data` sheet (values as Python gives them, through JSON). */
  async function openpyxlRows(file: string): Promise<unknown[][]> {
    const script = 'import json, sys, openpyxl\nws = openpyxl.load_workbook(sys.argv[1], read_only=True)["data"]\nprint(json.dumps([list(r) for r in ws.iter_rows(values_only=True)]))';
    const { stdout } = await run(python!, ['-c', script, file], { maxBuffer: 256 << 20, timeout: 120_000 });
    return JSON.parse(stdout);
  }

  it('writes a column name of only whitespace into its header cell as it is', async (context) => {
    const names = ['id', ' ', '\t', '\u3000', ' x '];
    const file = join(dir, 'blank-names.xlsx');
    await writeTable(makeTable(names, [[1, 'a', 'b', 'c', 'd']], { types: ['number', undefined, undefined, undefined, undefined] }), file, 'excel');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    expect((wb.getWorksheet('data')!.getRow(1).values as unknown[]).slice(1)).toEqual(names);
    if (!python) return context.skip('skipped: no python3 with openpyxl (install the Debian package python3-openpyxl)');
    expect(await openpyxlRows(file)).toEqual([names, [1, 'a', 'b', 'c', 'd']]);
  });

  it('writes the widest sheet Excel holds, 16,384 columns, whose head passes a stored block\'s 64 KiB', async (context) => {
    const names = Array.from({ length: 16_384 }, (_, i) => `c${i}`);
    const file = join(dir, 'wide.xlsx');
    const warned: string[] = [];
    const result = await writeTable(makeTable(names, [names.map((_, i) => i), names.map((_, i) => `v${i}`)], { types: names.map(() => 'number' as const) }), file, 'excel', (m) => warned.push(m));
    expect(result).toEqual({ rows: 2 });
    expect(warned).toEqual([]);
    // Our reader (always), then openpyxl.
    const read = await (await openInput({ file })).open();
    expect(read.columns).toEqual(names);
    const back: Row[] = [];
    for await (const batch of read.batches) back.push(...batch.rows);
    expect(back).toEqual([names.map((_, i) => String(i)), names.map((_, i) => `v${i}`)]);
    if (!python) return context.skip('skipped: no python3 with openpyxl (install the Debian package python3-openpyxl)');
    const rows = await openpyxlRows(file);
    expect(rows).toEqual([names, names.map((_, i) => i), names.map((_, i) => `v${i}`)]);
  }, 120_000);
});
