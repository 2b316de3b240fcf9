import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { csvField, writeTable } from '../../../src/engine/write/index.js';
import { CsvEncoder, csvHeader, csvLine, loneSurrogates, newFixes, rowFormat } from '../../../src/engine/write/csv.js';
import { openInput } from '../../../src/engine/read/index.js';
import type { Batch, Row, Table } from '../../../src/engine/types.js';
import { findPython, noPythonReason } from '../../support/python.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'import-write-csv-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A table over rows given in batches. */
function table(columns: string[], ...batches: Row[][]): Table {
  return {
    columns,
    types: columns.map(() => undefined),
    batches: (async function* (): AsyncGenerator<Batch> {
      let n = 0;
      for (const rows of batches) yield { rows, rowNumbers: rows.map(() => ++n) };
    })(),
  };
}

describe('CSV writer', () => {
  it('writes UTF-8 without BOM, commas, LF line ends and a header row', async () => {
    const path = join(dir, 'plain.csv');
    const result = await writeTable(table(['id', 'name'], [['1', 'Zoë'], ['2', 'Ana']]), path, 'csv');
    expect(result).toEqual({ rows: 2 });
    const bytes = await readFile(path);
    expect(bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(false);
    expect(bytes.toString('utf8')).toBe('id,name\n1,Zoë\n2,Ana\n');
  });

  it('quotes only fields with a comma, a quote, CR, LF or leading/trailing spaces, doubling quotes', async () => {
    const path = join(dir, 'quoting.csv');
    const rows: Row[] = [
      ['a,b', 'say "hi"', 'line\nbreak', 'cr\rhere'],
      [' lead', 'trail ', 'in side', '\ttab'],
      ['"', '', 'plain', "it's"],
    ];
    await writeTable(table(['c1', 'c 2', 'c,3', 'c"4'], rows), path, 'csv');
    expect(await readFile(path, 'utf8')).toBe(
      'c1,c 2,"c,3","c""4"\n'
      + '"a,b","say ""hi""","line\nbreak","cr\rhere"\n'
      + '" lead","trail ",in side,\ttab\n'
      + '"""",,plain,it\'s\n',
    );
  });

  it('writes missing values as empty fields and numbers as String(n)', async () => {
    const path = join(dir, 'values.csv');
    await writeTable(table(['n', 'm', 'x'], [[1234.5, null, 0.1], [-0, 1e21, null]]), path, 'csv');
    expect(await readFile(path, 'utf8')).toBe('n,m,x\n1234.5,,0.1\n0,1e+21,\n');
    expect(csvField(Number.NaN)).toBe('');
  });

  it('writes every number as String(n), around each power of ten, int32 and the two-decimal limits', () => {
    const values: number[] = [0, -0, 0.05, 0.5, 0.1, 10.01, 1 / 3, -1.25, 1e15, 1e15 - 1, 1e13 - 0.01, 1e13 + 0.5, 2 ** 53, 1e21, 5e-7];
    for (let k = 0; k <= 15; k++) {
      for (const v of [10 ** k - 1, 10 ** k, 10 ** k + 1, (10 ** k) / 100, (10 ** k - 1) / 100, 10 ** k + 0.25]) values.push(v, -v);
    }
    for (const base of [2 ** 31, 2 ** 32]) for (const d of [-1, -0.01, 0, 0.01, 0.5, 1]) values.push(base + d, -(base + d));
    const encoder = new CsvEncoder(16);
    encoder.addRows(values.map((v) => [v]), rowFormat(['n']));
    expect(encoder.buffer.toString('utf8', 0, encoder.length).split('\n').slice(0, -1)).toEqual(values.map((v) => csvField(v)));
  });

  it('quotes text that is not ASCII by the same rule, and writes it as UTF-8', async () => {
    const path = join(dir, 'unicode.csv');
    const rows: Row[] = [['Zoë, Ana', 'say “hi” "x"', ' ü', '😀'], ['ü\n', 'ß', 'a😀,', '日本']];
    await writeTable(table(['a', 'b', 'c', 'd'], rows), path, 'csv');
    expect(await readFile(path, 'utf8')).toBe('a,b,c,d\n' + rows.map((row) => csvLine(row)).join('\n') + '\n');
    expect(await readFile(path, 'utf8')).toBe('a,b,c,d\n"Zoë, Ana","say “hi” ""x"""," ü",😀\n"ü\n",ß,"a😀,",日本\n');
  });

  it('quotes by the same rule text copied in JavaScript and text encoded by Node, at every length around the limit', () => {
    // Text up to 48 units is copied and checked in one pass; longer text is copied one byte on with
    // its quotes doubled, and moved back when it needs no quotes; text that is not ASCII is encoded by Node.
    const format = rowFormat(['a', 'b']);
    for (const special of [',', '"', '\n', '\r', ' ', 'é', 'x']) {
      for (let length = 1; length <= 60; length++) {
        for (const at of [0, Math.floor(length / 2), length - 1]) {
          const value = 'a'.repeat(at) + special + 'b'.repeat(Math.max(0, length - at - 1));
          const encoder = new CsvEncoder(16);
          encoder.addRows([[value, 'z']], format);
          expect(encoder.buffer.toString('utf8', 0, encoder.length), JSON.stringify(value)).toBe(`${csvField(value)},z\n`);
        }
      }
    }
    // Several quotes, then a character that is not ASCII after some were doubled; only quotes; a space at the end.
    const many = ['a"b""c' + 'd'.repeat(50), 'a"b' + 'c'.repeat(50) + 'é"', '"'.repeat(55), 'x'.repeat(60) + ' ', ' ' + 'é'.repeat(60)];
    const encoder = new CsvEncoder(16);
    encoder.addRows(many.map((value) => ['z', value]), format);
    expect(encoder.buffer.toString('utf8', 0, encoder.length)).toBe(many.map((value) => `z,${csvField(value)}\n`).join(''));
  });

  it('gives each line\'s end in bytes and grows past its first buffer', () => {
    const encoder = new CsvEncoder(8);
    const long = 'x'.repeat(100);
    encoder.addRows([['é', 1.5], [long, null], [' a', 'b"']], rowFormat(['a', 'b']), undefined);
    const ends: number[] = [];
    const second = new CsvEncoder(8);
    second.addRows([['é', 1.5], [long, null], [' a', 'b"']], rowFormat(['a', 'b']), ends);
    const text = `é,1.5\n${long},\n" a","b"""\n`;
    expect(encoder.buffer.subarray(0, encoder.length).toString('utf8')).toBe(text);
    expect(ends).toEqual([7, 7 + 102, Buffer.byteLength(text)]);
  });

  it('quotes a date-time column\'s value that a later step made into text needing quotes', async () => {
    // Text rules, fill, pivot and scripts run after the data-type step: a date_time value may hold a comma.
    const path = join(dir, 'dates.csv');
    const values = ['2024-01-02T03:04:05', '01/02/2024, 03:04:05', ' 2024-01-02', 'said "then"', 'a\nb', 'Zoë, 3 pm', 'é'.repeat(30) + ',' + 'x'.repeat(30)];
    const dated: Table = { ...table(['at', 'note'], values.map((v) => [v, 'a,b'])), types: ['date_time', undefined] };
    await writeTable(dated, path, 'csv');
    expect(await readFile(path, 'utf8')).toBe('at,note\n' + values.map((v) => `${csvField(v)},"a,b"\n`).join(''));
    expect(csvField(values[1])).toBe('"01/02/2024, 03:04:05"');
  });

  it('writes a header-only file for a table without rows', async () => {
    const path = join(dir, 'empty.csv');
    expect(await writeTable(table(['a', 'b']), path, 'csv')).toEqual({ rows: 0 });
    expect(await readFile(path, 'utf8')).toBe('a,b\n');
  });

  it('round-trips through the reader', async () => {
    const path = join(dir, 'round.csv');
    const rows: Row[] = [['x, y', 'multi\nline', ' spaced ', null], ['"q"', 'plain', 'ü', 'z']];
    await writeTable(table(['a', 'b', 'c', 'd'], rows), path, 'csv');
    const read = await (await openInput({ file: path })).open();
    const back: Row[] = [];
    for await (const batch of read.batches) back.push(...batch.rows);
    expect(back).toEqual(rows);
  });

  it('writes a one-column row whose value is missing as "", which the reader takes back as that row', async () => {
    const path = join(dir, 'one-column.csv');
    const rows: Row[] = [['ann'], [null], [''], ['cid'], [Number.NaN]];
    await writeTable(table(['name'], rows), path, 'csv');
    expect(await readFile(path, 'utf8')).toBe('name\nann\n""\n""\ncid\n""\n');
    const encoder = new CsvEncoder(4);
    encoder.addRows(rows, rowFormat(['name']));
    expect(encoder.buffer.toString('utf8', 0, encoder.length)).toBe('ann\n""\n""\ncid\n""\n');
    expect(csvLine([null])).toBe('""');
    expect(csvLine([''])).toBe('""');
    expect(csvLine([null, null])).toBe(',');
    const read = await (await openInput({ file: path })).open();
    const back: Row[] = [];
    for await (const batch of read.batches) back.push(...batch.rows);
    expect(back).toEqual([['ann'], [null], [null], ['cid'], [null]]);
  });

  it('refuses an output with no columns and writes nothing', async () => {
    const sub = await mkdtemp(join(dir, 'nocols-'));
    for (const format of ['csv', 'excel'] as const) {
      const path = join(sub, `out.${format === 'csv' ? 'csv' : 'xlsx'}`);
      const error = await writeTable(table([], [[], []]), path, format).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as Error).message).toBe(`The output ${path} would have no columns (every input column is unmapped, or a script removed them all), so nothing was written; map at least one column under config.mapping.`);
    }
    expect(await readdir(sub)).toEqual([]);
  });

  it('counts unpaired surrogates, which UTF-8 writes as U+FFFD, and warns with their number', async () => {
    const path = join(dir, 'surrogates.csv');
    const long = 'é'.repeat(60);
    const rows: Row[] = [['a\ud800b', 'ok'], ['😀', 'c\udc00d' + long], ['x', '\udbff'], ['é\ud83d', 'plain']];
    const warnings: string[] = [];
    await writeTable(table(['id', 'bad\udfff'], rows), path, 'csv', (m) => warnings.push(m));
    expect(warnings).toEqual(['CSV output: 5 character(s) that UTF-8 cannot hold (unpaired surrogates) were replaced with U+FFFD.']);
    expect(await readFile(path, 'utf8')).toBe(`id,bad\ufffd\na\ufffdb,ok\n😀,c\ufffdd${long}\nx,\ufffd\né\ufffd,plain\n`);
    expect(loneSurrogates('a\ud800\udc00\udc00\ud800')).toBe(2);
    // A parallel run's worker records them per row, for the merge to count the rows kept.
    const fixes = newFixes(true);
    new CsvEncoder(8).addRows(rows, rowFormat(['id', 'b'], fixes));
    expect(fixes.replaced).toBe(4);
    expect(fixes.rows).toEqual([0, 1, 0, 0, 1, 1, 0, 0, 2, 1, 0, 0, 3, 1, 0, 0]);
    // Well-formed text gives no warning.
    const none: string[] = [];
    await writeTable(table(['a'], [['😀 é']]), path, 'csv', (m) => none.push(m));
    expect(none).toEqual([]);
  });

  it('keeps NUL characters, which pandas\' read_csv ends a value at, and warns with their number', async (context) => {
    const path = join(dir, 'nul.csv');
    const long = 'x'.repeat(60);
    const rows: Row[] = [['a\0b', 'ok'], ['\0', `${long}\0`], ['é\0', 'plain']];
    const warnings: string[] = [];
    await writeTable(table(['id', 'v'], rows), path, 'csv', (m) => warnings.push(m));
    expect(warnings).toEqual([
      'CSV output: 4 NUL character(s) (U+0000) were written as they are; pandas\' read_csv ends a value at one ("a<NUL>b" reads as "a"), so read it with engine="python", or remove them with a text rule (regexReplacement "\\x00": "").',
    ]);
    expect(await readFile(path, 'utf8')).toBe(`id,v\na\0b,ok\n\0,${long}\0\né\0,plain\n`);
    const none: string[] = [];
    await writeTable(table(['a'], [['😀 é']]), path, 'csv', (m) => none.push(m));
    expect(none).toEqual([]);
    // Why the warning: the csv module reads the values back, pandas' default parser cuts them.
    await writeTable(table(['id', 'v'], rows), path, 'csv');
    const python = findPython(['pandas']);
    if (!python) return context.skip(noPythonReason(['pandas'], 'python3-pandas'));
    const script = 'import csv, json, sys, pandas as pd\n'
      + 'rows = list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8")))\n'
      + 'frame = pd.read_csv(sys.argv[1], dtype=str, keep_default_na=False)\n'
      + 'print(json.dumps([rows, frame.values.tolist()]))';
    const r = spawnSync(python, ['-c', script, path], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const [csvRows, frame] = JSON.parse(r.stdout) as string[][][];
    expect(csvRows).toEqual([['id', 'v'], ...rows]);
    expect(frame[0][0]).toBe('a');
  });

  it('quotes a first column name starting with U+FEFF, so the file never begins with a BOM', async () => {
    const path = join(dir, 'bom-name.csv');
    await writeTable(table(['\ufeffid', '\ufeffb'], [['1', '2']]), path, 'csv');
    expect(await readFile(path, 'utf8')).toBe('"\ufeffid",\ufeffb\n1,2\n');
    expect(csvHeader(['\ufeffa,b', 'c'])).toBe('"\ufeffa,b",c\n');
    expect(csvHeader(['id'])).toBe('id\n');
    const read = await (await openInput({ file: path })).open();
    expect(read.columns).toEqual(['\ufeffid', '\ufeffb']);
  });

  it('fails before writing when the output folder does not exist', async () => {
    const path = join(dir, 'no', 'such', 'out.csv');
    const error = await writeTable(table(['a'], [['1']]), path, 'csv').then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(`Cannot write ${path}: folder ${join(dir, 'no', 'such')} does not exist; create it or choose another output path.`);
  });

  it('leaves no temp file behind after a successful write', async () => {
    const sub = await mkdtemp(join(dir, 'clean-'));
    await writeTable(table(['a'], [['1']]), join(sub, 'out.csv'), 'csv');
    expect(await readdir(sub)).toEqual(['out.csv']);
  });
});
