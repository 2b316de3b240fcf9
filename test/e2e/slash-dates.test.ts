/**
 * Slash dates are decided over the whole column (engine.md step 5) through the real CLI: a day-first
 * value far past the rows held back, and past the parallel path's sample, still makes every value
 * read day-first, on one thread (by re-reading the input) and on the default path alike.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

let dir: string;
const ROWS = 150_000;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'import-e2e-slash-'));
  const lines = ['id,when,note'];
  const pad = 'x'.repeat(50);
  for (let i = 0; i < ROWS; i++) {
    // Ambiguous values (both parts <= 12) everywhere; one month-first-only value early, one day-first-only value last.
    const when = i === 5 ? '12/25/2024' : i === ROWS - 1 ? '25/12/2024' : `${String(1 + (i % 12)).padStart(2, '0')}/0${1 + (i % 9)}/2024`;
    lines.push(`${i},${when},${pad}`);
  }
  await writeFile(join(dir, 'dates.csv'), lines.join('\n') + '\n');
  // Every value reads either way; the same with one month-first-only value as the last row.
  const ambiguous = lines.map((line, i) => (i === 6 ? line.replace('12/25/2024', '01/02/2024') : i === ROWS ? line.replace('25/12/2024', '03/04/2024') : line));
  await writeFile(join(dir, 'ambiguous.csv'), ambiguous.join('\n') + '\n');
  ambiguous[ROWS] = ambiguous[ROWS].replace('03/04/2024', '12/25/2024');
  await writeFile(join(dir, 'proved-late.csv'), ambiguous.join('\n') + '\n');
  // Day-first proved at once (inside the two-thread path's sample); a month-first-only value deep in its second part.
  const contradicted = ambiguous.map((line, i) => (i === 4 ? line.replace(/,[^,]*,/, ',25/12/2024,')
    : i === ROWS - 9_999 ? line.replace(/,[^,]*,/, ',12/25/2024,') : i === ROWS ? line.replace('12/25/2024', '03/04/2024') : line));
  await writeFile(join(dir, 'contradicted.csv'), contradicted.join('\n') + '\n');
  await writeFile(join(dir, 'job.yaml'), [
    'version: 1',
    'input:',
    '  file: ./dates.csv',
    'schema:',
    '  expectedFields: [id, when]',
    '  fieldDataTypes: {id: number, when: date_time}',
    '',
  ].join('\n'));
});
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

describe('slash dates over a whole column', () => {
  for (const threads of ['1', undefined]) {
    it(`reads the column day-first when its last value proves it (${threads ? 'one thread' : 'default path'})`, async () => {
      const out = join(dir, `out-${threads ?? 'default'}.csv`);
      const r = await runCli(['dry-run', join(dir, 'job.yaml'), '-o', 'json', '--out', out], {
        env: { IMPORT_ENGINE_THREADS: threads, IMPORT_ENGINE_TRACE: '1' }, timeoutMs: 90_000,
      });
      expect(r.exitCode, r.stderr).toBe(0);
      const lines = (await readFile(out, 'utf8')).split('\n');
      expect(lines[0]).toBe('id,when');
      expect(lines[1]).toBe('0,2024-01-01T00:00:00'); // 01/01 either way
      expect(lines[2]).toBe('1,2024-02-02T00:00:00');
      expect(lines[3]).toBe('2,2024-03-03T00:00:00');
      expect(lines[4]).toBe('3,2024-04-04T00:00:00');
      expect(lines[6]).toBe('5,'); // 12/25/2024 has no day-first reading
      expect(lines[11]).toBe('10,2024-02-11T00:00:00'); // 11/02/2024 read day-first
      expect(lines[ROWS]).toBe(`${ROWS - 1},2024-12-25T00:00:00`);
      const report = JSON.parse(r.stdout).report;
      expect(report.coercionFailures).toEqual({ when: 1 });
      expect(report.warnings).toEqual([expect.stringContaining('row 6 holds "12/25/2024", which only reads month-first')]);
    }, 120_000);

    it(`names the first value of the other order in a day-first column, with its row (${threads ? 'one thread' : 'default path'})`, async () => {
      const job = join(dir, 'contradicted.yaml');
      await writeFile(job, (await readFile(join(dir, 'job.yaml'), 'utf8')).replace('dates.csv', 'contradicted.csv'));
      const r = await runCli(['dry-run', job, '-o', 'json', '--out', join(dir, `contradicted-${threads ?? 'default'}.csv`)], {
        env: { IMPORT_ENGINE_THREADS: threads, IMPORT_ENGINE_TRACE: '1' }, timeoutMs: 90_000,
      });
      expect(r.exitCode, r.stderr).toBe(0);
      if (!threads) expect(r.stderr).toContain('engine: 2 threads');
      const report = JSON.parse(r.stdout).report;
      expect(report.coercionFailures).toEqual({ when: 1 });
      expect(report.warnings).toEqual([`Field "when" has slash dates read day-first (a first part is over 12) but row ${ROWS - 9_999} holds "12/25/2024", which only reads month-first; such values are missing and counted as coercion failures. Write the column's dates in one order.`]);
    }, 120_000);

    it(`warns when every slash date reads either way, and only then (${threads ? 'one thread' : 'default path'})`, async () => {
      const warnings: string[][] = [];
      for (const name of ['ambiguous', 'proved-late']) {
        const job = join(dir, `${name}.yaml`);
        await writeFile(job, (await readFile(join(dir, 'job.yaml'), 'utf8')).replace('dates.csv', `${name}.csv`));
        const r = await runCli(['dry-run', job, '-o', 'json', '--out', join(dir, `${name}-${threads ?? 'default'}.csv`)], {
          env: { IMPORT_ENGINE_THREADS: threads, IMPORT_ENGINE_TRACE: '1' }, timeoutMs: 90_000,
        });
        expect(r.exitCode, r.stderr).toBe(0);
        if (!threads) expect(r.stderr).toContain('engine: 2 threads');
        warnings.push(JSON.parse(r.stdout).report.warnings);
      }
      expect(warnings).toEqual([
        ['Field "when" has slash dates that all read either way (such as 01/02/2024), so they were read month-first (MM/DD/YYYY); if they are day-first, write them as YYYY-MM-DD before the import.'],
        [],
      ]);
    }, 120_000);
  }

  it('falls back to one thread, with the same output, when a value in the first part past the sample proves day-first', async () => {
    // The default path's first part is run by the main thread: its failure must make the run start over on one thread too.
    const lines = (await readFile(join(dir, 'ambiguous.csv'), 'utf8')).split('\n');
    lines[20_001] = lines[20_001].replace(/,[^,]*,/, ',25/12/2024,');
    await writeFile(join(dir, 'proved-early.csv'), lines.join('\n'));
    const job = join(dir, 'proved-early.yaml');
    await writeFile(job, (await readFile(join(dir, 'job.yaml'), 'utf8')).replace('dates.csv', 'proved-early.csv'));
    const outputs: string[] = [];
    for (const threads of ['1', undefined]) {
      const out = join(dir, `early-${threads ?? 'default'}.csv`);
      const r = await runCli(['dry-run', job, '-o', 'json', '--out', out], {
        env: { IMPORT_ENGINE_THREADS: threads, IMPORT_ENGINE_TRACE: '1' }, timeoutMs: 90_000,
      });
      expect(r.exitCode, r.stderr).toBe(0);
      if (!threads) expect(r.stderr).toContain('engine: fell back to 1 thread');
      outputs.push(await readFile(out, 'utf8'));
    }
    expect(outputs[0].split('\n')[20_001]).toBe('20000,2024-12-25T00:00:00');
    expect(outputs[0].split('\n')[11]).toBe('10,2024-02-11T00:00:00'); // 11/02/2024 read day-first
    expect(outputs[1]).toBe(outputs[0]);
  }, 120_000);
});
