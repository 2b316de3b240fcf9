/**
 * Differential probe of the XLSX reader against openpyxl: 100 seeded workbooks written by XlsxWriter
 * and openpyxl at test time, and three of them saved again by LibreOffice (committed: starting soffice
 * takes seconds; test/fixtures/xlsx-probe/make-libreoffice.sh makes them), each
 * listed and read by the engine and compared cell by cell with openpyxl's reading mapped to our
 * conventions (test/fixtures/xlsx-probe/generate.py says which hard cases and which mapping); some
 * also through the real CLI's dry run. Run `npm run build` first.
 */
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { openInput } from '../../../src/engine/read/index.js';
import type { Row } from '../../../src/engine/types.js';
import { ROOT, runCli } from '../../support/cli.js';
import { findPython, noPythonReason } from '../../support/python.js';
import { firstDifference, readManifest, readTable, useProbe } from '../../support/probe.js';

const GENERATOR = join(ROOT, 'test', 'fixtures', 'xlsx-probe', 'generate.py');
const LIBREOFFICE = join(ROOT, 'test', 'fixtures', 'xlsx-probe', 'libreoffice');
const SEED = 4181;
const COUNT = 100;

/** One generated workbook: its sheets as openpyxl lists them, and openpyxl's table of the sheet to read. */
interface ProbeBook {
  /** The workbook's path (the manifest's file in its folder). */
  path: string;
  file: string;
  writer: string;
  case: string;
  sheets: { name: string; hidden: boolean }[];
  sheet: string;
  refuse: boolean;
  wider: boolean;
  empty: boolean;
  columns: string[];
  rows: Row[];
}

const python = findPython(['openpyxl', 'xlsxwriter']);
const made = useProbe<ProbeBook>(python, GENERATOR, 'xlsx', SEED, COUNT, { pythonArgs: ['-W', 'ignore'], timeoutMs: 120_000, hookTimeoutMs: 150_000 });
/** The generated workbooks, then the three LibreOffice saved, each with its path. */
let probe: ProbeBook[] = [];

beforeAll(async () => {
  if (!python) return;
  const located = (folder: string, books: ProbeBook[]) => books.map((book) => ({ ...book, path: join(folder, book.file) }));
  probe = [...located(made.dir, made.manifest), ...located(LIBREOFFICE, await readManifest<ProbeBook>(LIBREOFFICE))];
});

describe('the XLSX reader against openpyxl', () => {
  it('lists every sheet under its name, hidden as the workbook says, with the header and row count of the sheet read', async (context) => {
    if (!python) return context.skip(noPythonReason(['openpyxl', 'xlsxwriter'], 'python3-openpyxl python3-xlsxwriter'));
    expect(probe.length).toBe(COUNT + 3);
    const problems: string[] = [];
    for (const book of probe) {
      const sheets = (await (await openInput({ file: book.path })).sheets()) ?? [];
      const listed = sheets.map((s) => ({ name: s.name, hidden: s.hidden === true }));
      if (JSON.stringify(listed) !== JSON.stringify(book.sheets)) problems.push(`${book.file} (${book.case}): sheets ${JSON.stringify(listed)} != ${JSON.stringify(book.sheets)}`);
      if (book.empty || book.wider || book.refuse) continue;
      const sheet = sheets.find((s) => s.name === book.sheet);
      if (JSON.stringify(sheet?.columns) !== JSON.stringify(book.columns) || sheet?.rowCount !== book.rows.length) {
        problems.push(`${book.file} (${book.case}): sheet "${book.sheet}" listed with ${sheet?.columns.length} columns and ${sheet?.rowCount} rows, openpyxl reads ${book.columns.length} and ${book.rows.length}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('reads every sheet cell by cell as openpyxl does, or refuses in a sentence one whose formula results were not saved or with a value right of its header', async (context) => {
    if (!python) return context.skip(noPythonReason(['openpyxl', 'xlsxwriter'], 'python3-openpyxl python3-xlsxwriter'));
    const problems: string[] = [];
    let same = 0;
    let refused = 0;
    for (const book of probe) {
      const path = book.path;
      const got = await readTable(path, book.sheet);
      const mustRefuse = book.refuse || book.wider || book.empty;
      if ('refused' in got) {
        const error = got.refused;
        if (!(error instanceof UsageError) || !error.message.startsWith(path) || error.message.includes('\n')) problems.push(`${book.file} (${book.case}): refused without a one-line UsageError naming the file: ${String(error)}`);
        else if (!mustRefuse) problems.push(`${book.file} (${book.case}): refused though openpyxl reads it: ${error.message}`);
        else refused++;
        continue;
      }
      if (mustRefuse) {
        problems.push(`${book.file} (${book.case}): read, though ${book.refuse ? 'a formula result is a placeholder' : book.wider ? 'a value lies right of the header' : 'the sheet is empty'}`);
        continue;
      }
      const difference = firstDifference(got, book);
      if (difference) problems.push(`${book.file} (${book.case}): ${difference}`);
      else same++;
    }
    expect(problems).toEqual([]);
    // The seed gives 81 workbooks read alike (and LibreOffice's 3 copies) and 19 refused: for
    // XlsxWriter's formula placeholders (0, or an empty <v> for an empty text result), or wider rows.
    expect(same).toBeGreaterThanOrEqual(84);
    expect(refused).toBeGreaterThan(15);
  });

  it('dry-runs workbooks through the CLI with every column as text, its output read back by Python\'s csv module cell by cell as openpyxl reads them', async (context) => {
    if (!python) return context.skip(noPythonReason(['openpyxl', 'xlsxwriter'], 'python3-openpyxl python3-xlsxwriter'));
    // The long sheets (past a batch of rows) and the first others of distinct writers.
    const readable = probe.filter((book) => !book.refuse && !book.wider && !book.empty && book.rows.length > 0);
    const chosen = [...readable.filter((book) => book.rows.length > 1000), ...readable.filter((book) => book.rows.length <= 1000).slice(0, 3)];
    expect(chosen.length).toBe(5);
    for (const book of chosen) {
      const job = join(made.dir, `${book.file}.yaml`);
      const types = book.columns.map((column) => `    ${JSON.stringify(column)}: rich_text\n`).join('');
      await writeFile(job, `version: 1\npipeline: p\ninput: {file: ${JSON.stringify(book.path)}}\nconfig:\n  sheet: ${JSON.stringify(book.sheet)}\n  dataTypes:\n${types}`);
      const out = join(made.dir, `${book.file}.out.csv`);
      const r = await runCli(['dry-run', job, '--out', out], { timeoutMs: 30_000 });
      expect(r.exitCode, `${book.file} (${book.case}): ${r.stderr}`).toBe(0);
      const back = spawnSync(python!, ['-c', 'import csv, json, sys; print(json.dumps(list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8")))))', out], { encoding: 'utf8', maxBuffer: 1 << 28 });
      expect(back.status, back.stderr).toBe(0);
      // The output writes a missing value as an empty field (engine.md).
      const want = [book.columns, ...book.rows.map((row) => row.map((cell) => cell ?? ''))];
      expect(JSON.parse(back.stdout), `${book.file} (${book.case})`).toEqual(want);
    }
  }, 120_000);
});
