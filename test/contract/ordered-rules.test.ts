/**
 * Regular-expression rules apply in the order they are written, integer-like patterns included
 * (a plain JavaScript object would move "0" before "9"): from a `--data` body, through the real
 * CLI and `import serve`, its job store and a restart, into the output file.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startEmulator, type Emulator } from '../support/emulator.js';

let dir: string;
let service: Emulator | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'import-ordered-rules-'));
  // Text values (not numbers), so the text step applies to them.
  await writeFile(join(dir, 'codes.csv'), 'code\na9b0\nz90\n');
});
afterAll(async () => { await service?.stop(); });

describe('ordered rules {"9": "X", "0": "9"}', () => {
  it('reach the output file of import serve in written order, across a restart of the service', async () => {
    const dataDir = join(dir, 'data');
    service = await startEmulator({ dataDir });
    const cli = (args: string[]) => runCli([...args, '--base-url', service!.url, '--api-key', 'k'], { cwd: dir, timeoutMs: 60_000 });
    const start = await cli(['start', '--file', 'codes.csv']);
    expect(start.exitCode, start.stderr).toBe(0);
    const jobId = start.stdout.trim();
    const update = await cli(['text', 'update', jobId, '--data', '{"textProcessingMethods":{"regexReplacement":{"code":{"9":"X","0":"9"}}}}']);
    expect(update.exitCode, update.stderr).toBe(0);
    // The job store writes and reads the rules back in their order.
    await service.stop();
    service = await startEmulator({ dataDir });
    const read = await cli(['text', 'get', jobId, '-o', 'json']);
    expect(read.stdout).toContain('"code": {\n        "9": "X",\n        "0": "9"\n      }');
    const run = await cli(['run', jobId, '--wait']);
    expect(run.exitCode, run.stderr).toBe(0);
    // Written order: "9" -> "X" first, then "0" -> "9". Sorted order would give aXbX and zXX.
    expect(await readFile(join(dataDir, 'output', `${jobId}.csv`), 'utf8')).toBe('code\naXb9\nzX9\n');
  });
});
