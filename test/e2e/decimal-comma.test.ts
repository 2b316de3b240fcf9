/**
 * A number column written with decimal commas (a European spreadsheet's CSV export): such values
 * fail the number type and are counted, and a warning names the first one and the first value the
 * file means otherwise (`1.234`, read as 1.234, is 1234 there), on one thread and on the
 * two-thread path, where both values lie in the second part.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

let dir: string;
const ROWS = 150_000;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'import-e2e-decimal-'));
  const pad = 'x'.repeat(50);
  const lines = ['id;amount;note'];
  for (let i = 0; i < ROWS; i++) {
    const amount = i === ROWS - 20 ? '1.234' : i === ROWS - 10 ? '3,5' : String(i % 1000);
    lines.push(`${i};${amount};${pad}`);
  }
  await writeFile(join(dir, 'eu.csv'), lines.join('\n') + '\n');
  await writeFile(join(dir, 'us.csv'), 'id,amount\n1,"1,234"\n2,1.234\n3,12.5\n');
  const job = (file: string) => `version: 1\ninput:\n  file: ./${file}\nschema:\n  expectedFields: [id, amount]\n  fieldDataTypes: {id: number, amount: number}\n`;
  await writeFile(join(dir, 'eu.yaml'), job('eu.csv'));
  await writeFile(join(dir, 'us.yaml'), job('us.csv'));
});
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

const WARNING = `Field "amount" has numbers written with a decimal comma (row ${ROWS - 9}: "3,5"), which the number type does not read: such values are missing and counted as coercion failures. Row ${ROWS - 19}'s "1.234" was read as 1.234, which is not what it means there. Write the column's numbers with a decimal point (1234.5) before the import.`;

describe('decimal commas', () => {
  for (const threads of ['1', undefined]) {
    it(`are counted and named, with a value they make doubtful (${threads ? 'one thread' : 'default path'})`, async () => {
      const out = join(dir, `out-${threads ?? 'default'}.csv`);
      const r = await runCli(['dry-run', join(dir, 'eu.yaml'), '-o', 'json', '--out', out], {
        env: { IMPORT_ENGINE_THREADS: threads, IMPORT_ENGINE_TRACE: '1' }, timeoutMs: 90_000,
      });
      expect(r.exitCode, r.stderr).toBe(0);
      if (threads) expect(r.stderr).not.toContain('engine: 2 threads');
      else expect(r.stderr).toContain('engine: 2 threads');
      const report = JSON.parse(r.stdout).report;
      expect(report.warnings).toEqual([WARNING]);
      expect(report.coercionFailures).toEqual({ amount: 1 });
      const lines = (await readFile(out, 'utf8')).split('\n');
      expect(lines[ROWS - 19]).toBe(`${ROWS - 20},1.234`);
      expect(lines[ROWS - 9]).toBe(`${ROWS - 10},`);
    }, 120_000);
  }

  it('say nothing of a file that writes decimal points, thousands commas included', async () => {
    const r = await runCli(['dry-run', join(dir, 'us.yaml'), '-o', 'json'], { timeoutMs: 30_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).report.warnings).toEqual([]);
    expect(await readFile(join(dir, 'us.out.csv'), 'utf8')).toBe('id,amount\n1,1234\n2,1.234\n3,12.5\n');
  });
});
