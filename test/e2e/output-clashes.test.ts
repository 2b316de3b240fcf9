/**
 * Outputs that would destroy a file the command reads, or another output, and outputs that cannot
 * be written: refused with exit 2 and one sentence before anything is written.
 */
import { link, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempExample, type CliResult } from '../support/cli.js';



/** Every file of the folder with its content, to show nothing changed. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const name of (await readdir(dir)).sort()) files[name] = await readFile(join(dir, name), 'utf8').catch(() => '(not a file)');
  return files;
}

/** A refusal: exit 2, one `error:` line that names `words`, never the internal-bug message. */
function expectRefused(r: CliResult, ...words: string[]): void {
  expect(r.stderr).not.toContain('this is a bug');
  const errors = r.stderr.split('\n').filter((l) => l.startsWith('error: '));
  expect(errors).toHaveLength(1);
  for (const word of words) expect(errors[0]).toContain(word);
  expect(r.exitCode).toBe(2);
}

describe('outputs that are files the command reads or writes', () => {
  it('refuses --out naming the job file', async () => {
    const dir = await tempExample('customers');
    const before = await snapshot(dir);
    const r = await runCli(['dry-run', 'job.yaml', '--out', 'job.yaml'], { cwd: dir });
    expectRefused(r, '--out job.yaml is the same file as the job file job.yaml', 'choose another --out path');
    expect(await snapshot(dir)).toEqual(before);
  });

  it('refuses --out naming the input through a symbolic link, a hard link or ./x/../', async () => {
    const dir = await tempExample('customers');
    await symlink('customers.csv', join(dir, 'soft.csv'));
    await link(join(dir, 'customers.csv'), join(dir, 'hard.csv'));
    const before = await snapshot(dir);
    for (const out of ['soft.csv', 'hard.csv', './x/../customers.csv', join(dir, 'customers.csv')]) {
      const r = await runCli(['dry-run', 'job.yaml', '--out', out], { cwd: dir });
      expectRefused(r, `--out ${out} is the same file as the input customers.csv (input.file of job.yaml)`);
    }
    expect(await snapshot(dir)).toEqual(before);
  });

  it('refuses a job whose input.file is its own default output', async () => {
    const dir = await tempExample('customers');
    await writeFile(join(dir, 'job2.out.csv'), await readFile(join(dir, 'customers.csv')));
    await writeFile(join(dir, 'job2.yaml'), (await readFile(join(dir, 'job.yaml'), 'utf8')).replace('./customers.csv', './job2.out.csv'));
    const before = await snapshot(dir);
    const r = await runCli(['dry-run', 'job2.yaml'], { cwd: dir });
    expectRefused(r, 'The default output job2.out.csv is the same file as the input job2.out.csv', 'pass --out with another path');
    expect(await snapshot(dir)).toEqual(before);
  });

  it('refuses two outputs on one file: --rejects on --out, --rejects on the default output, --report on the job file', async () => {
    const dir = await tempExample('customers');
    const before = await snapshot(dir);
    expectRefused(await runCli(['dry-run', 'job.yaml', '--out', 'out.csv', '--rejects', 'out.csv'], { cwd: dir }), '--rejects out.csv is the same file as --out out.csv');
    expectRefused(await runCli(['dry-run', 'job.yaml', '--rejects', 'job.out.csv'], { cwd: dir }), '--rejects job.out.csv is the same file as the default output job.out.csv');
    expectRefused(await runCli(['dry-run', 'job.yaml', '--report', './job.yaml'], { cwd: dir }), '--report ./job.yaml is the same file as the job file job.yaml');
    expectRefused(await runCli(['dry-run', 'job.yaml', '--rejects', 'r.csv', '--report', 'r.csv'], { cwd: dir }), '--report r.csv is the same file as --rejects r.csv');
    expect(await snapshot(dir)).toEqual(before);
  });

  it('refuses the same with run --dry-run', async () => {
    const dir = await tempExample('customers');
    const before = await snapshot(dir);
    expectRefused(await runCli(['run', 'job.yaml', '--dry-run', '--out', 'customers.csv'], { cwd: dir }), '--out customers.csv is the same file as the input');
    expect(await snapshot(dir)).toEqual(before);
  });

  it('refuses init --write over its own input, even with --force, and --schema-file on --write', async () => {
    const dir = await tempExample('customers');
    const before = await snapshot(dir);
    expectRefused(await runCli(['init', 'customers.csv', '--write', 'customers.csv', '--force'], { cwd: dir }), '--write customers.csv is the same file as the input customers.csv');
    expectRefused(await runCli(['init', 'customers.csv', '--write', 'new.yaml', '--schema-file', 'new.yaml'], { cwd: dir }), '--schema-file new.yaml is the same file as --write new.yaml');
    expect(await snapshot(dir)).toEqual(before);
  });

  it('still writes /dev/null as both the output and the rejects', async () => {
    const dir = await tempExample('customers');
    const r = await runCli(['dry-run', 'job.yaml', '--out', '/dev/null', '--rejects', '/dev/null'], { cwd: dir });
    expect(r.exitCode).toBe(0);
  });
});

describe('--rejects and --report that cannot be written', () => {
  for (const [flag, path, words] of [
    ['--report', 'no/such/dir/r.html', 'does not exist; create it or choose another --report path'],
    ['--rejects', 'no/such/dir/r.csv', 'does not exist; create it or choose another --rejects path'],
    ['--rejects', '.', 'it is a folder; give a file path to --rejects'],
    ['--report', '.', 'it is a folder; give a file path to --report'],
  ] as const) {
    it(`refuses ${flag} ${path} before writing the output`, async () => {
      const dir = await tempExample('customers');
      const before = await snapshot(dir);
      const r = await runCli(['dry-run', 'job.yaml', flag, path], { cwd: dir });
      expectRefused(r, `(${flag})`, words);
      expect(await snapshot(dir)).toEqual(before);
    });
  }
});
