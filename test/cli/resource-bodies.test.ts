import { describe, expect, it } from 'vitest';
import { dataToFragment, mergeFragments, normalizeRead, updateBody } from '../../src/cli/resource-bodies.js';
import { mappingFragment } from '../../src/cli/commands/fields.js';
import { parseImpute, parseType } from '../../src/cli/flags.js';
import { desiredBodies } from '../../src/jobfile/translate.js';
import { UsageError } from '../../src/errors.js';
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
  return {
    sheet: null, fields: normalizeRead('fields', {}), combining: normalizeRead('combining', {}), dataTypes: normalizeRead('dataTypes', {}),
    units: normalizeRead('units', {}), impute: normalizeRead('impute', {}), pivot: normalizeRead('pivot', {}),
    rowDropping: normalizeRead('rowDropping', {}), text: normalizeRead('text', {}), scripts: normalizeRead('scripts', {}), ...partial,
  };
}

describe('flags, --data and job files produce identical bodies', () => {
  it('for data types', () => {
    const t = parseType('amount=number');
    const viaFlags = updateBody('dataTypes', { dataTypes: { [t.field]: t.dataType } }, types);
    const viaData = updateBody('dataTypes', dataToFragment('dataTypes', { fieldDataTypes: { amount: { dataType: 'number' } } }, '--data').config, types);
    const viaJobFile = desiredBodies({ dataTypes: { amount: 'number' } }, resources({ dataTypes: types })).dataTypes;
    expect(viaFlags).toEqual({ fieldDataTypes: { amount: { dataType: 'number' }, name: { dataType: 'rich_text' } } });
    expect(viaData).toEqual(viaFlags);
    expect(viaJobFile).toEqual(viaFlags);
  });

  it('for the mapping, dropping confidence and keeping the data source', () => {
    const viaFlags = updateBody('fields', mappingFragment({ map: [{ column: 'E-mail', field: 'email' }], unmap: ['Notes'] }), fields);
    const viaData = updateBody('fields', dataToFragment('fields', { columnFieldMapping: { 'data.csv': { 'E-mail': { field: 'email' }, Notes: null } } }, '--data').config, fields);
    const viaJobFile = desiredBodies({ mapping: { 'E-mail': 'email', Notes: null } }, resources({ fields })).fields;
    expect(viaFlags).toEqual({ columnFieldMapping: { 'data.csv': { First: { field: 'firstName' }, 'E-mail': { field: 'email' } } } });
    expect(viaData).toEqual(viaFlags);
    expect(viaJobFile).toEqual(viaFlags);
  });

  it('for impute methods', () => {
    const m = parseImpute('country=fill:US');
    const viaFlags = updateBody('impute', { impute: { [m.field]: { method: m.method, value: m.value } } }, impute);
    const viaData = updateBody('impute', dataToFragment('impute', { imputeMethods: { country: { imputeMethod: 'fill', imputeMethodConfig: { fillValue: 'US' } } } }, '--data').config, impute);
    expect(viaFlags).toEqual({ imputeMethods: { country: { imputeMethod: 'fill', imputeMethodConfig: { fillValue: 'US' } } } });
    expect(viaData).toEqual(viaFlags);
  });
});

describe('dataToFragment', () => {
  it('accepts a read body (get -o json) and ignores its read-only members', () => {
    const f = dataToFragment('dataTypes', types, '--data').config;
    expect(f).toEqual({ dataTypes: { amount: 'rich_text', name: 'rich_text' } });
    expect(dataToFragment('fields', fields, '--data').config.mapping).toEqual({ First: 'firstName', Notes: 'email' });
  });

  it('accepts a mapping without the data source level', () => {
    expect(dataToFragment('fields', { columnFieldMapping: { First: { field: 'x' } } }, '--data').config.mapping).toEqual({ First: 'x' });
  });

  it('normalizes the case of combining methods (the seed example writes JSON)', () => {
    const f = dataToFragment('combining', { columnsBeingCombined: { name: { method: 'JSON', methodConfig: {}, combiningOrder: ['a', 'b'] } } }, '--data');
    expect(f.config.combining).toEqual({ name: { method: 'json', order: ['a', 'b'] } });
  });

  it('validates values and names where the bad one is', () => {
    const bad = (name: Parameters<typeof dataToFragment>[0], data: unknown) => {
      try { dataToFragment(name, data, '--data @b.json'); } catch (e) { expect(e).toBeInstanceOf(UsageError); return (e as Error).message; }
      throw new Error('expected UsageError');
    };
    expect(bad('dataTypes', { fieldDataTypes: { a: { dataType: 'int' } } })).toBe('--data @b.json: fieldDataTypes.a.dataType is "int"; use one of number, rich_text, category, date_time.');
    expect(bad('units', { fieldUnitConversions: { t: { from: 'UTC_p1', to: null } } })).toContain('both be set or both be null');
    expect(bad('impute', { imputeMethods: { a: { imputeMethod: 'mean' } } })).toContain('use one of fill, dropMissing, null');
    expect(bad('impute', { imputeMethods: { a: { imputeMethod: 'fill' } } })).toContain('fillValue');
    expect(bad('pivot', { pivot: { pivotColumns: { columnNames: ['a'] }, valueColumns: { columnNames: ['b'] }, indexColumns: { columnNames: [], aggregationMethod: 'sum' } } })).toContain('first');
    expect(bad('rowDropping', { additionalRowDroppingMethods: [{ method: 'unique', methodConfig: { fields: ['a'] } }] })).toContain('missingValues, duplicateValues');
    expect(bad('text', { textProcessingMethods: { regexReplacement: { a: { '([': '' } } } })).toContain('does not compile');
    expect(bad('text', { textProcessingMethods: { casing: { a: 'camel' } } })).toContain('upper, lower, title, swap');
    expect(bad('dataTypes', { fieldDataType: {} })).toContain('unknown member "fieldDataType"');
    expect(bad('dataTypes', [])).toContain('must be a JSON object');
  });

  it('warns about capitalize but keeps it', () => {
    const f = dataToFragment('text', { textProcessingMethods: { casing: { a: 'capitalize' } } }, '--data');
    expect(f.config.text).toEqual({ casing: { a: 'capitalize' } });
    expect(f.warnings[0]).toContain('capitalize');
  });

  it('marks {"pivot": null} as clearing the pivot', () => {
    expect(dataToFragment('pivot', { pivot: null }, '--data').clearPivot).toBe(true);
  });
});

describe('mergeFragments', () => {
  it('lets flags override --data key by key', () => {
    expect(mergeFragments({ dataTypes: { a: 'number', b: 'category' } }, { dataTypes: { b: 'rich_text' } })).toEqual({ dataTypes: { a: 'number', b: 'rich_text' } });
    expect(mergeFragments({ combining: { f: { method: 'json', order: ['x'] } } }, { combining: { f: { separator: '-' } } }))
      .toEqual({ combining: { f: { method: 'json', order: ['x'], separator: '-' } } });
  });
});
