import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { mergeTypeEvidence, types, typesStep, typeWarnings } from '../../../src/engine/steps/types.js';
import { emptyTypeEvidence } from '../../../src/engine/types.js';
import type { EngineConfig, Table } from '../../../src/engine/types.js';
import { collectRows, expectRows, makeConfig, makeContext, makeTable, type TableOptions } from '../../support/rows.js';

function run(column: string, values: (string | null)[], extra: Partial<EngineConfig>, options: TableOptions = {}) {
  const ctx = makeContext();
  const config = makeConfig(extra);
  types.check!(config, [column], ctx);
  const out = types.apply(makeTable([column], values.map((v) => [v]), options), config, ctx);
  return { out, ctx };
}

describe('types step', () => {
  it('turns number text into numbers, so 1,234.50 becomes 1234.5', async () => {
    const { out } = run('amount', ['1,234.50', '-12.5', '1e3', '$5', '-$5', '12.5%', '(12)', ' 7 '], { dataTypes: { amount: 'number' } });
    const { rows, types: outTypes } = await collectRows(out);
    expect(rows.map((r) => r.amount)).toEqual([1234.5, -12.5, 1000, 5, -5, 0.125, -12, 7]);
    expect(outTypes).toEqual(['number']);
  });

  it('makes unparseable numbers missing and counts them', async () => {
    const { out, ctx } = run('amount', ['12', 'twelve', null, '1,5'], { dataTypes: { amount: 'number' } });
    await expectRows(out, [{ amount: 12 }, { amount: null }, { amount: null }, { amount: null }]);
    expect(ctx.report.coercionFailures).toEqual({ amount: 2 });
  });

  it('writes dates as YYYY-MM-DDTHH:mm:ss', async () => {
    const { out } = run('at', ['2024-03-05', '2024-03-05T14:22', '2024-03-05 14:22:10', '2024-03-05T14:22:10.5', '2024/03/05 08:00'], { dataTypes: { at: 'date_time' } });
    await expectRows(out, [
      { at: '2024-03-05T00:00:00' }, { at: '2024-03-05T14:22:00' }, { at: '2024-03-05T14:22:10' }, { at: '2024-03-05T14:22:10' }, { at: '2024-03-05T08:00:00' },
    ]);
  });

  it('says that fractions of a second were cut, naming the first value', async () => {
    const { out, ctx } = run('at', ['2024-03-05T14:22:10Z', '2024-03-05 14:22:10.987', '2024-03-05T14:22:10,5Z'], { dataTypes: { at: 'date_time' } });
    await expectRows(out, [{ at: '2024-03-05T14:22:10' }, { at: '2024-03-05T14:22:10' }, { at: '2024-03-05T14:22:10' }]);
    expect(ctx.warnings).toEqual(['Field "at" has times with fractions of a second (row 2: "2024-03-05 14:22:10.987"), which the date_time form YYYY-MM-DDTHH:mm:ss cannot hold: they were cut to whole seconds.']);
    const whole = run('at', ['2024-03-05T14:22:10+02:00', '2024-03-05 14:22:10', 'June 12, 1998 14:05:33'], { dataTypes: { at: 'date_time' } });
    await collectRows(whole.out);
    expect(whole.ctx.warnings).toEqual([]);
  });

  it('says that times with different UTC offsets and no time-zone conversion lost their offsets', async () => {
    const { out, ctx } = run('at', ['2024-03-05 14:00:00', '2024-03-05T14:00:00Z', '2024-03-05T16:00:00+00:00', '2024-03-05T14:00+02', '2024-03-05T14:00:00-05:00'], { dataTypes: { at: 'date_time' } });
    await expectRows(out, [{ at: '2024-03-05T14:00:00' }, { at: '2024-03-05T14:00:00' }, { at: '2024-03-05T16:00:00' }, { at: '2024-03-05T14:00:00' }, { at: '2024-03-05T14:00:00' }]);
    expect(ctx.warnings).toEqual(['Field "at" has times with different UTC offsets (row 2: "2024-03-05T14:00:00Z", row 4: "2024-03-05T14:00+02") and no time-zone conversion, so each keeps its wall time as written and its offset is lost: times hours apart may read as equal. Set its units (from, to) to move them into one zone.']);
    // One offset throughout (an export in UTC), or a conversion, which moves each into one zone: nothing is lost.
    for (const extra of [{}, { units: { at: { from: 'UTC_p0', to: 'UTC_p1' } } }]) {
      const values = extra.units ? ['2024-03-05T14:00:00Z', '2024-03-05T14:00:00+02:00'] : ['2024-03-05T14:00:00Z', '2024-03-05T15:00:00+00:00', '2024-03-05 14:00'];
      const one = run('at', values, { dataTypes: { at: 'date_time' }, ...extra });
      await collectRows(one.out);
      expect(one.ctx.warnings).toEqual([]);
    }
  });

  it('finds different UTC offsets held by two parts of a two-thread run, one in each', () => {
    const run = emptyTypeEvidence();
    const first = emptyTypeEvidence();
    first.offset.set('at', { row: 3, text: '2024-03-05T14:00:00+02:00', minutes: 120 });
    const second = emptyTypeEvidence();
    second.offset.set('at', { row: 5, text: '2024-03-05T14:00:00Z', minutes: 0 });
    mergeTypeEvidence(run, first, 0);
    mergeTypeEvidence(run, second, 100);
    expect(typeWarnings(run)).toEqual(['Field "at" has times with different UTC offsets (row 3: "2024-03-05T14:00:00+02:00", row 105: "2024-03-05T14:00:00Z") and no time-zone conversion, so each keeps its wall time as written and its offset is lost: times hours apart may read as equal. Set its units (from, to) to move them into one zone.']);
  });

  it('reads slash dates month-first when no value has a first part over 12', async () => {
    const { out } = run('at', ['03/04/2024', '12/01/2024 10:30'], { dataTypes: { at: 'date_time' } });
    await expectRows(out, [{ at: '2024-03-04T00:00:00' }, { at: '2024-12-01T10:30:00' }]);
  });

  it('reads slash dates day-first when any value has a first part over 12, also in a later batch', async () => {
    const { out, ctx } = run('at', ['03/04/2024', '05/06/2024', '2024-01-01', '25/12/2024'], { dataTypes: { at: 'date_time' } }, { batchSize: 1 });
    const collected = await expectRows(out, [
      { at: '2024-04-03T00:00:00' }, { at: '2024-06-05T00:00:00' }, { at: '2024-01-01T00:00:00' }, { at: '2024-12-25T00:00:00' },
    ]);
    expect(collected.rowNumbers).toEqual([1, 2, 3, 4]);
    expect(ctx.report.coercionFailures).toEqual({});
  });

  it('reads a column day-first when a day-first value comes after a month-first one, and warns', async () => {
    const { out, ctx } = run('at', ['12/25/2024', '01/02/2024', '25/12/2024'], { dataTypes: { at: 'date_time' } }, { batchSize: 1 });
    await expectRows(out, [{ at: null }, { at: '2024-02-01T00:00:00' }, { at: '2024-12-25T00:00:00' }]);
    expect(ctx.report.coercionFailures).toEqual({ at: 1 });
    expect(ctx.warnings).toEqual([
      'Field "at" has slash dates read day-first (a first part is over 12) but row 1 holds "12/25/2024", which only reads month-first; such values are missing and counted as coercion failures. Write the column\'s dates in one order.',
    ]);
  });

  it('gives a field the configuration leaves untyped the pipeline\'s expected type', async () => {
    const ctx = makeContext({ schema: { fieldDataTypes: { at: 'date_time', n: 'number' } } });
    const config = makeConfig({ dataTypes: { n: 'rich_text' } });
    const out = types.apply(makeTable(['at', 'n'], [['Jun 12 1998', '1,5']]), config, ctx);
    await expectRows(out, [{ at: '1998-06-12T00:00:00', n: '1,5' }]);
  });

  it('reads English month names with an optional time', async () => {
    const { out, ctx } = run('at', ['Jun 12 1998', 'June 12, 1998 14:22', '12 Jun 1998', '12-jun-1998 01:02:03', 'Jun 31 1998'], { dataTypes: { at: 'date_time' } });
    await expectRows(out, [
      { at: '1998-06-12T00:00:00' }, { at: '1998-06-12T14:22:00' }, { at: '1998-06-12T00:00:00' }, { at: '1998-06-12T01:02:03' }, { at: null },
    ]);
    expect(ctx.report.coercionFailures).toEqual({ at: 1 });
  });

  it('re-reads the input to decide past the hold limit, holding no more than the limit', async () => {
    const values = [...Array.from({ length: 50 }, (_, i) => `0${1 + (i % 9)}/02/2024`), '2024-01-01', '13/01/2024'];
    const rows = values.map((v) => [v]);
    const ctx = makeContext();
    let reopened = 0;
    ctx.reopen = async () => { reopened++; return makeTable(['at'], rows, { batchSize: 4 }); };
    let pulled = 0;
    const source = makeTable(['at'], rows, { batchSize: 4 });
    const counted = { ...source, batches: (async function* () { for await (const b of source.batches) { pulled++; yield b; } })() };
    const out = typesStep(undefined, { holdRows: 8 }).apply(counted, makeConfig({ dataTypes: { at: 'date_time' } }), ctx) as Table;
    const iterator = out.batches[Symbol.asyncIterator]();
    expect((await iterator.next()).value.rows[0]).toEqual(['2024-02-01T00:00:00']);
    expect(pulled).toBe(2); // two batches of 4 held, then decided by the re-read
    expect(reopened).toBe(1);
    const rest = await collectRows({ columns: ['at'], types: [], batches: { [Symbol.asyncIterator]: () => iterator } });
    expect(rest.rows.at(-1)).toEqual({ at: '2024-01-13T00:00:00' });
    expect(rest.rows.length).toBe(values.length - 4);
  });

  it('decides month-first after a re-read that finds no day-first value', async () => {
    const rows = Array.from({ length: 20 }, () => ['02/03/2024']);
    const ctx = makeContext();
    ctx.reopen = async () => makeTable(['at'], rows, { batchSize: 4 });
    const out = typesStep(undefined, { holdRows: 8 }).apply(makeTable(['at'], rows, { batchSize: 4 }), makeConfig({ dataTypes: { at: 'date_time' } }), ctx);
    const { rows: read } = await collectRows(out);
    expect(read.every((r) => r.at === '2024-02-03T00:00:00')).toBe(true);
  });

  it('streams without waiting once a value has proved the order', async () => {
    let pulled = 0;
    const source = makeTable(['at'], [['25/12/2024'], ['01/02/2024'], ['03/04/2024']], { batchSize: 1 });
    const counted = { ...source, batches: (async function* () { for await (const b of source.batches) { pulled++; yield b; } })() };
    const out = await types.apply(counted, makeConfig({ dataTypes: { at: 'date_time' } }), makeContext());
    const iterator = out.batches[Symbol.asyncIterator]();
    expect((await iterator.next()).value.rows).toEqual([['2024-12-25T00:00:00']]);
    expect(pulled).toBe(1);
    expect((await iterator.next()).value.rows).toEqual([['2024-02-01T00:00:00']]);
    expect(pulled).toBe(2);
  });

  it('makes invalid calendar dates and other text missing and counts them', async () => {
    const { out, ctx } = run('at', ['2024-02-30', 'soon', '2024-02-29'], { dataTypes: { at: 'date_time' } });
    await expectRows(out, [{ at: null }, { at: null }, { at: '2024-02-29T00:00:00' }]);
    expect(ctx.report.coercionFailures).toEqual({ at: 2 });
  });

  it('keeps the wall time of a value with an offset when no time-zone conversion is set', async () => {
    const { out } = run('at', ['2024-03-05T14:22:10+02:00', '2024-03-05T14:22:10Z'], { dataTypes: { at: 'date_time' } });
    await expectRows(out, [{ at: '2024-03-05T14:22:10' }, { at: '2024-03-05T14:22:10' }]);
  });

  it("converts a value with an offset to the conversion's from zone", async () => {
    const { out } = run('at', ['2024-03-05T14:22:10+02:00', '2024-03-05T01:00:00Z', '2024-03-05 09:00'], {
      dataTypes: { at: 'date_time' }, units: { at: { from: 'UTC_m5', to: 'UTC_p0' } },
    });
    // Offsets become UTC−5 wall time; the plain value is taken as already in that zone.
    await expectRows(out, [{ at: '2024-03-05T07:22:10' }, { at: '2024-03-04T20:00:00' }, { at: '2024-03-05T09:00:00' }]);
  });

  it('leaves category and rich_text text unchanged and sets their types', async () => {
    const ctx = makeContext();
    const input = makeTable(['c', 'r', 'u'], [[' A ', 'Some  text', '1']]);
    const out = types.apply(input, makeConfig({ dataTypes: { c: 'category', r: 'rich_text' } }), ctx);
    const collected = await expectRows(out, [{ c: ' A ', r: 'Some  text', u: '1' }]);
    expect(collected.types).toEqual(['category', 'rich_text', undefined]);
  });

  it('ignores types of fields that are not columns and accepts type names in any case', async () => {
    const { out } = run('n', ['3'], { dataTypes: { n: 'NUMBER' as never, absent: 'date_time' } });
    await expectRows(out, [{ n: 3 }]);
  });

  it('refuses an unknown data type', () => {
    expect(() => types.check!(makeConfig({ dataTypes: { n: 'integer' as never } }), ['n'], makeContext())).toThrow(UsageError);
    expect(() => types.check!(makeConfig({ dataTypes: { n: 'integer' as never } }), ['n'], makeContext())).toThrow('Data type "integer" for field "n" is not one of number, rich_text, category, date_time.');
  });

  it('does not mutate its input rows', async () => {
    const rows = [['1,000', '03/04/2024'], ['x', '13/04/2024']];
    const input = makeTable(['n', 'd'], rows, { freeze: true, batchSize: 1 });
    await expectRows(types.apply(input, makeConfig({ dataTypes: { n: 'number', d: 'date_time' } }), makeContext()), [
      { n: 1000, d: '2024-04-03T00:00:00' }, { n: null, d: '2024-04-13T00:00:00' },
    ]);
    expect(rows).toEqual([['1,000', '03/04/2024'], ['x', '13/04/2024']]);
  });
});
