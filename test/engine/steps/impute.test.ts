import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { impute } from '../../../src/engine/steps/impute.js';
import type { DataType } from '../../../src/contract/index.js';
import type { EngineConfig, Row } from '../../../src/engine/types.js';
import { expectRows, makeConfig, makeContext, makeTable } from '../../support/rows.js';

function run(columns: string[], rows: Row[], extra: Partial<EngineConfig>, types?: (DataType | undefined)[]) {
  const config = makeConfig(extra);
  const ctx = makeContext();
  impute.check!(config, columns, ctx);
  return { out: impute.apply(makeTable(columns, rows, { types, freeze: true }), config, ctx), ctx };
}

describe('impute step', () => {
  it('fills missing values with the fill value and counts them', async () => {
    const { out, ctx } = run(['country'], [['NL'], [null], ['  ']], { impute: { country: { imputeMethod: 'fill', imputeMethodConfig: { fillValue: 'US' } } } });
    await expectRows(out, [{ country: 'NL' }, { country: 'US' }, { country: 'US' }]);
    expect(ctx.report.filled).toEqual({ country: 2 });
  });

  it("coerces the fill value to the field's type", async () => {
    const { out } = run(['qty', 'at'], [[null, null], [3, '2024-01-01T00:00:00']], {
      dataTypes: { qty: 'number', at: 'date_time' },
      impute: { qty: { imputeMethod: 'fill', imputeMethodConfig: { fillValue: '1,000' } }, at: { imputeMethod: 'fill', imputeMethodConfig: { fillValue: '2000-01-01' } } },
    }, ['number', 'date_time']);
    await expectRows(out, [{ qty: 1000, at: '2000-01-01T00:00:00' }, { qty: 3, at: '2024-01-01T00:00:00' }]);
  });

  it("refuses a fill value that does not fit the field's type", () => {
    const config = makeConfig({ dataTypes: { qty: 'number' }, impute: { qty: { imputeMethod: 'fill', imputeMethodConfig: { fillValue: 'many' } } } });
    expect(() => impute.check!(config, ['qty'], makeContext())).toThrow(UsageError);
    expect(() => impute.check!(config, ['qty'], makeContext())).toThrow('Fill value "many" for field "qty" is not a number, but the field\'s data type is number.');
  });

  it('refuses a slash-date fill value that reads both as month-first and as day-first, and reads one that does not', async () => {
    const fill = (fillValue: string) => makeConfig({ dataTypes: { at: 'date_time' }, impute: { at: { imputeMethod: 'fill', imputeMethodConfig: { fillValue } } } });
    expect(() => impute.check!(fill('01/02/2020'), ['at'], makeContext())).toThrow('Fill value "01/02/2020" for field "at" reads as 2020-01-02 month-first and as 2020-02-01 day-first, and the column\'s order is known only from its values; write it as YYYY-MM-DD.');
    for (const [value, date] of [['25/12/2020', '2020-12-25T00:00:00'], ['12/25/2020', '2020-12-25T00:00:00'], ['03/03/2020 10:00', '2020-03-03T10:00:00']]) {
      const { out } = run(['at'], [[null]], { dataTypes: { at: 'date_time' }, impute: { at: { imputeMethod: 'fill', imputeMethodConfig: { fillValue: value } } } }, ['date_time']);
      await expectRows(out, [{ at: date }]);
    }
  });

  it('refuses a number fill value whose digits a double would round, naming what it would become', () => {
    const config = makeConfig({ dataTypes: { id: 'number' }, impute: { id: { imputeMethod: 'fill', imputeMethodConfig: { fillValue: '9007199254740993' } } } });
    expect(() => impute.check!(config, ['id'], makeContext())).toThrow('Fill value "9007199254740993" for field "id" would become 9007199254740992 in a number field');
    const big = makeConfig({ dataTypes: { id: 'number' }, impute: { id: { imputeMethod: 'fill', imputeMethodConfig: { fillValue: 12345678901234567890n as unknown as string } } } });
    expect(() => impute.check!(big, ['id'], makeContext())).toThrow('Fill value 12345678901234567890 for field "id" would become 12345678901234567000');
  });

  it('moves a date fill value with an offset into the zone the conversion leaves values in, and keeps it as written without one', async () => {
    const fill = { imputeMethod: 'fill' as const, imputeMethodConfig: { fillValue: '2024-03-05T10:00:00+02:00' } };
    const converted = run(['at'], [[null]], { dataTypes: { at: 'date_time' }, units: { at: { from: 'UTC_p0', to: 'UTC_p1' } }, impute: { at: fill } }, ['date_time']);
    await expectRows(converted.out, [{ at: '2024-03-05T09:00:00' }]);
    const plain = run(['at'], [[null]], { dataTypes: { at: 'date_time' }, impute: { at: fill } }, ['date_time']);
    await expectRows(plain.out, [{ at: '2024-03-05T10:00:00' }]);
  });

  it('refuses fill without a fill value', () => {
    const config = makeConfig({ impute: { country: { imputeMethod: 'fill' } } });
    expect(() => impute.check!(config, ['country'], makeContext())).toThrow(/needs imputeMethodConfig.fillValue/);
  });

  it('drops rows where the field is missing and reports them', async () => {
    const { out, ctx } = run(['id', 'email'], [['1', 'a@x'], ['2', null], ['3', ' '], ['4', 'd@x']], { impute: { email: { imputeMethod: 'dropMissing' } } });
    const collected = await expectRows(out, [{ id: '1', email: 'a@x' }, { id: '4', email: 'd@x' }]);
    expect(collected.rowNumbers).toEqual([1, 4]);
    expect(ctx.report.dropped).toEqual([{ rule: 'dropMissing: email', count: 2, firstRows: [2, 3] }]);
  });

  it('keeps only the first few row numbers of dropped rows', async () => {
    const rows: Row[] = Array.from({ length: 8 }, () => [null]);
    const { out, ctx } = run(['email'], rows, { impute: { email: { imputeMethod: 'dropMissing' } } });
    await expectRows(out, []);
    expect(ctx.report.dropped[0]).toEqual({ rule: 'dropMissing: email', count: 8, firstRows: [1, 2, 3, 4, 5] });
  });

  it('does not count a dropped row as filled', async () => {
    const { out, ctx } = run(['a', 'b'], [[null, null], [null, 'x']], {
      impute: { a: { imputeMethod: 'fill', imputeMethodConfig: { fillValue: 'z' } }, b: { imputeMethod: 'dropMissing' } },
    });
    await expectRows(out, [{ a: 'z', b: 'x' }]);
    expect(ctx.report.filled).toEqual({ a: 1 });
  });

  it('changes nothing for method null', async () => {
    const { out } = run(['a'], [[null]], { impute: { a: { imputeMethod: null } } });
    await expectRows(out, [{ a: null }]);
  });

  it('accepts method values in any case', async () => {
    const { out } = run(['a'], [[null], ['y']], { impute: { a: { imputeMethod: 'DROPMISSING' as never } } });
    await expectRows(out, [{ a: 'y' }]);
  });

  it('refuses an unknown method', () => {
    const config = makeConfig({ impute: { a: { imputeMethod: 'mean' as never } } });
    expect(() => impute.check!(config, ['a'], makeContext())).toThrow('Impute method "mean" for field "a" is not one of fill, dropMissing, null.');
  });

  it('refuses a field that is not a column', () => {
    const config = makeConfig({ impute: { nope: { imputeMethod: 'dropMissing' } } });
    expect(() => impute.apply(makeTable(['a'], []), config, makeContext())).toThrow(UsageError);
  });
});
