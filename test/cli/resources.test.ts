import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';
import { json, startRecordingServer, type RecordingServer } from '../support/recording-server.js';
import { FIELDS, IMPUTE, KEY, PIVOT, RESOURCES, ROWS, SHEET, TEXT, TYPES, UNITS } from './reads.js';

let server: RecordingServer;
beforeAll(async () => { server = await startRecordingServer(); });
afterAll(async () => { await server.close(); });
beforeEach(() => {
  server.reset();
  for (const r of RESOURCES) {
    server.on(`GET ${r.get}/J1`, json(r.read));
    if (r.update) server.on(`POST ${r.update}/J1`, json({ ok: true }));
  }
});

const cli = (args: string[], o: Parameters<typeof runCli>[1] = {}) => runCli([...args, '--base-url', server.url, '--api-key', KEY], o);

/** The POST of an update, after checking the GET before it and the headers of both. */
function expectReadThenUpdate(getPath: string, updatePath: string): unknown {
  expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${getPath}`, `POST ${updatePath}`]);
  for (const r of server.requests) expect(r.headers['x-api-key']).toBe(KEY);
  expect(server.requests[1].headers['content-type']).toBe('application/json');
  return server.requests[1].json;
}

describe('<resource> get', () => {
  for (const r of RESOURCES) {
    it(`${r.noun} get sends GET ${r.get}/{jobId} and prints the body unchanged with -o json`, async () => {
      const res = await cli([r.noun, 'get', 'J1', '-o', 'json']);
      expect(res.stderr).toBe('');
      expect(res.exitCode).toBe(0);
      expect(JSON.parse(res.stdout)).toEqual(r.read);
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0].method).toBe('GET');
      expect(server.requests[0].url).toBe(`/public/client-side/v1${r.get}/J1`);
      expect(server.requests[0].headers['x-api-key']).toBe(KEY);
    });
  }

  it('prints a table with confidence as a number and a bar', async () => {
    const res = await cli(['fields', 'get', 'J1']);
    expect(res.exitCode).toBe(0);
    expect(res.stdout).toContain('First');
    expect(res.stdout).toContain('0.95 ██████████');
    expect(res.stdout).toContain('0.55 ██████░░░░');
    expect(res.stdout).toContain('(unmapped)');
    expect(res.stdout).toContain('Optional fields: phone');
    // NO_COLOR: no escape codes.
    expect(res.stdout).not.toContain('\u001b[');
  });

  it('prints YAML with -o yaml', async () => {
    const res = await cli(['types', 'get', 'J1', '-o', 'yaml']);
    expect(res.stdout).toContain('fieldDataTypes:\n  amount:\n    dataType: rich_text\n    confidence: 0.4');
  });

  it('encodes a job id with a slash and spaces', async () => {
    server.on('GET /pivot/a%2Fb%20c', json(PIVOT));
    const res = await cli(['pivot', 'get', 'a/b c']);
    expect(res.exitCode).toBe(0);
    expect(server.requests[0].url).toBe('/public/client-side/v1/pivot/a%2Fb%20c');
  });

  it('refuses an unknown resource with exit 2', async () => {
    const res = await cli(['colours', 'get', 'J1']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain("unknown command 'colours'");
    expect(server.requests).toHaveLength(0);
  });
});

describe('<resource> update with flags', () => {
  it('sheet update checks the name against sheets, then posts the selection to the fields path', async () => {
    const res = await cli(['sheet', 'update', 'J1', 'Q3 orders']);
    expect(res.exitCode).toBe(0);
    expect(expectReadThenUpdate('/selected-sheet/J1', '/fields/J1')).toEqual({ sheetSelection: { selected: 'Q3 orders' } });
    expect(res.stderr).toContain('Updated the selected sheet of job J1.');
  });

  it('sheet update lists the available sheets and sends nothing when the name is not one (exit 2)', async () => {
    const res = await cli(['sheet', 'update', 'J1', 'Q4']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toBe('error: Sheet "Q4" is not in job J1\'s workbook; available sheets: "Sheet1", "Q3 orders".\n');
    expect(server.requests.map((r) => r.method)).toEqual(['GET']);
  });

  it('fields update merges --map, --unmap and --allow-combining into the complete mapping', async () => {
    const res = await cli(['fields', 'update', 'J1', '--map', 'Notes=phone', '--unmap', 'E-mail', '--allow-combining']);
    expect(res.exitCode).toBe(0);
    expect(expectReadThenUpdate('/fields/J1', '/fields/J1')).toEqual({
      columnFieldMapping: { 'customers.csv': { First: { field: 'firstName' }, Last: { field: 'lastName' }, Notes: { field: 'phone' } } },
      allowColumnCombining: true,
    });
  });

  it('fields update refuses a column that is not an input column (exit 2, nothing posted)', async () => {
    const res = await cli(['fields', 'update', 'J1', '--map', 'Frist=firstName']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toBe('error: Column "Frist" is not an input column of job J1; did you mean "First"?\n');
    expect(server.requests).toHaveLength(1);
  });

  it('fields update refuses two columns on one field without --allow-combining', async () => {
    const res = await cli(['fields', 'update', 'J1', '--map', 'Notes=email']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain('Columns "Notes" and "E-mail" would both map to field "email"');
  });

  it('combining update sets one field\'s method, separator and order', async () => {
    const res = await cli(['combining', 'update', 'J1', '--field', 'name', '--method', 'json', '--separator', ' ', '--order', 'Last,First']);
    expect(res.exitCode).toBe(0);
    expect(expectReadThenUpdate('/column-combining-methods/J1', '/column-combining-methods/J1')).toEqual({
      columnsBeingCombined: { name: { method: 'json', methodConfig: { separator: ' ' }, combiningOrder: ['Last', 'First'] } },
    });
  });

  it('types update sends every field\'s type without confidence', async () => {
    const res = await cli(['types', 'update', 'J1', '--type', 'amount=number']);
    expect(res.exitCode).toBe(0);
    expect(expectReadThenUpdate('/field-data-types/J1', '/field-data-types/J1')).toEqual({
      fieldDataTypes: { amount: { dataType: 'number' }, name: { dataType: 'rich_text' } },
    });
  });

  it('units update sets from and to, and --clear-unit sets both null', async () => {
    let res = await cli(['units', 'update', 'J1', '--unit', 'signup=UTC_m5:UTC_p0']);
    expect(res.exitCode).toBe(0);
    expect(expectReadThenUpdate('/units/J1', '/units/J1')).toEqual({ fieldUnitConversions: { signup: { from: 'UTC_m5', to: 'UTC_p0' } } });
    server.requests.length = 0;
    res = await cli(['units', 'update', 'J1', '--clear-unit', 'signup']);
    expect(expectReadThenUpdate('/units/J1', '/units/J1')).toEqual({ fieldUnitConversions: { signup: { from: null, to: null } } });
  });

  it('impute update sends fill with its value, dropMissing and none', async () => {
    const res = await cli(['impute', 'update', 'J1', '--impute', 'country=fill:US', '--impute', 'email=dropMissing', '--impute', 'age=none']);
    expect(res.exitCode).toBe(0);
    expect(expectReadThenUpdate('/impute-methods/J1', '/impute-methods/J1')).toEqual({
      imputeMethods: { country: { imputeMethod: 'fill', imputeMethodConfig: { fillValue: 'US' } }, email: { imputeMethod: 'dropMissing' }, age: { imputeMethod: null } },
    });
  });

  it('pivot update replaces the given lists and keeps the others', async () => {
    const res = await cli(['pivot', 'update', 'J1', '--index-columns', 'date,store', '--aggregation', 'first']);
    expect(res.exitCode).toBe(0);
    expect(expectReadThenUpdate('/pivot/J1', '/pivot/J1')).toEqual({
      pivot: { pivotColumns: { columnNames: ['metric'] }, valueColumns: { columnNames: ['value'] }, indexColumns: { columnNames: ['date', 'store'], aggregationMethod: 'first' } },
    });
  });

  it('pivot update --clear sends pivot null', async () => {
    await cli(['pivot', 'update', 'J1', '--clear']);
    expect(expectReadThenUpdate('/pivot/J1', '/pivot/J1')).toEqual({ pivot: null });
  });

  it('row-dropping update replaces the additional list', async () => {
    const res = await cli(['row-dropping', 'update', 'J1', '--drop', 'missingValues:email', '--drop', 'duplicateValues:email,id']);
    expect(res.exitCode).toBe(0);
    expect(expectReadThenUpdate('/row-dropping-methods/J1', '/row-dropping-methods/J1')).toEqual({
      additionalRowDroppingMethods: [
        { method: 'missingValues', methodConfig: { fields: ['email'] } },
        { method: 'duplicateValues', methodConfig: { fields: ['email', 'id'] } },
      ],
    });
  });

  it('text update sets casing and keeps the regular expressions', async () => {
    const res = await cli(['text', 'update', 'J1', '--case', 'name=title']);
    expect(res.exitCode).toBe(0);
    expect(expectReadThenUpdate('/text-processing-methods/J1', '/text-processing-methods/J1')).toEqual({
      textProcessingMethods: { regexReplacement: { phone: { '[^0-9]': '' } }, casing: { name: 'title' } },
    });
  });

  it('text update --replace sets a field\'s whole rule list, sed style, and keeps other fields', async () => {
    const res = await cli(['text', 'update', 'J1', '--replace', 'notes=/\\s+/ /', '--replace', 'notes=s|(\\d+)/(\\d+)|$2-$1|', '--replace', 'phone=/[^0-9+]//']);
    expect(res.exitCode).toBe(0);
    expect(expectReadThenUpdate('/text-processing-methods/J1', '/text-processing-methods/J1')).toEqual({
      textProcessingMethods: {
        regexReplacement: { phone: { '[^0-9+]': '' }, notes: { '\\s+': ' ', '(\\d+)/(\\d+)': '$2-$1' } },
        casing: { name: 'capitalize' },
      },
    });
  });

  it('text update --replace takes an escaped delimiter in the expression and the replacement', async () => {
    const res = await cli(['text', 'update', 'J1', '--replace', 'path=/a\\/b/c\\/d/']);
    expect(res.exitCode).toBe(0);
    expect((expectReadThenUpdate('/text-processing-methods/J1', '/text-processing-methods/J1') as any).textProcessingMethods.regexReplacement.path)
      .toEqual({ 'a\\/b': 'c/d' });
  });

  it('text update --clear-replace leaves a field with no rules', async () => {
    const res = await cli(['text', 'update', 'J1', '--clear-replace', 'phone']);
    expect(res.exitCode).toBe(0);
    expect(expectReadThenUpdate('/text-processing-methods/J1', '/text-processing-methods/J1')).toEqual({
      textProcessingMethods: { regexReplacement: { phone: {} }, casing: { name: 'capitalize' } },
    });
  });

  it('text update accepts capitalize with a warning', async () => {
    const res = await cli(['text', 'update', 'J1', '--case', 'name=capitalize']);
    expect(res.exitCode).toBe(0);
    expect(res.stderr).toContain('warning: --case name=capitalize');
  });

  it('prints the body it sent, which --data accepts back', async () => {
    const res = await cli(['types', 'update', 'J1', '--type', 'amount=number', '-o', 'json']);
    expect(JSON.parse(res.stdout)).toEqual(server.requests[1].json);
  });

  it('scripts has no update', async () => {
    const res = await cli(['scripts', 'update', 'J1']);
    expect(res.exitCode).toBe(2);
    expect(server.requests).toHaveLength(0);
  });
});

describe('<resource> update with --data', () => {
  const dir = mkdtempSync(join(tmpdir(), 'import-data-'));

  it('takes JSON text: the whole body, which replaces the current value as the seed\'s update does', async () => {
    const res = await cli(['types', 'update', 'J1', '--data', '{"fieldDataTypes":{"amount":{"dataType":"number"}}}']);
    expect(res.exitCode).toBe(0);
    expect(expectReadThenUpdate('/field-data-types/J1', '/field-data-types/J1')).toEqual({
      fieldDataTypes: { amount: { dataType: 'number' } },
    });
  });

  it('takes @file, and flags override it', async () => {
    const file = join(dir, 'impute.json');
    writeFileSync(file, JSON.stringify({ imputeMethods: { country: { imputeMethod: 'fill', imputeMethodConfig: { fillValue: 'GB' } }, email: { imputeMethod: 'dropMissing' } } }));
    const res = await cli(['impute', 'update', 'J1', '--data', `@${file}`, '--impute', 'country=fill:US']);
    expect(res.exitCode).toBe(0);
    expect(expectReadThenUpdate('/impute-methods/J1', '/impute-methods/J1')).toEqual({
      imputeMethods: { country: { imputeMethod: 'fill', imputeMethodConfig: { fillValue: 'US' } }, email: { imputeMethod: 'dropMissing' } },
    });
  });

  it('takes - for stdin (a get -o json body edited and sent back)', async () => {
    const edited = structuredClone(ROWS) as any;
    edited.additionalRowDroppingMethods[0].methodConfig.fields = ['email', 'id'];
    const res = await cli(['row-dropping', 'update', 'J1', '--data', '-'], { input: JSON.stringify(edited) });
    expect(res.exitCode).toBe(0);
    expect(expectReadThenUpdate('/row-dropping-methods/J1', '/row-dropping-methods/J1')).toEqual({
      additionalRowDroppingMethods: [{ method: 'duplicateValues', methodConfig: { fields: ['email', 'id'] } }],
    });
  });

  it('sheet update takes the selection from --data', async () => {
    const res = await cli(['sheet', 'update', 'J1', '--data', '{"sheetSelection":{"selected":"Q3 orders"}}']);
    expect(res.exitCode).toBe(0);
    expect(expectReadThenUpdate('/selected-sheet/J1', '/fields/J1')).toEqual({ sheetSelection: { selected: 'Q3 orders' } });
  });

  it('pivot update with {"pivot": null} clears it', async () => {
    await cli(['pivot', 'update', 'J1', '--data', '{"pivot":null}']);
    expect(expectReadThenUpdate('/pivot/J1', '/pivot/J1')).toEqual({ pivot: null });
  });

  it('combining update sends the body in the seed\'s spelling (JSON -> json)', async () => {
    await cli(['combining', 'update', 'J1', '--data', '{"columnsBeingCombined":{"address":{"method":"JSON"}}}']);
    expect(expectReadThenUpdate('/column-combining-methods/J1', '/column-combining-methods/J1')).toEqual({
      columnsBeingCombined: { address: { method: 'json' } },
    });
  });

  it('lays flags over the --data body, not over the current value', async () => {
    await cli(['combining', 'update', 'J1', '--data', '{"columnsBeingCombined":{"address":{"method":"json"}}}', '--field', 'name', '--separator', '-']);
    expect(expectReadThenUpdate('/column-combining-methods/J1', '/column-combining-methods/J1')).toEqual({
      columnsBeingCombined: { address: { method: 'json' }, name: { methodConfig: { separator: '-' } } },
    });
  });

  it('refuses invalid JSON with exit 2 before any request', async () => {
    const res = await cli(['types', 'update', 'J1', '--data', '{"fieldDataTypes":']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toMatch(/^error: --data is not valid JSON \(/);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a missing @file with exit 2', async () => {
    const res = await cli(['types', 'update', 'J1', '--data', '@nope.json']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toBe('error: --data @nope.json: the file nope.json does not exist; pass a JSON file with the request body.\n');
  });

  it('refuses invalid values with exit 2 before any request', async () => {
    const res = await cli(['units', 'update', 'J1', '--data', '{"fieldUnitConversions":{"signup":{"from":"UTC_p1","to":null}}}']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toBe('error: --data: fieldUnitConversions.signup needs "from" and "to" both set (a conversion) or both null (none).\n');
    expect(server.requests).toHaveLength(0);
  });
});

describe('bad flags: one sentence, exit 2, nothing sent', () => {
  const cases: [string[], string][] = [
    [['fields', 'update', 'J1', '--map', 'nofield'], '--map "nofield" is not of the form <column>=<field>'],
    [['types', 'update', 'J1', '--type', 'amount=int'], '--type "amount=int": "int" is not a data type'],
    [['units', 'update', 'J1', '--unit', 'signup=UTC_p1'], '--unit "signup=UTC_p1" is not of the form <field>=<from>:<to>'],
    [['impute', 'update', 'J1', '--impute', 'x=mean'], '--impute "x=mean" is not of the form'],
    [['row-dropping', 'update', 'J1', '--drop', 'unique:email'], '--drop "unique:email": "unique" is not a row dropping method'],
    [['text', 'update', 'J1', '--case', 'name=camel'], '--case "name=camel": "camel" is not a casing'],
    [['pivot', 'update', 'J1', '--aggregation', 'sum'], '--aggregation "sum" is not supported'],
    [['text', 'update', 'J1', '--replace', 'phone'], '--replace "phone" is not of the form <field>=/<regex>/<replacement>/'],
    [['text', 'update', 'J1', '--replace', 'phone=/a/b'], '--replace "phone=/a/b" is not of the form <field>=/<regex>/<replacement>/'],
    [['text', 'update', 'J1', '--replace', 'phone=//x/'], '--replace "phone=//x/" has an empty regular expression'],
    [['text', 'update', 'J1', '--replace', 'phone=/[0-9/x/'], '--replace "phone=/[0-9/x/": the regular expression "[0-9" does not compile (/[0-9/g: Unterminated character class); fix or escape it.'],
    [['text', 'update', 'J1', '--replace', 'phone=/a/b/', '--clear-replace', 'phone'], '--replace and --clear-replace both name the field "phone"; keep one.'],
    [['combining', 'update', 'J1', '--method', 'json'], '--method, --separator and --order apply to one field'],
    [['types', 'update', 'J1'], 'Nothing to update for job J1'],
  ];
  for (const [args, message] of cases) {
    it(`${args.slice(0, 2).join(' ')} ${args.slice(3).join(' ') || '(no flags)'}`, async () => {
      const res = await cli(args);
      expect(res.exitCode).toBe(2);
      expect(res.stderr).toContain(message);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
      expect(server.requests).toHaveLength(0);
    });
  }
});

// Keep the fixtures referenced so an edit to one is noticed here.
void [SHEET, FIELDS, TYPES, UNITS, IMPUTE, TEXT];
