/**
 * The HTTP layer of `import serve`: node:http + busboy. Chosen for the fewest moving parts: no
 * framework start-up or plugin layer, uploads streamed by busboy straight to disk, and the whole
 * request path (auth, routing, errors, logging) readable in this one file.
 *
 * Auth: with API keys configured, every call needs a matching `x-api-key` (401 otherwise);
 * without, any key (or none) is accepted. Every request gets one log line (method, path,
 * status, milliseconds) on the log; the key is never logged.
 */
import { timingSafeEqual } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { PipelineSchema } from '../contract/index.js';
import { stringifyJson } from '../contract/json.js';
import { createExecutor, type ExecutorOptions } from './executor.js';
import { HttpError } from './http-error.js';
import { JobService } from './jobs.js';
import { matchRoute, readJson } from './routes.js';
import { JobStore } from './store.js';
import { removeOwnSpills, sweepSpills } from '../engine/parallel/spill.js';
import { removeOwnTempFiles } from '../engine/write/atomic.js';
import { DEFAULT_RETRY, WebhookPolicy, type RetryPolicy } from './webhooks.js';

/** Default upload limit: generous for local files (2 GiB). */
export const DEFAULT_MAX_UPLOAD = 2 * 1024 ** 3;

/** Default limit of the jsonData form field (inline rows are for small data; larger goes as a file). */
export const DEFAULT_MAX_JSON_DATA = 16 * 1024 * 1024;

/** Default time a request body may go without a byte before the service answers 408 and closes the connection. */
export const DEFAULT_BODY_TIMEOUT_MS = 60_000;

/** Default limit of a job's engine work (its run; reading its input at start). */
export const DEFAULT_JOB_TIMEOUT_MS = 30 * 60 * 1000;

/** Options of `startServer`. */
export interface ServerOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Where jobs and outputs live; a new temporary folder when not given. */
  dataDir?: string;
  /** Pipelines by id. */
  schemas?: Map<string, PipelineSchema>;
  /** Folder of script modules: `<id>.mjs` (or `.js`) is script `<id>`. */
  scriptsDir?: string;
  /** Accepted `x-api-key` values; empty: any key is accepted. */
  apiKeys?: string[];
  maxUpload?: number;
  /** Largest jsonData form field, in bytes. */
  maxJsonData?: number;
  /** Google Sheets links: the export base (default Google's) and the per-request timeout (default 30 s, as the CLI's). */
  sheets?: { baseUrl?: string; timeoutMs?: number };
  webhookRetry?: Partial<RetryPolicy>;
  /** Hosts webhooks may go to (`host`, `*.domain`, `host:port`); empty: any. */
  webhookAllow?: string[];
  /** Longest a job's engine work may take, in ms (0: no limit). */
  jobTimeoutMs?: number;
  /** Longest a request body may go without a byte, in ms (0: no limit); then 408 and the connection closes. */
  bodyTimeoutMs?: number;
  executor?: ExecutorOptions;
  maxConcurrentRuns?: number;
  /** Where log lines go (one per request, plus job and webhook events); default stderr. */
  log?: (line: string) => void;
}

/** A running local service. */
export interface RunningServer {
  /** Base URL of the service root, e.g. `http://127.0.0.1:8787` (the seed's paths go under it). */
  url: string;
  host: string;
  port: number;
  dataDir: string;
  /** Whether the data dir is a temporary folder made for this run (removed by `close`, or when the process exits). */
  isTemporary: boolean;
  /** Jobs loaded from the data dir, and those being run again after an interruption. */
  loaded: { jobs: number; resumed: string[]; skipped: string[] };
  executorMode: 'worker' | 'inline';
  jobs: JobService;
  server: Server;
  /** Stops accepting, ends in-flight work quickly (running jobs run again on restart), flushes state; removes a temporary data dir. */
  close(): Promise<void>;
}

/**
 * The data dir cannot be made or opened (a file where the folder belongs, no permission): the
 * caller's `dataDir`, or for a temporary one the system's temp folder, is the place to fix.
 */
export class DataDirError extends Error {
  constructor(readonly dataDir: string, readonly isTemporary: boolean, readonly code: string | undefined, options: { cause: unknown }) {
    super(`cannot use ${dataDir} as the data dir (${code ?? (options.cause as Error)?.message})`, options);
    this.name = 'DataDirError';
  }
}

/** Maps `<id>.mjs` / `<id>.js` files of a folder to script ids. */
export async function scriptModules(dir: string): Promise<Map<string, string>> {
  const scripts = new Map<string, string>();
  for (const name of (await readdir(dir)).sort()) {
    const ext = extname(name);
    if (ext !== '.mjs' && ext !== '.js') continue;
    const id = name.slice(0, -ext.length);
    if (!scripts.has(id)) scripts.set(id, resolve(dir, name));
  }
  return scripts;
}

/** The URL form of a host (IPv6 in brackets). */
function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Starts the service; resolves once it listens. When it cannot start (the port is taken, the host
 * does not resolve, the data dir is a file...), whatever it made (engine threads, a temporary data
 * dir) is gone before it rejects: an engine thread left running would keep the process alive.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const log = options.log ?? ((line: string) => { process.stderr.write(line + '\n'); });
  const isTemporary = !options.dataDir;
  let dataDir: string;
  try {
    dataDir = options.dataDir ? resolve(options.dataDir) : await mkdtemp(join(tmpdir(), 'import-serve-'));
  } catch (e) {
    throw new DataDirError(join(tmpdir(), 'import-serve-*'), true, (e as NodeJS.ErrnoException).code, { cause: e });
  }
  // A temporary data dir is this service's own: close() removes it, and so, as a last resort, does
  // the process's exit when close() never ran (process.exit on Ctrl-C during start, a closed stdout).
  const removeTemporary = () => {
    process.off('exit', removeTemporary);
    if (isTemporary) rmSync(dataDir, { recursive: true, force: true });
  };
  if (isTemporary) process.on('exit', removeTemporary);
  // The folders this start creates for a given data dir (mkdir names the first it made, if any):
  // a start that fails removes them again, so a mistyped --data-dir leaves no empty folders behind.
  const created: string[] = [];
  const undoFolders = async () => {
    removeTemporary();
    for (const folder of created.splice(0)) await rm(folder, { recursive: true, force: true });
  };
  const store = new JobStore(dataDir);
  let opened: Awaited<ReturnType<JobStore['open']>>;
  let scripts: Map<string, string>;
  try {
    try {
      if (!isTemporary) {
        for (const folder of [dataDir, join(dataDir, 'jobs'), store.outputDir()]) {
          const made = await mkdir(folder, { recursive: true });
          if (made) created.push(made);
        }
      }
      opened = await store.open();
    } catch (e) {
      throw new DataDirError(dataDir, isTemporary, (e as NodeJS.ErrnoException).code, { cause: e });
    }
    scripts = options.scriptsDir ? await scriptModules(options.scriptsDir) : new Map();
  } catch (e) {
    await store.close();
    await undoFolders();
    throw e;
  }
  // Spill files of engine runs of processes that are gone (a kill -9 of an earlier service).
  sweepSpills();
  for (const s of opened.skipped) log(`warning: skipped an unreadable job: ${s}`);
  const executor = createExecutor(options.executor);
  const jobs = new JobService({
    store,
    executor,
    schemas: options.schemas ?? new Map(),
    scripts,
    maxUpload: options.maxUpload ?? DEFAULT_MAX_UPLOAD,
    maxJsonData: options.maxJsonData ?? DEFAULT_MAX_JSON_DATA,
    sheets: options.sheets ?? {},
    webhookRetry: { ...DEFAULT_RETRY, ...options.webhookRetry },
    webhooks: new WebhookPolicy(options.webhookAllow ?? []),
    jobTimeoutMs: options.jobTimeoutMs ?? DEFAULT_JOB_TIMEOUT_MS,
    maxConcurrentRuns: options.maxConcurrentRuns ?? 8,
    log,
  });
  const keys = (options.apiKeys ?? []).map((k) => Buffer.from(k));
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let inFlight = 0;
  const startedAt = Date.now();

  const isAuthorized = (req: IncomingMessage): boolean => {
    if (keys.length === 0) return true;
    const given = req.headers['x-api-key'];
    if (typeof given !== 'string') return false;
    const buffer = Buffer.from(given);
    // Constant-time comparison, so the key cannot be guessed from response times.
    return keys.some((k) => k.length === buffer.length && timingSafeEqual(k, buffer));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const method = req.method ?? 'GET';
    let pathname = '/';
    inFlight++;
    watchBody(req, res, options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS, log);
    res.on('close', () => {
      inFlight--;
      log(`${method} ${pathname} ${res.headersSent ? res.statusCode : '-'}${res.writableFinished ? '' : ' (aborted)'} ${Math.round(performance.now() - started)}ms`);
    });
    try {
      const url = new URL(req.url ?? '/', 'http://local');
      pathname = url.pathname;
      if (method === 'GET' && pathname === '/healthz') {
        // Not in the seed: a readiness probe for scripts and CI, with the event loop's health.
        send(res, 200, {
          ok: true, ...jobs.counts(), uptimeSeconds: Math.round((Date.now() - startedAt) / 1000), executor: executor.mode,
          eventLoopDelayMs: { max: round(loop.max / 1e6), p99: round(loop.percentile(99) / 1e6), mean: round(loop.mean / 1e6) },
          memoryMiB: { rss: round(process.memoryUsage.rss() / 2 ** 20), peakRss: round(process.resourceUsage().maxRSS / 1024) },
        });
        if (url.searchParams.has('reset')) loop.reset();
        return;
      }
      if (!isAuthorized(req)) {
        throw new HttpError(401, 'unauthorized', req.headers['x-api-key'] === undefined
          ? 'The x-api-key header is missing; send the key this service was started with (--api-key).'
          : 'The x-api-key header does not match any key of this service.');
      }
      const local = /^\/local\/jobs\/([^/]+)\/?$/.exec(pathname);
      if (local && method === 'GET') {
        // Not in the seed: a job's state, for polling after `run` without returnWhenComplete.
        send(res, 200, await jobs.status(decodePathSegment(local[1])));
        return;
      }
      const { route, jobId } = matchRoute(method, pathname);
      const answer = await route.handle({ req, jobs, jobId, json: () => readJson(req) });
      send(res, answer.status, answer.body);
    } catch (error) {
      sendError(req, res, error, log);
    }
  };

  const server = createServer((req, res) => { void handle(req, res); });
  // Large uploads may take longer than Node's default request time-out.
  server.requestTimeout = 0;
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (socket.writable) socket.end(clientErrorAnswer(error.code));
    else socket.destroy();
  });
  try {
    await new Promise<void>((ready, fail) => {
      server.once('error', fail);
      server.listen(options.port ?? 8787, options.host ?? '127.0.0.1', () => { server.off('error', fail); ready(); });
    });
  } catch (e) {
    // The port is taken, the host does not resolve or is not this machine's: undo the start.
    await jobs.close();
    loop.disable();
    await undoFolders();
    throw e;
  }
  const address = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  const resumed = jobs.resumeInterrupted(opened.running);

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      server.close();
      server.closeIdleConnections();
      // Running jobs stop here (and run again on restart); waiting `run` calls are answered 503.
      await jobs.close();
      // The engine threads are gone, their spill files and temp outputs with no one to remove them
      // (a thread's own clean-up does not run when it is terminated). Inline, a run cannot be
      // stopped and still writes its temp file, so that one is left to it.
      removeOwnSpills();
      if (executor.mode === 'worker') await removeOwnTempFiles(store.outputDir());
      const deadline = Date.now() + 1000;
      while (inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      server.closeAllConnections();
      loop.disable();
      removeTemporary();
    })();
    return closing;
  };

  return {
    url: `http://${urlHost(host)}:${address.port}`,
    host,
    port: address.port,
    dataDir,
    isTemporary,
    loaded: { jobs: opened.loaded, resumed, skipped: opened.skipped },
    executorMode: executor.mode,
    jobs,
    server,
    close,
  };
}

/**
 * The answer to a request Node's parser refused before any handler saw it: headers over Node's
 * 16 KiB (a URL that long included) are 431, headers that did not all arrive within
 * server.headersTimeout 408, anything else (not HTTP, a bad Content-Length or chunk) 400.
 */
export function clientErrorAnswer(code: string | undefined): string {
  const [status, reason, errorCode, message] =
    code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request Header Fields Too Large', 'too_large', 'The request line and headers are over 16 KiB; send a shorter URL or fewer headers.']
    : code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'Request Timeout', 'request_timeout', 'The request headers did not all arrive in time; the connection is closed.']
    : [400, 'Bad Request', 'invalid_body', 'The request is not well-formed HTTP/1.1 (request line, headers, Content-Length or chunked body).'];
  const body = JSON.stringify({ error: { code: errorCode, message } });
  return `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

/** A path segment decoded; malformed percent-encoding is the client's mistake (404: no such job). */
export function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(404, 'not_found', 'The job id in the path is not valid percent-encoding (URL encoding).');
  }
}

function round(x: number): number {
  return Number.isFinite(x) ? Math.round(x * 10) / 10 : 0;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) { res.end(); return; }
  const text = stringifyJson(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/**
 * Ends a request whose body stops arriving for `ms`: server.requestTimeout is off (uploads may take
 * long), so without this a client that stops sending midway (or never sends the body it announced)
 * holds its connection, and a start its job folder, for as long as it keeps the socket open. A 408
 * goes out when nothing was answered yet; then the connection closes, which ends the body's reader.
 * Only the body is timed: a `run` that waits for its job after the body has arrived is not.
 */
function watchBody(req: IncomingMessage, res: ServerResponse, ms: number, log: (line: string) => void): void {
  if (ms <= 0 || req.complete) return;
  const cutOff = () => {
    if (req.complete) return;
    const seconds = ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
    log(`${req.method} ${req.url}: no part of the body arrived for ${seconds}; closing the connection`);
    // The request is destroyed too: once answered it is no longer the socket's, so closing the
    // socket alone would leave its reader (the start form, a JSON body) waiting for ever.
    const close = () => { req.destroy(); req.socket.destroy(); };
    if (res.headersSent) { close(); return; }
    res.once('finish', close);
    sendError(req, res, new HttpError(408, 'request_timeout', `No part of the request body arrived for ${seconds}; the connection is closed. Send the whole body without pausing.`, {}, { connection: 'close' }), log);
  };
  // The socket's time-out counts from its last read or write; it is off again once the body is in.
  req.setTimeout(ms, cutOff);
  req.once('end', () => { req.setTimeout(0); });
}

/** Answers an error as `{"error": {"code", "message"}}`; anything not an HttpError is a 500, logged with its stack. */
function sendError(req: IncomingMessage, res: ServerResponse, error: unknown, log: (line: string) => void): void {
  let status = 500;
  let body: Record<string, unknown>;
  let headers: Record<string, string> = {};
  if (error instanceof HttpError) {
    status = error.status;
    body = { error: { code: error.code, message: error.message }, ...error.extra };
    headers = { ...error.headers };
  } else {
    log(`internal error: ${(error as Error)?.stack ?? String(error)}`);
    // The log has the details; the client gets the reason without a path of this machine.
    const reason = ((error as Error)?.message ?? String(error)).replace(/(?:\/[^\s/'"]+)+\/?/g, '<path>');
    body = { error: { code: 'internal', message: `Internal error of the local service: ${reason}` } };
  }
  if (!req.complete) {
    // The body was refused unread (401 or 413 on an upload): read and discard the rest, so the
    // client, still sending, gets this answer instead of a broken pipe (undici and curl both wait).
    req.resume();
  }
  send(res, status, body, headers);
}
