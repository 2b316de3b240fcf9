/** `import serve`: the whole Data Import Job Service, locally, over real HTTP (src/emulator). */
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { Command } from 'commander';
import type { Deps } from '../deps.js';
import { withExamples } from '../program.js';
import { EXIT, NetworkError, UsageError } from '../../errors.js';
import type { DataDirError } from '../../emulator/server.js';

/** Options of `import serve`. */
export interface ServeOptions {
  host: string;
  port: number;
  dataDir?: string;
  schema?: string;
  scriptsDir?: string;
  apiKeys: string[];
  maxUpload: number;
  maxJsonData: number;
  webhookAttempts: number;
  webhookBackoffMs: number;
  webhookTimeoutMs: number;
  webhookAllow: string[];
  jobTimeoutMs: number;
  workerMemoryMb: number;
}

/**
 * Resolves when the process is asked to stop (SIGINT or SIGTERM), which then no longer ends it at
 * once; `cancel` (a start that failed) gives the signals back as they were. A second signal while
 * stopping ends the process at once (exit 130); exit handlers still remove a temporary data dir.
 */
export function stopSignal(cancel?: AbortSignal): Promise<NodeJS.Signals> {
  // While serving, Ctrl-C means "stop cleanly" (exit 0), not main's "interrupted" (exit 130).
  const saved = process.rawListeners('SIGINT') as ((...args: unknown[]) => void)[];
  process.removeAllListeners('SIGINT');
  return new Promise((done) => {
    const restore = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      cancel?.removeEventListener('abort', restore);
      for (const listener of saved) process.on('SIGINT', listener);
    };
    const stop = (signal: NodeJS.Signals) => {
      restore();
      // SIGINT now goes to main's handler again; SIGTERM's default would skip the exit handlers.
      process.once('SIGTERM', () => process.exit(EXIT.interrupted));
      done(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    cancel?.addEventListener('abort', restore);
  });
}

/**
 * Starts the service, prints its URL on stdout, serves until `until` resolves (default: SIGINT/SIGTERM), then stops cleanly.
 * A start that fails (port taken, host unknown, data dir a file) is one sentence and leaves nothing behind.
 */
export async function serve(opts: ServeOptions, deps: Deps, until: (cancel: AbortSignal) => Promise<unknown> = stopSignal): Promise<void> {
  // Listened for from the first moment: a SIGTERM while starting stops the service once it is up,
  // through close(), instead of killing the process with its temporary data dir left behind.
  const failed = new AbortController();
  const stopped = until(failed.signal);
  try {
    await serveUntil(opts, deps, stopped);
  } catch (error) {
    failed.abort();
    throw error;
  }
}

async function serveUntil(opts: ServeOptions, deps: Deps, stopped: Promise<unknown>): Promise<void> {
  let schemas;
  if (opts.schema) {
    const { loadSchemas } = await import('../../jobfile/schema-file.js');
    schemas = await loadSchemas(resolve(deps.cwd, opts.schema), deps.env);
  }
  const [{ startServer, scriptModules }, { sheetsBaseUrl }] = await Promise.all([import('../../emulator/server.js'), import('../../engine/read/google-sheet.js')]);
  const sheets = { baseUrl: sheetsBaseUrl(deps.env), timeoutMs: deps.settings.timeoutMs };
  const scriptsDir = opts.scriptsDir ? resolve(deps.cwd, opts.scriptsDir) : undefined;
  if (scriptsDir) {
    try { await scriptModules(scriptsDir); } catch (e) {
      throw new UsageError(`Cannot read the scripts folder ${scriptsDir} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); pass a folder of <id>.mjs modules to --scripts.`);
    }
  }
  let running;
  try {
    running = await startServer({
      host: opts.host,
      port: opts.port,
      dataDir: opts.dataDir ? resolve(deps.cwd, opts.dataDir) : undefined,
      schemas,
      scriptsDir,
      apiKeys: opts.apiKeys,
      maxUpload: opts.maxUpload,
      maxJsonData: opts.maxJsonData,
      sheets,
      webhookRetry: { attempts: opts.webhookAttempts, baseDelayMs: opts.webhookBackoffMs, timeoutMs: opts.webhookTimeoutMs },
      webhookAllow: opts.webhookAllow,
      jobTimeoutMs: opts.jobTimeoutMs,
      executor: { workerMemoryMb: opts.workerMemoryMb },
      log: (line) => deps.io.stderr.write(line + '\n'),
    });
  } catch (e) {
    throw startFailure(e, opts);
  }
  const pipelines = schemas ? [...schemas.keys()] : [];
  deps.io.status(`Data dir: ${running.dataDir}${running.isTemporary ? ' (temporary, removed on stop: pass --data-dir to keep jobs across restarts)' : ''}`);
  deps.io.status(`Pipelines: ${pipelines.length ? pipelines.join(', ') : '(none: every pipelineId gets identity suggestions; pass --schema)'}`);
  if (running.loaded.jobs) deps.io.status(`Loaded ${running.loaded.jobs} job(s)${running.loaded.resumed.length ? `; running again: ${running.loaded.resumed.join(', ')}` : ''}`);
  if (opts.apiKeys.length === 0) deps.io.warn('no API key given (--api-key-file, IMPORT_SERVE_API_KEYS or --api-key): any x-api-key is accepted. Fine on your machine; give keys before exposing the port.');
  if (!isLoopback(opts.host)) deps.io.warn(`listening on ${opts.host}, reachable from other machines; jobs and their data are served over plain HTTP.`);
  // Last, and alone on stdout: scripts and tests wait for this line (with --port 0 it holds the port picked).
  deps.io.out(`Listening on ${running.url}`);
  const signal = await stopped;
  deps.io.status(`${typeof signal === 'string' ? signal : 'Stop'} received: stopping (${running.isTemporary
    ? 'removing the temporary data dir and its jobs'
    : 'running jobs run again on the next start with this data dir'})`);
  await running.close();
}

/**
 * Why the service could not start, as one sentence with its exit code (cli.md): a value the user
 * gave that cannot work (a host that is no address, a data dir that is a file) is usage, exit 2;
 * the machine refusing what would work another time (a port another program holds, a privileged
 * port, the name service down, a full disk) is the environment, exit 1, as other servers do.
 */
export function startFailure(error: unknown, opts: Pick<ServeOptions, 'host' | 'port' | 'dataDir'>): unknown {
  const e = error as NodeJS.ErrnoException & Partial<DataDirError>;
  const code = e.code;
  if (e.name === 'DataDirError') {
    if (e.isTemporary) return new NetworkError(`Cannot make a temporary data dir in ${tmpdir()} (${code}); set TMPDIR to a writable folder or pass --data-dir.`, { cause: error });
    const where = `--data-dir ${opts.dataDir}`;
    if (code === 'ENOTDIR' || code === 'EEXIST') return new UsageError(`${where} is a file, not a folder (or a part of its path is); pass a folder, which is made when missing.`, { cause: error });
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return new UsageError(`${where} cannot be written (${code}); pass a folder you may write to.`, { cause: error });
    if (code === 'ENAMETOOLONG' || code === 'EINVAL') return new UsageError(`${where} is not a usable folder name (${code}); pass another folder.`, { cause: error });
    return new NetworkError(`Cannot use ${where} (${code ?? e.message}); check the folder and its disk, or pass another one.`, { cause: error });
  }
  const where = `${opts.host}:${opts.port}`;
  switch (code) {
    case 'EADDRINUSE':
      return new NetworkError(`Port ${opts.port} on ${opts.host} is already in use by another program; stop it, or pass another --port (0 picks a free one).`, { cause: error });
    case 'EACCES':
      return new NetworkError(opts.port < 1024
        ? `Cannot listen on ${where}: ports below 1024 need privileges; pass --port 1024 or above (0 picks a free one).`
        : `Cannot listen on ${where}: permission denied (EACCES); pass another --port (0 picks a free one).`, { cause: error });
    case 'EADDRNOTAVAIL':
      return new UsageError(`--host ${opts.host} is not an address of this machine; pass one of its addresses, e.g. 127.0.0.1 (this machine only) or 0.0.0.0 (every interface).`, { cause: error });
    case 'ENOTFOUND': case 'EAI_NONAME': case 'EAI_FAIL': case 'EAI_NODATA':
      return new UsageError(`--host ${opts.host} does not resolve to an address; pass an IP address such as 127.0.0.1 or a name of this machine such as localhost.`, { cause: error });
    case 'EAI_AGAIN':
      return new NetworkError(`Cannot resolve --host ${opts.host} now (the name service did not answer); try again, or pass an IP address such as 127.0.0.1.`, { cause: error });
    default:
      return error;
  }
}

/**
 * `--host` as given, checked without any lookup: an IP address, or a host name (resolved when the
 * service listens). Dotted numbers that are no IPv4 address (`0.0.0.0.0`) would otherwise go to
 * the name service, and an IPv6 address may come in URL brackets.
 */
export function parseHost(text: string): string {
  const host = /^\[(.*)\]$/.exec(text)?.[1] ?? text;
  if (isIP(host) !== 0) return host;
  const isName = /^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i.test(host);
  if (!isName || /^[\d.]+$/.test(host)) {
    throw new UsageError(`--host "${text}" is not an IP address or a host name; pass e.g. 127.0.0.1 (this machine only), 0.0.0.0 (every interface), ::1 or localhost.`);
  }
  return host;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

/** Parses a duration such as `30m`, `90s`, `1h`, `500ms` (a bare number is milliseconds) into milliseconds. */
export function parseDuration(flag: string, text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|min|h)?\s*$/i.exec(text);
  if (!m) throw new UsageError(`${flag} "${text}" is not a duration; write e.g. 30m, 90s, 1h or a number of milliseconds.`);
  const unit = (m[2] ?? 'ms').toLowerCase();
  return Math.round(Number(m[1]) * ({ ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000 } as Record<string, number>)[unit]);
}

/**
 * Every key the service accepts: `--api-key` values, `IMPORT_SERVE_API_KEYS` (comma-separated) and
 * the lines of `--api-key-file` (blank lines and `#` comments skipped). The file and the variable
 * keep keys out of the process list, which every local user can read.
 */
export async function serveApiKeys(flagKeys: string[], env: NodeJS.ProcessEnv, keyFile: string | undefined, cwd: string): Promise<string[]> {
  const keys = [...flagKeys];
  for (const key of (env.IMPORT_SERVE_API_KEYS ?? '').split(',')) if (key.trim() !== '') keys.push(key.trim());
  if (keyFile !== undefined) {
    const { readFile } = await import('node:fs/promises');
    let text: string;
    try {
      text = await readFile(resolve(cwd, keyFile), 'utf8');
    } catch (e) {
      throw new UsageError(`Cannot read the key file ${keyFile} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); pass a file holding one key a line to --api-key-file.`);
    }
    const fromFile = text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
    if (fromFile.length === 0) throw new UsageError(`The key file ${keyFile} holds no key; write one key a line.`);
    keys.push(...fromFile);
  }
  return [...new Set(keys)];
}

/** Parses a size such as `2G`, `500M`, `1048576` into bytes. */
export function parseSize(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$/i.exec(text);
  if (!m) throw new UsageError(`Size "${text}" is not a size; write e.g. 500M, 2G or a number of bytes.`);
  const power = ['', 'k', 'm', 'g', 't'].indexOf(m[2].toLowerCase());
  return Math.floor(Number(m[1]) * 1024 ** power);
}

/** `--webhook-allow a.example.com,*.corp.example,127.0.0.1:9000` -> the entries, each checked. */
function parseHostList(text: string | undefined): string[] {
  if (text === undefined) return [];
  const hosts = text.split(',').map((h) => h.trim()).filter((h) => h !== '');
  for (const host of hosts) {
    if (!/^(\*\.)?(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/i.test(host)) {
      throw new UsageError(`--webhook-allow: "${host}" is not a host, *.domain or host:port; write e.g. --webhook-allow hooks.example.com,127.0.0.1:9000.`);
    }
  }
  if (hosts.length === 0) throw new UsageError('--webhook-allow is empty; list hosts, e.g. --webhook-allow hooks.example.com.');
  return hosts;
}

function positiveInt(name: string, text: string, min: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`${name} "${text}" must be a whole number of at least ${min}.`);
  return n;
}

/**
 * Every `--api-key` value on the command line. The root program also has `--api-key` (the
 * client's key) and commander gives it the option wherever it is written, keeping one value;
 * `serve` takes several, so it reads them from the raw arguments.
 */
export function apiKeysFromArgs(args: string[]): string[] {
  const keys: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') break;
    if (arg === '--api-key' && i + 1 < args.length) keys.push(args[++i]);
    else if (arg.startsWith('--api-key=')) keys.push(arg.slice('--api-key='.length));
  }
  return keys.filter((k) => k !== '');
}

/** The `serve` command. */
export function serveCommand(deps: Deps, run = serve): Command {
  const command = new Command('serve')
    .description('run the Data Import Job Service locally over HTTP, backed by the embedded engine (offline work, CI)')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: a free port)', '8787')
    .option('--data-dir <dir>', 'where jobs, uploads and outputs are kept (default: a new temporary folder)')
    .option('--schema <file-or-dir>', 'pipelines: a YAML schema file, or a folder of them (id + a job file\'s schema keys)')
    .option('--scripts <dir>', 'script modules: <dir>/<id>.mjs is the script <id> a job may name at start')
    .option('--api-key <key>', 'accepted x-api-key (repeatable); visible to every local user in the process list: prefer --api-key-file or IMPORT_SERVE_API_KEYS (comma-separated). Without any key, any key is accepted')
    .option('--api-key-file <file>', 'accepted x-api-key values, one a line')
    .option('--max-upload <size>', 'largest uploaded file, e.g. 500M or 2G (413 beyond)', '2G')
    .option('--max-json-data <size>', 'largest jsonData form field (413 beyond)', '16M')
    .option('--job-timeout <duration>', 'longest a job may run (or its input be read at start), e.g. 30m or 2h; then it fails; 0: no limit', '30m')
    .option('--webhook-attempts <n>', 'tries per webhook delivery', '5')
    .option('--webhook-backoff <ms>', 'wait before the first retry; doubles with each retry', '1000')
    .option('--webhook-timeout <ms>', 'time-out of each webhook attempt (answer included)', '10000')
    .option('--webhook-allow <hosts>', 'hosts webhooks may go to, comma-separated (host, *.domain, host:port); default: any http(s) URL')
    .option('--worker-memory <MiB>', 'heap limit of each engine worker thread', '1024')
    .action(async (o: {
      host: string; port: string; dataDir?: string; schema?: string; scripts?: string; apiKeyFile?: string; maxUpload: string; maxJsonData: string; jobTimeout: string;
      webhookAttempts: string; webhookBackoff: string; webhookTimeout: string; webhookAllow?: string; workerMemory: string;
    }, cmd: Command) => {
      const port = Number(o.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`Port "${o.port}" is not a port number (0 to 65535).`);
      const root = cmd.parent as (Command & { rawArgs?: string[] }) | null;
      await run({
        host: parseHost(o.host),
        port,
        dataDir: o.dataDir,
        schema: o.schema,
        scriptsDir: o.scripts,
        apiKeys: await serveApiKeys(apiKeysFromArgs(root?.rawArgs?.slice(2) ?? []), deps.env, o.apiKeyFile, deps.cwd),
        maxUpload: parseSize(o.maxUpload),
        maxJsonData: parseSize(o.maxJsonData),
        jobTimeoutMs: parseDuration('--job-timeout', o.jobTimeout),
        webhookAttempts: positiveInt('--webhook-attempts', o.webhookAttempts, 1),
        webhookBackoffMs: positiveInt('--webhook-backoff', o.webhookBackoff, 0),
        webhookTimeoutMs: positiveInt('--webhook-timeout', o.webhookTimeout, 1),
        webhookAllow: parseHostList(o.webhookAllow),
        workerMemoryMb: positiveInt('--worker-memory', o.workerMemory, 64),
      }, deps);
    });
  return withExamples(command, [
    'import serve --port 8787 --data-dir ./.import-serve --schema examples/customers/schema.yaml',
    'curl -s -F files=@examples/customers/customers.csv -F pipelineId=pl_customers http://127.0.0.1:8787/public/client-side/v1/start',
    'IMPORT_SERVE_API_KEYS=ci-secret import serve --port 0   # prints the URL with the port it picked',
    'import serve --api-key-file ./keys.txt --webhook-allow hooks.example.com --job-timeout 10m',
  ]);
}
