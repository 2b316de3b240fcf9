/**
 * Differential probe of the JSON rows reader against Python's json module: seeded files written by
 * json.dumps in several styles (test/fixtures/json-probe/generate.py says which hard cases), each
 * read by the engine and compared cell by cell with the table the README's and engine.md's rules
 * give (checked by the generator against json.loads); some also through the real CLI, as a dry
 * run's `input.rowsFile` and as rows sent to `import serve`. Run `npm run build` first.
 */
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import type { Row } from '../../../src/engine/types.js';
import { ROOT, runCli } from '../../support/cli.js';
import { startEmulator, type Emulator } from '../../support/emulator.js';
import { findPython, noPythonReason } from '../../support/python.js';
import { firstDifference, readTable, useProbe } from '../../support/probe.js';

const GENERATOR = join(ROOT, 'test', 'fixtures', 'json-probe', 'generate.py');
const SEED = 5301;
const COUNT = 120;

/** One generated file: the table the rules give, or where the rules refuse it (`line:col`). */
interface ProbeFile {
  file: string;
  case: string;
  refused: string | null;
  columns: string[] | null;
  rows: Row[] | null;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A lone surrogate as the CSV output writes it (U+FFFD, README "Output"). */
const wellFormed = (cell: string | null) => (cell === null ? '' : cell.replace(/\p{Surrogate}/gu, '\ufffd'));

const python = findPython(['json', 'csv']);
const made = useProbe<ProbeFile>(python, GENERATOR, 'json', SEED, COUNT);

/** A job file giving every column the text type, so cells reach the output as read. */
function textJob(input: string, columns: string[], pipeline = ''): string {
  const types = columns.map((column) => `    ${JSON.stringify(column)}: rich_text\n`).join('');
  return `version: 1\n${pipeline}input: {${input}}\nconfig:\n  dataTypes:\n${types}`;
}

/** The output CSV as Python's csv module reads it. */
function readCsv(path: string): string[][] {
  const back = spawnSync(python!, ['-c', 'import csv, json, sys; print(json.dumps(list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8")))))', path], { encoding: 'utf8', maxBuffer: 1 << 28 });
  expect(back.status, back.stderr).toBe(0);
  return JSON.parse(back.stdout) as string[][];
}

/** Files the CLI checks take: the fixed cases and the first random ones whose column names a job file can hold. */
function cliFiles(count: number): ProbeFile[] {
  const plain = (entry: ProbeFile) => entry.refused === null && entry.columns!.every((c) => c.trim() !== '' && !/[\p{Surrogate}\0\t]/u.test(c));
  const fixed = made.manifest.filter((entry) => entry.case.startsWith('every number') || entry.case.startsWith('integer-like'));
  const random = made.manifest.filter((entry) => entry.case.startsWith('rows') && plain(entry));
  // A file with a byte-order mark among them, then the first others.
  const bom = random.find((entry) => entry.case.endsWith('BOM'))!;
  return [...fixed, bom, ...random.filter((entry) => entry !== bom).slice(0, count - 1)];
}

describe('the JSON rows reader against Python\'s json module', () => {
  it('reads every file json.dumps wrote as the rules say, cell by cell, and refuses a repeated key or too deep nesting at its line:col', async (context) => {
    if (!python) return context.skip(noPythonReason(['json', 'csv'], 'python3'));
    expect(made.manifest.length).toBeGreaterThan(COUNT);
    const problems: string[] = [];
    let read = 0;
    let refused = 0;
    for (const entry of made.manifest) {
      const path = join(made.dir, entry.file);
      const got = await readTable(path);
      if ('refused' in got) {
        const error = got.refused;
        if (entry.refused === null) problems.push(`${entry.file} (${entry.case}): refused though the rules read it: ${String(error)}`);
        else if (!(error instanceof UsageError) || !new RegExp(`^${escapeRegExp(`${path}:${entry.refused}`)}[: ]`).test(error.message)) problems.push(`${entry.file} (${entry.case}): not refused at ${entry.refused}: ${String(error)}`);
        else refused++;
        continue;
      }
      if (entry.refused !== null) {
        problems.push(`${entry.file} (${entry.case}): read though the rules refuse it at ${entry.refused}`);
        continue;
      }
      const difference = firstDifference(got, { columns: entry.columns!, rows: entry.rows! });
      if (difference) problems.push(`${entry.file} (${entry.case}): ${difference}`);
      else read++;
    }
    expect(problems).toEqual([]);
    // The seed gives files of every kind: most read, and refusals of each sort (repeated keys,
    // nesting past the limit, lone surrogates stored as bytes that are not UTF-8).
    expect(read).toBeGreaterThan(80);
    expect(made.manifest.filter((entry) => entry.case.includes('lone surrogate')).length).toBeGreaterThan(0);
    expect(refused).toBe(made.manifest.length - read);
  });

  it('dry-runs files as input.rowsFile with every column as text: the run webhook\'s dataTable holds the same cells', async (context) => {
    if (!python) return context.skip(noPythonReason(['json', 'csv'], 'python3'));
    const chosen = cliFiles(6);
    expect(chosen.length).toBe(8);
    for (const entry of chosen) {
      const job = join(made.dir, `${entry.file}.yaml`);
      await writeFile(job, textJob(`rowsFile: ${JSON.stringify(entry.file)}`, entry.columns!));
      const r = await runCli(['dry-run', job, '--out', join(made.dir, `${entry.file}.out.csv`), '-o', 'json'], { timeoutMs: 30_000 });
      expect(r.exitCode, `${entry.file} (${entry.case}): ${r.stderr}`).toBe(0);
      const table = JSON.parse(r.stdout).runWebhook.dataTable as Row[];
      expect(table, `${entry.file} (${entry.case})`).toEqual([entry.columns, ...entry.rows!]);
    }
  }, 60_000);

  describe('through import serve', () => {
    let service: Emulator;
    beforeAll(async () => {
      if (python) service = await startEmulator();
    });
    afterAll(async () => {
      await service?.stop();
    });

    it('runs files sent as input.rowsFile (jsonData) with every column as text: the output CSV holds the same cells', async (context) => {
      if (!python) return context.skip(noPythonReason(['json', 'csv'], 'python3'));
      for (const entry of cliFiles(2)) {
        const job = join(made.dir, `${entry.file}.serve.yaml`);
        await writeFile(job, textJob(`rowsFile: ${JSON.stringify(entry.file)}`, entry.columns!, 'pipeline: p\n'));
        const r = await runCli(['run', job, '--yes', '-o', 'json'], { env: { IMPORT_BASE_URL: service.url, IMPORT_API_KEY: 'k' }, timeoutMs: 30_000 });
        expect(r.exitCode, `${entry.file} (${entry.case}): ${r.stderr}`).toBe(0);
        const want = [entry.columns!, ...entry.rows!.map((row) => row.map((cell) => wellFormed(cell as string | null)))];
        expect(readCsv(JSON.parse(r.stdout).output.path as string), `${entry.file} (${entry.case})`).toEqual(want);
      }
    }, 60_000);
  });
});
