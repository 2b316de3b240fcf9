// jobfile.md: `config.mapping` may be keyed by the data source name getFields returns. A job file
// has one input, so one source: the keyed form runs exactly as the flat one when the name is the
// input's, and is refused at its line when it names another source or several.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyChoices } from '../../src/jobfile/save.js';
import { runCli, tempExample } from '../support/cli.js';

const FLAT = `  mapping:
    Customer ID: id
    First: full_name
    Last: full_name
    Internal Notes: null
`;

function keyed(source: string, extra = ''): string {
  return `  mapping:
    ${source}:
      Customer ID: id
      First: full_name
      Last: full_name
      Internal Notes: null
${extra}`;
}

async function withMapping(dir: string, name: string, mapping: string): Promise<string> {
  const original = await readFile(join(dir, 'job.yaml'), 'utf8');
  const text = original.replace(/ {2}mapping:\n(?: {4}.*\n)+/, mapping);
  expect(text).not.toBe(original);
  await writeFile(join(dir, name), text);
  return join(dir, name);
}

describe('a mapping keyed by source name', () => {
  it('runs as the flat mapping when it names the input, byte for byte', async () => {
    const dir = await tempExample('customers');
    const flat = await withMapping(dir, 'flat.yaml', FLAT);
    const byName = await withMapping(dir, 'keyed.yaml', keyed('customers.csv'));
    expect((await runCli(['validate', byName])).exitCode).toBe(0);
    const [a, b] = [await runCli(['dry-run', flat]), await runCli(['dry-run', byName])];
    expect([a.exitCode, b.exitCode], a.stderr + b.stderr).toEqual([0, 0]);
    expect(await readFile(join(dir, 'keyed.out.csv'), 'utf8')).toBe(await readFile(join(dir, 'flat.out.csv'), 'utf8'));
  }, 60_000);

  it('is refused at its line when it names another source, or several', async () => {
    const dir = await tempExample('customers');
    const other = await withMapping(dir, 'other.yaml', keyed('october.csv'));
    const r = await runCli(['dry-run', other]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/other\.yaml:\d+:3: config\.mapping is keyed by the data source "october\.csv", but the source of the input is "customers\.csv"; rename the key to "customers\.csv", or write the columns flat/);
    const several = await withMapping(dir, 'several.yaml', keyed('customers.csv', '    other.csv:\n      X: id\n'));
    const v = await runCli(['validate', several]);
    expect(v.exitCode).toBe(2);
    expect(v.stderr).toContain('config.mapping is keyed by 2 data sources ("customers.csv", "other.csv"), but a job file has one input, so one source;');
  }, 60_000);

  it('is edited under its source name when choices are saved', () => {
    const text = `version: 1\ninput: {file: ./customers.csv}\nconfig:\n  mapping:\n    customers.csv:\n      First: full_name\n`;
    expect(applyChoices(text, { mapping: { First: 'first_name', Last: 'last_name' } })).toBe(
      `version: 1\ninput: {file: ./customers.csv}\nconfig:\n  mapping:\n    customers.csv:\n      First: first_name\n      Last: last_name\n`,
    );
  });
});
