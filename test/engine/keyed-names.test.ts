/** Column names users write (`__proto__`, `constructor`, `"1962"`) survive every engine layer in their written order. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keysInOrder, parseJson, stringifyJson } from '../../src/contract/json.js';
import { DataTableCollector, MetadataCollector } from '../../src/engine/metadata.js';
import { openInput } from '../../src/engine/read/index.js';
import { combinedFields } from '../../src/engine/steps/combine.js';
import { map } from '../../src/engine/steps/map.js';
import { preColumnMappingScripts } from '../../src/engine/steps/scripts.js';
import type { Row, ScriptFn, Table } from '../../src/engine/types.js';
import { makeConfig, makeContext, makeTable } from '../support/rows.js';

let dir: string;
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'import-keyed-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

/** Columns and row arrays of a table (row objects would lose `__proto__` in the test itself). */
async function drain(table: Table | Promise<Table>): Promise<{ columns: string[]; rows: Row[] }> {
  const t = await table;
  const rows: Row[] = [];
  for await (const batch of t.batches) rows.push(...batch.rows);
  return { columns: t.columns, rows };
}

describe('JSON input keeps keys as written', () => {
  it('takes columns in first-seen order, integer-like keys and __proto__ included', async () => {
    const path = join(dir, 'rows.json');
    await writeFile(path, '[{"TQ": "a", "1976": 1, "1962": 2, "__proto__": "p"}, {"constructor": "c", "1": true}]');
    const { columns, rows } = await drain((await openInput({ file: path })).open());
    expect(columns).toEqual(['TQ', '1976', '1962', '__proto__', 'constructor', '1']);
    expect(rows).toEqual([['a', '1', '2', 'p', null, null], [null, null, null, null, 'c', 'true']]);
  });

  it('writes nested objects as compact JSON in written order', async () => {
    const path = join(dir, 'nested.json');
    await writeFile(path, '[{"id": 1, "meta": {"z": 1, "10": [1, {"b": 2, "a": 1}], "2": null}}]');
    const { rows } = await drain((await openInput({ file: path })).open());
    expect(rows).toEqual([['1', '{"z":1,"10":[1,{"b":2,"a":1}],"2":null}']]);
  });

  it('reads inline rows parsed from a request body in written order', async () => {
    const rows = parseJson('[{"b": 1, "2": 2, "__proto__": 3}]') as Record<string, unknown>[];
    const { columns, rows: read } = await drain((await openInput({ rows })).open());
    expect(columns).toEqual(['b', '2', '__proto__']);
    expect(read).toEqual([['1', '2', '3']]);
  });
});

describe('mapping and combining keep user-named keys', () => {
  it('maps a column named __proto__ and keeps the mapping order of integer-like columns', async () => {
    const mapping = parseJson('{"__proto__": "proto_field", "1962": "y1962", "TQ": "tq"}') as Record<string, string>;
    const out = await drain(map.apply(makeTable(['TQ', '1962', '__proto__'], [['a', 'b', 'c']]), makeConfig({ mapping }), makeContext()));
    expect(out.columns).toEqual(['tq', 'y1962', 'proto_field']);
    expect(out.rows).toEqual([['a', 'b', 'c']]);
  });

  it('writes json combining in the combining order, integer-like keys and __proto__ as written', async () => {
    const mapping = parseJson('{"TQ": "all", "1976": "all", "1962": "all", "__proto__": "all"}') as Record<string, string>;
    const config = makeConfig({
      mapping, allowColumnCombining: true,
      combining: { all: { method: 'json', combiningOrder: ['TQ', '1976', '1962', '__proto__'] } },
    });
    const out = await drain(map.apply(makeTable(['1962', '__proto__', 'TQ', '1976'], [['62', 'p', 'q', null]]), config, makeContext()));
    expect(out.rows).toEqual([['{"TQ":"q","1976":null,"1962":"62","__proto__":"p"}']]);
  });

  it('groups 80,000 columns in time linear in their number', () => {
    const time = (n: number) => {
      const columns = Array.from({ length: n }, (_, i) => `c${i}`);
      const mapping = Object.fromEntries(columns.map((c, i) => [c, `f${i % (n / 2)}`]));
      const started = performance.now();
      expect(combinedFields(mapping, columns).size).toBe(n / 2);
      return performance.now() - started;
    };
    time(20_000);
    const small = time(20_000);
    const large = time(80_000);
    // Quadratic work made 80,000 columns take 15 s; 4x the columns must cost about 4x.
    expect(large).toBeLessThan(small * 4 * 3 + 1000);
  });
});

describe('script rows keep user-named keys', () => {
  it('gives a script a __proto__ column as an own member and reads it back', async () => {
    let seen: unknown;
    const script: ScriptFn = ({ columns, rows }) => {
      seen = { own: Object.hasOwn(rows[0], '__proto__'), value: rows[0]['__proto__'], keys: keysInOrder(rows[0]) };
      return { columns: [...columns, 'extra'], rows: rows.map((row) => ({ ...Object.fromEntries(Object.entries(row)), extra: 'e' })) };
    };
    const config = makeConfig({ scripts: { preColumnMapping: ['s'], postClean: [] } });
    const table = makeTable(['b', '__proto__', '1'], [['x', 'p', 'one']]);
    const out = await drain(preColumnMappingScripts.apply(table, config, makeContext({ scripts: { s: script } })));
    expect(seen).toEqual({ own: true, value: 'p', keys: ['b', '__proto__', '1'] });
    expect(out.columns).toEqual(['b', '__proto__', '1', 'extra']);
    expect(out.rows).toEqual([['x', 'p', 'one', 'e']]);
  });

  it('reads a missing __proto__ member as missing, not as Object.prototype', async () => {
    const script: ScriptFn = () => ({ columns: ['__proto__', 'a'], rows: [{ a: '1' }] });
    const config = makeConfig({ scripts: { preColumnMapping: ['s'], postClean: [] } });
    const out = await drain(preColumnMappingScripts.apply(makeTable(['a'], [['1']]), config, makeContext({ scripts: { s: script } })));
    expect(out.rows).toEqual([[null, '1']]);
  });
});

describe('metadata keeps user-named keys', () => {
  it('keys uniqueRatio, missingRowIndices and dataTypes by every column, in column order', () => {
    const columns = ['b', '__proto__', '1962'];
    const collector = new MetadataCollector('in.csv', columns, { full: false });
    collector.push({ rows: [['x', null, '1'], ['y', 'p', '1']], rowNumbers: [1, 2] });
    const meta = collector.result();
    expect(stringifyJson(meta.uniqueRatio)).toBe('{"in.csv":{"b":1,"__proto__":0.5,"1962":0.5}}');
    expect(stringifyJson(meta.missingRowIndices)).toBe('{"in.csv":{"b":[],"__proto__":[0],"1962":[]}}');
    const body = new DataTableCollector().body('job', columns, ['rich_text', 'number', undefined]);
    expect(stringifyJson(body.dataTypes)).toBe('{"b":"rich_text","__proto__":"number","1962":"rich_text"}');
  });
});
