import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobFileError } from '../../src/errors.js';
import { substituteEnv } from '../../src/jobfile/env.js';
import { formatProblems, loadJobFile, loadJobFileWithWarnings } from '../../src/jobfile/load.js';
import { editDistance, suggestKey } from '../../src/jobfile/suggest-key.js';
import type { JobFile } from '../../src/jobfile/types.js';
import { validateJobFileText } from '../../src/jobfile/validate.js';

let dir: string;
let previousCwd: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'jobfile-validate-'));
  previousCwd = process.cwd();
  process.chdir(dir);
});
afterAll(async () => {
  process.chdir(previousCwd);
  await rm(dir, { recursive: true, force: true });
});

/** The two lines every case starts with, so the lines under test begin at line 3. */
const HEAD = 'version: 1\ninput: {file: a.csv}\n';

/** Writes `text` as job.yaml and returns its problems, one `file:line:col: message` string each. */
async function problems(text: string, env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  await writeFile(join(dir, 'job.yaml'), text);
  const error = await loadJobFile('job.yaml', env).then(() => undefined, (e: unknown) => e);
  if (error === undefined) return [];
  expect(error).toBeInstanceOf(JobFileError);
  return formatProblems((error as JobFileError).problems).split('\n');
}

/** Writes `text` as job.yaml and loads it, failing the test with the problems when it is invalid. */
async function load(text: string, env: NodeJS.ProcessEnv = {}): Promise<JobFile> {
  await writeFile(join(dir, 'job.yaml'), text);
  return loadJobFile('job.yaml', env);
}

describe('the file as a whole', () => {
  it('needs a mapping at the top', async () => {
    expect(await problems('')).toEqual(['job.yaml:1:1: the job file is empty; start it with "version: 1" and an "input".']);
    expect(await problems('- version: 1\n')).toEqual([
      'job.yaml:1:1: a job file must be a mapping of keys such as version, pipeline and input; got a list.',
    ]);
  });

  it('treats empty sections as absent, as a skeleton leaves them', async () => {
    const job = await load(`${HEAD}options:\nconfig:\n  # mapping: {}\nrun:\nschema:\nlocalScripts:\n`);
    expect(job.options).toEqual({});
    expect(job.config).toEqual({});
    expect(job.run).toEqual({ wait: true });
    expect(job.schema).toBeUndefined();
  });

  it('reports one problem per mistake, sorted by position', async () => {
    expect(await problems('input: {file: a.csv}\nrun: {wait: 1}\nversion: 3\n')).toEqual([
      'job.yaml:2:13: run.wait must be true or false; got 1.',
      'job.yaml:3:10: version 3 is not supported; set "version: 1", the only version this tool reads.',
    ]);
  });
});

describe('version', () => {
  it('is required', async () => {
    expect(await problems('input: {file: a.csv}\n')).toEqual(['job.yaml:1:1: "version" is missing; add "version: 1" at the top of the file.']);
  });

  it('must be 1', async () => {
    expect(await problems('version: "1"\ninput: {file: a.csv}\n')).toEqual([
      'job.yaml:1:10: version "1" is not supported; set "version: 1", the only version this tool reads.',
    ]);
  });
});

describe('unknown keys', () => {
  it('names the key and suggests the close known one', async () => {
    expect(await problems(`${HEAD}options: {}\nscripts: {}\nrun: {}\nreview: {}\nconfig:\n  mappings: {First: full_name}\n`)).toEqual([
      'job.yaml:8:3: unknown key "mappings" in config; did you mean "mapping"?',
    ]);
  });

  it('lists the known keys when none is close', async () => {
    expect(await problems(`${HEAD}review: {threshold: 0.5}\n`)).toEqual([
      'job.yaml:3:10: unknown key "threshold" in review; remove it or use one of minConfidence.',
    ]);
  });

  it.each([
    ['the top level', 'pipline: pl_1\n', 'job.yaml:3:1: unknown key "pipline" in the job file; did you mean "pipeline"?'],
    ['input', 'version: 1\ninput: {file: a.csv, sheetName: x}\n', 'job.yaml:2:22: unknown key "sheetName" in input; remove it or use one of file, googleSheet, rows, rowsFile.'],
    ['input.googleSheet', 'version: 1\ninput: {googleSheet: {url: "https://docs.google.com/spreadsheets/d/a", sheet: s, tab: t}}\n', 'job.yaml:2:82: unknown key "tab" in input.googleSheet; remove it or use one of url, sheet.'],
    ['options', 'options: {useFulldata: true}\n', 'job.yaml:3:11: unknown key "useFulldata" in options; did you mean "useFullData"?'],
    ['scripts', 'scripts: {postClean: [a]}\n', 'job.yaml:3:11: unknown key "postClean" in scripts; remove it or use one of preColumnMapping.'],
    ['run', 'run: {wiat: false}\n', 'job.yaml:3:7: unknown key "wiat" in run; did you mean "wait"?'],
    ['review', 'review: {minConfidense: 0.5}\n', 'job.yaml:3:10: unknown key "minConfidense" in review; did you mean "minConfidence"?'],
    ['schema', 'schema: {expectedField: [id]}\n', 'job.yaml:3:10: unknown key "expectedField" in schema; did you mean "expectedFields"?'],
    ['combining entries', 'config:\n  allowColumnCombining: true\n  combining: {name: {seperator: "-"}}\n', 'job.yaml:5:22: unknown key "seperator" in config.combining.name; did you mean "separator"?'],
    ['units entries', 'config:\n  units: {t: {from: null, to: null, form: x}}\n', 'job.yaml:4:37: unknown key "form" in config.units.t; did you mean "from"?'],
    ['impute entries', 'config:\n  impute: {country: {method: fill, value: US, fillValue: US}}\n', 'job.yaml:4:47: unknown key "fillValue" in config.impute.country; remove it or use one of method, value.'],
    ['pivot', 'config:\n  pivot: {pivotColumns: [a], valueColumns: [b], indexColumns: [c], aggregation: first}\n', 'job.yaml:4:68: unknown key "aggregation" in config.pivot; did you mean "aggregationMethod"?'],
    ['rowDropping items', 'config:\n  rowDropping:\n    - {method: missingValues, fields: [id], why: x}\n', 'job.yaml:5:45: unknown key "why" in config.rowDropping[0]; remove it or use one of method, fields.'],
    ['text', 'config:\n  text: {casings: {a: upper}}\n', 'job.yaml:4:10: unknown key "casings" in config.text; did you mean "casing"?'],
  ])('applies in %s', async (_where, lines, message) => {
    const text = lines.startsWith('version') ? lines : `${HEAD}${lines}`;
    expect(await problems(text)).toEqual([message]);
  });

  it('does not apply to maps keyed by field, column or script id', async () => {
    const job = await load(`${HEAD}config:\n  dataTypes: {amont: number}\n  mapping: {mappings: x}\nlocalScripts: {version: ./v.mjs}\n`);
    expect(job.config.dataTypes).toEqual({ amont: 'number' });
    expect(job.config.mapping).toEqual({ mappings: 'x' });
  });
});

describe('input', () => {
  it('is required', async () => {
    expect(await problems('version: 1\nname: x\n')).toEqual([
      'job.yaml:1:1: "input" is missing; add "input:" with one of file, googleSheet, rows or rowsFile.',
    ]);
  });

  it('needs one data source', async () => {
    expect(await problems('version: 1\ninput: {}\n')).toEqual([
      'job.yaml:2:1: input names no data; add one of file, googleSheet, rows or rowsFile.',
    ]);
  });

  it('takes exactly one data source', async () => {
    expect(await problems('version: 1\ninput:\n  file: a.csv\n  rows: [{id: 1}]\n')).toEqual([
      'job.yaml:4:3: input has both "file" and "rows"; keep exactly one of file, googleSheet, rows or rowsFile.',
    ]);
  });

  it('checks the form of a Google Sheets link at its line, offline', async () => {
    expect(await problems('version: 1\ninput:\n  googleSheet:\n    url: https://docs.google.com/spreadsheets/d/e/2PACX-1/pubhtml\n    sheet: S\n')).toEqual([
      'job.yaml:4:10: input.googleSheet.url: "https://docs.google.com/spreadsheets/d/e/2PACX-1/pubhtml" is not a Google Sheets link (a "Publish to the web" link cannot be exported as a workbook; share the sheet and use its sharing link); copy it with Share > Copy link, in the form https://docs.google.com/spreadsheets/d/<id>/edit (also /edit#gid=N or /view, with or without ?usp=sharing).',
    ]);
    const job = await load('version: 1\ninput:\n  googleSheet: {url: "https://docs.google.com/spreadsheets/d/1AbC_d-9/edit?usp=sharing#gid=0", sheet: S}\n');
    expect(job.input.googleSheet).toEqual({ url: 'https://docs.google.com/spreadsheets/d/1AbC_d-9/edit?usp=sharing#gid=0', sheet: 'S' });
    // A mirror named by IMPORT_SHEETS_BASE_URL is a host links may use.
    expect(await problems('version: 1\ninput:\n  googleSheet: {url: "http://127.0.0.1:9/spreadsheets/d/abc/view", sheet: S}\n', { IMPORT_SHEETS_BASE_URL: 'http://127.0.0.1:9' })).toEqual([]);
  });

  it('needs url and sheet for a Google sheet', async () => {
    expect(await problems('version: 1\ninput:\n  googleSheet: {url: "https://docs.google.com/spreadsheets/d/a"}\n')).toEqual([
      'job.yaml:3:3: input.googleSheet is missing "sheet"; add the sheet name.',
    ]);
  });

  it('keeps inline rows as row objects', async () => {
    const job = await load('version: 1\ninput:\n  rows: [{id: 1, name: Ann, vip: true, note: null}]\n');
    expect(job.input).toEqual({ rows: [{ id: 1, name: 'Ann', vip: true, note: null }] });
    expect(await problems('version: 1\ninput:\n  rows: [1, {id: 2}]\n')).toEqual([
      'job.yaml:3:10: input.rows[0] must be a mapping of column: value; got 1.',
    ]);
  });

  it('needs a path for file and rowsFile', async () => {
    expect(await problems('version: 1\ninput: {rowsFile: [a.json]}\n')).toEqual([
      'job.yaml:2:19: input.rowsFile must be text; got a list.',
    ]);
  });
});

describe('pipeline and name', () => {
  it('takes an id or a non-empty list of ids', async () => {
    expect((await load(`${HEAD}pipeline: [pl_a, pl_b]\n`)).pipeline).toEqual(['pl_a', 'pl_b']);
    expect((await load(`${HEAD}pipeline: 2024\n`)).pipeline).toBe('2024');
    expect(await problems(`${HEAD}pipeline: []\n`)).toEqual(['job.yaml:3:11: pipeline is an empty list; list at least one name.']);
    expect(await problems(`${HEAD}pipeline: {id: x}\n`)).toEqual(['job.yaml:3:11: pipeline must be text; got a mapping.']);
  });

  it('asks to quote a name YAML reads as a boolean', async () => {
    expect(await problems(`${HEAD}name: true\n`)).toEqual([
      'job.yaml:3:7: name must be text; got true, so quote it if you mean the text "true".',
    ]);
  });
});

describe('options and scripts', () => {
  it('needs booleans for the flags', async () => {
    expect(await problems(`${HEAD}options: {useFullData: "yes", useVariableFields: 0}\n`)).toEqual([
      'job.yaml:3:24: options.useFullData must be true or false; got "yes".',
      'job.yaml:3:50: options.useVariableFields must be true or false; got 0.',
    ]);
  });

  it('normalises outputFileType in any case and refuses other types', async () => {
    expect((await load(`${HEAD}options: {outputFileType: EXCEL}\n`)).options).toEqual({ outputFileType: 'excel' });
    expect(await problems(`${HEAD}options: {outputFileType: xlsx}\n`)).toEqual([
      'job.yaml:3:27: "xlsx" is not a valid output file type in options.outputFileType; use one of csv, excel.',
    ]);
  });

  it('needs a list of script ids', async () => {
    expect((await load(`${HEAD}scripts: {preColumnMapping: [a, b]}\n`)).scripts).toEqual({ preColumnMapping: ['a', 'b'] });
    expect(await problems(`${HEAD}scripts: {preColumnMapping: a}\n`)).toEqual([
      'job.yaml:3:29: scripts.preColumnMapping must be a list of names, such as [a, b]; got "a".',
    ]);
  });
});

describe('config', () => {
  it('maps columns to a field name or null', async () => {
    expect(await problems(`${HEAD}config:\n  mapping:\n    First: [full_name]\n`)).toEqual([
      'job.yaml:5:12: config.mapping.First must be a field name, or null to leave the column unmapped; got a list.',
    ]);
  });

  it('needs allowColumnCombining: true for combining', async () => {
    expect(await problems(`${HEAD}config:\n  combining:\n    full_name: {method: json}\n`)).toEqual([
      'job.yaml:4:3: config.combining needs "allowColumnCombining: true" in config, since columns are combined only then; add it or remove combining.',
    ]);
    expect(await problems(`${HEAD}config:\n  allowColumnCombining: false\n  combining: {}\n`)).toHaveLength(1);
  });

  it('matches combining methods in any case and sends the seed spelling', async () => {
    const job = await load(`${HEAD}config:\n  allowColumnCombining: true\n  combining:\n    a: {method: JSON}\n    b: {method: StringAppend, separator: "", order: [x, y]}\n    c: {}\n`);
    expect(job.config.combining).toEqual({
      a: { method: 'json' },
      b: { method: 'stringAppend', separator: '', order: ['x', 'y'] },
      c: {},
    });
  });

  it('refuses an unknown combining method, a non-text separator and an order that is not a list', async () => {
    expect(await problems(`${HEAD}config:\n  allowColumnCombining: true\n  combining:\n    a: {method: concat, separator: [x], order: x}\n`)).toEqual([
      'job.yaml:6:17: "concat" is not a valid combining method in config.combining.a.method; use one of stringAppend, json.',
      'job.yaml:6:36: config.combining.a.separator must be text; got a list.',
      'job.yaml:6:48: config.combining.a.order must be a list of names, such as [a, b]; got "x".',
    ]);
  });

  it('matches data types in any case and suggests the close one', async () => {
    expect((await load(`${HEAD}config:\n  dataTypes: {a: Number, b: DATE_TIME}\n`)).config.dataTypes).toEqual({ a: 'number', b: 'date_time' });
    expect(await problems(`${HEAD}config:\n  dataTypes:\n    amount: text\n`)).toEqual([
      'job.yaml:5:13: "text" is not a valid data type in config.dataTypes.amount; use one of number, rich_text, category, date_time.',
    ]);
  });

  it('needs both units or both null', async () => {
    expect((await load(`${HEAD}config:\n  units: {a: {from: null, to: null}, b: {from: UTC_m5.5, to: UTC_p0}, c: {from: km, to: mi}}\n`)).config.units).toEqual({
      a: { from: null, to: null },
      b: { from: 'UTC_m5.5', to: 'UTC_p0' },
      c: { from: 'km', to: 'mi' },
    });
    expect(await problems(`${HEAD}config:\n  units:\n    created_at: {from: UTC_m5, to: null}\n    b: {from: UTC_m5}\n`)).toEqual([
      'job.yaml:5:36: config.units.created_at.to is null but the other is not; set both from and to, or both to null.',
      'job.yaml:6:5: config.units.b is missing "to"; set both from and to, or both to null for no conversion.',
    ]);
  });

  it('refuses malformed UTC deltas and units the engine does not know', async () => {
    expect(await problems(`${HEAD}config:\n  units:\n    a: {from: UTC+5, to: UTC_p0}\n    b: {from: kg, to: km}\n    c: {from: furlong, to: m}\n`)).toEqual([
      'job.yaml:5:15: "UTC+5" in config.units.a.from is not a valid UTC delta; write UTC_p<n> for UTC+n hours or UTC_m<n> for UTC-n hours, such as UTC_p5.5.',
      'job.yaml:6:5: config.units.b: cannot convert from kg (mass) to km (length).',
      expect.stringMatching(/^job\.yaml:7:15: config\.units\.c\.from: unit "furlong" is not known; known units: UTC_p<n>, .*km.*\.$/),
    ]);
  });

  it('needs a value for fill and none for the other impute methods', async () => {
    const job = await load(`${HEAD}config:\n  impute: {a: {method: Fill, value: 0}, b: {method: dropmissing}, c: {method: null}}\n`);
    expect(job.config.impute).toEqual({ a: { method: 'fill', value: 0 }, b: { method: 'dropMissing' }, c: { method: null } });
    expect(await problems(`${HEAD}config:\n  impute:\n    a: {method: fill}\n    b: {method: dropMissing, value: x}\n    c: {value: x}\n    d: {method: mean}\n`)).toEqual([
      'job.yaml:5:5: config.impute.a uses method fill but has no "value"; add the value that replaces missing ones.',
      'job.yaml:6:30: config.impute.b.value is used only with method fill; remove it or set method: fill.',
      'job.yaml:7:5: config.impute.c is missing "method"; set method: fill (with a value), dropMissing or null.',
      'job.yaml:8:17: "mean" is not a valid impute method (or null) in config.impute.d.method; use one of fill, dropMissing.',
    ]);
  });

  it('needs three non-empty pivot lists and defaults the aggregation to first', async () => {
    expect((await load(`${HEAD}config:\n  pivot: {pivotColumns: [m], valueColumns: [v], indexColumns: [id]}\n`)).config.pivot).toEqual({
      pivotColumns: ['m'], valueColumns: ['v'], indexColumns: ['id'], aggregationMethod: 'first',
    });
    expect(await problems(`${HEAD}config:\n  pivot:\n    pivotColumns: []\n    indexColumns: [id]\n    aggregationMethod: last\n`)).toEqual([
      'job.yaml:4:3: config.pivot is missing "valueColumns"; add a list of column names.',
      'job.yaml:5:19: config.pivot.pivotColumns is an empty list; list at least one name.',
      'job.yaml:7:24: "last" is not a valid aggregation method in config.pivot.aggregationMethod; use one of first.',
    ]);
  });

  it('needs a method and a non-empty list of fields for each row dropping rule', async () => {
    expect((await load(`${HEAD}config:\n  rowDropping: [{method: DuplicateValues, fields: [id]}]\n`)).config.rowDropping).toEqual([
      { method: 'duplicateValues', fields: ['id'] },
    ]);
    expect(await problems(`${HEAD}config:\n  rowDropping:\n    - {method: missingValue, fields: [id]}\n    - {method: duplicateValues, fields: []}\n    - {fields: [id]}\n`)).toEqual([
      'job.yaml:5:16: "missingValue" is not a valid row dropping method in config.rowDropping[0].method; did you mean "missingValues"?',
      'job.yaml:6:41: config.rowDropping[1].fields is an empty list; list at least one name.',
      'job.yaml:7:7: config.rowDropping[2] is missing "method"; add missingValues or duplicateValues.',
    ]);
    expect(await problems(`${HEAD}config:\n  rowDropping: {method: missingValues}\n`)).toEqual([
      'job.yaml:4:16: config.rowDropping must be a list of {method, fields} rules; got a mapping.',
    ]);
  });

  it('compiles each regex pattern and needs text replacements', async () => {
    expect((await load(`${HEAD}config:\n  text:\n    regexReplacement:\n      phone: {"[^0-9]": "", "^(\\\\d{3})": "($1)"}\n`)).config.text).toEqual({
      regexReplacement: { phone: new Map([['[^0-9]', ''], ['^(\\d{3})', '($1)']]) },
    });
    expect(await problems(`${HEAD}config:\n  text:\n    regexReplacement:\n      phone: {"(a": x, "b": [y], "c": }\n`)).toEqual([
      'job.yaml:6:15: pattern "(a" in config.text.regexReplacement.phone does not compile (/(a/g: Unterminated group); fix or escape it.',
      'job.yaml:6:29: replacement for "b" in config.text.regexReplacement.phone must be text; got a list.',
      'job.yaml:6:34: replacement for "c" in config.text.regexReplacement.phone is missing; write "" to delete what matches.',
    ]);
  });

  it('matches casing values in any case and refuses others', async () => {
    expect((await load(`${HEAD}config:\n  text: {casing: {a: UPPER, b: Title, c: swap, d: lower}}\n`)).config.text).toEqual({
      casing: { a: 'upper', b: 'title', c: 'swap', d: 'lower' },
    });
    expect(await problems(`${HEAD}config:\n  text: {casing: {a: uper}}\n`)).toEqual([
      'job.yaml:4:22: "uper" is not a valid casing in config.text.casing.a; did you mean "upper"?',
    ]);
  });

  it('warns about capitalize, which the seed does not list', async () => {
    await writeFile(join(dir, 'job.yaml'), `${HEAD}config:\n  text: {casing: {a: Capitalize}}\n`);
    const { job, warnings } = await loadJobFileWithWarnings('job.yaml', {});
    expect(job.config.text?.casing).toEqual({ a: 'capitalize' });
    expect(warnings.map((w) => `${w.line}:${w.col}`)).toEqual(['4:22']);
  });
});

describe('run, review and localScripts', () => {
  it('waits by default and takes a webhook URL', async () => {
    expect((await load(`${HEAD}run: {webhookUrl: https://h.example/run}\n`)).run).toEqual({ wait: true, webhookUrl: 'https://h.example/run' });
    expect((await load(`${HEAD}run: {wait: false}\n`)).run).toEqual({ wait: false });
  });

  it('needs minConfidence between 0 and 1', async () => {
    expect((await load(`${HEAD}review: {minConfidence: 0}\n`)).review).toEqual({ minConfidence: 0 });
    expect(await problems(`${HEAD}review: {minConfidence: 80}\n`)).toEqual([
      'job.yaml:3:25: review.minConfidence must be a number from 0 to 1, such as 0.8; got 80.',
    ]);
  });

  it('needs a path for each local script', async () => {
    expect(await problems(`${HEAD}localScripts: {clean: true}\n`)).toEqual([
      'job.yaml:3:23: localScripts.clean must be text; got true, so quote it if you mean the text "true".',
    ]);
  });
});

describe('schema', () => {
  it('normalises with defaults and lists optional fields among the expected ones', async () => {
    const job = await load(`${HEAD}schema:\n  expectedFields: [id]\n  optionalFields: [phone]\n  imputeMethods: {phone: FILL}\n`);
    expect(job.schema).toEqual({
      expectedFields: ['id', 'phone'],
      optionalFields: ['phone'],
      fieldDataTypes: {},
      fieldUnits: {},
      imputeMethods: { phone: 'fill' },
      rowDropping: [],
    });
  });

  it('checks data types, units, impute methods and row dropping like config', async () => {
    expect(await problems(`${HEAD}schema:\n  fieldDataTypes: {id: int}\n  fieldUnits: {t: UTC_p}\n  imputeMethods: {c: zero}\n  rowDropping: [{method: missingValues}]\n`)).toEqual([
      'job.yaml:4:24: "int" is not a valid data type in schema.fieldDataTypes.id; use one of number, rich_text, category, date_time.',
      'job.yaml:5:19: "UTC_p" in schema.fieldUnits.t is not a valid UTC delta; write UTC_p<n> for UTC+n hours or UTC_m<n> for UTC-n hours, such as UTC_p5.5.',
      'job.yaml:6:22: "zero" is not a valid impute method (or null) in schema.imputeMethods.c; use one of fill, dropMissing.',
      'job.yaml:7:17: schema.rowDropping[0] is missing "fields"; add a list of field names.',
    ]);
  });

  it('refuses schema maps that name a field missing from expectedFields', async () => {
    expect(await problems(`${HEAD}schema:\n  expectedFields: [id, amount]\n  fieldDataTypes: {amont: number}\n`)).toEqual([
      'job.yaml:5:20: schema.fieldDataTypes names "amont", which is not in expectedFields or optionalFields; did you mean "amount"?',
    ]);
  });
});

describe('environment variables', () => {
  it('are substituted wherever a string value is read', async () => {
    const job = await load(`${HEAD}options: {outputFileType: "\${TYPE}"}\nconfig: {sheet: "Sheet \${N}"}\n`, { TYPE: 'Excel', N: '2' });
    expect(job.options.outputFileType).toBe('excel');
    expect(job.config.sheet).toBe('Sheet 2');
  });

  it('reports an unset variable at its reference inside the value', async () => {
    expect(await problems(`${HEAD}name: "import-\${STAGE}-\${DAY}"\n`, { DAY: 'mon' })).toEqual([
      'job.yaml:3:15: environment variable STAGE is not set; export it or remove ${STAGE}.',
    ]);
  });
});

describe('validateJobFileText', () => {
  it('validates text without touching the disk', () => {
    const result = validateJobFileText('version: 1\ninput: {file: in.csv}\n', { path: '/jobs/job.yaml', displayPath: 'job.yaml', env: {} });
    expect(result.problems).toEqual([]);
    expect(result.job?.input.file).toBe('/jobs/in.csv');
  });
});

describe('substituteEnv', () => {
  it('replaces set variables, keeps escapes literal and lists unset ones', () => {
    expect(substituteEnv('a${X}b$${Y}c${Z}', { X: '1' })).toEqual({
      value: 'a1b${Y}c${Z}',
      missing: [{ name: 'Z', index: 12, ordinal: 1 }],
    });
    expect(substituteEnv('${EMPTY}', { EMPTY: '' }).value).toBe('');
  });
});

describe('suggestKey', () => {
  it('counts a swap of neighbours as one edit', () => {
    expect(editDistance('wiat', 'wait')).toBe(1);
    expect(editDistance('mapping', 'mappings')).toBe(1);
  });

  it('suggests the closest key, a case variant or a prefix, and nothing far away', () => {
    const keys = ['sheet', 'mapping', 'allowColumnCombining', 'combining', 'dataTypes'];
    expect(suggestKey('mappings', keys)).toBe('mapping');
    expect(suggestKey('DataTypes', keys)).toBe('dataTypes');
    expect(suggestKey('allowColumn', keys)).toBe('allowColumnCombining');
    expect(suggestKey('xyz', keys)).toBeUndefined();
    expect(suggestKey('units', keys)).toBeUndefined();
  });
});
