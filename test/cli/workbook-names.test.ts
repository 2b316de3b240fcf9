/**
 * A workbook under a name that is no workbook's (data.csv holding an .xlsx): `import start` uploads a
 * file under its own name, so the dry run reading it as a workbook would disagree with the service.
 * Dry run, start and run refuse it alike (exit 2, one sentence, nothing sent or written); an `.xlsx`
 * renamed `.xls`, which Excel opens, is read and uploaded.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { json, startRecordingServer, type RecordingServer } from '../support/recording-server.js';
import { KEY } from './reads.js';

let server: RecordingServer;
let dir: string;
beforeAll(async () => {
  server = await startRecordingServer();
  dir = await mkdtemp(join(tmpdir(), 'import-workbook-names-'));
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet('People').addRows([['name', 'age'], ['Ann', 3]]);
  await wb.xlsx.writeFile(join(dir, 'people.xlsx'));
  const bytes = await readFile(join(dir, 'people.xlsx'));
  await writeFile(join(dir, 'data.csv'), bytes);
  await writeFile(join(dir, 'export.xls'), bytes);
});
afterAll(async () => { await server.close(); });
beforeEach(() => {
  server.reset();
  server.on('POST /start', json({ jobId: 'J1' }));
});

const cli = (args: string[]) => runCli([...args, '--base-url', server.url, '--api-key', KEY], { cwd: dir, timeoutMs: 30_000 });
const SAYS = 'holds an XLSX workbook (ZIP bytes), though its name ends in .csv; rename it to data.xlsx so that the dry run and the service both read it as a workbook, and retry.';

describe('a workbook named data.csv', () => {
  it('is refused by the dry run, naming the file and the new name, writing nothing', async () => {
    await writeFile(join(dir, 'job.yaml'), 'version: 1\ninput: {file: data.csv}\n');
    const r = await runCli(['dry-run', join(dir, 'job.yaml')], { timeoutMs: 30_000 });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`data.csv ${SAYS}`);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(dir, 'job.out.csv'))).toBe(false);
  });

  it('is refused by start before anything is sent', async () => {
    const r = await cli(['start', '--file', 'data.csv']);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`error: --file data.csv ${SAYS}\n`);
    expect(server.requests).toHaveLength(0);
  });

  it('is refused by run of a job file before a job is started', async () => {
    await writeFile(join(dir, 'run.yaml'), 'version: 1\ninput: {file: data.csv}\n');
    const r = await cli(['run', 'run.yaml']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`data.csv ${SAYS.replace(/\.$/, '')}`);
    expect(server.requests).toHaveLength(0);
  });
});

describe('an .xlsx workbook named export.xls', () => {
  it('is read by the dry run and uploaded by start', async () => {
    await writeFile(join(dir, 'xls.yaml'), 'version: 1\ninput: {file: export.xls}\n');
    const r = await runCli(['dry-run', join(dir, 'xls.yaml'), '--out', '-'], { timeoutMs: 30_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('name,age\nAnn,3\n');
    const started = await cli(['start', '--file', 'export.xls']);
    expect(started.exitCode, started.stderr).toBe(0);
    expect(started.stdout).toBe('J1\n');
    expect(server.requests).toHaveLength(1);
  });
});
