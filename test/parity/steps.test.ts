/**
 * Parity of the steps the public datasets leave out (combining, units, imputation, regular
 * expressions, every casing, row dropping after them, pivot): `import dry-run` and an independent
 * pandas implementation of engine.md (test/parity/steps_reference.py) run the same job on a small
 * input full of edge cases, and their outputs must agree cell by cell. Skipped, saying why, when no
 * python3 with pandas is installed (Debian: python3-pandas).
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../support/cli.js';
import { findPython, noPythonReason } from '../support/python.js';

const python = findPython(['pandas']);
if (!python) console.warn(`step parity tests ${noPythonReason(['pandas'], 'python3-pandas')}`);

const INPUT = [
  'id,first,last,when,dist,country,note,code,metric',
  '1,Ann,Lee,2024-03-05T14:22:10+02:00,"1,234.5",nl,"x  ΟΔΟΣ   ΑΣ",ǅungla Ab,a',
  '2,,,03/10/2024,,fr,plain,x,b',
  "3, ,O'NEIL,2024-12-31T23:30:00Z,0.25,,  ,ß x,b",
  '4,Ann,Lee,2024-01-01,12,NL,second,abc,a',
  '5,bob,,,(3),us,  note  here ,MiXeD,c',
  '6,Éva,İlhan,2024-06-01 08:00,5%,,ΑΣ1,ᾈ ᾀ,a',
  '7,mary-jane,mcdonald-smith,2024-03-10T02:30:00-05:00,$7,de,x y,Ǉ,c',
].join('\n') + '\n';

/** The job, once as a job file and once as steps_reference.py's JSON. */
interface Job {
  fields: string[];
  mapping: [column: string, field: string][];
  dataTypes: Record<string, string>;
  combining?: Record<string, { method: string; separator?: string; order?: string[] }>;
  units?: Record<string, { from: string; to: string }>;
  impute?: Record<string, { method: string; value?: string }>;
  regex?: Record<string, [pattern: string, replacement: string][]>;
  casing?: Record<string, string>;
  rowDropping?: { method: string; fields: string[] }[];
  pivot?: { index: string[]; pivot: string[]; values: string[] };
}

const BASE: Job = {
  fields: ['id', 'name', 'at', 'dist', 'country', 'note', 'code', 'metric'],
  mapping: [['id', 'id'], ['first', 'name'], ['last', 'name'], ['when', 'at'], ['dist', 'dist'], ['country', 'country'], ['note', 'note'], ['code', 'code'], ['metric', 'metric']],
  dataTypes: { id: 'number', name: 'rich_text', at: 'date_time', dist: 'number', country: 'category', note: 'rich_text', code: 'rich_text', metric: 'category' },
  combining: { name: { method: 'stringAppend', separator: ' ', order: ['last', 'first'] } },
  units: { at: { from: 'UTC_m5', to: 'UTC_p0' }, dist: { from: 'km', to: 'mi' } },
  impute: { country: { method: 'fill', value: 'xx' }, at: { method: 'fill', value: '2000-01-01T00:00:00' }, dist: { method: 'dropMissing' } },
  regex: { note: [['\\s+', ' '], ['^ | $', ''], ['^x (\\S+)', '[$1]']] },
  casing: { name: 'title', country: 'upper', note: 'capitalize', code: 'swap' },
  rowDropping: [{ method: 'duplicateValues', fields: ['name', 'country'] }, { method: 'missingValues', fields: ['note'] }],
};

const JOBS: Record<string, Job> = {
  steps: BASE,
  'steps then pivot': { ...BASE, pivot: { index: ['country'], pivot: ['metric'], values: ['dist', 'id'] } },
  'json combining and one value column': {
    ...BASE,
    combining: { name: { method: 'json', order: ['last', 'first'] } },
    rowDropping: [],
    pivot: { index: ['metric'], pivot: ['country'], values: ['name'] },
  },
};

function jobYaml(job: Job, input: string): string {
  const q = JSON.stringify;
  const map = (o: Record<string, unknown>) => `{${Object.entries(o).map(([k, v]) => `${q(k)}: ${q(v)}`).join(', ')}}`;
  const lines = ['version: 1', 'pipeline: p', `input: {file: ${q(input)}}`, 'config:', '  mapping:'];
  for (const [column, field] of job.mapping) lines.push(`    ${q(column)}: ${q(field)}`);
  lines.push('  allowColumnCombining: true', '  combining:');
  for (const [field, rule] of Object.entries(job.combining ?? {})) lines.push(`    ${q(field)}: ${map(rule)}`);
  lines.push('  units:');
  for (const [field, rule] of Object.entries(job.units ?? {})) lines.push(`    ${q(field)}: ${map(rule)}`);
  lines.push('  impute:');
  for (const [field, rule] of Object.entries(job.impute ?? {})) lines.push(`    ${q(field)}: ${map(rule)}`);
  lines.push('  text:', '    regexReplacement:');
  for (const [field, rules] of Object.entries(job.regex ?? {})) lines.push(`      ${q(field)}: {${rules.map(([p, r]) => `${q(p)}: ${q(r)}`).join(', ')}}`);
  lines.push(`    casing: ${map(job.casing ?? {})}`);
  lines.push(`  rowDropping: [${(job.rowDropping ?? []).map((r) => `{method: ${r.method}, fields: ${q(r.fields)}}`).join(', ')}]`);
  if (job.pivot) lines.push(`  pivot: {indexColumns: ${q(job.pivot.index)}, pivotColumns: ${q(job.pivot.pivot)}, valueColumns: ${q(job.pivot.values)}, aggregationMethod: first}`);
  lines.push('schema:', `  expectedFields: ${q(job.fields)}`, `  fieldDataTypes: ${map(job.dataTypes)}`);
  return lines.join('\n') + '\n';
}

let dir: string;
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'import-step-parity-')); });
afterAll(async () => { if (dir) await rm(dir, { recursive: true, force: true }); });

describe.skipIf(!python)('parity with pandas on the steps', () => {
  it.each(Object.keys(JOBS))('%s: gives the same output, cell by cell', async (name) => {
    const job = JOBS[name];
    const slug = name.replace(/\W+/g, '-');
    const input = join(dir, `${slug}.csv`);
    await writeFile(input, INPUT);
    await writeFile(join(dir, `${slug}.yaml`), jobYaml(job, input));
    await writeFile(join(dir, `${slug}.json`), JSON.stringify({ ...job, input, mapping: Object.fromEntries(job.mapping), expectedFields: job.fields }));
    const run = await runCli(['dry-run', join(dir, `${slug}.yaml`), '--out', join(dir, `${slug}.ours.csv`)], { timeoutMs: 60_000 });
    expect(run.exitCode, run.stderr).toBe(0);
    const ref = spawnSync(python!, [join(ROOT, 'test', 'parity', 'steps_reference.py'), join(dir, `${slug}.json`), join(dir, `${slug}.reference.csv`)], { encoding: 'utf8', timeout: 60_000 });
    expect(ref.status, ref.stderr).toBe(0);
    const ours = await readFile(join(dir, `${slug}.ours.csv`), 'utf8');
    expect(ours.split('\n').length).toBeGreaterThan(2);
    expect(ours).toBe(await readFile(join(dir, `${slug}.reference.csv`), 'utf8'));
  }, 120_000);
});
