// Shared helpers of the benchmarks: generated data, timed child processes, peak RSS.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BENCH_DIR = process.env.IMPORT_BENCH_DIR ?? join(tmpdir(), 'import-bench');
export const RSS_HOOK = join(ROOT, 'test', 'bench', 'rss.mjs');

/**
 * The reference workload of ../shared/bench/PIPELINE.md for `rows` rows, generated once: a folder
 * holding the CSV as `in_1m.csv` beside a copy of job-1m.yaml (a verbatim copy of the shared job
 * file, which names its input so). Returns the folder, the CSV and the job file.
 */
export async function referenceJob(rows) {
  const dir = join(BENCH_DIR, `ref-${rows}`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'in_1m.csv');
  if (!existsSync(file) || statSync(file).size === 0) {
    await run(process.execPath, [join(ROOT, 'test', 'bench', 'generate.mjs'), String(rows), file]);
  }
  const job = join(dir, 'job-1m.yaml');
  copyFileSync(join(ROOT, 'test', 'bench', 'job-1m.yaml'), job);
  return { dir, file, job };
}

/** Runs a command; resolves with wall time (s), peak RSS (MiB, when the rss hook printed it), stdout, stderr. */
export function run(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const m = /@@maxrss (\d+)/.exec(stderr);
      if (code !== 0) return reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`));
      resolve({ seconds, rssMiB: m ? Number(m[1]) / 1024 : undefined, stdout, stderr });
    });
  });
}

/** Median of numbers. */
export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Formats a figure line. */
export function line(label, value) {
  return `${label.padEnd(44)} ${value}`;
}

/**
 * Starts `import serve --port 0` with the peak-RSS hook and `args`; resolves once it listens with
 * its URL, `stop()` (SIGTERM, then its peak RSS in MiB) and its stderr so far.
 */
export async function startServe(args) {
  const server = spawn(process.execPath, ['--import', RSS_HOOK, join(ROOT, 'bin', 'import.js'), 'serve', '--port', '0', ...args], {
    env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  server.stderr.on('data', (d) => { stderr += d; if (stderr.length > 1e6) stderr = stderr.slice(-5e5); });
  const exited = new Promise((done) => server.on('exit', (code, signal) => done({ code, signal })));
  const url = await new Promise((ready, fail) => {
    let out = '';
    server.stdout.on('data', (d) => { out += d; const m = /Listening on (\S+)/.exec(out); if (m) ready(m[1]); });
    void exited.then(() => fail(new Error(`serve exited: ${stderr}`)));
  });
  return {
    url,
    stderr: () => stderr,
    async stop() {
      server.kill('SIGTERM');
      await exited;
      const m = /@@maxrss (\d+)/.exec(stderr);
      return m ? Number(m[1]) / 1024 : NaN;
    },
  };
}
