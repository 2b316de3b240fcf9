import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { openInput } from '../../../src/engine/read/index.js';
import type { InputSource, Row } from '../../../src/engine/types.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'import-read-json-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, content: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

async function readAll(source: InputSource): Promise<{ columns: string[]; rows: Row[]; rowNumbers: number[] }> {
  const table = await source.open();
  const rows: Row[] = [];
  const rowNumbers: number[] = [];
  for await (const batch of table.batches) {
    rows.push(...batch.rows);
    rowNumbers.push(...batch.rowNumbers);
  }
  return { columns: table.columns, rows, rowNumbers };
}

async function failure(run: () => Promise<unknown>): Promise<UsageError> {
  const error = await run().then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(UsageError);
  return error as UsageError;
}

describe('JSON reader', () => {
  it('reads inline rows as `jsonData`', async () => {
    const source = await openInput({ rows: [{ a: 1 }] });
    expect(source).toMatchObject({ name: 'jsonData', kind: 'json', size: 0 });
    expect(await source.sheets()).toBeNull();
    expect(await readAll(source)).toEqual({ columns: ['a'], rows: [['1']], rowNumbers: [1] });
  });

  it('takes the union of keys, in first-seen order, as columns', async () => {
    const source = await openInput({ rows: [{ b: 'x', a: 'y' }, { c: 'z', a: 'w' }, { d: null }] });
    expect(await readAll(source)).toEqual({
      columns: ['b', 'a', 'c', 'd'],
      rows: [['x', 'y', null, null], [null, 'w', 'z', null], [null, null, null, null]],
      rowNumbers: [1, 2, 3],
    });
  });

  it('turns values into text: numbers, booleans, objects as JSON; missing as null', async () => {
    const source = await openInput({ rows: [{ s: ' keep ', n: 1234.5, t: true, f: false, o: { k: [1, 'x'] }, z: null, blank: '  ' }] });
    expect((await readAll(source)).rows).toEqual([[' keep ', '1234.5', 'true', 'false', '{"k":[1,"x"]}', null, null]]);
  });

  it('keeps a number a double would change as a number inside a nested value, as written, not as a string', async () => {
    const path = await file('nested-numbers.json', '[{"cell": 1e400, "nested": {"big": 1e400, "tiny": -1e-400, "fraction": 0.30000000000000000001, "id": 12345678901234567890, "list": [1E5, 0.12345678901234567, "1e400"]}}]');
    expect((await readAll(await openInput({ file: path }))).rows).toEqual([
      ['1e400', '{"big":1e400,"tiny":-1e-400,"fraction":0.30000000000000000001,"id":12345678901234567890,"list":[100000,0.12345678901234567,"1e400"]}'],
    ]);
  });

  it('refuses a byte that is not UTF-8 at its line:col rather than read U+FFFD in its place', async () => {
    const path = join(dir, 'latin1.json');
    await writeFile(path, Buffer.concat([Buffer.from('[{"city": "Paris"},\n {"city": "Mont'), Buffer.from([0xe9]), Buffer.from('limar"}]')]));
    const error = await failure(async () => readAll(await openInput({ file: path })));
    expect(error.message).toBe(`${path}:2:16 holds the byte 0xE9 ("é" in Windows-1252), which is not UTF-8: the file was saved in another encoding; save it as UTF-8 or convert it (iconv -f WINDOWS-1252 -t UTF-8 FILE > utf8.json) and retry.`);
  });

  it('reads a file holding an array of objects', async () => {
    const source = await openInput({ file: join('test', 'fixtures', 'read', 'rows.json') });
    expect(source).toMatchObject({ name: 'rows.json', kind: 'json' });
    expect(await readAll(source)).toEqual({
      columns: ['id', 'name', 'email', 'tags'],
      rows: [['1', 'Ada', null, null], ['2', null, 'alan@example.com', '["x"]']],
      rowNumbers: [1, 2],
    });
  });

  it('fails when the file holds something other than an array', async () => {
    const path = await file('object.json', '{"rows": []}');
    const error = await failure(async () => readAll(await openInput({ file: path })));
    expect(error.message).toBe(`${path} holds an object, not an array of objects; give rows as [{"column": "value"}, ...].`);
  });

  it('fails on the first element that is not an object, naming its index', async () => {
    const path = await file('mixed.json', '[{"a": 1}, {"a": 2}, {"a": 3}, "four", 5]');
    const error = await failure(async () => readAll(await openInput({ file: path })));
    expect(error.message).toBe(`${path}: element 3 (0-based) is a string, not an object; give every row as {"column": "value"}.`);
    const inline = await failure(() => openInput({ rows: [{ a: 1 }, [1, 2]] as unknown as Record<string, unknown>[] }));
    expect(inline.message).toBe('jsonData: element 1 (0-based) is an array, not an object; give every row as {"column": "value"}.');
  });

  it('refuses a key written twice in one row, at its line:col, rather than keep the last value', async () => {
    const path = await file('twice.json', '[{"id": 1, "email": "a@x.com"},\n {"id": 2, "email": "old@x.com", "email": "new@x.com"}]');
    const error = await failure(async () => readAll(await openInput({ file: path })));
    expect(error.message).toBe(`${path}:2:34: key "email" appears twice in one object, so one of its values would be lost; remove or rename one of them.`);
    // The same key in two rows, or nested under another object, is no repeat.
    const fine = await file('fine.json', '[{"id": 1, "tags": {"id": 9}}, {"id": 2, "note": "\\"id\\": 3"}]');
    expect((await readAll(await openInput({ file: fine }))).rows).toEqual([['1', '{"id":9}', null], ['2', null, '"id": 3']]);
  });

  it('refuses a value nested more than 1000 levels deep at its line:col, and keeps one nested 998 levels as JSON text', async () => {
    const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    // The rows array and the row are levels 1 and 2; the value's arrays start at 3.
    const path = await file('deep.json', `[{"id": 1},\n {"id": 2, "v": ${deep(200_000)}}]`);
    const error = await failure(async () => readAll(await openInput({ file: path })));
    expect(error.message).toBe(`${path}:2:${17 + 998}: arrays and objects nest more than 1000 levels deep here; flatten the value.`);
    const ordered = await file('deep-ordered.json', `[{"v": ${'{"1": 1, "0": '.repeat(20_000)}0${'}'.repeat(20_000)}}]`);
    expect((await failure(async () => readAll(await openInput({ file: ordered })))).message).toMatch(/nest more than 1000 levels deep here/);
    const fine = await file('deep-fine.json', `[{"v": ${deep(998)}}]`);
    expect((await readAll(await openInput({ file: fine }))).rows).toEqual([[deep(998)]]);
  });

  it('refuses an empty array and rows without keys: there is nothing to import', async () => {
    const empty = await file('empty-array.json', '[]');
    expect((await failure(async () => readAll(await openInput({ file: empty })))).message).toBe(`${empty} is an empty array, so there are no rows; give rows as [{"column": "value"}, ...].`);
    const keyless = await file('keyless.json', '[{}, {}]');
    expect((await failure(async () => readAll(await openInput({ file: keyless })))).message).toBe(`${keyless}: every row is an empty object, so there are no columns; give rows as [{"column": "value"}, ...].`);
  });

  it('fails on invalid JSON with the position as line:col', async () => {
    const path = await file('broken.json', '[\n  {"a": 1},\n  {"b" 2}\n]\n');
    const error = await failure(async () => readAll(await openInput({ file: path })));
    expect(error.message).toBe(`${path}:3:8: invalid JSON (Expected ':' after property name); fix the file so it holds an array of row objects.`);
  });

  it('locates an unexpected token that the parser reports without a position', async () => {
    const path = await file('token.json', '[\n  {"a": 1},\n  {"b": }\n]');
    const error = await failure(async () => readAll(await openInput({ file: path })));
    expect(error.message).toMatch(new RegExp(`^${path.replace(/[.]/g, '\\.')}:3:9: invalid JSON \\(Unexpected token '}'\\);`));
  });

  it('is recognised by content when the extension says nothing', async () => {
    const path = await file('rows.data', '\uFEFF  [{"a": "x"}]');
    const source = await openInput({ file: path });
    expect(source.kind).toBe('json');
    expect((await readAll(source)).rows).toEqual([['x']]);
  });
});
