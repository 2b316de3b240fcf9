/** An empty value for an option that takes a path or a number is refused, for every command, before anything runs. */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempExample } from '../support/cli.js';



describe('empty option values', () => {
  for (const [args, flag, kind] of [
    [['dry-run', 'job.yaml', '--out='], '--out', 'path'],
    [['dry-run', 'job.yaml', '--rejects='], '--rejects', 'path'],
    [['dry-run', 'job.yaml', '--report', ''], '--report', 'path'],
    [['run', 'job.yaml', '--dry-run', '--out='], '--out', 'path'],
    [['init', 'customers.csv', '--write='], '--write', 'path'],
    [['serve', '--port='], '--port', 'number'],
    [['--timeout=', 'validate', 'job.yaml'], '--timeout', 'number'],
  ] as const) {
    it(`refuses ${args.join(' ')} naming ${flag}`, async () => {
      const dir = await tempExample('customers');
      const r = await runCli([...args], { cwd: dir, timeoutMs: 10_000 });
      expect(r.stderr).toBe(`error: ${flag} was given an empty value; give it a ${kind}${kind === 'path' ? ', or leave the option out' : ''}.\n`);
      expect(r.exitCode).toBe(2);
      expect((await readdir(dir)).sort()).toEqual(['customers.csv', 'job.yaml', 'schema.yaml']);
    });
  }

  it('takes the last of a repeated single-value option, as gh and kubectl do', async () => {
    const dir = await tempExample('customers');
    const r = await runCli(['dry-run', 'job.yaml', '--out', 'a.csv', '--out', 'b.csv'], { cwd: dir });
    expect(r.exitCode).toBe(0);
    expect((await readdir(dir)).sort()).toEqual(['b.csv', 'customers.csv', 'job.yaml', 'schema.yaml']);
  });
});
