/**
 * The package as a user gets it: `npm pack`, then `npm install ./import-jobs-<v>.tgz` in an
 * empty folder, then the installed binaries. Catches a file missing from `files`, a runtime
 * import of a dev dependency, and a build that only works inside the repository.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.js';

const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const work = mkdtempSync(join(tmpdir(), 'import-package-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs a command, returning its stdout; stderr is kept for the failure message. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', CI: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 240_000 });
  } catch (error) {
    const e = error as { stderr?: string; stdout?: string; message: string };
    throw new Error(`${command} ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
}

describe('the packed package', () => {
  it('installs in an empty folder and runs from there', () => {
    const packs = join(work, 'packs');
    mkdirSync(packs);
    run('npm', ['pack', '--pack-destination', packs, '--silent'], ROOT);
    const tarball = join(packs, `import-jobs-${version}.tgz`);
    const app = join(work, 'app');
    cpSync(join(ROOT, 'examples', 'customers'), join(app, 'customers'), { recursive: true });
    run('npm', ['init', '-y'], app);
    run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], app);

    expect(run('npx', ['--no-install', 'import', '--help'], app)).toContain('Usage: import');
    expect(run('npx', ['--no-install', 'import-jobs', '--version'], app).trim()).toBe(version);
    expect(run('npx', ['--no-install', 'import', 'completion', 'bash'], app)).toContain('complete -o default -F _import_completion import');
    expect(run('npx', ['--no-install', 'import', 'completion', 'zsh'], app)).toContain('#compdef import');
    // The engine end to end from the installed files: read, every step, write.
    run('npx', ['--no-install', 'import-jobs', 'dry-run', 'customers/job.yaml', '--out', 'out.csv', '--rejects', 'rejects.csv'], app);
    run(process.execPath, [join(ROOT, 'bin', 'import.js'), 'dry-run', join(app, 'customers', 'job.yaml'), '--out', join(work, 'checkout.csv')], ROOT);
    expect(readFileSync(join(app, 'out.csv'), 'utf8')).toBe(readFileSync(join(work, 'checkout.csv'), 'utf8'));
    expect(readFileSync(join(app, 'rejects.csv'), 'utf8').split('\n')).toHaveLength(6);
  }, 300_000);
});
