import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { pivot } from '../../../src/engine/steps/pivot.js';
import type { PivotConfig } from '../../../src/contract/index.js';
import type { DataType } from '../../../src/contract/index.js';
import type { Row } from '../../../src/engine/types.js';
import { expectRows, makeConfig, makeContext, makeTable } from '../../support/rows.js';

const pivotConfig = (index: string[], pivotColumns: string[], values: string[], aggregationMethod = 'first'): PivotConfig => ({
  indexColumns: { columnNames: index, aggregationMethod: aggregationMethod as 'first' },
  pivotColumns: { columnNames: pivotColumns },
  valueColumns: { columnNames: values },
});

const columns = ['store', 'month', 'sales', 'units'];
const types: (DataType | undefined)[] = ['category', 'category', 'number', 'number'];
const rows: Row[] = [
  ['A', 'Jan', 10, 1],
  ['A', 'Feb', 20, 2],
  ['B', 'Jan', 30, 3],
  ['A', 'Jan', 99, 9],
  ['C', 'Mar', 40, 4],
];

function run(config: PivotConfig, input = makeTable(columns, rows, { types, freeze: true })) {
  const engineConfig = makeConfig({ pivot: config });
  const ctx = makeContext();
  pivot.check!(engineConfig, input.columns, ctx);
  return { out: pivot.apply(input, engineConfig, ctx), ctx };
}

describe('pivot step', () => {
  it('names new columns by the pivot value when there is one value column', async () => {
    const { out } = run(pivotConfig(['store'], ['month'], ['sales']));
    const collected = await expectRows(out, [
      { store: 'A', Jan: 10, Feb: 20, Mar: null },
      { store: 'B', Jan: 30, Feb: null, Mar: null },
      { store: 'C', Jan: null, Feb: null, Mar: 40 },
    ]);
    expect(collected.types).toEqual(['category', 'number', 'number', 'number']);
    expect(collected.rowNumbers).toEqual([1, 3, 5]);
  });

  it('names new columns <value column>_<pivot value> with two value columns', async () => {
    const { out } = run(pivotConfig(['store'], ['month'], ['sales', 'units']));
    await expectRows(out, [
      { store: 'A', sales_Jan: 10, sales_Feb: 20, sales_Mar: null, units_Jan: 1, units_Feb: 2, units_Mar: null },
      { store: 'B', sales_Jan: 30, sales_Feb: null, sales_Mar: null, units_Jan: 3, units_Feb: null, units_Mar: null },
      { store: 'C', sales_Jan: null, sales_Feb: null, sales_Mar: 40, units_Jan: null, units_Feb: null, units_Mar: 4 },
    ]);
  });

  it('says which columns the pivoted output leaves out', async () => {
    const { out, ctx } = run(pivotConfig(['store'], ['month'], ['sales']));
    await expectRows(out, [
      { store: 'A', Jan: 10, Feb: 20, Mar: null },
      { store: 'B', Jan: 30, Feb: null, Mar: null },
      { store: 'C', Jan: null, Feb: null, Mar: 40 },
    ]);
    expect(ctx.warnings).toContain('Pivot: column "units" is not an index, pivot or value column, so the output leaves it out (a column with one value per group can be added to indexColumns).');
    const all = run(pivotConfig(['store'], ['month'], ['sales', 'units']));
    await all.out;
    expect(all.ctx.warnings.filter((w) => w.includes('leaves'))).toEqual([]);
  });

  it('joins several pivot columns with _', async () => {
    const input = makeTable(['id', 'kind', 'year', 'v'], [['1', 'a', '2023', 'x'], ['1', 'b', '2024', 'y'], ['2', 'a', '2023', 'z']]);
    const { out } = run(pivotConfig(['id'], ['kind', 'year'], ['v']), input);
    await expectRows(out, [{ id: '1', a_2023: 'x', b_2024: 'y' }, { id: '2', a_2023: 'z', b_2024: null }]);
  });

  it('keeps the first row of a group and pivot value, even when its value is missing, and says what it left out', async () => {
    const input = makeTable(['id', 'k', 'v'], [['1', 'a', null], ['1', 'a', 'later'], ['1', 'b', 'x'], ['1', 'a', 'again']]);
    const { out, ctx } = run(pivotConfig(['id'], ['k'], ['v']), input);
    await expectRows(out, [{ id: '1', a: null, b: 'x' }]);
    expect(ctx.warnings).toEqual([
      "Pivot: 2 rows repeat an index and pivot value already seen (the first at row 2); aggregation first kept the first row's values and left theirs out.",
    ]);
  });

  it('warns when different values of several pivot columns join to one name', async () => {
    const input = makeTable(['id', 'p1', 'p2', 'v'], [['1', 'a', 'b_c', '10'], ['1', 'a_b', 'c', '20'], ['2', 'a', 'b_c', '30']]);
    const { out, ctx } = run(pivotConfig(['id'], ['p1', 'p2'], ['v']), input);
    await expectRows(out, [{ id: '1', a_b_c: '10' }, { id: '2', a_b_c: '30' }]);
    expect(ctx.warnings).toContain('Pivot: pivot values ("a", "b_c") and ("a_b", "c") both join to "a_b_c", so they share one column (1 row with a second such value); values joined by "_" are one pivot value (engine.md step 10), so pivot on one column to keep them apart.');
  });

  it('groups rows with missing index values together', async () => {
    const input = makeTable(['id', 'k', 'v'], [[null, 'a', '1'], ['', 'b', '2']]);
    await expectRows(run(pivotConfig(['id'], ['k'], ['v']), input).out, [{ id: null, a: '1', b: '2' }]);
  });

  it('leaves out rows without a pivot value and reports them', async () => {
    const input = makeTable(['id', 'k', 'v'], [['1', 'a', '1'], ['1', null, '2']]);
    const { out, ctx } = run(pivotConfig(['id'], ['k'], ['v']), input);
    await expectRows(out, [{ id: '1', a: '1' }]);
    expect(ctx.report.dropped).toEqual([{ rule: 'pivot: missing k', count: 1, firstRows: [2] }]);
  });

  it('gives a pivot value that repeats a column name a _2 suffix', async () => {
    const input = makeTable(['id', 'k', 'v'], [['1', 'id', 'x']]);
    const { out, ctx } = run(pivotConfig(['id'], ['k'], ['v']), input);
    await expectRows(out, [{ id: '1', id_2: 'x' }]);
    expect(ctx.warnings).toEqual(['Pivot: the column for pivot value "id" is named "id_2": "id" is already a column.']);
  });

  it('refuses an unknown column', async () => {
    await expect(run(pivotConfig(['shop'], ['month'], ['sales'])).out).rejects.toThrow(UsageError);
    await expect(run(pivotConfig(['shop'], ['month'], ['sales'])).out).rejects.toThrow(/Pivot index column "shop" is not a column/);
  });

  it('refuses an aggregation method other than first', () => {
    expect(() => run(pivotConfig(['store'], ['month'], ['sales'], 'sum'))).toThrow(UsageError);
    expect(() => run(pivotConfig(['store'], ['month'], ['sales'], 'sum'))).toThrow('Pivot aggregationMethod "sum" is not supported; the only method is first.');
  });

  it('accepts the aggregation method in any case', async () => {
    const { out } = run(pivotConfig(['store'], ['month'], ['sales'], 'FIRST'));
    expect((await out).columns).toEqual(['store', 'Jan', 'Feb', 'Mar']);
  });

  it('passes rows through when no pivot is set', async () => {
    const input = makeTable(['a'], [['1']]);
    expect(await pivot.apply(input, makeConfig(), makeContext())).toBe(input);
  });
});
