import { describe, expect, it } from 'vitest';
import * as steps from '../../../src/engine/steps/index.js';
import { STEPS } from '../../../src/engine/steps/index.js';
import { expectRows, makeConfig, makeContext, makeTable } from '../../support/rows.js';

describe('STEPS', () => {
  it('lists the steps in engine.md order', () => {
    expect(STEPS.map((s) => s.name)).toEqual([
      'select-sheet', 'scripts-pre', 'map', 'combine', 'types', 'units', 'impute', 'text', 'drop-rows', 'pivot', 'scripts-post',
    ]);
  });

  it('exports each step on its own too', () => {
    expect(STEPS).toEqual([
      steps.selectSheet, steps.preColumnMappingScripts, steps.map, steps.combine, steps.types, steps.units,
      steps.impute, steps.text, steps.dropRows, steps.pivot, steps.postCleanScripts,
    ]);
  });
});

describe('the steps together', () => {
  it('run in order over frozen input without mutating it', async () => {
    const rows = [
      ['1', 'mary-jane', "o'NEIL", '1,234.50', '03/04/2024 10:00', ''],
      ['2', 'bob', 'smith', '(12)', '25/12/2024', 'NL'],
      ['1', 'dup', 'row', '5', '01/01/2024', 'BE'],
      ['3', 'ann', 'lee', 'n/a', '2024-02-30', 'DE'],
    ];
    const snapshot = structuredClone(rows);
    const config = makeConfig({
      mapping: { ID: 'id', First: 'name', Last: 'name', Amount: 'amount', When: 'at', Country: 'country' },
      allowColumnCombining: true,
      combining: { name: { methodConfig: { separator: ' ' } } },
      dataTypes: { id: 'number', amount: 'number', at: 'date_time', country: 'category' },
      units: { at: { from: 'UTC_m5', to: 'UTC_p0' } },
      impute: { country: { imputeMethod: 'fill', imputeMethodConfig: { fillValue: 'US' } } },
      text: { casing: { name: 'title' } },
      presetRowDropping: [{ method: 'duplicateValues', methodConfig: { fields: ['id'] } }],
    });
    const ctx = makeContext({ schema: { expectedFields: ['id', 'name', 'amount', 'at', 'country'] } });
    let table = makeTable(['ID', 'First', 'Last', 'Amount', 'When', 'Country'], rows, { freeze: true, batchSize: 1 });
    for (const step of STEPS) {
      step.check?.(config, table.columns, ctx);
      table = await step.apply(table, config, ctx);
    }
    const collected = await expectRows(table, [
      { id: 1, name: "Mary-Jane O'Neil", amount: 1234.5, at: '2024-04-03T15:00:00', country: 'US' },
      { id: 2, name: 'Bob Smith', amount: -12, at: '2024-12-25T05:00:00', country: 'NL' },
      { id: 3, name: 'Ann Lee', amount: null, at: null, country: 'DE' },
    ]);
    expect(collected.rowNumbers).toEqual([1, 2, 4]);
    expect(collected.types).toEqual(['number', undefined, 'number', 'date_time', 'category']);
    expect(rows).toEqual(snapshot);
    expect(ctx.report.coercionFailures).toEqual({ amount: 1, at: 1 });
  });
});
