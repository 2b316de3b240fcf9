import { describe, expect, it } from 'vitest';
import { check, checkRead, checkUpdate, withoutReadOnly } from '../../src/contract/check.js';
import { isUnderBar } from '../../src/contract/index.js';
import { keysInOrder, parseJson, stringifyJson } from '../../src/contract/json.js';
import { RunAnswer, RunRequest, StartAnswer } from '../../src/contract/schemas.js';
import { currentBodies, fieldsUpdate, sameValue } from '../../src/contract/translate.js';

/** The value a check read, or the problem as one line. */
function read(result: ReturnType<typeof check>): unknown {
  return result.ok ? result.value : `${result.problem.path || '(body)'} ${result.problem.problem}`;
}

describe('tolerant reads: absent, null or {} means "not set"', () => {
  it('fills every member of a resource the service left out', () => {
    expect(read(checkRead('fields', { expectedFields: [] }))).toEqual({ expectedFields: [], optionalFields: [], inputColumns: [], columnFieldMapping: {} });
    expect(read(checkRead('fields', { expectedFields: ['a'], optionalFields: null, inputColumns: null, columnFieldMapping: null })))
      .toEqual({ expectedFields: ['a'], optionalFields: [], inputColumns: [], columnFieldMapping: {} });
    expect(read(checkRead('rowDropping', { presetRowDroppingMethods: null }))).toEqual({ presetRowDroppingMethods: [], additionalRowDroppingMethods: [] });
    expect(read(checkRead('scripts', { preColumnMapping: ['a'] }))).toEqual({ preColumnMapping: ['a'], postClean: [] });
    expect(read(checkRead('text', { textProcessingMethods: null }))).toEqual({ textProcessingMethods: {} });
  });

  it('reads a pivot that is absent, null, {} or without pivot or value columns as no pivot', () => {
    for (const body of [{}, { pivot: null }, { pivot: {} }, { pivot: { pivotColumns: { columnNames: ['a'] } } }, { pivot: { pivotColumns: {}, valueColumns: { columnNames: ['b'] } } }]) {
      expect(read(checkRead('pivot', body)), JSON.stringify(body)).toEqual({ pivot: null });
    }
    expect(read(checkRead('pivot', { pivot: { pivotColumns: { columnNames: ['a'] }, valueColumns: { columnNames: ['b'] } } }))).toEqual({
      pivot: { pivotColumns: { columnNames: ['a'] }, valueColumns: { columnNames: ['b'] }, indexColumns: { columnNames: [], aggregationMethod: 'first' } },
    });
  });

  it('reads a sheet selection that is absent, null or {} as none', () => {
    for (const body of [{}, { sheetSelection: null }, { sheetSelection: {} }, { sheetSelection: { selected: null, sheets: null } }]) {
      expect(read(checkRead('sheet', body)), JSON.stringify(body)).toEqual({ sheetSelection: null });
    }
  });

  it('needs sheets in a sheet selection that names a selected sheet: read as that sheet only, a name would be checked against a list never given', () => {
    const why = "getSelectedSheet must list the workbook's sheets, or no sheet name can be checked against them";
    expect(read(checkRead('sheet', { sheetSelection: { selected: 'S1', confidence: 0.8 } }))).toBe(`sheetSelection.sheets is absent though a selected sheet is named; ${why}`);
    expect(read(checkRead('sheet', { sheetSelection: { selected: 'S1', sheets: null } }))).toBe(`sheetSelection.sheets is null though a selected sheet is named; ${why}`);
    for (const sheets of [[], ['S2', 's1']]) {
      expect(read(checkRead('sheet', { sheetSelection: { selected: 'S1', sheets } })))
        .toBe('sheetSelection.sheets does not hold the selected sheet "S1"; getSelectedSheet\'s selected sheet must be one of the workbook\'s sheets');
    }
  });

  it('needs expectedFields in a fields read: absent or null, the required fields could not be checked', () => {
    const why = "getFields must list the fields the pipeline expects (an empty list when none), or the required fields cannot be checked";
    expect(read(checkRead('fields', {}))).toBe(`expectedFields is absent; ${why}`);
    expect(read(checkRead('fields', null))).toBe(`expectedFields is absent; ${why}`);
    expect(read(checkRead('fields', { expectedFields: null, columnFieldMapping: {} }))).toBe(`expectedFields is null; ${why}`);
    expect(read(checkRead('fields', { expectedFields: 'a' }))).toBe('expectedFields must be a list, not "a"');
  });

  it('leaves out map entries that are null, {} or without their value, and keeps null where it is a value', () => {
    expect(read(checkRead('fields', { expectedFields: [], columnFieldMapping: { src: { A: null, B: {}, C: { field: null }, D: { field: 'd' } } } })))
      .toMatchObject({ columnFieldMapping: { src: { D: { field: 'd' } } } });
    expect(read(checkRead('dataTypes', { fieldDataTypes: { a: null, b: { dataType: null }, c: { dataType: 'number' } }, expectedFieldDataTypes: { a: null } })))
      .toEqual({ fieldDataTypes: { c: { dataType: 'number' } }, expectedFieldDataTypes: {} });
    expect(read(checkRead('units', { fieldUnitConversions: { t: {} }, expectedFieldUnits: { t: null } })))
      .toEqual({ fieldUnitConversions: { t: { to: null, from: null } }, expectedFieldUnits: { t: null } });
    expect(read(checkRead('impute', { imputeMethods: { a: {} }, expectedImputeMethods: { a: null } })))
      .toEqual({ imputeMethods: { a: { imputeMethod: null } }, expectedImputeMethods: { a: null } });
  });
});

describe('tolerant reads: what a service may add or spell differently', () => {
  it('ignores unknown members at every level', () => {
    expect(read(checkRead('dataTypes', { etag: 'x', fieldDataTypes: { a: { dataType: 'number', confidence: 1, sample: [1] } } })))
      .toEqual({ fieldDataTypes: { a: { dataType: 'number', confidence: 1 } }, expectedFieldDataTypes: {} });
  });

  it('reads a confidence given as text as a number; a missing one is unknown, under any bar', () => {
    expect(read(checkRead('sheet', { sheetSelection: { selected: 'a', confidence: '0.25', sheets: ['a'] } })))
      .toEqual({ sheetSelection: { selected: 'a', confidence: 0.25, sheets: ['a'] } });
    expect(read(checkRead('fields', { expectedFields: [], columnFieldMapping: { s: { A: { field: 'a' } } } }))).toMatchObject({ columnFieldMapping: { s: { A: { field: 'a' } } } });
    expect(isUnderBar(undefined, 0.1)).toBe(true);
    expect(isUnderBar(undefined, undefined)).toBe(false);
    expect(isUnderBar(0.5, 0.5)).toBe(false);
  });

  it('refuses a confidence it cannot understand rather than guess (0.8 or 80?)', () => {
    expect(read(checkRead('dataTypes', { fieldDataTypes: { a: { dataType: 'number', confidence: 80 } } }))).toBe('fieldDataTypes.a.confidence is number 80, not a confidence from 0 to 1');
    expect(read(checkRead('dataTypes', { fieldDataTypes: { a: { dataType: 'number', confidence: 'high' } } }))).toBe('fieldDataTypes.a.confidence is "high", not a confidence from 0 to 1');
  });

  it('reads values in any case in the seed\'s spelling, capitalize included', () => {
    expect(read(checkRead('combining', { columnsBeingCombined: { f: { method: 'JSON' } } }))).toEqual({ columnsBeingCombined: { f: { method: 'json' } } });
    expect(read(checkRead('impute', { imputeMethods: { a: { imputeMethod: 'DROPMISSING' } }, expectedImputeMethods: { a: 'Fill' } })))
      .toEqual({ imputeMethods: { a: { imputeMethod: 'dropMissing' } }, expectedImputeMethods: { a: 'fill' } });
    expect(read(checkRead('text', { textProcessingMethods: { casing: { a: 'Capitalize', b: 'TITLE' } } })))
      .toEqual({ textProcessingMethods: { casing: { a: 'capitalize', b: 'title' } } });
    expect(read(checkRead('dataTypes', { fieldDataTypes: { a: { dataType: 'integer' } } }))).toBe('fieldDataTypes.a.dataType is "integer"; use one of number, rich_text, category, date_time');
  });

  it('reads a mapping with several data sources', () => {
    const body = { expectedFields: [], columnFieldMapping: { 'a.csv': { A: { field: 'x', confidence: 1 } }, 'b.csv': { B: { field: 'y', confidence: 0.5 } } } };
    expect(read(checkRead('fields', body))).toMatchObject(body);
    expect(fieldsUpdate(checkRead('fields', body).ok ? (checkRead('fields', body) as any).value : null))
      .toEqual({ columnFieldMapping: { 'a.csv': { A: { field: 'x' } }, 'b.csv': { B: { field: 'y' } } } });
  });
});

describe('user-named keys survive: __proto__, constructor, "1962", in written order', () => {
  it('keeps them in maps of reads and updates', () => {
    const text = '{"fieldDataTypes":{"name":{"dataType":"number"},"1962":{"dataType":"category"},"__proto__":{"dataType":"rich_text"},"constructor":{"dataType":"date_time"}}}';
    const checked = checkUpdate('dataTypes', parseJson(text));
    expect(checked.ok).toBe(true);
    const types = (checked as any).value.fieldDataTypes;
    expect(keysInOrder(types)).toEqual(['name', '1962', '__proto__', 'constructor']);
    expect(Object.getPrototypeOf(types)).toBe(Object.prototype);
    expect(stringifyJson({ fieldDataTypes: types })).toBe(text);
  });

  it('reads regular-expression rules into a Map in written order, and compares them in order', () => {
    const checked = checkUpdate('text', parseJson('{"textProcessingMethods":{"regexReplacement":{"f":{"9":"X","0":"9"}}}}'));
    const rules = (checked as any).value.textProcessingMethods.regexReplacement.f as Map<string, string>;
    expect([...rules]).toEqual([['9', 'X'], ['0', '9']]);
    expect(sameValue(rules, new Map([['0', '9'], ['9', 'X']]))).toBe(false);
    expect(sameValue(rules, parseJson('{"9":"X","0":"9"}'))).toBe(true);
  });
});

describe('strict update bodies: exactly the seed\'s update shape', () => {
  const problem = (name: Parameters<typeof checkUpdate>[0], body: unknown) => {
    const r = checkUpdate(name, body);
    return r.ok ? 'ok' : `${r.problem.isValue ? '422' : '400'} ${r.problem.path || '(body)'} ${r.problem.problem}`;
  };

  it('refuses read-only and unknown members, naming them', () => {
    expect(problem('dataTypes', { fieldDataTypes: { a: { dataType: 'number', confidence: 1 } } })).toBe('400 fieldDataTypes.a has an unknown member "confidence"; it takes dataType');
    expect(problem('fields', { columnFieldMapping: {}, inputColumns: [] })).toBe('400 (body) has an unknown member "inputColumns"; it takes columnFieldMapping, allowColumnCombining');
    expect(problem('pivot', { pivot: {} })).toBe('400 pivot.pivotColumns is required');
    expect(problem('text', { textProcessingMethods: [] })).toBe('400 textProcessingMethods must be a JSON object, not a list');
  });

  it('tells values the seed does not allow (422) from bodies of the wrong shape (400)', () => {
    expect(problem('combining', { columnsBeingCombined: { f: { method: 'concat' } } })).toBe('422 columnsBeingCombined.f.method is "concat"; use one of stringAppend, json');
    expect(problem('combining', { columnsBeingCombined: { f: { method: 1 } } })).toBe('400 columnsBeingCombined.f.method must be a string, not number 1');
    expect(problem('impute', { imputeMethods: { a: { imputeMethod: 'fill', imputeMethodConfig: { fillValue: ' ' } } } })).toMatch(/^422 imputeMethods.a uses imputeMethod fill/);
    expect(problem('pivot', { pivot: { pivotColumns: { columnNames: ['a'] }, valueColumns: { columnNames: ['a'] }, indexColumns: { columnNames: [] } } }))
      .toBe('422 pivot names column "a" twice; a column has one role (index, pivot or value)');
    expect(problem('rowDropping', { additionalRowDroppingMethods: [{ method: 'missingValues', methodConfig: { fields: [] } }] }))
      .toBe('422 additionalRowDroppingMethods[0].methodConfig.fields is empty; list the fields the rule constrains');
  });

  it('drops exactly the read-only members from a read body', () => {
    const body = {
      presetRowDroppingMethods: [{ method: 'missingValues', methodConfig: { fields: ['a'] } }],
      additionalRowDroppingMethods: [{ method: 'duplicateValues', methodConfig: { fields: ['b'] }, confidence: 0.7, note: 'kept' }],
    };
    expect(withoutReadOnly('rowDropping', body)).toEqual({ additionalRowDroppingMethods: [{ method: 'duplicateValues', methodConfig: { fields: ['b'] }, note: 'kept' }] });
  });
});

describe('start and run', () => {
  it('takes the job id from {"jobId"}, a bare JSON string or plain text, and nothing else', () => {
    expect(read(check(StartAnswer, '{"jobId":"j1","status":"started"}'))).toEqual({ jobId: 'j1' });
    expect(read(check(StartAnswer, '"j2"'))).toEqual({ jobId: 'j2' });
    expect(read(check(StartAnswer, 'j3\n'))).toEqual({ jobId: 'j3' });
    expect(read(check(StartAnswer, '{"id":"x"}'))).toBe('(body) holds no job id; expected {"jobId": "..."}');
    expect(read(check(StartAnswer, '<html>hi</html>'))).toBe('(body) holds no job id; expected {"jobId": "..."}');
    expect(read(check(StartAnswer, '{"jobId":".."}'))).toBe('(body) gives the job id "..", which is a dot segment, which no URL path can carry, so no later command can use it');
    expect(read(check(StartAnswer, '{"jobId":"job-1\\n\\u001b[2Jrm -rf x"}')))
      .toBe('(body) gives the job id "job-1\\n\\u001b[2Jrm -rf x", which holds control characters (a line break or a terminal escape), so no later command can use it');
    expect(read(check(StartAnswer, '{"jobId":"   "}'))).toMatch(/which is empty/);
  });

  it('checks the run body strictly', () => {
    expect(read(check(RunRequest, undefined))).toEqual({});
    expect(read(check(RunRequest, { webhookUrl: null, returnWhenComplete: true }))).toEqual({ returnWhenComplete: true });
    expect(read(check(RunRequest, { wait: true }))).toBe('(body) has an unknown member "wait"; it takes webhookUrl, returnWhenComplete');
  });

  const outcome = (body: unknown, waited: boolean, status = 200) => read(check(RunAnswer, { status, body, waited }));

  it('reads a run answer that was not waited for as an acceptance, unless it reports a failure', () => {
    for (const body of [undefined, '', 'accepted', {}, { status: 'running' }, { status: 'queued' }]) {
      expect(outcome(body, false), JSON.stringify(body)).toEqual({ outcome: 'accepted' });
      expect(outcome(body, false, 202), JSON.stringify(body)).toEqual({ outcome: 'accepted' });
    }
    expect(outcome({ status: 'failed', error: { message: 'bad' } }, false)).toEqual({ outcome: 'failed', member: 'error', words: 'bad' });
  });

  it('reads a waited-for run answer as complete only when nothing says otherwise', () => {
    for (const body of [undefined, '', 'OK', {}, { jobId: 'j' }, { status: 'Complete' }, { state: 'SUCCEEDED' }, { status: 'done' }, { status: 'ok' }, { status: null, state: 'finished' }, { status: 'processed' }, { status: 200 }, { state: 3 }]) {
      expect(outcome(body, true), JSON.stringify(body)).toEqual({ outcome: 'completed' });
    }
    expect(outcome({}, true, 202)).toEqual({ outcome: 'incomplete', member: 'its HTTP status', value: '202 Accepted' });
    expect(outcome({ status: 'complete' }, true, 202)).toMatchObject({ outcome: 'incomplete' });
    expect(outcome({ status: 'running' }, true)).toEqual({ outcome: 'incomplete', member: 'its member status', value: '"running"' });
    expect(outcome({ state: 'In Progress' }, true)).toEqual({ outcome: 'incomplete', member: 'its member state', value: '"In Progress"' });
    expect(outcome({ status: 'queued' }, false)).toEqual({ outcome: 'accepted' });
  });

  it('reads every way an answer reports a failure, with the service\'s words', () => {
    expect(outcome({ status: 'FAILED', error: { message: 'bad' } }, true)).toEqual({ outcome: 'failed', member: 'error', words: 'bad' });
    expect(outcome({ status: 'cancelled', message: 'cancelled by admin' }, true)).toEqual({ outcome: 'failed', member: 'status', words: 'cancelled by admin' });
    expect(outcome({ success: false, errors: [{ message: 'email missing' }, 'id missing'] }, true)).toEqual({ outcome: 'failed', member: 'success', words: 'email missing; id missing' });
    expect(outcome({ errors: [{ code: 'x' }] }, false)).toEqual({ outcome: 'failed', member: 'errors', words: undefined });
    expect(outcome({ error: 'all rows rejected' }, false)).toEqual({ outcome: 'failed', member: 'error', words: 'all rows rejected' });
    expect(outcome('FAILED: validation failed', true)).toEqual({ outcome: 'failed', member: 'the body', words: 'FAILED: validation failed' });
    expect(outcome('Error - disk full', false)).toMatchObject({ outcome: 'failed' });
    // Not failures: an empty error list, a false or null error, a word that only begins like one.
    for (const body of [{ errors: [] }, { error: null }, { error: false }, 'Error-free run', 'errorless']) expect(outcome(body, true), JSON.stringify(body)).toEqual({ outcome: 'completed' });
  });
});

describe('read -> update', () => {
  it('keeps allowColumnCombining when the current mapping already maps several columns to one field', () => {
    const resources = {
      sheet: null, fields: { expectedFields: [], optionalFields: [], inputColumns: ['A', 'B'], columnFieldMapping: { s: { A: { field: 'f' }, B: { field: 'f' } } } },
      combining: { columnsBeingCombined: {} }, dataTypes: { fieldDataTypes: {}, expectedFieldDataTypes: {} }, units: { fieldUnitConversions: {}, expectedFieldUnits: {} },
      impute: { imputeMethods: {}, expectedImputeMethods: {} }, pivot: { pivot: null }, rowDropping: { presetRowDroppingMethods: [], additionalRowDroppingMethods: [] },
      text: { textProcessingMethods: {} }, scripts: { preColumnMapping: [], postClean: [] },
    };
    expect(currentBodies(resources).fields).toEqual({ columnFieldMapping: { s: { A: { field: 'f' }, B: { field: 'f' } } }, allowColumnCombining: true });
  });
});
