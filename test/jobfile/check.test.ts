import { describe, expect, it } from 'vitest';
import type { JobResources } from '../../src/contract/index.js';
import { checkJobFile, requiredFieldsWithoutColumn, type KnownFacts } from '../../src/jobfile/check.js';
import { desiredBodies } from '../../src/jobfile/translate.js';
import type { JobFile } from '../../src/jobfile/types.js';
import { validateJobFileText } from '../../src/jobfile/validate.js';
import { emptyResources } from '../../src/cli/resource-bodies.js';

/** A job file from its text (it must be valid). */
function job(text: string): JobFile {
  const result = validateJobFileText(`version: 1\ninput: {file: in.csv}\n${text}`, { path: '/jobs/job.yaml', displayPath: 'job.yaml', env: {} });
  if (!result.job) throw new Error(result.problems.map((p) => p.message).join('\n'));
  return result.job;
}

/** `file:line:col: message` of each problem. */
function problems(text: string, facts: KnownFacts): string[] {
  return checkJobFile(job(text), facts, 'job.yaml').map((p) => `${p.file}:${p.line}:${p.col}: ${p.message}`);
}

const columns = { names: ['Customer ID', 'First', 'Last', 'E-mail'], from: 'in.csv' };
const fields = { expected: ['id', 'full_name', 'email', 'phone'], optional: ['phone'], from: "the pipeline's schema in job.yaml" };

describe('checkJobFile', () => {
  it('accepts a job file whose columns and fields all exist', () => {
    expect(problems('config:\n  mapping: {Customer ID: id, First: full_name, Last: full_name, E-mail: null}\n  allowColumnCombining: true\n  combining: {full_name: {order: [First, Last]}}\n  dataTypes: {id: number}\n  text: {casing: {full_name: title}}\n', { columns, fields })).toEqual([]);
  });

  it('names a mapped column the input does not have, with the columns it has and a close one', () => {
    expect(problems('config:\n  mapping:\n    Frist: full_name\n    Contact: email\n', { columns, fields })).toEqual([
      'job.yaml:5:5: column "Frist" in config.mapping is not in in.csv, whose columns are Customer ID, First, Last, E-mail; did you mean "First"?',
      'job.yaml:6:5: column "Contact" in config.mapping is not in in.csv, whose columns are Customer ID, First, Last, E-mail; rename it to one of them or remove it.',
    ]);
  });

  it('stops two columns mapped to one field without allowColumnCombining, at the second, with nothing else known', () => {
    expect(problems('config:\n  mapping:\n    First: full_name\n    Last: full_name\n    E-mail: email\n', {})).toEqual([
      'job.yaml:6:5: config.mapping maps both "First" and "Last" to "full_name", but only one column may map to a field unless columns are combined; map one of them elsewhere (or to null), or add "allowColumnCombining: true" to config.',
    ]);
    expect(problems('config:\n  mapping: {First: full_name, Last: full_name}\n  allowColumnCombining: true\n', {})).toEqual([]);
    expect(problems('config:\n  mapping: {First: full_name, Last: null, E-mail: null}\n', {})).toEqual([]);
  });

  it('stops a webhook URL that is not http(s), an output name of the other format, and a fill value that is not of the field\'s type, with nothing else known', () => {
    expect(problems('options: {webhookUrl: hooks.example.com/start}\nrun: {webhookUrl: "https://example.com/run"}\n', {})).toEqual([
      'job.yaml:3:11: options.webhookUrl "hooks.example.com/start" is not an http(s) URL; write it in full, such as https://example.com/hook.',
    ]);
    expect(problems('options: {destinationFileName: out.csv, outputFileType: excel}\n', {})).toEqual([
      'job.yaml:3:11: options.destinationFileName "out.csv" ends in .csv, but the output is Excel (options.outputFileType: excel); name it .xlsx or set outputFileType: csv.',
    ]);
    expect(problems('options: {destinationFileName: out.xlsx}\n', {})[0]).toMatch(/ends in \.xlsx, but the output is CSV .*set outputFileType: excel\.$/);
    expect(problems('options: {destinationFileName: out.XLSX, outputFileType: excel}\n', {})).toEqual([]);
    const text = 'config:\n  impute: {amount: {method: fill, value: n/a}, when: {method: fill, value: "2024-02-30"}, total: {method: fill, value: "1,234.5"}}\n  dataTypes: {amount: number, total: number}\n';
    const schema = 'schema:\n  expectedFields: [amount, when, total]\n  fieldDataTypes: {when: date_time}\n';
    expect(problems(text + schema, {})).toEqual([
      'job.yaml:4:35: config.impute.amount.value: Fill value "n/a" for field "amount" is not a number, but the field\'s data type is number; write a value of that type or change the field\'s type.',
      'job.yaml:4:69: config.impute.when.value: Fill value "2024-02-30" for field "when" is not a date, but the field\'s data type is date_time; write it as YYYY-MM-DD or YYYY-MM-DDTHH:mm:ss.',
    ]);
  });

  it('stops a unit conversion that does not fit the type the job file gives the field, and leaves untyped fields to the run', () => {
    const text = 'config:\n  dataTypes: {distance: number}\n  units:\n    amount: {from: UTC_m5, to: UTC_p0}\n    created: {from: km, to: mi}\n    distance: {from: km, to: mi}\n    shipped: {from: UTC_m5, to: UTC_p0}\n    other: {from: km, to: mi}\n';
    const schema = 'schema:\n  expectedFields: [amount, created, distance, shipped, other]\n  fieldDataTypes: {amount: number, created: date_time, shipped: date_time}\n';
    expect(problems(text + schema, {})).toEqual([
      'job.yaml:6:5: config.units.amount converts UTC_m5 → UTC_p0, which needs data type date_time, but the field is number; set its data type to date_time or remove the conversion.',
      'job.yaml:7:5: config.units.created converts km → mi, which needs data type number, but the field is date_time; set its data type to number or remove the conversion.',
    ]);
  });

  it('reads a field named __proto__ as any other: its type only from the job file\'s own keys', () => {
    const text = 'config:\n  impute: {__proto__: {method: fill, value: abc}}\n  units:\n    __proto__: {from: km, to: mi}\n';
    expect(problems(text + 'schema:\n  expectedFields: [__proto__]\n', {})).toEqual([]);
    expect(problems(text + 'schema:\n  expectedFields: [__proto__]\n  fieldDataTypes: {__proto__: number}\n', {})).toEqual([
      'job.yaml:4:38: config.impute.__proto__.value: Fill value "abc" for field "__proto__" is not a number, but the field\'s data type is number; write a value of that type or change the field\'s type.',
    ]);
    expect(problems(text + 'schema:\n  expectedFields: [__proto__]\n  fieldDataTypes: {__proto__: date_time}\n', {})[1]).toBe(
      'job.yaml:6:5: config.units.__proto__ converts km → mi, which needs data type number, but the field is date_time; set its data type to number or remove the conversion.',
    );
  });

  it('stops a combining order that leaves out a column the mapping gives the field, or repeats one, with nothing else known', () => {
    const base = 'config:\n  mapping: {First: full_name, Last: full_name}\n  allowColumnCombining: true\n  combining:\n    full_name: {separator: " ", order: ';
    expect(problems(`${base}[First]}\n`, {})).toEqual([
      'job.yaml:7:33: config.combining.full_name.order leaves out "Last", which config.mapping maps to "full_name"; list every column mapped to it, each once.',
    ]);
    expect(problems(`${base}[Last, First, Last]}\n`, {})).toEqual([
      'job.yaml:7:54: config.combining.full_name.order lists "Last" twice; list each column once.',
    ]);
    expect(problems(`${base}[Last, First]}\n`, {})).toEqual([]);
  });

  it('names a field the pipeline does not have', () => {
    expect(problems('config:\n  mapping:\n    First: ful_name\n', { columns, fields })).toEqual([
      'job.yaml:5:5: config.mapping maps "First" to "ful_name", which is not a field of the pipeline\'s schema in job.yaml (id, full_name, email, phone); did you mean "full_name"?',
    ]);
  });

  it('names data types, impute, text, units, row dropping and pivot entries for a field that is neither expected nor mapped', () => {
    const text = [
      'config:',
      '  mapping: {First: nickname}',
      '  dataTypes: {amont: number, nickname: rich_text}',
      '  impute: {contry: {method: dropMissing}}',
      '  units: {t: {from: null, to: null}}',
      '  text: {casing: {nme: title}, regexReplacement: {phon: {"x": ""}}}',
      '  rowDropping: [{method: missingValues, fields: [id, mail]}]',
      '  pivot: {pivotColumns: [metric], valueColumns: [email], indexColumns: [id]}',
      '',
    ].join('\n');
    const found = problems(text, { columns, fields: { ...fields, expected: [...fields.expected, 'nickname'] } });
    expect(found.map((p) => p.replace(/, but .*; /, ': '))).toEqual([
      'job.yaml:5:15: config.dataTypes names the field "amont": fix the name or map a column to it under config.mapping.',
      'job.yaml:6:12: config.impute names the field "contry": fix the name or map a column to it under config.mapping.',
      'job.yaml:7:11: config.units names the field "t": fix the name or map a column to it under config.mapping.',
      'job.yaml:8:19: config.text.casing names the field "nme": fix the name or map a column to it under config.mapping.',
      'job.yaml:8:51: config.text.regexReplacement names the field "phon": did you mean "phone"?',
      'job.yaml:9:54: config.rowDropping[0].fields names the field "mail": did you mean "email"?',
      'job.yaml:10:26: config.pivot.pivotColumns names the field "metric": fix the name or map a column to it under config.mapping.',
    ]);
    expect(found[0]).toContain(', but the pipeline\'s schema in job.yaml does not have it and config.mapping does not map a column to it; ');
  });

  it('with no pipeline fields known, takes the suggested fields (a dry run: the columns)', () => {
    const suggestedFields = { names: columns.names, from: 'in.csv (no schema: each column is its own field)' };
    expect(problems('config:\n  mapping: {First: name}\n  dataTypes: {name: rich_text, Last: category, Frist: number}\n', { columns, suggestedFields })).toEqual([
      'job.yaml:5:48: config.dataTypes names the field "Frist", but it is not a field of in.csv (no schema: each column is its own field) and config.mapping does not map a column to it; did you mean "First"?',
    ]);
  });

  it('with no fields known, stops a setting for a field whose own column the mapping sends elsewhere, from the header alone', () => {
    const cols = { names: ['id', 'notes', 'remark'], from: 'in.csv' };
    expect(problems('config:\n  mapping: {notes: null}\n  dataTypes: {notes: rich_text, other: number}\n', { columns: cols })).toEqual([
      'job.yaml:5:15: config.dataTypes names the field "notes", but config.mapping maps the column "notes" to nothing, so no column gives "notes"; map a column to "notes" or remove this entry.',
    ]);
    expect(problems('config:\n  mapping: {notes: comment}\n  text: {casing: {notes: upper}}\n', { columns: cols })).toEqual([
      'job.yaml:5:19: config.text.casing names the field "notes", but config.mapping maps the column "notes" to "comment", so no column gives "notes"; name the field "comment" here.',
    ]);
    // Another column mapped to it still gives it; without the header nothing is known.
    expect(problems('config:\n  mapping: {notes: null, remark: notes}\n  dataTypes: {notes: rich_text}\n', { columns: cols })).toEqual([]);
    expect(problems('config:\n  mapping: {notes: null}\n  dataTypes: {notes: rich_text}\n', {})).toEqual([]);
  });

  it('checks combining order columns: in the input and mapped to that field', () => {
    expect(problems('config:\n  mapping: {First: full_name, Last: email}\n  allowColumnCombining: true\n  combining:\n    full_name: {order: [First, Lst, Last]}\n', { columns, fields })).toEqual([
      'job.yaml:7:32: column "Lst" in config.combining.full_name.order is not in in.csv, whose columns are Customer ID, First, Last, E-mail; did you mean "Last"?',
      'job.yaml:7:37: column "Last" in config.combining.full_name.order is mapped to "email" in config.mapping, not to "full_name"; map it to "full_name" or remove it from the order.',
    ]);
  });

  it('names a sheet the workbook does not have', () => {
    expect(problems('config: {sheet: Ordres}\n', { sheets: { names: ['Notes', 'Orders'], from: 'orders.xlsx' } })).toEqual([
      'job.yaml:3:10: sheet "Ordres" in config.sheet is not in orders.xlsx, whose sheets are Notes, Orders; did you mean "Orders"?',
    ]);
  });

  it('checks nothing it does not know: no columns, no fields', () => {
    expect(problems('config:\n  mapping: {Nope: nothing}\n  dataTypes: {who: number}\n', {})).toEqual([]);
  });

  it('treats __proto__ and "1962" as ordinary column names', () => {
    const facts = { columns: { names: ['__proto__', '1962'], from: 'in.csv' } };
    expect(problems('config:\n  mapping: {__proto__: a, "1962": b}\n', facts)).toEqual([]);
    expect(problems('config:\n  mapping: {constructor: a}\n', facts)).toHaveLength(1);
  });
});

describe('requiredFieldsWithoutColumn', () => {
  const resources = (): JobResources => {
    const r = emptyResources();
    r.fields = {
      expectedFields: ['id', 'email', 'joined', 'phone'], optionalFields: ['phone'], inputColumns: ['ID', 'Mail', 'Joined'],
      columnFieldMapping: { 'in.csv': { ID: { field: 'id', confidence: 1 }, Mail: { field: 'email', confidence: 0.6 } } },
    };
    return r;
  };

  it('lists required fields no column is mapped to, with a line that maps one', () => {
    expect(requiredFieldsWithoutColumn(desiredBodies({}, resources()), resources().fields)).toEqual([
      { field: 'joined', suggestion: 'Joined: joined' },
    ]);
  });

  it('follows the job file: a pin fills a field, an unmapping empties one; optional fields never count', () => {
    expect(requiredFieldsWithoutColumn(desiredBodies({ mapping: { Joined: 'joined' } }, resources()), resources().fields)).toEqual([]);
    expect(requiredFieldsWithoutColumn(desiredBodies({ mapping: { Joined: 'joined', Mail: null } }, resources()), resources().fields).map((f) => f.field)).toEqual(['email']);
  });
});
