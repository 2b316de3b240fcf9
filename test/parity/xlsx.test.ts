/**
 * The XLSX reader against pandas: openpyxl writes random workbooks (numbers of every size, text
 * with markup, quotes, line breaks and non-ASCII letters, dates, date-times, booleans, empty cells)
 * and pandas' read_excel reads them; the engine must read the same values, cell by cell.
 * Skipped, saying why, without python3-openpyxl and python3-pandas.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInput } from '../../src/engine/read/index.js';
import type { Row } from '../../src/engine/types.js';
import { ROOT } from '../support/cli.js';
import { findPython, noPythonReason } from '../support/python.js';

const python = findPython(['openpyxl', 'pandas']);
if (!python) console.warn(`XLSX parity tests ${noPythonReason(['openpyxl', 'pandas'], 'python3-openpyxl python3-pandas')}`);

let dir: string;
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'import-xlsx-parity-')); });
afterAll(async () => { if (dir) await rm(dir, { recursive: true, force: true }); });

describe.skipIf(!python)('XLSX reading against pandas', () => {
  it.each([1, 2, 3])('reads a random openpyxl workbook as pandas does (seed %i)', async (seed) => {
    const book = join(dir, `random-${seed}.xlsx`);
    const expectedPath = join(dir, `random-${seed}.json`);
    const made = spawnSync(python!, [join(ROOT, 'test', 'parity', 'xlsx_reference.py'), book, expectedPath, String(seed)], { encoding: 'utf8', timeout: 120_000 });
    expect(made.status, made.stderr).toBe(0);
    const expected = JSON.parse(await readFile(expectedPath, 'utf8')) as { columns: string[]; rows: Row[] };
    const source = await openInput({ file: book });
    expect((await source.sheets())?.map((s) => s.name)).toEqual(['cover', 'random data']);
    const table = await source.open({ sheet: 'random data' });
    const rows: Row[] = [];
    for await (const batch of table.batches) rows.push(...batch.rows);
    expect(table.columns).toEqual(expected.columns);
    expect(rows.length).toBe(expected.rows.length);
    const differences: string[] = [];
    rows.forEach((row, r) => row.forEach((cell, c) => {
      if (cell !== expected.rows[r][c] && differences.length < 10) {
        differences.push(`row ${r + 1}, ${expected.columns[c]}: ours ${JSON.stringify(cell)}, pandas ${JSON.stringify(expected.rows[r][c])}`);
      }
    }));
    expect(differences).toEqual([]);
  }, 120_000);
});
