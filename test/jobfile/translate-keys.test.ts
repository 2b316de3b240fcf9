// User-named keys from a job file reach the request bodies as they were written.
import { describe, expect, it } from 'vitest';
import { stringifyJson } from '../../src/contract/json.js';
import { emptyResources } from '../../src/cli/resource-bodies.js';
import { changedResources, currentBodies, desiredBodies } from '../../src/jobfile/translate.js';
import { validateJobFileText } from '../../src/jobfile/validate.js';

function config(text: string) {
  const result = validateJobFileText(`version: 1\ninput: {file: a.csv}\nconfig:\n${text}`, { path: '/j/job.yaml', displayPath: 'job.yaml', env: {} });
  if (!result.job) throw new Error(result.problems.map((p) => p.message).join('\n'));
  return result.job.config;
}

const resources = () => {
  const r = emptyResources();
  r.fields = { expectedFields: [], optionalFields: [], inputColumns: ['__proto__', '1962', 'TQ'], columnFieldMapping: { 'a.csv': {} } };
  return r;
};

describe('desiredBodies with user-named keys', () => {
  it('keeps __proto__ and "1962" as ordinary keys of the mapping and the field-keyed bodies', () => {
    const bodies = desiredBodies(config('  mapping: {__proto__: proto_field, "1962": y1962}\n  dataTypes: {__proto__: number}\n  impute: {"1962": {method: dropMissing}}\n'), resources());
    const mapping = bodies.fields.columnFieldMapping['a.csv'];
    expect(Object.prototype.hasOwnProperty.call(mapping, '__proto__')).toBe(true);
    expect(mapping['__proto__' as string]).toEqual({ field: 'proto_field' });
    expect(mapping['1962']).toEqual({ field: 'y1962' });
    expect(Object.prototype.hasOwnProperty.call(bodies.dataTypes.fieldDataTypes, '__proto__')).toBe(true);
    expect(bodies.impute.imputeMethods['1962']).toEqual({ imputeMethod: 'dropMissing' });
    expect(({} as Record<string, unknown>).field).toBeUndefined();
  });

  it('sends regexReplacement rules in the order written, and sees a new order as a change', () => {
    const r = resources();
    const bodies = desiredBodies(config('  text:\n    regexReplacement:\n      TQ: {"9": X, "0": "9"}\n'), r);
    const rules = bodies.text.textProcessingMethods.regexReplacement!.TQ;
    expect([...rules.keys()]).toEqual(['9', '0']);
    expect(stringifyJson(bodies.text)).toBe('{"textProcessingMethods":{"regexReplacement":{"TQ":{"9":"X","0":"9"}}}}');
    // The service holds the same rules in the other order: that is a change to send.
    r.text = { textProcessingMethods: { regexReplacement: { TQ: new Map([['0', '9'], ['9', 'X']]) } } };
    expect(changedResources(currentBodies(r), desiredBodies(config('  text:\n    regexReplacement:\n      TQ: {"9": X, "0": "9"}\n'), r))).toEqual(['text']);
    r.text = { textProcessingMethods: { regexReplacement: { TQ: rules } } };
    expect(changedResources(currentBodies(r), desiredBodies(config('  text:\n    regexReplacement:\n      TQ: {"9": X, "0": "9"}\n'), r))).toEqual([]);
  });
});
