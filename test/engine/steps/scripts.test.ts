import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { postCleanScripts, preColumnMappingScripts, toValue } from '../../../src/engine/steps/scripts.js';
import type { ScriptFn } from '../../../src/engine/types.js';
import { expectRows, makeConfig, makeContext, makeTable } from '../../support/rows.js';

const pre = (...ids: string[]) => makeConfig({ scripts: { preColumnMapping: ids, postClean: [] } });
const post = (...ids: string[]) => makeConfig({ scripts: { preColumnMapping: [], postClean: ids } });

describe('scripts steps', () => {
  it('runs preColumnMapping scripts in order on rows as objects', async () => {
    const upperHeaders: ScriptFn = ({ columns, rows }) => ({
      columns: columns.map((c) => c.toUpperCase()),
      rows: rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k.toUpperCase(), v]))),
    });
    const addTotal: ScriptFn = async ({ columns, rows }) => ({
      columns: [...columns, 'TOTAL'],
      rows: rows.map((r) => ({ ...r, TOTAL: r.B === null ? undefined : Number(r.A) + Number(r.B) })),
    });
    const ctx = makeContext({ scripts: { upper: upperHeaders, total: addTotal } });
    const input = makeTable(['a', 'b'], [['1', '2'], ['3', null]], { freeze: true, rowNumbers: [4, 8] });
    const collected = await expectRows(preColumnMappingScripts.apply(input, pre('upper', 'total'), ctx), [
      { A: '1', B: '2', TOTAL: 3 }, { A: '3', B: null, TOTAL: null },
    ]);
    expect(collected.rowNumbers).toEqual([1, 2]);
  });

  it('runs postClean scripts and keeps the types of columns that keep their names', async () => {
    const drop: ScriptFn = ({ columns, rows }) => ({ columns: [...columns, 'note'], rows: rows.filter((r) => r.n !== 2).map((r) => ({ ...r, note: { ok: true } })) });
    const ctx = makeContext({ scripts: { drop } });
    const input = makeTable(['n'], [[1], [2], [3]], { types: ['number'] });
    const collected = await expectRows(postCleanScripts.apply(input, post('drop'), ctx), [{ n: 1, note: '{"ok":true}' }, { n: 3, note: '{"ok":true}' }]);
    expect(collected.types).toEqual(['number', undefined]);
  });

  it('converts script values back: null/undefined to null, text kept, numbers kept, others as text', () => {
    expect([undefined, null, 'x', '  ', 5, true, { a: 1 }, [1, 2], new Date('2024-01-02T03:04:05Z')].map(toValue))
      .toEqual([null, null, 'x', null, 5, 'true', '{"a":1}', '[1,2]', '2024-01-02T03:04:05.000Z']);
  });

  it('refuses NaN, Infinity and an invalid Date from a script, naming the script, column and row, instead of emptying the cell', async () => {
    for (const [bad, shown] of [[Number.NaN, 'NaN'], [-Infinity, '-Infinity'], [new Date('nope'), 'an invalid Date']] as const) {
      const ctx = makeContext({ scripts: { calc: ({ columns, rows }) => ({ columns, rows: rows.map((row, i) => ({ ...row, n: i === 1 ? bad : row.n })) }) } });
      const out = await Promise.resolve(postCleanScripts.apply(makeTable(['n'], [[1], [2]], { types: ['number'] }), post('calc'), ctx)).catch((e: unknown) => e);
      expect(out).toBeInstanceOf(UsageError);
      expect((out as Error).message).toBe(`Script "calc" returned ${shown} in column "n" of row 2, which is not a value; return null for a missing value (or text to keep it as text).`);
    }
  });

  it('warns and skips a script with no local module', async () => {
    const ctx = makeContext();
    const input = makeTable(['a'], [['1']]);
    const out = await preColumnMappingScripts.apply(input, pre('missing-one'), ctx);
    expect(out).toBe(input);
    expect(ctx.warnings).toEqual(['Script "missing-one" has no local module; skipped (the service would run it).']);
  });

  it('refuses a script with no local module when scripts are strict', async () => {
    const ctx = makeContext({ strictScripts: true });
    await expect(preColumnMappingScripts.apply(makeTable(['a'], []), pre('missing-one'), ctx)).rejects.toThrow(UsageError);
    await expect(preColumnMappingScripts.apply(makeTable(['a'], []), pre('missing-one'), ctx)).rejects.toThrow('"missing-one"');
  });

  it('reports a script that throws as a UsageError with its message', async () => {
    const ctx = makeContext({ scripts: { bad: () => { throw new Error('boom'); } } });
    const promise = preColumnMappingScripts.apply(makeTable(['a'], [['1']]), pre('bad'), ctx);
    await expect(promise).rejects.toThrow(UsageError);
    await expect(preColumnMappingScripts.apply(makeTable(['a'], [['1']]), pre('bad'), ctx)).rejects.toThrow('Script "bad" failed: boom');
  });

  it('refuses a result of the wrong shape, naming the script', async () => {
    const ctx = makeContext({ scripts: { rows: () => [] as never, cols: () => ({ columns: 'a', rows: [] }) as never, arr: () => ({ columns: ['a'], rows: [['1']] }) as never } });
    for (const id of ['rows', 'cols', 'arr']) {
      await expect(preColumnMappingScripts.apply(makeTable(['a'], [['1']]), pre(id), ctx)).rejects.toThrow(new RegExp(`Script "${id}" returned`));
    }
  });

  it('streams rows through when no script is configured', async () => {
    const input = makeTable(['a'], [['1']]);
    expect(await postCleanScripts.apply(input, post(), makeContext())).toBe(input);
  });
});
