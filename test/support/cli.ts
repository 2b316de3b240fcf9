/** Runs the real CLI (`node bin/import.js`) in a child process, isolated from the user's config and env. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/** The repository root. */
export const ROOT = join(import.meta.dirname, '..', '..');
/** The CLI entry point. */
export const BIN = join(ROOT, 'bin', 'import.js');

/**
 * Copies a bundled example's folder (`examples/<name>`) to `to` as the repository holds it: without
 * the outputs a user's own runs leave beside its job file (`*.out.csv`, `*.out.xlsx`, ignored by
 * git; the README's quick start writes examples/customers/job.out.csv), which a test would
 * otherwise take for what its own run wrote.
 */
export async function copyExample(name: string, to: string): Promise<void> {
  await cp(join(ROOT, 'examples', name), to, { recursive: true, filter: (source) => !/\.out\.(csv|xlsx)$/.test(source) });
}

/** A copy of examples/<name> (copyExample) in a new temp folder, removed when the test finishes. */
export async function tempExample(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `import-${name}-`));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  await copyExample(name, dir);
  return dir;
}

/** What `runCli` returns. */
export interface CliResult { stdout: string; stderr: string; exitCode: number | null; timedOut: boolean }

/** Options of `runCli`. */
export interface CliOptions {
  /** Added to a clean environment (no IMPORT_* from the parent; NO_COLOR=1, CI=1, a temp XDG_CONFIG_HOME and HOME). */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Written to stdin, which is then closed (stdin is always closed). */
  input?: string | Buffer;
  /** Kills the process after this long (default 20 s). */
  timeoutMs?: number;
  /** A file descriptor the child gets as its stdout (as a shell's `>>` gives one) instead of a pipe; `stdout` is then ''. */
  stdout?: number;
  /** The same for stderr. */
  stderr?: number;
}

/** Spawns `node bin/import.js ...args` and resolves when it exits. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const home = mkdtempSync(join(tmpdir(), 'import-cli-home-'));
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('IMPORT_') && k !== 'FORCE_COLOR') env[k] = v;
  Object.assign(env, { NO_COLOR: '1', CI: '1', HOME: home, XDG_CONFIG_HOME: join(home, '.config') });
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, env, stdio: ['pipe', options.stdout ?? 'pipe', options.stderr ?? 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout?.setEncoding('utf8').on('data', (d) => { stdout += d; });
    child.stderr?.setEncoding('utf8').on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, options.timeoutMs ?? 20_000);
    child.on('error', (e) => { clearTimeout(timer); rmSync(home, { recursive: true, force: true }); reject(e); });
    child.on('close', (code) => {
      clearTimeout(timer);
      rmSync(home, { recursive: true, force: true });
      resolve({ stdout, stderr, exitCode: code, timedOut });
    });
    child.stdin?.on('error', () => { /* the CLI may exit before reading stdin */ });
    child.stdin?.end(options.input ?? '');
  });
}
