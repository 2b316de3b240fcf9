/**
 * Column names are the user's: `__proto__`, `constructor` and `"1962"` are ordinary names, kept in
 * the order written, through the real CLI, offline and against `import serve` (STYLE.md "Keyed data").
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startEmulator, type Emulator } from '../support/emulator.js';

const HEADER = 'TQ,__proto__,1962,constructor';
const CSV = `${HEADER}\na,b,c,d\ne,f,g,h\n`;

let service: Emulator;
let dir: string;

beforeAll(async () => {
  service = await startEmulator();
  dir = await mkdtemp(join(tmpdir(), 'import-keyed-'));
  await writeFile(join(dir, 'in.csv'), CSV);
  await writeFile(join(dir, 'rows.json'), '[{"TQ": "a", "__proto__": "b", "1962": "c", "constructor": "d"}, {"TQ": "e", "__proto__": "f", "1962": "g", "constructor": "h"}]');
});
afterAll(async () => {
  await service?.stop();
});

const cli = (args: string[]) => runCli(args, { env: { IMPORT_BASE_URL: service.url, IMPORT_API_KEY: 'k' }, timeoutMs: 30_000 });

describe('user-named columns', () => {
  it('a dry run without a schema keeps every column, in input order', async () => {
    await writeFile(join(dir, 'plain.yaml'), 'version: 1\ninput: {file: in.csv}\n');
    const r = await cli(['dry-run', join(dir, 'plain.yaml')]);
    expect(r.exitCode).toBe(0);
    expect(await readFile(join(dir, 'plain.out.csv'), 'utf8')).toBe(CSV);
  });

  it('a dry run lists the suggestions and what the job file overrides in column order, "1962" in its place', async () => {
    await writeFile(join(dir, 'order.yaml'), 'version: 1\ninput: {file: in.csv}\nconfig:\n  dataTypes:\n    constructor: category\n    "1962": rich_text\n');
    const r = await cli(['dry-run', join(dir, 'order.yaml'), '--out', join(dir, 'order.out.csv')]);
    expect(r.exitCode, r.stderr).toBe(0);
    const section = (name: string) => r.stderr.split(`${name}:\n`)[1]!.split(/\n(?! )/)[0]!.split('\n').map((line) => line.trim().replace(/^[=~+?] /, '').split(':')[0]);
    expect(section('mapping')).toEqual(['TQ', '__proto__', '1962', 'constructor']);
    expect(section('dataTypes')).toEqual(['TQ', '__proto__', '1962', 'constructor']);
  });

  it('a dry run of JSON rows keeps every key as a column, in the order written', async () => {
    await writeFile(join(dir, 'json.yaml'), 'version: 1\ninput: {rowsFile: rows.json}\n');
    const r = await cli(['dry-run', join(dir, 'json.yaml')]);
    expect(r.exitCode).toBe(0);
    expect(await readFile(join(dir, 'json.out.csv'), 'utf8')).toBe(CSV);
  });

  it('a job file mapping them runs the same offline and against import serve', async () => {
    const job = join(dir, 'mapped.yaml');
    await writeFile(job, [
      'version: 1', 'pipeline: p', 'input: {file: in.csv}', 'config:',
      '  mapping: {"1962": y1962, __proto__: proto, TQ: tq, constructor: ctor}',
      '  text:', '    casing: {proto: upper}',
      'schema:', '  expectedFields: [tq, proto, y1962, ctor]', '',
    ].join('\n'));
    const dry = await cli(['dry-run', job]);
    expect(dry.exitCode).toBe(0);
    const expected = 'tq,proto,y1962,ctor\na,B,c,d\ne,F,g,h\n';
    expect(await readFile(join(dir, 'mapped.out.csv'), 'utf8')).toBe(expected);

    const run = await cli(['run', job, '--yes', '-o', 'json']);
    expect(run.stderr).not.toMatch(/bug/);
    expect(run.exitCode).toBe(0);
    const output = JSON.parse(run.stdout).output.path as string;
    expect(await readFile(output, 'utf8')).toBe(expected);
  });

  it('a job file that unmaps a suggested column, or pins one the suggestions left out, is applied when a column is named "1962"', async () => {
    // The suggestions keep their column order beside "1962" (which an object would move first):
    // a column the job file unmapped stayed in that order and crashed the run, and one it added
    // was left out of it, so the pin was dropped in silence.
    const unmapped = join(dir, 'unmapped.yaml');
    await writeFile(unmapped, 'version: 1\ninput: {file: in.csv}\nconfig:\n  mapping:\n    constructor: null\n');
    const r = await cli(['dry-run', unmapped]);
    expect(r.stderr).not.toMatch(/bug/);
    expect(r.exitCode).toBe(0);
    expect(await readFile(join(dir, 'unmapped.out.csv'), 'utf8')).toBe('TQ,__proto__,1962\na,b,c\ne,f,g\n');

    const pinned = join(dir, 'pinned.yaml');
    await writeFile(pinned, 'version: 1\ninput: {file: in.csv}\nconfig:\n  mapping:\n    constructor: note\nschema:\n  expectedFields: [TQ, __proto__, "1962", note]\n');
    const p = await cli(['dry-run', pinned]);
    expect(p.exitCode).toBe(0);
    expect(p.stderr).not.toMatch(/note has no column/);
    expect(await readFile(join(dir, 'pinned.out.csv'), 'utf8')).toBe('TQ,__proto__,1962,note\na,b,c,d\ne,f,g,h\n');
  });

  it('init leaves a JSON key "" out with a comment, since a job file cannot name the field "", so what it writes validates and dry-runs', async () => {
    await writeFile(join(dir, 'blank.json'), '[{"id": 1, "": "x", "name": "Ann"}]');
    const init = await cli(['init', join(dir, 'blank.json'), '--write', join(dir, 'blank.yaml')]);
    expect(init.exitCode).toBe(0);
    const text = await readFile(join(dir, 'blank.yaml'), 'utf8');
    expect(text).toContain('    "": null # no field: the suggested field "" cannot be named in a job file; map the column to a named field\n');
    expect(text).not.toMatch(/^    "": rich_text/m);
    expect((await cli(['validate', join(dir, 'blank.yaml')])).exitCode).toBe(0);
    expect((await cli(['dry-run', join(dir, 'blank.yaml')])).exitCode).toBe(0);
    expect(await readFile(join(dir, 'blank.out.csv'), 'utf8')).toBe('id,name\n1,Ann\n');
  });

  it('pull writes the mapping of a job started against import serve in column order, "1962" in its place', async () => {
    const start = await cli(['start', '--pipeline', 'p', '--name', 'n', '--file', join(dir, 'in.csv')]);
    expect(start.exitCode).toBe(0);
    const r = await cli(['pull', start.stdout.trim()]);
    expect(r.exitCode).toBe(0);
    const from = r.stdout.indexOf('  mapping:\n');
    expect(from).toBeGreaterThan(-1);
    expect(r.stdout.slice(from).split('\n').slice(1, 5)).toEqual([
      '    TQ: TQ # confidence 1.00',
      '    __proto__: __proto__ # confidence 1.00',
      '    "1962": "1962" # confidence 1.00',
      '    constructor: constructor # confidence 1.00',
    ]);
  });

  it('hints that show a mapping line quote a name that needs it once, and the line works as written', async () => {
    await writeFile(join(dir, 'hint.csv'), 'Notes (internal),1962\nx,y\n');
    await writeFile(join(dir, 'hint-schema.yaml'), 'expectedFields: [notes, "2001"]\n');
    const init = await cli(['init', join(dir, 'hint.csv'), '--schema', join(dir, 'hint-schema.yaml')]);
    expect(init.exitCode).toBe(0);
    expect(init.stdout).toContain('# required field 2001 has no column: map one to it here, e.g. "\'1962\': \'2001\'";');

    const job = join(dir, 'hint.yaml');
    await writeFile(job, 'version: 1\ninput: {file: hint.csv}\nconfig:\n  mapping: {"Notes (internal)": null, "1962": null}\nschema:\n  expectedFields: [notes]\n');
    const dry = await cli(['dry-run', job]);
    expect(dry.exitCode).toBe(0);
    expect(dry.stderr).toContain('map a column to it under config.mapping (e.g. "\'Notes (internal)\': notes").');
    expect(dry.stderr).not.toContain('""');
    // The line between the quotes, pasted into the job file, maps the column.
    const line = /e\.g\. "(.*)"\)/.exec(dry.stderr)![1];
    await writeFile(job, `version: 1\ninput: {file: hint.csv}\nconfig:\n  mapping:\n    ${line}\n    "1962": null\nschema:\n  expectedFields: [notes]\n`);
    const fixed = await cli(['dry-run', job]);
    expect(fixed.stderr).not.toContain('has no column');
    expect(fixed.exitCode).toBe(0);
    expect(await readFile(join(dir, 'hint.out.csv'), 'utf8')).toBe('notes\nx\n');
  });

  it('init writes each of them as a key of its own, in column order', async () => {
    const r = await cli(['init', join(dir, 'in.csv')]);
    expect(r.exitCode).toBe(0);
    const mapping = r.stdout.split('\n').filter((line) => /^    [^ #]/.test(line) && / # suggested/.test(line) && !/rich_text/.test(line));
    expect(mapping).toEqual([
      '    TQ: TQ # suggested, confidence 1.00',
      '    __proto__: __proto__ # suggested, confidence 1.00',
      '    "1962": "1962" # suggested, confidence 1.00',
      '    constructor: constructor # suggested, confidence 1.00',
    ]);
  });
});
