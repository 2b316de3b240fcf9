/**
 * Long integers (19-digit ids, 2^53 + 1) are imported digit for digit: from JSON files, inline
 * YAML rows and `--json-data`-style rows files, offline and through `import serve`; they are
 * suggested as text, and a number type given to them makes them counted failures, never rounded.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startEmulator, type Emulator } from '../support/emulator.js';

// A snowflake-style id, 2^53 + 1, a plain number and a number beyond a double's range, alone and nested.
const ROWS = '[{"id": 12345678901234567890, "n": 9007199254740993, "qty": 3, "big": 1e400, "tags": {"ref": 98765432109876543210, "max": 1e400, "rate": 0.30000000000000000001}}]';
const OUTPUT = 'id,n,qty,big,tags\n12345678901234567890,9007199254740993,3,1e400,"{""ref"":98765432109876543210,""max"":1e400,""rate"":0.30000000000000000001}"\n';

let service: Emulator;
let dir: string;

beforeAll(async () => {
  service = await startEmulator();
  dir = await mkdtemp(join(tmpdir(), 'import-exact-'));
  await writeFile(join(dir, 'rows.json'), ROWS);
});
afterAll(async () => {
  await service?.stop();
});

const cli = (args: string[]) => runCli(args, { env: { IMPORT_BASE_URL: service.url, IMPORT_API_KEY: 'k' }, timeoutMs: 30_000 });

describe('integers a double cannot hold', () => {
  it('a dry run of a JSON file keeps every digit and suggests such columns as text', async () => {
    await writeFile(join(dir, 'file.yaml'), 'version: 1\ninput: {file: rows.json}\n');
    const r = await cli(['dry-run', join(dir, 'file.yaml'), '-o', 'json']);
    expect(r.exitCode).toBe(0);
    expect(await readFile(join(dir, 'file.out.csv'), 'utf8')).toBe(OUTPUT);
    const types = JSON.parse(r.stdout).startWebhook.fieldDataTypes as Record<string, { dataType: string }>;
    expect([types.id.dataType, types.n.dataType, types.qty.dataType]).toEqual(['rich_text', 'rich_text', 'number']);
  });

  it('typed as number by the job file, such an integer is a counted coercion failure, never a rounded value', async () => {
    await writeFile(join(dir, 'typed.csv'), 'id,qty\n12345678901234567890,3\n9007199254740992,4\n');
    await writeFile(join(dir, 'typed.yaml'), 'version: 1\ninput: {file: typed.csv}\nconfig:\n  dataTypes: {id: number}\n');
    const r = await cli(['dry-run', join(dir, 'typed.yaml'), '--rejects', join(dir, 'typed-rejects.csv')]);
    expect(r.exitCode).toBe(0);
    expect(await readFile(join(dir, 'typed.out.csv'), 'utf8')).toBe('id,qty\n,3\n9007199254740992,4\n');
    expect(r.stderr).toContain('Not a valid value for the type of id (now missing): 1');
    expect(await readFile(join(dir, 'typed-rejects.csv'), 'utf8')).toContain('12345678901234567890');
  });

  it('inline YAML rows keep every digit too', async () => {
    await writeFile(join(dir, 'inline.yaml'), 'version: 1\ninput:\n  rows:\n    - {id: 12345678901234567890, qty: 3}\n');
    const r = await cli(['dry-run', join(dir, 'inline.yaml')]);
    expect(r.exitCode).toBe(0);
    expect(await readFile(join(dir, 'inline.out.csv'), 'utf8')).toBe('id,qty\n12345678901234567890,3\n');
  });

  it('inline YAML rows keep a number a double would change inside a nested value a number, as JSON rows do', async () => {
    await writeFile(join(dir, 'nested.yaml'), 'version: 1\ninput:\n  rows:\n    - {id: 1, range: {max: 1e400, step: 0.30000000000000000001, n: 2}, tags: [1e400, x]}\n');
    const r = await cli(['dry-run', join(dir, 'nested.yaml')]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await readFile(join(dir, 'nested.out.csv'), 'utf8')).toBe('id,range,tags\n1,"{""max"":1e400,""step"":0.30000000000000000001,""n"":2}","[1e400,""x""]"\n');
  });

  it('rows sent to import serve (input.rowsFile) arrive digit for digit', async () => {
    await writeFile(join(dir, 'serve.yaml'), 'version: 1\npipeline: p\ninput: {rowsFile: rows.json}\n');
    const run = await cli(['run', join(dir, 'serve.yaml'), '--yes', '-o', 'json']);
    expect(run.stderr).not.toMatch(/bug/);
    expect(run.exitCode).toBe(0);
    const output = JSON.parse(run.stdout).output.path as string;
    expect(await readFile(output, 'utf8')).toBe(OUTPUT);
  });
});
