import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { dropRows, tupleKey } from '../../../src/engine/steps/drop-rows.js';
import type { RowDroppingRule } from '../../../src/contract/index.js';
import type { Row } from '../../../src/engine/types.js';
import { expectRows, makeConfig, makeContext, makeTable } from '../../support/rows.js';

const missing = (...fields: string[]): RowDroppingRule => ({ method: 'missingValues', methodConfig: { fields } });
const duplicate = (...fields: string[]): RowDroppingRule => ({ method: 'duplicateValues', methodConfig: { fields } });

function run(columns: string[], rows: Row[], preset: RowDroppingRule[], additional: RowDroppingRule[] = [], batchSize?: number) {
  const config = makeConfig({ presetRowDropping: preset, additionalRowDropping: additional });
  const ctx = makeContext();
  dropRows.check!(config, columns, ctx);
  return { out: dropRows.apply(makeTable(columns, rows, { freeze: true, batchSize }), config, ctx), ctx };
}

describe('drop-rows step', () => {
  it('drops rows where any listed field is missing', async () => {
    const { out, ctx } = run(['id', 'email'], [['1', 'a'], [null, 'b'], ['3', ' '], ['4', 'd']], [missing('id', 'email')]);
    const collected = await expectRows(out, [{ id: '1', email: 'a' }, { id: '4', email: 'd' }]);
    expect(collected.rowNumbers).toEqual([1, 4]);
    expect(ctx.report.dropped).toEqual([{ rule: 'missingValues: id, email (preset)', count: 2, firstRows: [2, 3] }]);
  });

  it('keeps the first of duplicate ids, across batches', async () => {
    const { out, ctx } = run(['id', 'v'], [['1', 'a'], ['2', 'b'], ['1', 'c'], ['2', 'd'], ['3', 'e']], [], [duplicate('id')], 2);
    await expectRows(out, [{ id: '1', v: 'a' }, { id: '2', v: 'b' }, { id: '3', v: 'e' }]);
    expect(ctx.report.dropped).toEqual([{ rule: 'duplicateValues: id', count: 2, firstRows: [3, 4] }]);
  });

  it('compares the listed fields as a tuple, missing equal to missing', async () => {
    const { out } = run(['a', 'b'], [['x', null], ['x', ''], ['x', 'y'], [null, 'y'], ['x', 'y']], [], [duplicate('a', 'b')]);
    await expectRows(out, [{ a: 'x', b: null }, { a: 'x', b: 'y' }, { a: null, b: 'y' }]);
  });

  it('tells a number from its text and cannot be fooled by separators', () => {
    expect(tupleKey([1], [0])).not.toBe(tupleKey(['1'], [0]));
    expect(tupleKey(['a;b', 'c'], [0, 1])).not.toBe(tupleKey(['a', 'b;c'], [0, 1]));
    expect(tupleKey(['s1:x', ''], [0, 1])).not.toBe(tupleKey(['', 's1:x'], [0, 1]));
  });

  it('applies preset rules, then additional ones, in order', async () => {
    // The duplicate rule never sees row 1 (dropped for a missing email), so row 2's id 1 is the first.
    const { out, ctx } = run(['id', 'email'], [['1', null], ['1', 'b'], ['1', 'c']], [missing('email')], [duplicate('id')]);
    await expectRows(out, [{ id: '1', email: 'b' }]);
    expect(ctx.report.dropped).toEqual([
      { rule: 'missingValues: email (preset)', count: 1, firstRows: [1] },
      { rule: 'duplicateValues: id', count: 1, firstRows: [3] },
    ]);
  });

  it('accepts method values in any case', async () => {
    const { out } = run(['id'], [['1'], ['1']], [], [{ method: 'DuplicateValues' as never, methodConfig: { fields: ['id'] } }]);
    await expectRows(out, [{ id: '1' }]);
  });

  it('refuses an unknown field, naming it', () => {
    const config = makeConfig({ additionalRowDropping: [duplicate('idd')] });
    expect(() => dropRows.apply(makeTable(['id'], []), config, makeContext())).toThrow(UsageError);
    expect(() => dropRows.apply(makeTable(['id'], []), config, makeContext())).toThrow(/"idd" is not a field of the output/);
  });

  it('refuses an unknown method', () => {
    const config = makeConfig({ additionalRowDropping: [{ method: 'outliers' as never, methodConfig: { fields: ['id'] } }] });
    expect(() => dropRows.check!(config, ['id'], makeContext())).toThrow('Row-dropping method "outliers" is not one of missingValues, duplicateValues.');
  });

  it('skips a schema field that is not in the output, with a warning', async () => {
    const config = makeConfig({ presetRowDropping: [missing('phone')] });
    const ctx = makeContext({ schema: { optionalFields: ['phone'] } });
    await expectRows(dropRows.apply(makeTable(['id'], [['1']]), config, ctx), [{ id: '1' }]);
    expect(ctx.warnings).toHaveLength(1);
  });
});
