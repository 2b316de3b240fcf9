import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { fieldIndex, map } from '../../../src/engine/steps/map.js';
import { expectRows, makeConfig, makeContext, makeTable } from '../../support/rows.js';

describe('map step', () => {
  it('puts each mapped column under its field and drops unmapped columns', async () => {
    const input = makeTable(['E-mail', 'Junk', 'Name'], [['a@x.org', 'zz', 'Ann']]);
    const config = makeConfig({ mapping: { 'E-mail': 'email', Name: 'name' } });
    await expectRows(map.apply(input, config, makeContext()), [{ email: 'a@x.org', name: 'Ann' }]);
  });

  it('orders mapped fields by expectedFields, then the others in input-column order', async () => {
    const input = makeTable(['x', 'b', 'y', 'a'], [['X', 'B', 'Y', 'A']]);
    const config = makeConfig({ mapping: { x: 'extra1', b: 'beta', y: 'extra2', a: 'alpha' } });
    const ctx = makeContext({ schema: { expectedFields: ['alpha', 'beta'] } });
    await expectRows(map.apply(input, config, ctx), [{ alpha: 'A', beta: 'B', extra1: 'X', extra2: 'Y' }]);
  });

  it('outputs a required expected field with no column as an all-missing column in its place', async () => {
    const input = makeTable(['id', 'mail'], [['1', 'a@x.org'], ['2', 'b@x.org']]);
    const config = makeConfig({ mapping: { id: 'id', mail: 'email' } });
    const ctx = makeContext({ schema: { expectedFields: ['id', 'name', 'email', 'nickname'], optionalFields: ['nickname'] } });
    await expectRows(map.apply(input, config, ctx), [
      { id: '1', name: null, email: 'a@x.org' },
      { id: '2', name: null, email: 'b@x.org' },
    ]);
  });

  it('writes missing values as null', async () => {
    const input = makeTable(['a', 'b'], [['  ', null], ['', 'x']]);
    const config = makeConfig({ mapping: { a: 'a', b: 'b' } });
    await expectRows(map.apply(input, config, makeContext()), [{ a: null, b: null }, { a: null, b: 'x' }]);
  });

  it('combines the columns of a field with several columns when combining is allowed', async () => {
    const input = makeTable(['First', 'Last'], [['Mary', 'Jones']]);
    const config = makeConfig({ mapping: { First: 'full_name', Last: 'full_name' }, allowColumnCombining: true, combining: { full_name: { methodConfig: { separator: ' ' } } } });
    await expectRows(map.apply(input, config, makeContext()), [{ full_name: 'Mary Jones' }]);
  });

  it('refuses several columns on one field without allowColumnCombining', () => {
    const input = makeTable(['First', 'Last'], []);
    const config = makeConfig({ mapping: { First: 'full_name', Last: 'full_name' } });
    expect(() => map.check!(config, input.columns, makeContext())).toThrow(UsageError);
    expect(() => map.apply(input, config, makeContext())).toThrow(
      'Columns First, Last both map to field full_name; set allowColumnCombining: true or map one of them elsewhere.',
    );
  });

  it('refuses a mapping that names a column not in the input', () => {
    const config = makeConfig({ mapping: { Emial: 'email' } });
    expect(() => map.check!(config, ['Email'], makeContext())).toThrow(UsageError);
    expect(() => map.check!(config, ['Email'], makeContext())).toThrow('"Emial"');
  });

  it('keeps row numbers with their rows', async () => {
    const input = makeTable(['a'], [['1'], ['2']], { rowNumbers: [7, 9] });
    const out = await expectRows(map.apply(input, makeConfig({ mapping: { a: 'a' } }), makeContext()), [{ a: '1' }, { a: '2' }]);
    expect(out.rowNumbers).toEqual([7, 9]);
  });

  it('does not mutate its input rows', async () => {
    const rows = [['1', ' '], ['2', 'x']];
    const input = makeTable(['a', 'b'], rows, { freeze: true });
    await expectRows(map.apply(input, makeConfig({ mapping: { a: 'a', b: 'b' } }), makeContext()), [{ a: '1', b: null }, { a: '2', b: 'x' }]);
    expect(rows).toEqual([['1', ' '], ['2', 'x']]);
  });
});

describe('fieldIndex', () => {
  it('skips, with a warning, a schema field the output lacks', () => {
    const ctx = makeContext({ schema: { optionalFields: ['phone'] } });
    expect(fieldIndex(['id'], 'phone', ctx, 'Impute method fill for field "phone"')).toBe(-1);
    expect(ctx.warnings).toHaveLength(1);
  });

  it('refuses a field nobody knows', () => {
    expect(() => fieldIndex(['id'], 'idd', makeContext(), 'Rule')).toThrow(UsageError);
  });
});
