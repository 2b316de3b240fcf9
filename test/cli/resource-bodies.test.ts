import { describe, expect, it } from 'vitest';
import { dataBody, emptyResources, overlay, updateBody } from '../../src/cli/resource-bodies.js';
import { mappingFragment } from '../../src/cli/commands/fields.js';
import { parseImpute, parseType } from '../../src/cli/flags.js';
import { desiredBodies } from '../../src/jobfile/translate.js';
import { UsageError } from '../../src/errors.js';
import { parseJson } from '../../src/contract/json.js';
import type { JobResources } from '../../src/contract/index.js';

const fields = {
  expectedFields: ['firstName', 'email'], optionalFields: [], inputColumns: ['First', 'E-mail', 'Notes'],
  columnFieldMapping: { 'data.csv': { First: { field: 'firstName', confidence: 0.9 }, Notes: { field: 'email', confidence: 0.2 } } },
};
const types = {
  fieldDataTypes: { amount: { dataType: 'rich_text' as const, confidence: 0.4 }, name: { dataType: 'rich_text' as const, confidence: 0.9 } },
  expectedFieldDataTypes: { amount: 'number' as const },
};
const impute = { imputeMethods: { country: { imputeMethod: null, confidence: 0.5 } }, expectedImputeMethods: {} };

function resources(partial: Partial<JobResources>): JobResources {
  return { ...emptyResources(), ...partial };
}

/** The update body `--data` asks for, as `update` builds it (no flags). */
function viaData<K extends 'dataTypes' | 'fields' | 'impute'>(name: K, data: unknown, current: NonNullable<JobResources[K]>) {
  const d = dataBody(name, data, '--data');
  return updateBody(name, {}, overlay(name, current, d.body));
}

describe('flags, --data and job files produce identical bodies', () => {
  it('for data types', () => {
    const t = parseType('amount=number');
    const viaFlags = updateBody('dataTypes', { dataTypes: { [t.field]: t.dataType } }, types);
    const sent = viaData('dataTypes', { fieldDataTypes: { amount: { dataType: 'number' }, name: { dataType: 'rich_text' } } }, types);
    const viaJobFile = desiredBodies({ dataTypes: { amount: 'number' } }, resources({ dataTypes: types })).dataTypes;
    expect(viaFlags).toEqual({ fieldDataTypes: { amount: { dataType: 'number' }, name: { dataType: 'rich_text' } } });
    expect(sent).toEqual(viaFlags);
    expect(viaJobFile).toEqual(viaFlags);
  });

  it('for the mapping, dropping confidence and keeping the data source', () => {
    const viaFlags = updateBody('fields', mappingFragment({ map: [{ column: 'E-mail', field: 'email' }], unmap: ['Notes'] }), fields);
    const sent = viaData('fields', { columnFieldMapping: { 'data.csv': { First: { field: 'firstName' }, 'E-mail': { field: 'email' } } } }, fields);
    const viaJobFile = desiredBodies({ mapping: { 'E-mail': 'email', Notes: null } }, resources({ fields })).fields;
    expect(viaFlags).toEqual({ columnFieldMapping: { 'data.csv': { First: { field: 'firstName' }, 'E-mail': { field: 'email' } } } });
    expect(sent).toEqual(viaFlags);
    expect(viaJobFile).toEqual(viaFlags);
  });

  it('for impute methods', () => {
    const m = parseImpute('country=fill:US');
    const viaFlags = updateBody('impute', { impute: { [m.field]: { method: m.method, value: m.value } } }, impute);
    const sent = viaData('impute', { imputeMethods: { country: { imputeMethod: 'fill', imputeMethodConfig: { fillValue: 'US' } } } }, impute);
    expect(viaFlags).toEqual({ imputeMethods: { country: { imputeMethod: 'fill', imputeMethodConfig: { fillValue: 'US' } } } });
    expect(sent).toEqual(viaFlags);
  });
});

describe('dataBody', () => {
  it('accepts a read body (get -o json) and drops its read-only members', () => {
    expect(dataBody('dataTypes', types, '--data').body).toEqual({ fieldDataTypes: { amount: { dataType: 'rich_text' }, name: { dataType: 'rich_text' } } });
    expect(dataBody('fields', fields, '--data').body).toEqual({
      columnFieldMapping: { 'data.csv': { First: { field: 'firstName' }, Notes: { field: 'email' } } },
    });
    const rows = { presetRowDroppingMethods: [{ method: 'missingValues', methodConfig: { fields: ['a'] } }], additionalRowDroppingMethods: [{ method: 'duplicateValues', methodConfig: { fields: ['b'] }, confidence: '0.7' }] };
    expect(dataBody('rowDropping', rows, '--data').body).toEqual({ additionalRowDroppingMethods: [{ method: 'duplicateValues', methodConfig: { fields: ['b'] } }] });
  });

  it('reads method values in any case in the seed\'s spelling (the seed example writes JSON)', () => {
    const d = dataBody('combining', { columnsBeingCombined: { name: { method: 'JSON', methodConfig: {}, combiningOrder: ['a', 'b'] } } }, '--data');
    expect(d.body).toEqual({ columnsBeingCombined: { name: { method: 'json', methodConfig: {}, combiningOrder: ['a', 'b'] } } });
  });

  it('keeps regular-expression rules in written order, integer-like patterns too', () => {
    const d = dataBody('text', parseJson('{"textProcessingMethods":{"regexReplacement":{"code":{"9":"X","0":"9"}}}}'), '--data');
    expect([...d.body.textProcessingMethods.regexReplacement!.code]).toEqual([['9', 'X'], ['0', '9']]);
  });

  it('refuses what is not the seed\'s update shape, naming where the bad value is', () => {
    const bad = (name: Parameters<typeof dataBody>[0], data: unknown) => {
      try { dataBody(name, data, '--data @b.json'); } catch (e) { expect(e).toBeInstanceOf(UsageError); return (e as Error).message; }
      throw new Error('expected UsageError');
    };
    expect(bad('dataTypes', { fieldDataTypes: { a: { dataType: 'int' } } })).toBe('--data @b.json: fieldDataTypes.a.dataType is "int"; use one of number, rich_text, category, date_time.');
    expect(bad('units', { fieldUnitConversions: { t: { from: 'UTC_p1', to: null } } })).toContain('"from" and "to" both set');
    expect(bad('impute', { imputeMethods: { a: { imputeMethod: 'mean' } } })).toContain('use one of fill, dropMissing, null');
    expect(bad('impute', { imputeMethods: { a: { imputeMethod: 'fill' } } })).toContain('fillValue');
    expect(bad('pivot', { pivot: { pivotColumns: { columnNames: ['a'] }, valueColumns: { columnNames: ['b'] }, indexColumns: { columnNames: [], aggregationMethod: 'sum' } } })).toContain('first');
    expect(bad('rowDropping', { additionalRowDroppingMethods: [{ method: 'unique', methodConfig: { fields: ['a'] } }] })).toContain('missingValues, duplicateValues');
    expect(bad('text', { textProcessingMethods: { regexReplacement: { a: { '([': '' } } } })).toContain('does not compile');
    expect(bad('text', { textProcessingMethods: { casing: { a: 'camel' } } })).toContain('upper, lower, title, swap');
    expect(bad('dataTypes', { fieldDataType: {} })).toBe('--data @b.json: the body has an unknown member "fieldDataType"; it takes fieldDataTypes.');
    expect(bad('dataTypes', [])).toBe('--data @b.json: the body must be a JSON object, not a list.');
    expect(bad('fields', { columnFieldMapping: { 'data.csv': { Notes: null } } })).toBe('--data @b.json: columnFieldMapping["data.csv"].Notes must be a JSON object, not null.');
    expect(bad('pivot', {})).toBe('--data @b.json: pivot is required.');
    // A confidence is read only; an unknown member next to it is still refused.
    expect(bad('dataTypes', { fieldDataTypes: { a: { dataType: 'number', confidence: 1, source: 'x' } } })).toContain('fieldDataTypes.a has an unknown member "source"');
  });

  it('warns about capitalize but keeps it', () => {
    const d = dataBody('text', { textProcessingMethods: { casing: { a: 'capitalize' } } }, '--data');
    expect(d.body).toEqual({ textProcessingMethods: { casing: { a: 'capitalize' } } });
    expect(d.warnings[0]).toContain('capitalize');
  });

  it('takes {"pivot": null} as no pivot', () => {
    expect(dataBody('pivot', { pivot: null }, '--data').body).toEqual({ pivot: null });
  });
});
