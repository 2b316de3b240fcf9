/**
 * Where a dry run writes: through a symbolic link (the link stays), into a named pipe (streamed,
 * never replaced by a regular file). Everything lives in a temp folder.
 */
import { spawn, spawnSync } from 'node:child_process';
import { lstat, mkdir, readdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempExample } from '../support/cli.js';

const EXPECTED_FIRST_LINES = "id,full_name,email,amount,country,created_at,phone\n1001,Mary-Jane O'Neil,";



/** Reads a FIFO in a child process until the writer closes it (killed after `timeoutMs`). */
function readFifo(path: string, timeoutMs = 15_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = spawn('cat', [path], { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    reader.stdout.setEncoding('utf8').on('data', (d) => { text += d; });
    const timer = setTimeout(() => reader.kill('SIGKILL'), timeoutMs);
    reader.on('error', (e) => { clearTimeout(timer); reject(e); });
    reader.on('close', () => { clearTimeout(timer); resolve(text); });
  });
}

describe('dry-run output targets', () => {
  it('writes through a symbolic link, keeping the link and replacing what it names', async () => {
    const dir = await tempExample('customers');
    await mkdir(join(dir, 'real'));
    await writeFile(join(dir, 'real', 'target.csv'), 'previous\n');
    await symlink('real/target.csv', join(dir, 'out.csv'));
    const r = await runCli(['dry-run', 'job.yaml', '--out', 'out.csv', '--rejects', 'rejects.csv'], { cwd: dir });
    expect(r.stderr).toContain('Wrote 5 rows to out.csv');
    expect(r.exitCode).toBe(0);
    expect((await lstat(join(dir, 'out.csv'))).isSymbolicLink()).toBe(true);
    expect(await readlink(join(dir, 'out.csv'))).toBe('real/target.csv');
    expect(await readFile(join(dir, 'real', 'target.csv'), 'utf8')).toMatch(new RegExp(`^${EXPECTED_FIRST_LINES}`));
    expect(await readdir(join(dir, 'real'))).toEqual(['target.csv']);
  });

  it('streams the output and the rejects into named pipes, which stay pipes', async () => {
    const dir = await tempExample('customers');
    for (const name of ['out.csv', 'rejects.csv']) expect(spawnSync('mkfifo', [join(dir, name)]).status).toBe(0);
    const output = readFifo(join(dir, 'out.csv'));
    const rejects = readFifo(join(dir, 'rejects.csv'));
    const r = await runCli(['dry-run', 'job.yaml', '--out', 'out.csv', '--rejects', 'rejects.csv'], { cwd: dir });
    expect(r.stderr).toContain('Wrote 5 rows to out.csv');
    expect(r.exitCode).toBe(0);
    expect(await output).toMatch(new RegExp(`^${EXPECTED_FIRST_LINES}`));
    expect((await output).trimEnd().split('\n')).toHaveLength(6);
    expect(await rejects).toMatch(/^row,rule,origin,fields,original,id,/);
    expect((await lstat(join(dir, 'out.csv'))).isFIFO()).toBe(true);
    expect((await lstat(join(dir, 'rejects.csv'))).isFIFO()).toBe(true);
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('sends a whole Excel workbook into a named pipe', async () => {
    const dir = await tempExample('customers');
    expect(spawnSync('mkfifo', [join(dir, 'out.xlsx')]).status).toBe(0);
    const reader = spawn('cat', [join(dir, 'out.xlsx')], { stdio: ['ignore', 'pipe', 'inherit'] });
    const chunks: Buffer[] = [];
    reader.stdout.on('data', (d: Buffer) => chunks.push(d));
    const closed = new Promise<void>((resolve) => reader.on('close', () => resolve()));
    const timer = setTimeout(() => reader.kill('SIGKILL'), 15_000);
    const r = await runCli(['dry-run', 'job.yaml', '--out', 'out.xlsx'], { cwd: dir });
    await closed;
    clearTimeout(timer);
    expect(r.exitCode).toBe(0);
    // A ZIP file: its local header first, its end-of-central-directory record last.
    const bytes = Buffer.concat(chunks);
    expect(bytes.subarray(0, 4).toString('hex')).toBe('504b0304');
    expect(bytes.subarray(bytes.length - 22, bytes.length - 18).toString('hex')).toBe('504b0506');
  });
});
