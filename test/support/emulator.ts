/**
 * The local service for tests: `startEmulator` runs it in this process (from the sources) on
 * 127.0.0.1 and a free port; `spawnEmulator` runs `node bin/import.js serve` as a child process
 * (needs `npm run build`), for restarts, signals and crashes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_PREFIX } from '../../src/contract/index.js';
import type { RetryPolicy } from '../../src/emulator/webhooks.js';

/** The project root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Options of a test service. */
export interface EmulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Keep jobs here (a temp dir removed on stop when not given). */
  dataDir?: string;
  /** A schema file or folder (`--schema`), relative to the project root. */
  schema?: string;
  /** Accepted keys (`--api-key`); none: any key. */
  apiKeys?: string[];
  /** Folder of script modules (`--scripts`). */
  scriptsDir?: string;
  /** Upload limit in bytes. */
  maxUpload?: number;
  /** jsonData limit in bytes. */
  maxJsonData?: number;
  /** Hosts webhooks may go to (`--webhook-allow`). */
  webhookAllow?: string[];
  /** Webhook retries (tests use short waits). */
  webhookRetry?: Partial<RetryPolicy>;
  /** Google Sheets links: where they are exported from (a fake Google) and the timeout (in-process only). */
  sheets?: { baseUrl?: string; timeoutMs?: number };
  /** How long a request body may go without a byte before a 408 (in-process only). */
  bodyTimeoutMs?: number;
}

/** A running test service. */
export interface Emulator {
  /** The service root, e.g. `http://127.0.0.1:41234`: what `--base-url` / IMPORT_BASE_URL take. */
  url: string;
  /** The same service root (alias of `url`), for `--base-url`. */
  baseUrl: string;
  /** The root with the seed's prefix: `<url>/public/client-side/v1`. */
  apiUrl: string;
  dataDir: string;
  /** Log lines (requests, jobs, webhooks) so far. */
  logs: string[];
  /** Stops the service (and removes the data dir when the test did not give one). */
  stop(): Promise<void>;
}

/** A test service in its own process. */
export interface SpawnedEmulator extends Emulator {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once stderr matches (stdout and stderr arrive in no fixed order). */
  waitForStderr(pattern: RegExp | string, timeoutMs?: number): Promise<string>;
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the service in this process. */
export async function startEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  const { startServer } = await import('../../src/emulator/server.js');
  const { loadSchemas } = await import('../../src/jobfile/schema-file.js');
  const ownDir = opts.dataDir ? undefined : await mkdtemp(join(tmpdir(), 'import-emulator-'));
  const logs: string[] = [];
  const schemas = opts.schema ? await loadSchemas(resolve(ROOT, opts.schema), process.env) : undefined;
  const server = await startServer({
    host: '127.0.0.1',
    port: opts.port ?? 0,
    dataDir: opts.dataDir ?? ownDir,
    schemas,
    scriptsDir: opts.scriptsDir,
    apiKeys: opts.apiKeys,
    maxUpload: opts.maxUpload,
    maxJsonData: opts.maxJsonData,
    webhookAllow: opts.webhookAllow,
    sheets: opts.sheets,
    bodyTimeoutMs: opts.bodyTimeoutMs,
    webhookRetry: { baseDelayMs: 20, timeoutMs: 2000, ...opts.webhookRetry },
    log: (line) => { logs.push(line); },
  });
  return {
    url: server.url,
    baseUrl: server.url,
    apiUrl: server.url + API_PREFIX,
    dataDir: server.dataDir,
    logs,
    stop: async () => {
      await server.close();
      if (ownDir) await rm(ownDir, { recursive: true, force: true });
    },
  };
}

/** Runs `node bin/import.js serve` with the options, resolving once it prints its URL. */
export async function spawnEmulator(opts: EmulatorOptions & { extraArgs?: string[]; env?: NodeJS.ProcessEnv } = {}): Promise<SpawnedEmulator> {
  const ownDir = opts.dataDir ? undefined : await mkdtemp(join(tmpdir(), 'import-emulator-'));
  const dataDir = opts.dataDir ?? (ownDir as string);
  const args = [join(ROOT, 'bin', 'import.js'), 'serve', '--port', String(opts.port ?? 0), '--data-dir', dataDir];
  if (opts.schema) args.push('--schema', resolve(ROOT, opts.schema));
  if (opts.scriptsDir) args.push('--scripts', opts.scriptsDir);
  for (const key of opts.apiKeys ?? []) args.push('--api-key', key);
  if (opts.maxUpload !== undefined) args.push('--max-upload', String(opts.maxUpload));
  args.push('--webhook-backoff', String(opts.webhookRetry?.baseDelayMs ?? 20));
  if (opts.webhookRetry?.attempts !== undefined) args.push('--webhook-attempts', String(opts.webhookRetry.attempts));
  args.push(...(opts.extraArgs ?? []));
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', CI: '1', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.on('exit', (code, signal) => done({ code, signal }));
  });
  child.stderr?.on('data', (d) => { stderr += d; });
  const url = await new Promise<string>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`serve did not start within 20 s; stderr:\n${stderr}`)), 20_000);
    child.stdout?.on('data', (d) => {
      stdout += d;
      const m = /Listening on (http:\/\/\S+)/.exec(stdout);
      if (m) { clearTimeout(timer); ready(m[1]); }
    });
    void exited.then(({ code, signal }) => { clearTimeout(timer); fail(new Error(`serve exited (${code ?? signal}) before listening; stderr:\n${stderr}`)); });
  });
  return {
    url,
    baseUrl: url,
    apiUrl: url + API_PREFIX,
    dataDir,
    child,
    exited,
    get logs() { return stderr.split('\n').filter(Boolean); },
    stdout: () => stdout,
    stderr: () => stderr,
    waitForStderr: async (pattern, timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      const matches = () => (typeof pattern === 'string' ? stderr.includes(pattern) : pattern.test(stderr));
      while (!matches()) {
        if (Date.now() > deadline) throw new Error(`stderr never matched ${pattern}:\n${stderr}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return stderr;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      if (ownDir) await rm(ownDir, { recursive: true, force: true });
    },
  };
}
