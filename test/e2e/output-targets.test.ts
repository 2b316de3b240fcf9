/**
 * Where a dry run writes: through a symbolic link (the link stays), into a named pipe (streamed,
 * never replaced by a regular file). Everything lives in a temp folder.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { chmod, lstat, mkdir, readdir, readFile, readlink, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, runCli, tempExample } from '../support/cli.js';

const EXPECTED_FIRST_LINES = "id,full_name,email,amount,country,created_at,phone\n1001,Mary-Jane O'Neil,";

/** Runs `import <args>` in bash with the shell redirections `redirects` (`3>>log.csv`), as a user types it, in `cwd`. */
function runInShell(args: string, redirects: string, cwd: string): { stdout: string; stderr: string; exitCode: number | null } {
  const env: Record<string, string> = { NO_COLOR: '1', CI: '1' };
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('IMPORT_') && k !== 'FORCE_COLOR') env[k] ??= v;
  const quoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  const r = spawnSync('bash', ['-c', `${quoted(process.execPath)} ${quoted(BIN)} ${args} ${redirects}`], { cwd, env, encoding: 'utf8', timeout: 20_000 });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.status };
}

/** Reads a FIFO in a child process until the writer closes it (killed after `timeoutMs`). */
function readFifo(path: string, timeoutMs = 15_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = spawn('cat', [path], { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    reader.stdout.setEncoding('utf8').on('data', (d) => { text += d; });
    const timer = setTimeout(() => reader.kill('SIGKILL'), timeoutMs);
    reader.on('error', (e) => { clearTimeout(timer); reject(e); });
    reader.on('close', (_code, signal) => {
      clearTimeout(timer);
      if (signal) reject(new Error(`the reader of ${path} was still waiting after ${timeoutMs} ms`));
      else resolve(text);
    });
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

  it('sends nothing into a named pipe when the run fails its --max-dropped-rows, and lets its reader end', async () => {
    const dir = await tempExample('customers');
    expect(spawnSync('mkfifo', [join(dir, 'out.csv')]).status).toBe(0);
    const output = readFifo(join(dir, 'out.csv'));
    const r = await runCli(['run', 'job.yaml', '--dry-run', '--max-dropped-rows', '2', '--out', 'out.csv'], { cwd: dir });
    expect(r.exitCode).toBe(5);
    expect(await output).toBe('');
    expect((await lstat(join(dir, 'out.csv'))).isFIFO()).toBe(true);
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

describe('replacing an existing output', () => {
  it('keeps the mode of the file it replaces: the output, the rejects, the report and init --write --force', async () => {
    const dir = await tempExample('customers');
    const outputs = ['out.csv', 'rejects.csv', 'report.html', 'new.yaml'];
    for (const name of outputs) {
      await writeFile(join(dir, name), 'previous\n');
      await chmod(join(dir, name), 0o600);
    }
    const r = await runCli(['dry-run', 'job.yaml', '--out', 'out.csv', '--rejects', 'rejects.csv', '--report', 'report.html'], { cwd: dir });
    expect(r.exitCode).toBe(0);
    const init = await runCli(['init', 'customers.csv', '--write', 'new.yaml', '--force'], { cwd: dir });
    expect(init.exitCode).toBe(0);
    for (const name of outputs) {
      expect(await readFile(join(dir, name), 'utf8')).not.toBe('previous\n');
      expect({ name, mode: (await stat(join(dir, name))).mode & 0o7777 }).toEqual({ name, mode: 0o600 });
    }
  });
});

describe('dry-run writing into its own stdout and stderr', () => {
  it('appends to the files a shell opened for >>, keeping what they held', async () => {
    const dir = await tempExample('customers');
    await writeFile(join(dir, 'app.log'), 'keep-me\n');
    await writeFile(join(dir, 'err.log'), 'keep-me too\n');
    const stdout = openSync(join(dir, 'app.log'), 'a');
    const stderr = openSync(join(dir, 'err.log'), 'a');
    const r = await runCli(['dry-run', 'job.yaml', '--out', '/dev/stdout', '--rejects', '/dev/stderr'], { cwd: dir, stdout, stderr })
      .finally(() => { closeSync(stdout); closeSync(stderr); });
    expect(r.exitCode).toBe(0);
    const log = await readFile(join(dir, 'app.log'), 'utf8');
    expect(log).toMatch(new RegExp(`^keep-me\n${EXPECTED_FIRST_LINES}`));
    expect(log.trimEnd().split('\n')).toHaveLength(7);
    const errors = await readFile(join(dir, 'err.log'), 'utf8');
    expect(errors).toMatch(/^keep-me too\nrow,rule,origin,fields,original,id,/);
    expect(errors).toContain('Wrote 5 rows to /dev/stdout');
  });

  it('writes the output, the rejects and the report into a stdout that cannot be opened again (a socket), however it is named', async () => {
    const dir = await tempExample('customers');
    for (const name of ['/dev/stdout', '/dev/fd/1', '/proc/self/fd/1']) {
      const r = await runCli(['dry-run', 'job.yaml', '--out', name], { cwd: dir });
      expect(r.stderr).toContain(`Wrote 5 rows to ${name}`);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^${EXPECTED_FIRST_LINES}`));
      expect(r.stdout.trimEnd().split('\n')).toHaveLength(6);
    }
    const rejects = await runCli(['dry-run', 'job.yaml', '--out', 'out.csv', '--rejects', '/dev/stdout'], { cwd: dir });
    expect(rejects.exitCode).toBe(0);
    expect(rejects.stdout).toMatch(/^row,rule,origin,fields,original,id,/);
    const report = await runCli(['dry-run', 'job.yaml', '--out', 'out.csv', '--report', '/dev/stdout'], { cwd: dir });
    expect(report.exitCode).toBe(0);
    expect(report.stdout).toMatch(/^<!doctype html>/i);
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('writing into a descriptor the shell opened (/dev/fd/N, /proc/self/fd/N)', () => {
  it('appends the output, the rejects and the report to the files a shell opened for >>, keeping what they held', async () => {
    const dir = await tempExample('customers');
    for (const name of ['log.csv', 'rejects.csv', 'report.html']) await writeFile(join(dir, name), `keep-me ${name}\n`);
    const r = runInShell('dry-run job.yaml --out /dev/fd/3 --rejects /proc/self/fd/4 --report /dev/fd/5', '3>>log.csv 4>>rejects.csv 5>>report.html', dir);
    expect(r.stderr).toContain('Wrote 5 rows to /dev/fd/3');
    expect(r.exitCode).toBe(0);
    const log = await readFile(join(dir, 'log.csv'), 'utf8');
    expect(log).toMatch(new RegExp(`^keep-me log.csv\n${EXPECTED_FIRST_LINES}`));
    expect(log.trimEnd().split('\n')).toHaveLength(7);
    expect(await readFile(join(dir, 'rejects.csv'), 'utf8')).toMatch(/^keep-me rejects.csv\nrow,rule,origin,fields,original,id,/);
    expect(await readFile(join(dir, 'report.html'), 'utf8')).toMatch(/^keep-me report.html\n<!doctype html>/i);
    expect((await readdir(dir)).sort()).toEqual(['customers.csv', 'job.yaml', 'log.csv', 'rejects.csv', 'report.html', 'schema.yaml']);
  });

  it('appends a job file that init writes to such a descriptor', async () => {
    const dir = await tempExample('customers');
    await writeFile(join(dir, 'jobs.log'), 'keep-me\n');
    const r = runInShell('init customers.csv --write /dev/fd/3 --force', '3>>jobs.log', dir);
    expect(r.exitCode).toBe(0);
    const text = await readFile(join(dir, 'jobs.log'), 'utf8');
    expect(text).toMatch(/^keep-me\n# yaml-language-server: /);
    expect(text).toContain('input:');
  });

  it('refuses a descriptor the command was not given, and writes nothing', async () => {
    const dir = await tempExample('customers');
    for (const fd of [3, 99]) {
      const r = runInShell(`dry-run job.yaml --out /dev/fd/${fd}`, '', dir);
      expect(r.stderr).toBe(`error: Cannot use /dev/fd/${fd}: file descriptor ${fd} is not open for this command; open it in the shell (for example \`${fd}>>out.csv\` after the command) or give a file path.\n`);
      expect(r.exitCode).toBe(2);
    }
    const rejects = runInShell('dry-run job.yaml --out out.csv --rejects /proc/self/fd/7', '', dir);
    expect(rejects.stderr).toContain('error: Cannot use /proc/self/fd/7: file descriptor 7 is not open for this command;');
    expect(rejects.exitCode).toBe(2);
    expect((await readdir(dir)).sort()).toEqual(['customers.csv', 'job.yaml', 'schema.yaml']);
  });

  it('refuses a descriptor open for reading only, leaving its file as it was', async () => {
    const dir = await tempExample('customers');
    await writeFile(join(dir, 'in.csv'), 'keep-me\n');
    const r = runInShell('dry-run job.yaml --out /dev/fd/3', '3<in.csv', dir);
    expect(r.stderr).toBe('error: Cannot write /dev/fd/3: file descriptor 3 is open for reading only; open it for writing in the shell (`3>>file`) or choose another output path.\n');
    expect(r.exitCode).toBe(2);
    expect(await readFile(join(dir, 'in.csv'), 'utf8')).toBe('keep-me\n');
  });
});

describe('dry-run --out -', () => {
  it('writes the CSV output to stdout and the summary to stderr, leaving no file named -', async () => {
    const dir = await tempExample('customers');
    const r = await runCli(['dry-run', 'job.yaml', '--out', '-'], { cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^${EXPECTED_FIRST_LINES}`));
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(6);
    expect(r.stderr).toContain('Wrote 5 rows to stdout\n');
    expect((await readdir(dir)).sort()).toEqual(['customers.csv', 'job.yaml', 'schema.yaml']);
  });

  it('refuses -o json with --out -, since both would write to stdout', async () => {
    const dir = await tempExample('customers');
    const r = await runCli(['dry-run', 'job.yaml', '--out', '-', '-o', 'json'], { cwd: dir });
    expect(r.stderr).toBe('error: --out - writes to stdout, where -o json prints the run; choose another --out path, or leave out -o json.\n');
    expect(r.stdout).toBe('');
    expect(r.exitCode).toBe(2);
    expect((await readdir(dir)).sort()).toEqual(['customers.csv', 'job.yaml', 'schema.yaml']);
  });

  it('takes - for stdout in --rejects and --report too, and refuses two of them there', async () => {
    const dir = await tempExample('customers');
    const r = await runCli(['dry-run', 'job.yaml', '--out', 'out.csv', '--rejects', '-'], { cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^row,rule,origin,fields,original,id,/);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(5);
    expect(r.stderr).toContain('rejected rows and emptied cells to stdout\n');
    const both = await runCli(['dry-run', 'job.yaml', '--out', '-', '--report', '-'], { cwd: dir });
    expect(both.stderr).toBe('error: --report - is the same file as --out -; choose another --report path.\n');
    expect(both.exitCode).toBe(2);
    expect((await readdir(dir)).sort()).toEqual(['customers.csv', 'job.yaml', 'out.csv', 'schema.yaml']);
  });

  it('refuses an Excel workbook into a stdout that is not a file, and writes it into one that is', async () => {
    const dir = await tempExample('workbook');
    const refused = await runCli(['dry-run', 'job.yaml', '--out', '-'], { cwd: dir });
    expect(refused.stderr).toContain('error: --out - would send an Excel workbook to stdout, which is a pipe or a terminal; give --out a file path');
    expect(refused.stdout).toBe('');
    expect(refused.exitCode).toBe(2);
    const stdout = openSync(join(dir, 'book.xlsx'), 'w');
    const r = await runCli(['dry-run', 'job.yaml', '--out', '-'], { cwd: dir, stdout }).finally(() => closeSync(stdout));
    expect(r.stderr).toContain('Wrote 4 rows to stdout (Excel)');
    expect(r.exitCode).toBe(0);
    const bytes = await readFile(join(dir, 'book.xlsx'));
    expect(bytes.subarray(0, 4).toString('hex')).toBe('504b0304');
    expect(bytes.subarray(bytes.length - 22, bytes.length - 18).toString('hex')).toBe('504b0506');
  });
});
