import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobFileError, UsageError } from '../../src/errors.js';
import { displayPath, formatProblems, loadJobFile, loadJobFileWithWarnings, parseSchemaText } from '../../src/jobfile/load.js';
import type { JobFile } from '../../src/jobfile/types.js';

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'jobfiles');
let dir: string;
let previousCwd: string;

// Messages name the job file as the user gave it; running from the temp folder makes that `job.yaml`.
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'jobfile-load-'));
  previousCwd = process.cwd();
  process.chdir(dir);
});
afterAll(async () => {
  process.chdir(previousCwd);
  await rm(dir, { recursive: true, force: true });
});

/** Copies a fixture into the temp folder as `name` and returns that relative name. */
async function fixture(file: string, name = 'job.yaml'): Promise<string> {
  await copyFile(join(fixtures, file), join(dir, name));
  return name;
}

/** The JobFileError thrown for `path`. */
async function loadError(path: string, env: NodeJS.ProcessEnv = {}): Promise<JobFileError> {
  const error = await loadJobFile(path, env).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(JobFileError);
  return error as JobFileError;
}

describe('loadJobFile', () => {
  it('loads the example of jobfile.md to the normalised job file, paths absolute', async () => {
    const job = await loadJobFile(await fixture('full.yaml'), {});
    const expected: Omit<JobFile, 'positionOf'> = {
      path: join(dir, 'job.yaml'),
      version: 1,
      pipeline: 'pl_customers',
      name: 'customers-november',
      input: { file: join(dir, 'data', 'customers.xlsx') },
      options: {
        useFullData: false,
        useVariableFields: false,
        destinationFileName: 'customers.csv',
        outputFileType: 'csv',
        webhookUrl: 'https://hooks.example.com/start',
      },
      scripts: { preColumnMapping: ['normalize-headers'] },
      config: {
        sheet: 'Customers',
        mapping: { 'E-mail Address': 'email', First: 'full_name', Last: 'full_name', 'Internal Notes': null },
        allowColumnCombining: true,
        combining: { full_name: { method: 'stringAppend', separator: ' ', order: ['First', 'Last'] } },
        dataTypes: { amount: 'number' },
        units: { created_at: { from: 'UTC_m5', to: 'UTC_p0' } },
        impute: { country: { method: 'fill', value: 'US' } },
        pivot: { pivotColumns: ['metric'], valueColumns: ['value'], indexColumns: ['id'], aggregationMethod: 'first' },
        rowDropping: [
          { method: 'duplicateValues', fields: ['id'] },
          { method: 'missingValues', fields: ['email'] },
        ],
        text: { regexReplacement: { phone: new Map([['[^0-9]', '']]) }, casing: { full_name: 'title' } },
      },
      run: { wait: true, webhookUrl: 'https://hooks.example.com/run' },
      review: { minConfidence: 0.8 },
      schema: {
        id: 'pl_customers',
        expectedFields: ['id', 'full_name', 'email', 'amount', 'country', 'created_at', 'phone'],
        optionalFields: ['phone'],
        fieldDataTypes: {
          id: 'number', full_name: 'rich_text', email: 'rich_text', amount: 'number',
          country: 'category', created_at: 'date_time', phone: 'rich_text',
        },
        fieldUnits: { created_at: 'UTC_p0' },
        imputeMethods: { country: null },
        rowDropping: [{ method: 'missingValues', methodConfig: { fields: ['id'] } }],
      },
      localScripts: { 'normalize-headers': join(dir, 'scripts', 'normalize-headers.mjs') },
    };
    expect(job).toEqual({ ...expected, positionOf: expect.any(Function) });
  });

  it('gives the position of a key path for later messages', async () => {
    const job = await loadJobFile(await fixture('full.yaml'), {});
    expect(job.positionOf(['config', 'mapping', 'First'])).toEqual({ line: 19, col: 5 });
    expect(job.positionOf(['config', 'rowDropping', 1])).toEqual({ line: 38, col: 7 });
    expect(job.positionOf(['config', 'rowDropping', 1, 'fields'])).toEqual({ line: 38, col: 31 });
    expect(job.positionOf(['config', 'text', 'regexReplacement', 'phone', '[^0-9]'])).toEqual({ line: 41, col: 15 });
    expect(job.positionOf([])).toEqual({ line: 2, col: 1 });
    expect(job.positionOf(['config', 'mapping', 'Nobody'])).toBeUndefined();
  });

  it('fills the defaults of a minimal job file', async () => {
    await writeFile(join(dir, 'minimal.yaml'), 'version: 1\ninput:\n  rowsFile: rows.json\n');
    const job = await loadJobFile('minimal.yaml', {});
    expect(job).toEqual({
      path: join(dir, 'minimal.yaml'),
      version: 1,
      input: { rowsFile: join(dir, 'rows.json') },
      options: {},
      config: {},
      run: { wait: true },
      review: {},
      localScripts: {},
      positionOf: expect.any(Function),
    });
  });

  it('resolves paths against the job file folder, not the working folder', async () => {
    await mkdir(join(dir, 'jobs'), { recursive: true });
    await writeFile(join(dir, 'jobs', 'nested.yaml'), [
      'version: 1',
      'input: {file: ../data/in.csv}',
      'localScripts: {clean: ./clean.mjs, abs: /opt/scripts/abs.mjs}',
      '',
    ].join('\n'));
    const job = await loadJobFile('jobs/nested.yaml', {});
    expect(job.input.file).toBe(join(dir, 'data', 'in.csv'));
    expect(job.localScripts).toEqual({ clean: join(dir, 'jobs', 'clean.mjs'), abs: '/opt/scripts/abs.mjs' });
  });

  it('reports a missing job file as a usage error naming the path and the reason', async () => {
    const error = await loadJobFile('nowhere.yaml', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect(error).not.toBeInstanceOf(JobFileError);
    expect((error as UsageError).message).toBe('cannot read job file nowhere.yaml: no such file; check the path and try again.');
    expect((error as UsageError).exitCode).toBe(2);
  });

  it('reports a folder given as the job file as a usage error', async () => {
    await mkdir(join(dir, 'folder.yaml'), { recursive: true });
    await expect(loadJobFile('folder.yaml', {})).rejects.toThrow('cannot read job file folder.yaml: it is a folder, not a file; check the path and try again.');
  });

  it('collects every problem, not only the first, and throws at the first', async () => {
    const error = await loadError(await fixture('three-errors.yaml'));
    expect(error.problems).toHaveLength(3);
    expect(formatProblems(error.problems)).toBe([
      'job.yaml:6:19: "pdf" is not a valid output file type in options.outputFileType; use one of csv, excel.',
      'job.yaml:8:3: unknown key "mappings" in config; did you mean "mapping"?',
      'job.yaml:11:13: "numbr" is not a valid data type in config.dataTypes.amount; did you mean "number"?',
    ].join('\n'));
    expect(error.location).toBe('job.yaml:6:19');
    expect(error.message).toBe('job.yaml:6:19: "pdf" is not a valid output file type in options.outputFileType; use one of csv, excel.');
    expect(error.exitCode).toBe(2);
  });

  it('reports a YAML syntax error once, at the bracket that is never closed', async () => {
    const error = await loadError(await fixture('syntax-error.yaml'));
    expect(error.problems).toHaveLength(1);
    expect(error.message).toBe('job.yaml:3:9: invalid YAML: this "[" is never closed (the parser reached line 4 looking for "]"); add the "]".');
  });

  it('reports other YAML syntax errors where the parser found them', async () => {
    await writeFile(join(dir, 'job.yaml'), 'version: 1\ninput: {file: a.csv}\nname: "unterminated\n');
    const error = await loadError('job.yaml');
    expect(error.problems).toHaveLength(1);
    expect(error.message).toMatch(/^job\.yaml:4:1: invalid YAML: Missing closing "quote; fix the syntax here\.$/);
  });

  it('reports a duplicate key and still checks the rest of the file', async () => {
    await writeFile(join(dir, 'job.yaml'), 'version: 1\ninput: {file: a.csv}\nname: one\nname: two\nrun: {wait: maybe}\nconfig:\n  mapping: {"a: b": x, "a: b": y}\n');
    const error = await loadError('job.yaml');
    expect(formatProblems(error.problems)).toBe([
      'job.yaml:4:1: duplicate key "name"; remove one of them.',
      'job.yaml:5:13: run.wait must be true or false; got "maybe".',
      'job.yaml:7:24: duplicate key "a: b"; remove one of them.',
    ].join('\n'));
  });

  it('shows an absolute path inside the working folder relative to it', async () => {
    const error = await loadError(join(dir, await fixture('three-errors.yaml')));
    expect(error.location).toBe('job.yaml:6:19');
    expect(displayPath('/elsewhere/job.yaml', dir)).toBe('/elsewhere/job.yaml');
    expect(displayPath('./jobs/job.yaml', dir)).toBe('./jobs/job.yaml');
  });
});

describe('environment variables', () => {
  it('substitutes ${NAME} in string values and keeps $${NAME} literal', async () => {
    const job = await loadJobFile(await fixture('env.yaml'), { PIPELINE_ID: 'pl_prod', SHEET_KEY: 'abc123', STAGE: 'prod' });
    expect(job.pipeline).toBe('pl_prod');
    expect(job.input.googleSheet).toEqual({ url: 'https://docs.google.com/spreadsheets/d/abc123', sheet: 'Sheet1' });
    expect(job.run.webhookUrl).toBe('https://hooks.example.com/prod/run?literal=${NOT_A_VARIABLE}');
  });

  it('reports each unset variable at its reference', async () => {
    const error = await loadError(await fixture('env.yaml'), { STAGE: 'prod' });
    expect(formatProblems(error.problems)).toBe([
      'job.yaml:2:11: environment variable PIPELINE_ID is not set; export it or remove ${PIPELINE_ID}.',
      'job.yaml:4:62: environment variable SHEET_KEY is not set; export it or remove ${SHEET_KEY}.',
    ].join('\n'));
  });

  it('substitutes in inline rows too', async () => {
    await writeFile(join(dir, 'job.yaml'), 'version: 1\ninput:\n  rows: [{id: 1, owner: "${OWNER}"}]\n');
    const job = await loadJobFile('job.yaml', { OWNER: 'ann' });
    expect(job.input.rows).toEqual([{ id: 1, owner: 'ann' }]);
  });
});

describe('warnings', () => {
  it('accepts the casing capitalize with a warning', async () => {
    const { job, warnings } = await loadJobFileWithWarnings(await fixture('capitalize.yaml'), {});
    expect(job.config.text).toEqual({ casing: { name: 'capitalize' } });
    expect(formatProblems(warnings)).toBe(
      'job.yaml:7:13: casing "capitalize" in config.text.casing.name is not in the seed\'s supported list (upper, lower, title, swap), so the service may reject it; use "title" or keep it knowingly.',
    );
    // loadJobFile accepts the same file; the caller who wants warnings asks for them.
    await expect(loadJobFile('job.yaml', {})).resolves.toMatchObject({ config: { text: { casing: { name: 'capitalize' } } } });
  });
});

describe('parseSchemaText', () => {
  it('validates a schema file with the schema block rules and normalises it', async () => {
    const path = await fixture('schema.yaml', 'schema.yaml');
    const { readFile } = await import('node:fs/promises');
    const schema = await parseSchemaText(path, await readFile(path, 'utf8'), {});
    expect(schema).toEqual({
      id: 'pl_customers',
      expectedFields: ['id', 'email', 'phone'],
      optionalFields: ['phone'],
      fieldDataTypes: { id: 'number', email: 'rich_text' },
      fieldUnits: {},
      imputeMethods: { email: 'dropMissing' },
      rowDropping: [],
    });
  });

  it('reports schema-file problems with their position', async () => {
    const error = await parseSchemaText('pipelines/s.yaml', 'expectedFields: [id]\nfieldDataType: {id: number}\n', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobFileError);
    expect((error as JobFileError).message).toBe('pipelines/s.yaml:2:1: unknown key "fieldDataType" in the schema file; did you mean "fieldDataTypes"?');
  });
});

describe('the bytes of a job or schema file', () => {
  it('names the first byte that is not UTF-8, counting the characters before it on its line', async () => {
    // "é" in UTF-8 (2 bytes) before the bad byte counts as one column.
    await writeFile(join(dir, 'job.yaml'), Buffer.concat([Buffer.from('version: 1\nname: "é-'), Buffer.from([0xe9]), Buffer.from('"\n')]));
    expect((await loadError('job.yaml')).message).toBe('job.yaml:2:10: the job file is not UTF-8 text: byte 0xE9 here is not UTF-8, "é" in Latin-1 (the file was probably saved as Latin-1 or Windows-1252); save it as UTF-8.');
  });

  it('refuses overlong forms, UTF-16 surrogates and a sequence cut off at the end, which a lenient decoder would turn into U+FFFD', async () => {
    for (const bad of [[0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82]]) {
      await writeFile(join(dir, 'job.yaml'), Buffer.concat([Buffer.from('version: 1\nname: x'), Buffer.from(bad)]));
      expect((await loadError('job.yaml')).message).toMatch(/^job\.yaml:2:8: the job file is not UTF-8 text: byte 0x[0-9A-F]{2} here is not UTF-8/);
    }
  });

  it('passes over a U+FFFD written in the file to the first byte that is not UTF-8', async () => {
    await writeFile(join(dir, 'job.yaml'), Buffer.concat([Buffer.from('version: 1\nname: "\uFFFD\uFFFD-'), Buffer.from([0x80]), Buffer.from('"\n')]));
    expect((await loadError('job.yaml')).message).toMatch(/^job\.yaml:2:11: the job file is not UTF-8 text: byte 0x80 here/);
  });

  it('names UTF-32 by its byte order mark, and reads a UTF-8 byte order mark as UTF-8', async () => {
    await writeFile(join(dir, 'job.yaml'), Buffer.from([0xff, 0xfe, 0, 0, 0x76, 0, 0, 0]));
    expect((await loadError('job.yaml')).message).toBe('job.yaml:1:1: the job file is UTF-32 (little-endian) text, not UTF-8; save it as UTF-8 (most editors offer the encoding under "Save As").');
    await writeFile(join(dir, 'job.yaml'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('version: 1\ninput: {rows: [{a: 1}]}\nname: café\n')]));
    await expect(loadJobFile('job.yaml', {})).resolves.toMatchObject({ name: 'café' });
  });

  it('refuses a schema file that is not UTF-8, as a schema file', async () => {
    const error = await parseSchemaText('s.yaml', Buffer.from('expectedFields: [caf\xe9]\n', 'latin1'), {}).catch((e: unknown) => e);
    expect((error as JobFileError).message).toBe('s.yaml:1:21: the schema file is not UTF-8 text: byte 0xE9 here is not UTF-8, "é" in Latin-1 (the file was probably saved as Latin-1 or Windows-1252); save it as UTF-8.');
  });
});
