/**
 * What a job file allows but does nothing (or not what it seems): `import validate` says it at the
 * rule's file:line:col with exit 0, and the dry run says it at the same line, once.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runCli } from '../support/cli.js';
import { startEmulator } from '../support/emulator.js';

const CSV = 'id,amount,First,Last,created\n1,"$10",Ann,Lee,2024-03-05\n2,20,Bob,Kim,2024-03-06\n';

/** A temp folder holding data.csv and job.yaml (`job` is the text after `input`), removed after the test. */
async function jobDir(job: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'import-validate-warnings-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'data.csv'), CSV);
  await writeFile(join(dir, 'job.yaml'), `version: 1\ninput:\n  file: data.csv\n${job}`);
  return dir;
}

/** The stderr lines that start with `warning: `. */
function warnings(stderr: string): string[] {
  return stderr.split('\n').filter((l) => l.startsWith('warning: '));
}

/** Runs `import <command> job.yaml` in `dir`, expects exit 0, and returns its warning lines. */
async function warningsOf(command: 'validate' | 'dry-run', dir: string): Promise<string[]> {
  const r = await runCli([command, 'job.yaml'], { cwd: dir });
  expect(r.exitCode, r.stderr).toBe(0);
  return warnings(r.stderr);
}

const TEXT_ON_NUMBER = 'Text rules on field "amount" change nothing: it is a number field, and text rules act on text values only; give it data type rich_text to edit its text, or remove the rules.';

describe('validate: text rules on a number or date_time field', () => {
  const job = [
    'config:',
    '  dataTypes:',
    '    amount: number',
    '    created: date_time',
    '  text:',
    '    regexReplacement:',
    '      amount: {"[^0-9]": ""}',
    '    casing:',
    '      created: lower',
    '',
  ].join('\n');

  it('warns at the rule with the dry run\'s sentence, and stays valid', async () => {
    const dir = await jobDir(job);
    const r = await runCli(['validate', 'job.yaml'], { cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('job.yaml: valid\n');
    expect(warnings(r.stderr)).toEqual([
      `warning: job.yaml:10:7: ${TEXT_ON_NUMBER}`,
      'warning: job.yaml:12:7: Text rules on field "created" act on its dates as the data-type step writes them (YYYY-MM-DDTHH:mm:ss), not as the input wrote them; write the rules for that form, or give the field data type rich_text to edit the input\'s text.',
    ]);
  });

  it('says it in plan and run too, at the same lines, before a job is started against the service', async () => {
    const dir = await jobDir(job);
    const service = await startEmulator();
    onTestFinished(() => service.stop());
    const env = { IMPORT_BASE_URL: service.url, IMPORT_API_KEY: 'k' };
    for (const command of ['plan', 'run']) {
      const r = await runCli([command, 'job.yaml'], { cwd: dir, env, timeoutMs: 40_000 });
      expect(r.exitCode, r.stderr).toBe(0);
      const lines = warnings(r.stderr);
      expect(lines.slice(0, 2)).toEqual([
        `warning: job.yaml:10:7: ${TEXT_ON_NUMBER}`,
        'warning: job.yaml:12:7: Text rules on field "created" act on its dates as the data-type step writes them (YYYY-MM-DDTHH:mm:ss), not as the input wrote them; write the rules for that form, or give the field data type rich_text to edit the input\'s text.',
      ]);
    }
  });

  it('says it once in the dry run, at the same line', async () => {
    const dir = await jobDir(job);
    const r = await runCli(['dry-run', 'job.yaml'], { cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(warnings(r.stderr).filter((w) => w.includes('Text rules on field "amount"'))).toEqual([`warning: job.yaml:10:7: ${TEXT_ON_NUMBER}`]);
  });

  it('says nothing for text rules on a text field', async () => {
    const dir = await jobDir('config:\n  text:\n    casing:\n      First: upper\n');
    expect(await warningsOf('validate', dir)).toEqual([]);
  });
});

describe('validate: a combining entry with one column', () => {
  const oneColumn = (field: string) => `config.combining.full_name does nothing: the mapping maps only the column "${field}" to "full_name", and combining joins two or more columns; map the other columns to "full_name" under config.mapping, or remove this entry.`;

  it('warns at the entry when config.mapping maps one column to the field', async () => {
    const dir = await jobDir('config:\n  mapping:\n    First: full_name\n  allowColumnCombining: true\n  combining:\n    full_name: {separator: " "}\n');
    expect(await warningsOf('validate', dir)).toEqual([`warning: job.yaml:9:5: ${oneColumn('First')}`]);
    expect(await warningsOf('dry-run', dir)).toEqual([`warning: job.yaml:9:5: ${oneColumn('First')}`]);
  });

  it('warns when config.mapping names every column and none of them goes to the field', async () => {
    const dir = await jobDir('config:\n  mapping: {id: id, amount: amount, First: first, Last: last, created: created}\n  allowColumnCombining: true\n  combining:\n    full_name: {separator: " "}\n');
    expect(await warningsOf('validate', dir)).toEqual(['warning: job.yaml:8:5: config.combining.full_name does nothing: the mapping maps no column to "full_name", and combining joins two or more columns; map the other columns to "full_name" under config.mapping, or remove this entry.']);
  });

  it('says nothing when two columns are mapped to the field', async () => {
    const dir = await jobDir('config:\n  mapping:\n    First: full_name\n    Last: full_name\n  allowColumnCombining: true\n  combining:\n    full_name: {separator: " "}\n');
    expect(await warningsOf('validate', dir)).toEqual([]);
  });

  it('leaves a field the file maps no column to for the dry run, which sees the suggested mapping', async () => {
    // Identity suggestions (no schema) map the column First to the field First: one column.
    const dir = await jobDir('config:\n  mapping:\n    Last: null\n  allowColumnCombining: true\n  combining:\n    First: {separator: " "}\n');
    expect(await warningsOf('validate', dir)).toEqual([]);
    expect(await warningsOf('dry-run', dir)).toEqual(['warning: job.yaml:9:5: config.combining.First does nothing: the mapping maps only the column "First" to "First", and combining joins two or more columns; map the other columns to "First" under config.mapping, or remove this entry.']);
  });
});

describe('validate: a conversion to another unit than the schema expects', () => {
  const job = (to: string) => [
    'config:',
    '  dataTypes: {created: date_time}',
    '  units:',
    `    created: {from: UTC_m5, to: ${to}}`,
    'schema:',
    '  expectedFields: [id, amount, First, Last, created]',
    '  fieldUnits: {created: UTC_p0}',
    '',
  ].join('\n');

  it('warns at config.units.<field>.to', async () => {
    const dir = await jobDir(job('UTC_p1'));
    expect(await warningsOf('validate', dir)).toEqual([
      'warning: job.yaml:7:29: config.units.created.to is UTC_p1, but the pipeline\'s schema expects "created" in UTC_p0 (schema.fieldUnits); convert to UTC_p0, or fix schema.fieldUnits if the pipeline expects UTC_p1.',
    ]);
  });

  it('takes UTC_m0 as the zone UTC_p0', async () => {
    const dir = await jobDir(job('UTC_m0'));
    expect(await warningsOf('validate', dir)).toEqual([]);
  });
});

describe('rules on an optional field that no column is mapped to', () => {
  const schema = 'schema:\n  expectedFields: [id, amount, phone]\n  optionalFields: [phone]\n';
  const everyColumn = '  mapping: {id: id, amount: amount, First: null, Last: null, created: null}\n';
  const pivot = '  pivot:\n    pivotColumns: [phone]\n    valueColumns: [amount]\n    indexColumns: [id]\n';

  it('validate stops a pivot on it at the pivot column, when config.mapping names every column', async () => {
    const dir = await jobDir(`config:\n${everyColumn}${pivot}${schema}`);
    const r = await runCli(['validate', 'job.yaml'], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('error: job.yaml:7:20: config.pivot.pivotColumns names the optional field "phone", but config.mapping maps no column to it, so it is not in the output and the pivot cannot use it (the run would stop); map a column to "phone" under config.mapping, or remove it here.\n');
    expect(r.stdout).toBe('');
  });

  it('the dry run names the pivot column\'s line when suggestions leave the field without a column, and writes nothing', async () => {
    const dir = await jobDir(`config:\n  mapping: {id: id, amount: amount}\n${pivot}${schema}`);
    const valid = await runCli(['validate', 'job.yaml'], { cwd: dir });
    expect(valid.exitCode).toBe(0);
    const r = await runCli(['dry-run', 'job.yaml'], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('error: job.yaml:7:20: Pivot pivot column "phone" is an optional field that no column is mapped to, so it is not in the output and the pivot cannot use it; map a column to "phone", or remove it from pivotColumns.\n');
    expect((await readdir(dir)).sort()).toEqual(['data.csv', 'job.yaml']);
  });

  it('validate warns at a skipped rule, and the dry run names its line', async () => {
    const rules = '  impute:\n    phone: {method: fill, value: "000"}\n  rowDropping:\n    - {method: missingValues, fields: [id, phone]}\n';
    const dir = await jobDir(`config:\n${everyColumn}${rules}${schema}`);
    expect(await warningsOf('validate', dir)).toEqual([
      'warning: job.yaml:7:5: config.impute names the optional field "phone", but config.mapping maps no column to it, so it is not in the output and the rule is skipped; map a column to "phone" under config.mapping, or remove it here.',
      'warning: job.yaml:9:44: config.rowDropping[0].fields names the optional field "phone", but config.mapping maps no column to it, so it is not in the output and the rule is skipped; map a column to "phone" under config.mapping, or remove it here.',
    ]);
    expect(await warningsOf('dry-run', dir)).toEqual([
      'warning: job.yaml:7:5: Impute method fill for field "phone": the field is not in the output (no column is mapped to it); skipped.',
      'warning: job.yaml:9:44: Row-dropping rule missingValues: id, phone: the field is not in the output (no column is mapped to it); skipped.',
    ]);
  });
});

describe('validate: a field close to a column, with no schema', () => {
  const near = (section: string, name: string, column: string, mapped: string) => `${section} names the field "${name}", which is not a column of data.csv and no column is mapped to it in config.mapping, so a dry run would stop on it; if "${column}" is meant, write that, or, if the pipeline's field really is "${name}", map the column to it under config.mapping (${mapped}).`;

  it('warns at a field with a trailing space or another case, and the dry run refuses the same names', async () => {
    const dir = await jobDir('config:\n  text:\n    casing:\n      "First ": upper\n  dataTypes:\n    Amount: number\n');
    const r = await runCli(['validate', 'job.yaml'], { cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('job.yaml: valid\n');
    expect(warnings(r.stderr)).toEqual([
      `warning: job.yaml:7:7: ${near('config.text.casing', 'First ', 'First', "First: 'First '")}`,
      `warning: job.yaml:9:5: ${near('config.dataTypes', 'Amount', 'amount', 'amount: Amount')}`,
    ]);
    const dry = await runCli(['dry-run', 'job.yaml'], { cwd: dir });
    expect(dry.exitCode).toBe(2);
    expect(dry.stderr).toContain('job.yaml:7:7: config.text.casing names the field "First "');
    expect(dry.stderr).toContain('job.yaml:9:5: config.dataTypes names the field "Amount"');
    expect(await readdir(dir)).toEqual(['data.csv', 'job.yaml']);
  });

  it('warns at a misspelt pivot column', async () => {
    const dir = await jobDir('config:\n  pivot:\n    pivotColumns: [Frist]\n    valueColumns: [amount]\n    indexColumns: [id]\n');
    expect(await warningsOf('validate', dir)).toEqual([`warning: job.yaml:6:20: ${near('config.pivot.pivotColumns', 'Frist', 'First', 'First: Frist')}`]);
  });

  it('says nothing for a field far from every column, one the mapping creates, or one the schema lists', async () => {
    const far = await jobDir('config:\n  dataTypes:\n    total_spend: number\n');
    expect(await warningsOf('validate', far)).toEqual([]);
    const mapped = await jobDir('config:\n  mapping:\n    amount: Amount\n  dataTypes:\n    Amount: number\n');
    expect(await warningsOf('validate', mapped)).toEqual([]);
    const schema = await jobDir('config:\n  dataTypes:\n    Amount: number\nschema:\n  expectedFields: [id, Amount]\n');
    expect(await warningsOf('validate', schema)).toEqual([]);
  });
});

describe('validate: a row-dropping rule that repeats an earlier one', () => {
  it('warns at the repeat, in config and in the schema, and the dry run says it at the same lines', async () => {
    const dir = await jobDir([
      'config:',
      '  rowDropping:',
      '    - {method: duplicateValues, fields: [id, First]}',
      '    - {method: missingValues, fields: [amount]}',
      '    - {method: DuplicateValues, fields: [First, id]}',
      'schema:',
      '  expectedFields: [id, amount, First, Last, created]',
      '  rowDropping:',
      '    - {method: missingValues, fields: [id]}',
      '    - {method: missingValues, fields: [id]}',
      '',
    ].join('\n'));
    const expected = [
      'warning: job.yaml:8:7: config.rowDropping[2] repeats config.rowDropping[0] (duplicateValues on First, id), so it drops nothing; remove it, or name the fields it was meant for.',
      'warning: job.yaml:13:7: schema.rowDropping[1] repeats schema.rowDropping[0] (missingValues on id), so it drops nothing; remove it, or name the fields it was meant for.',
    ];
    expect(await warningsOf('validate', dir)).toEqual(expected);
    expect(await warningsOf('dry-run', dir)).toEqual(expected);
  });

  it('says nothing for rules of another method or other fields, nor for a rule that repeats a preset one', async () => {
    const dir = await jobDir([
      'config:',
      '  rowDropping:',
      '    - {method: duplicateValues, fields: [id]}',
      '    - {method: missingValues, fields: [id]}',
      '    - {method: duplicateValues, fields: [id, First]}',
      'schema:',
      '  expectedFields: [id, amount, First, Last, created]',
      '  rowDropping:',
      '    - {method: duplicateValues, fields: [id]}',
      '',
    ].join('\n'));
    expect(await warningsOf('validate', dir)).toEqual([]);
  });
});

describe('validate: an optional field close to an expected one', () => {
  it('warns at the optional field, and the dry run says it too', async () => {
    const dir = await jobDir('schema:\n  expectedFields: [id, amount, First, Last, created]\n  optionalFields: ["amount ", Last, notes]\n');
    const expected = ['warning: job.yaml:6:20: schema.optionalFields lists "amount ", which is not in expectedFields, so it adds an optional field and leaves "amount" required; write "amount" if that field is the optional one, or add "amount " to expectedFields to keep both.'];
    expect(await warningsOf('validate', dir)).toEqual(expected);
    expect(await warningsOf('dry-run', dir)).toEqual(expected);
  });
});
