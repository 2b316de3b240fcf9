/**
 * `import dry-run --rejects`: every dropped row and emptied cell, in input-row order, the same on
 * one thread as on two (src/engine/parallel), written atomically, and listed in the -o json report.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/engine/prng.js';
import { spawnSync } from 'node:child_process';
import { ROOT, runCli } from '../support/cli.js';
import { startEmulator } from '../support/emulator.js';
import { findPython, noPythonReason } from '../support/python.js';

const JOB = `version: 1
input:
  file: ./people.csv
config:
  dataTypes: {id: number, amount: number, joined: date_time}
  impute:
    city: {method: dropMissing}
  rowDropping:
    - {method: duplicateValues, fields: [id]}
    - {method: missingValues, fields: [email]}
schema:
  expectedFields: [id, email, amount, joined, city]
  rowDropping:
    - {method: missingValues, fields: [id]}
`;

/** People with repeated and missing ids, missing emails and cities, amounts and dates that do not parse. */
function peopleCsv(rows: number): string {
  const rand = mulberry32(7);
  const lines = ['id,email,amount,joined,city,notes'];
  let id = 0;
  for (let i = 0; i < rows; i++) {
    const r = rand();
    const rowId = r < 0.02 ? String(Math.max(1, id - Math.floor(rand() * 40))) : r < 0.03 ? '' : String(++id);
    const email = rand() < 0.04 ? '' : `p${i}@example.com`;
    const amount = rand() < 0.03 ? 'n/a' : (rand() * 1000).toFixed(2);
    const joined = rand() < 0.01 ? '2024-02-30' : `2024-0${1 + Math.floor(rand() * 9)}-1${Math.floor(rand() * 9)}`;
    const city = rand() < 0.02 ? '' : rand() < 0.5 ? 'Lyon' : '"Paris, FR"';
    lines.push([rowId, email, amount, joined, city, '"a note, with a comma and some padding text here"'].join(','));
  }
  return lines.join('\n') + '\n';
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'import-e2e-rejects-'));
  await writeFile(join(dir, 'job.yaml'), JOB);
});
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

describe('dry-run --rejects', () => {
  it('lists each dropped row and emptied cell with its row, rule, fields, original text and values', async () => {
    await writeFile(join(dir, 'people.csv'), [
      'id,email,amount,joined,city,notes',
      '1,a@x.org,10,2024-01-01,Lyon,',
      '2,,oops,2024-01-02,Lyon,',        // amount emptied, then dropped: no email
      '1,c@x.org,30,2024-01-03,Lyon,',   // duplicate id
      ',d@x.org,40,2024-13-01,Lyon,',    // joined emptied, then dropped: no id (preset)
      '5,e@x.org,50,2024-01-05,,',       // no city: dropMissing
      '6,f@x.org,60,2024-01-06,"Paris, FR",kept',
    ].join('\n') + '\n');
    const r = await runCli(['dry-run', join(dir, 'job.yaml'), '--rejects', join(dir, 'small.rejects.csv'), '--out', join(dir, 'small.csv')]);
    expect(r.stderr).toContain('Wrote 6 rejected rows and emptied cells to');
    expect(r.exitCode).toBe(0);
    expect(await readFile(join(dir, 'small.rejects.csv'), 'utf8')).toBe([
      'row,rule,origin,fields,original,id,email,amount,joined,city',
      '2,number,dataType,amount,oops,2,,,2024-01-02T00:00:00,Lyon',
      '2,missingValues,additional,email,,2,,,2024-01-02T00:00:00,Lyon',
      '3,duplicateValues,additional,id,,1,c@x.org,30,2024-01-03T00:00:00,Lyon',
      '4,date_time,dataType,joined,2024-13-01,,d@x.org,40,,Lyon',
      '4,missingValues,preset,id,,,d@x.org,40,,Lyon',
      '5,dropMissing,impute,city,,5,e@x.org,50,2024-01-05T00:00:00,',
      '',
    ].join('\n'));
  });

  it('puts the same list in the -o json report', async () => {
    const r = await runCli(['dry-run', join(dir, 'job.yaml'), '-o', 'json', '--out', join(dir, 'small.csv')]);
    expect(r.exitCode).toBe(0);
    const { report } = JSON.parse(r.stdout);
    expect(report.rejects).toHaveLength(6);
    expect(report.rejects[0]).toEqual({
      row: 2, rule: 'number', origin: 'dataType', fields: ['amount'], original: 'oops',
      values: { id: 2, email: null, amount: null, joined: '2024-01-02T00:00:00', city: 'Lyon' },
    });
    expect(report.rejects[5]).toMatchObject({ row: 5, rule: 'dropMissing', origin: 'impute', fields: ['city'] });
  });

  it('leaves no rejects file, and no temp file, when the run fails', async () => {
    await writeFile(join(dir, 'people.csv'), 'id,email,amount,joined,city,notes\n1,a@x.org,1,2024-01-01,Lyon,\n2,,x,2024-01-01,Lyon,,extra\n');
    const r = await runCli(['dry-run', join(dir, 'job.yaml'), '--rejects', join(dir, 'failed.rejects.csv'), '--out', join(dir, 'failed.csv')]);
    expect(r.exitCode).toBe(2);
    expect(existsSync(join(dir, 'failed.rejects.csv'))).toBe(false);
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('gives byte-identical rejects on two threads as on one, on a file large enough to split', async () => {
    await writeFile(join(dir, 'people.csv'), peopleCsv(110_000));
    const run = (threads: 'one' | 'two', name: string) => runCli(
      ['dry-run', join(dir, 'job.yaml'), '--rejects', join(dir, name), '--out', join(dir, `${name}.out.csv`)],
      { env: { IMPORT_ENGINE_THREADS: threads === 'one' ? '1' : undefined, IMPORT_ENGINE_TRACE: '1' }, timeoutMs: 120_000 },
    );
    const one = await run('one', 'one.csv');
    const two = await run('two', 'two.csv');
    expect(one.exitCode).toBe(0);
    expect(two.exitCode).toBe(0);
    expect(two.stderr).toContain('engine: 2 threads');
    const [a, b] = await Promise.all([readFile(join(dir, 'one.csv'), 'utf8'), readFile(join(dir, 'two.csv'), 'utf8')]);
    expect(b).toBe(a);
    // Every kind of reject is there, in input-row order, and each names a row the output lacks or a cell it emptied.
    const rows = Papa.parse<string[]>(a.trimEnd()).data.slice(1);
    expect(new Set(rows.map((r) => r[1]))).toEqual(new Set(['number', 'date_time', 'duplicateValues', 'missingValues', 'dropMissing']));
    const numbers = rows.map((r) => Number(r[0]));
    expect(numbers).toEqual([...numbers].sort((x, y) => x - y));
    const dropped = rows.filter((r) => r[2] !== 'dataType').length;
    expect(dropped).toBe(110_000 - Number(/Rows: 110000 in, (\d+) out/.exec(one.stderr)?.[1]));
  });
});

describe('dry-run --rejects: the name, the format and the header', () => {
  const small = [
    'id,email,amount,joined,city,notes',
    '1,a@x.org,10,2024-01-01,Lyon,',
    '2,,20,2024-01-02,Lyon,',
  ].join('\n') + '\n';

  it('writes JSON lines to a .jsonl name, the objects of the -o json report', async () => {
    const sub = await mkdtemp(join(dir, 'jsonl-'));
    await writeFile(join(sub, 'job.yaml'), JOB);
    await writeFile(join(sub, 'people.csv'), small);
    const r = await runCli(['dry-run', join(sub, 'job.yaml'), '-o', 'json', '--rejects', join(sub, 'rejects.jsonl'), '--out', join(sub, 'out.csv')]);
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = (await readFile(join(sub, 'rejects.jsonl'), 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(lines).toEqual(JSON.parse(r.stdout).report.rejects);
    expect(lines).toEqual([{ row: 2, rule: 'missingValues', origin: 'additional', fields: ['email'], original: null, values: { id: 2, email: null, amount: 20, joined: '2024-01-02T00:00:00', city: 'Lyon' } }]);
  });

  it('refuses, before reading anything, a name whose extension is a format rejects are not written in', async () => {
    const sub = await mkdtemp(join(dir, 'refused-'));
    await writeFile(join(sub, 'job.yaml'), JOB);
    await writeFile(join(sub, 'people.csv'), small);
    for (const name of ['rejects.xlsx', 'rejects.json', 'rejects.XLS']) {
      const r = await runCli(['dry-run', join(sub, 'job.yaml'), '--rejects', join(sub, name), '--out', join(sub, 'out.csv')]);
      expect(r.exitCode).toBe(2);
      const ext = name.slice(name.lastIndexOf('.'));
      expect(r.stderr.trim()).toBe(`error: --rejects ${join(sub, name)}: rejected rows are written as CSV (.csv) or JSON lines (.jsonl), not ${ext.toLowerCase()}; change the extension.`);
    }
    expect((await readdir(sub)).sort()).toEqual(['job.yaml', 'people.csv']);
  });

  it('warns, as the output does, when unpaired surrogates become U+FFFD in a CSV rejects file; JSON lines keep them escaped', async () => {
    const sub = await mkdtemp(join(dir, 'surrogates-'));
    // Row 2: the number that fails is "x" and a lone high surrogate, and its note holds a lone low one; row 3 a proper pair.
    await writeFile(join(sub, 'in.json'), '[{"id": "1", "n": "5", "note": "ok"}, {"id": "2", "n": "x\\ud800", "note": "\\udc00"}, {"id": "3", "n": "y\\ud83d\\ude00", "note": "ok"}]');
    await writeFile(join(sub, 'job.yaml'), 'version: 1\ninput:\n  file: ./in.json\nconfig:\n  dataTypes: {n: number}\n');
    const r = await runCli(['dry-run', join(sub, 'job.yaml'), '-o', 'json', '--out', join(sub, 'out.csv'), '--rejects', join(sub, 'rejects.csv')]);
    expect(r.exitCode, r.stderr).toBe(0);
    const warning = 'CSV rejects file: 2 character(s) that UTF-8 cannot hold (unpaired surrogates) were replaced with U+FFFD.';
    expect(r.stderr).toContain(`warning: ${warning}`);
    expect(JSON.parse(r.stdout).report.warnings).toContain(warning);
    expect(await readFile(join(sub, 'rejects.csv'), 'utf8')).toBe('row,rule,origin,fields,original,id,n,note\n2,number,dataType,n,x\ufffd,2,,\ufffd\n3,number,dataType,n,y\u{1f600},3,,ok\n');
    const jsonl = await runCli(['dry-run', join(sub, 'job.yaml'), '--out', join(sub, 'out.csv'), '--rejects', join(sub, 'rejects.jsonl')]);
    expect(jsonl.exitCode, jsonl.stderr).toBe(0);
    expect(jsonl.stderr).not.toContain('rejects file:');
    expect((await readFile(join(sub, 'rejects.jsonl'), 'utf8')).split('\n').map((line) => line && JSON.parse(line).original)).toEqual(['x\ud800', 'y\u{1f600}', '']);
  });

  it('renames an output column named like a fixed rejects column, so readers keyed by name keep both', async (context) => {
    const sub = await mkdtemp(join(dir, 'clash-'));
    await writeFile(join(sub, 'in.csv'), 'row,rule,email,row_2\nA1,keep,a@x.org,r\nA2,keep,,s\n');
    await writeFile(join(sub, 'job.yaml'), 'version: 1\ninput:\n  file: ./in.csv\nconfig:\n  rowDropping:\n    - {method: missingValues, fields: [email]}\n');
    const r = await runCli(['dry-run', join(sub, 'job.yaml'), '--rejects', join(sub, 'rejects.csv')]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await readFile(join(sub, 'rejects.csv'), 'utf8')).toBe('row,rule,origin,fields,original,row_3,rule_2,email,row_2\n2,missingValues,additional,email,,A2,keep,,s\n');
    const python = findPython(['csv', 'json']);
    if (!python) return context.skip(noPythonReason(['csv'], 'python3'));
    const read = spawnSync(python, ['-c', 'import csv, json, sys\nprint(json.dumps(list(csv.DictReader(open(sys.argv[1], newline="")))))', join(sub, 'rejects.csv')], { encoding: 'utf8' });
    expect(JSON.parse(read.stdout)).toEqual([{ row: '2', rule: 'missingValues', origin: 'additional', fields: 'email', original: '', row_3: 'A2', rule_2: 'keep', email: '', row_2: 's' }]);
  });
});

describe('plan on a local input', () => {
  it('shows the first rows the run would reject', async () => {
    const service = await startEmulator({ schema: 'examples/customers/schema.yaml' });
    try {
      const r = await runCli(['plan', join(ROOT, 'examples/customers/job.yaml'), '--yes'], { env: { IMPORT_BASE_URL: service.url, IMPORT_API_KEY: 'test' } });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain('first rejected (all with `import dry-run job.yaml --rejects rejects.csv`):\n'
        + '    row 3: missingValues (additional) on email: id=1003, full_name=Ana García, email=, amount=-12, country=US, created_at=2024-03-07T13:15:00, phone=+15550001111\n');
      expect(r.stdout).toContain('    row 8: "not a number" is not a number in amount (emptied): id=1006,');
      const json = await runCli(['plan', join(ROOT, 'examples/customers/job.yaml'), '--yes', '-o', 'json'], { env: { IMPORT_BASE_URL: service.url, IMPORT_API_KEY: 'test' } });
      expect(JSON.parse(json.stdout).firstRejects.map((x: { row: number; rule: string }) => `${x.row} ${x.rule}`)).toEqual(['3 missingValues', '4 duplicateValues', '6 missingValues', '8 number']);
    } finally {
      await service.stop();
    }
  });
});
