import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { combine, combineValues, combiningOrderProblems, resolveCombining } from '../../../src/engine/steps/combine.js';
import { map } from '../../../src/engine/steps/map.js';
import type { EngineConfig } from '../../../src/engine/types.js';
import { expectRows, makeConfig, makeContext, makeTable } from '../../support/rows.js';

const columns = ['First', 'Middle', 'Last'];
const rows = [['Mary', null, 'Jones'], [' ', '', null], ['Ann', 'B', '']];

function combined(extra: Partial<EngineConfig>) {
  const config = makeConfig({ mapping: { First: 'name', Middle: 'name', Last: 'name' }, allowColumnCombining: true, ...extra });
  const ctx = makeContext();
  combine.check!(config, ['name'], ctx);
  return combine.apply(map.apply(makeTable(columns, rows), config, ctx) as never, config, ctx);
}

describe('combine step', () => {
  it('appends text in input column order with no separator by default', async () => {
    await expectRows(combined({}), [{ name: 'MaryJones' }, { name: null }, { name: 'AnnB' }]);
  });

  it('joins with the separator, missing values as empty text, all missing as missing', async () => {
    await expectRows(combined({ combining: { name: { method: 'stringAppend', methodConfig: { separator: '_' } } } }), [
      { name: 'Mary__Jones' }, { name: null }, { name: 'Ann_B_' },
    ]);
  });

  it('follows combiningOrder', async () => {
    await expectRows(combined({ combining: { name: { methodConfig: { separator: '_' }, combiningOrder: ['Last', 'First', 'Middle'] } } }), [
      { name: 'Jones_Mary_' }, { name: null }, { name: '_Ann_B' },
    ]);
  });

  it('writes json as a compact object keyed by column in combining order, missing as null', async () => {
    await expectRows(combined({ combining: { name: { method: 'json', combiningOrder: ['Last', 'First', 'Middle'] } } }), [
      { name: '{"Last":"Jones","First":"Mary","Middle":null}' },
      { name: '{"Last":null,"First":null,"Middle":null}' },
      { name: '{"Last":null,"First":"Ann","Middle":"B"}' },
    ]);
  });

  it('accepts method values in any case', async () => {
    await expectRows(combined({ combining: { name: { method: 'JSON' as never } } }), [
      { name: '{"First":"Mary","Middle":null,"Last":"Jones"}' },
      { name: '{"First":null,"Middle":null,"Last":null}' },
      { name: '{"First":"Ann","Middle":"B","Last":null}' },
    ]);
  });

  it('refuses a combiningOrder that does not list exactly the field columns', () => {
    const base = { mapping: { First: 'name', Last: 'name' }, allowColumnCombining: true };
    for (const order of [['First'], ['First', 'Last', 'Nick'], ['First', 'First']]) {
      const config = makeConfig({ ...base, combining: { name: { combiningOrder: order } } });
      expect(() => combine.check!(config, ['name'], makeContext())).toThrow(UsageError);
    }
    const config = makeConfig({ ...base, combining: { name: { combiningOrder: ['First'] } } });
    expect(() => combine.check!(config, ['name'], makeContext())).toThrow(/combiningOrder for field name must list exactly its columns First, Last/);
  });

  it('refuses an unknown method', () => {
    const config = makeConfig({ mapping: { First: 'name', Last: 'name' }, allowColumnCombining: true, combining: { name: { method: 'concat' as never } } });
    expect(() => combine.check!(config, ['name'], makeContext())).toThrow('Combining method "concat" for field name is not one of stringAppend, json.');
  });

  it('ignores combining entries of fields with a single column', () => {
    const config = makeConfig({ mapping: { First: 'name' }, combining: { name: { method: 'json' } } });
    expect(resolveCombining(config, ['First'])).toEqual([]);
  });

  it('writes numbers (from scripts) as their text', () => {
    expect(combineValues({ field: 'f', method: 'stringAppend', separator: '-', columns: ['a', 'b'] }, [1.5, 'x'])).toBe('1.5-x');
  });
});

describe('combiningOrderProblems', () => {
  it('finds nothing in an order of exactly the field\'s columns, each once, in any order', () => {
    expect(combiningOrderProblems(['last', 'first'], ['first', 'last'])).toBeUndefined();
  });

  it('names the first repeat at its second place, the columns that are not the field\'s, and those left out', () => {
    expect(combiningOrderProblems(['first', 'x', 'first', 'first'], ['first', 'last'])).toEqual({
      repeated: { column: 'first', at: 2 }, foreign: [{ column: 'x', at: 1 }], leftOut: ['last'],
    });
    expect(combiningOrderProblems(['first'], ['first', 'last'])).toEqual({ foreign: [], leftOut: ['last'] });
  });
});
