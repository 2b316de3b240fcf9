/**
 * Differential probe of the CSV reader against Python's csv module: 200 seeded files written by
 * Python's csv.writer (test/fixtures/csv-probe/generate.py says which hard cases), each read by the
 * engine and compared cell by cell with what was written and with the csv module's reading; some
 * also through the real CLI's dry run, its output read back by the csv module. Run `npm run build` first.
 */
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import type { Row } from '../../../src/engine/types.js';
import { ROOT, runCli } from '../../support/cli.js';
import { findPython, noPythonReason } from '../../support/python.js';
import { firstDifference, readTable, useProbe } from '../../support/probe.js';

const GENERATOR = join(ROOT, 'test', 'fixtures', 'csv-probe', 'generate.py');
const SEED = 4180;
const COUNT = 200;

/** One generated file: the table as written, and (for an ambiguous file) the csv module's reading. */
interface ProbeFile {
  file: string;
  case: string;
  ambiguous: boolean;
  columns: string[];
  rows: Row[];
  reference: { columns: string[]; rows: Row[] } | null;
}

const python = findPython(['csv']);
const made = useProbe<ProbeFile>(python, GENERATOR, 'csv', SEED, COUNT);

describe('the CSV reader against Python\'s csv module', () => {
  it('reads every file csv.writer wrote as written, cell by cell, and an ambiguous one as the csv module does or refuses it in a sentence', async (context) => {
    if (!python) return context.skip(noPythonReason(['csv'], 'python3'));
    expect(made.manifest).toHaveLength(COUNT);
    const problems: string[] = [];
    let asWritten = 0;
    let refused = 0;
    for (const entry of made.manifest) {
      const path = join(made.dir, entry.file);
      const got = await readTable(path);
      if ('refused' in got) {
        const error = got.refused;
        // A refusal is one sentence naming the file's line, and only for a file readers disagree on.
        if (!(error instanceof UsageError) || !error.message.startsWith(`${path}:`)) problems.push(`${entry.file} (${entry.case}): refused without a UsageError naming its line: ${String(error)}`);
        else if (!entry.ambiguous) problems.push(`${entry.file} (${entry.case}): refused though the csv module reads it as written: ${error.message}`);
        else refused++;
        continue;
      }
      const want = entry.ambiguous ? entry.reference! : { columns: entry.columns, rows: entry.rows };
      const difference = firstDifference(got, want);
      if (difference) problems.push(`${entry.file} (${entry.case}${entry.ambiguous ? ', ambiguous: compared with the csv module' : ''}): ${difference}`);
      else if (!entry.ambiguous) asWritten++;
    }
    expect(problems).toEqual([]);
    // The seed gives 166 files the csv module reads back as written; the rest readers disagree on.
    expect(asWritten).toBeGreaterThan(150);
    expect(refused).toBeGreaterThan(0);
  });

  it('dry-runs files through the CLI with every column as text, its output read back by the csv module cell by cell as written', async (context) => {
    if (!python) return context.skip(noPythonReason(['csv'], 'python3'));
    // The large files (past the read chunk) and the first others; every one passes (the rest cost time).
    const readable = made.manifest.filter((entry) => !entry.ambiguous && entry.rows.length > 0);
    const chosen = [...readable.filter((entry) => entry.rows.length > 100), ...readable.filter((entry) => entry.rows.length <= 100).slice(0, 10)];
    expect(chosen.length).toBeGreaterThan(12);
    for (const entry of chosen) {
      const job = join(made.dir, `${entry.file}.yaml`);
      const types = entry.columns.map((column) => `    ${JSON.stringify(column)}: rich_text\n`).join('');
      await writeFile(job, `version: 1\npipeline: p\ninput: {file: ${JSON.stringify(entry.file)}}\nconfig:\n  dataTypes:\n${types}`);
      const out = join(made.dir, `${entry.file}.out.csv`);
      const r = await runCli(['dry-run', job, '--out', out], { timeoutMs: 30_000 });
      expect(r.exitCode, `${entry.file} (${entry.case}): ${r.stderr}`).toBe(0);
      const back = spawnSync(python, ['-c', 'import csv, json, sys; print(json.dumps(list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8")))))', out], { encoding: 'utf8', maxBuffer: 1 << 28 });
      expect(back.status, back.stderr).toBe(0);
      // The output writes a missing value as an empty field (engine.md).
      const want = [entry.columns, ...entry.rows.map((row) => row.map((cell) => cell ?? ''))];
      expect(JSON.parse(back.stdout), `${entry.file} (${entry.case})`).toEqual(want);
    }
  }, 120_000);
});
