/**
 * The API client: one request path for every call of the Data Import Job Service. It adds
 * `x-api-key`, applies the timeout, retries what is safe to repeat, logs redacted lines under
 * `--verbose` and turns every failure into one of our error classes.
 */
import { STATUS_CODES } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { Agent, type Dispatcher } from 'undici';
import { checkRead, checkUpdate, joinPath, type Problem, type ReadName, type UpdateName } from '../contract/check.js';
import { API_PREFIX } from '../contract/index.js';
import { parseJson, stringifyJson } from '../contract/json.js';
import { reportedFailure, type READS, type UPDATES } from '../contract/schemas.js';
import type { InferInput, InferOutput } from 'valibot';
import { ApiError, AuthError, NetworkError, NotFoundError, printable, UsageError } from '../errors.js';
import { Start } from './resources/start.js';
import { Run } from './resources/run.js';
import { Sheet } from './resources/sheet.js';
import { Fields } from './resources/fields.js';
import { Combining } from './resources/combining.js';
import { Types } from './resources/types.js';
import { Units } from './resources/units.js';
import { Impute } from './resources/impute.js';
import { Pivot } from './resources/pivot.js';
import { RowDropping } from './resources/row-dropping.js';
import { Text } from './resources/text.js';
import { Scripts } from './resources/scripts.js';

// undici parses HTTP with llhttp compiled to WebAssembly; V8 re-compiles it with TurboFan in the
// background after the first request, which costs ~35 MB of RSS and a core for a few hundred ms
// in a short-lived CLI. Our answers are small, so the baseline compiler is plenty. Set before
// undici compiles the module (on its first connection).
setFlagsFromString('--liftoff-only');

/** When and how long to wait before repeating a request that may be repeated. */
export interface RetryPolicy {
  /** Repeats after the first attempt (so `retries + 1` calls at most). */
  retries: number;
  /** First backoff; doubles with each repeat. */
  baseDelayMs: number;
  /** Cap of the exponential backoff. */
  maxDelayMs: number;
  /** The longest one wait lasts: a longer `Retry-After` is waited this long (so the calls stay short in all). */
  maxWaitMs: number;
  /** A `Retry-After` longer than this is not waited for at all: the error is reported instead. */
  maxRetryAfterMs: number;
}

/**
 * Three calls at most, 250 ms then 500 ms (each with jitter), capped at 4 s; a `Retry-After` is
 * honoured up to 30 s a wait (one over 5 minutes is reported at once), so at most about a minute in all.
 */
export const DEFAULT_RETRY: RetryPolicy = { retries: 2, baseDelayMs: 250, maxDelayMs: 4_000, maxWaitMs: 30_000, maxRetryAfterMs: 300_000 };

/** A wait longer than this is announced on stderr (not only under --verbose): a CI log must not go silent. */
export const ANNOUNCED_WAIT_MS = 3_000;

/** Default per-request timeout when none is given. */
export const DEFAULT_CLIENT_TIMEOUT_MS = 30_000;

/** How to build a client. */
export interface ClientOptions {
  /** Service root, already checked with `checkBaseUrl`; `/public/client-side/v1` is appended. */
  baseUrl: string | URL;
  apiKey?: string;
  timeoutMs?: number;
  /** The transport; a keep-alive undici Agent unless given (tests pass their own). */
  dispatcher?: Dispatcher;
  /** Where `--verbose` lines go; no logging when absent. */
  log?: (line: string) => void;
  /** Where a line announcing a long wait before a retry goes (stderr), verbose or not. */
  notice?: (line: string) => void;
  retry?: Partial<RetryPolicy>;
  userAgent?: string;
  /** Waits between attempts (tests make it instant). */
  sleep?: (ms: number) => Promise<void>;
  /** Jitter source in [0, 1). */
  random?: () => number;
}

/** Per-call options every resource method accepts. */
export interface CallOptions {
  /** Overrides the client's timeout for this call (e.g. `run --wait`). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** A body that is not JSON, e.g. the multipart form of `start`. */
export interface RawBody {
  data: AsyncIterable<Uint8Array> | Uint8Array | string;
  contentType: string;
  /** Sent as content-length when known (else the body is chunked). */
  length?: number;
}

/** How to read a successful answer: JSON (default), raw text, or JSON when it parses and text otherwise. */
export type Expect = 'json' | 'text' | 'lenient';

/** Everything `request()` needs for one call. */
export interface RequestOptions extends CallOptions {
  method: 'GET' | 'POST';
  /** A JSON body. */
  body?: unknown;
  raw?: RawBody;
  /** Whether repeating the call is harmless (GETs and whole-resource updates; never start or run). */
  retry: boolean;
  /**
   * For a call that is not repeated because it changes the service (start, run): what it may have
   * done there when it was sent but no usable answer came (a broken connection, a timeout, a 500,
   * 502 or 504, a 2xx whose body cannot be decoded), and how to check; said in place of "try
   * again", so that the user does not repeat it blindly.
   */
  unanswered?: string;
  expect?: Expect;
}

/** A resource read: the service's body as it was sent, and the same read tolerantly (contract read schema). */
export interface Read<K extends ReadName> { body: unknown; value: InferOutput<(typeof READS)[K]> }
/** The update body of a resource, as the contract's strict update schema takes it. */
export type UpdateBody<K extends UpdateName> = InferInput<(typeof UPDATES)[K]>;

/** A finished exchange before it is judged. */
interface Answer { status: number; headers: Record<string, string | string[] | undefined>; text: string; ms: number }

/** Network error codes worth another attempt: the connection failed or broke, the host exists. */
const RETRYABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ECONNABORTED',
  'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_CLOSED',
]);

/** The client of the Data Import Job Service, one member per section of the seed. */
export class ImportClient {
  readonly start = new Start(this);
  readonly run = new Run(this);
  readonly sheet = new Sheet(this);
  readonly fields = new Fields(this);
  readonly combining = new Combining(this);
  readonly types = new Types(this);
  readonly units = new Units(this);
  readonly impute = new Impute(this);
  readonly pivot = new Pivot(this);
  readonly rowDropping = new RowDropping(this);
  readonly text = new Text(this);
  readonly scripts = new Scripts(this);

  readonly origin: string;
  readonly timeoutMs: number;
  private readonly prefix: string;
  private readonly apiKey?: string;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly log?: (line: string) => void;
  private readonly notice?: (line: string) => void;
  private readonly retryPolicy: RetryPolicy;
  private readonly userAgent: string;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;

  constructor(options: ClientOptions) {
    const base = new URL(String(options.baseUrl));
    this.origin = base.origin;
    // A service mounted under a path (https://host/api) keeps that path before the API prefix; a
    // base URL that already ends with the prefix (copied from the seed's endpoint table) is the same service.
    const mount = base.pathname.replace(/\/+$/, '');
    this.prefix = (mount.endsWith(API_PREFIX) ? mount.slice(0, -API_PREFIX.length) : mount) + API_PREFIX;
    this.apiKey = options.apiKey;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS;
    this.ownsDispatcher = !options.dispatcher;
    // Our own timer bounds each call, so undici's header and body timers are off (a `run --wait`
    // or a long upload may legitimately take longer than undici's defaults).
    this.dispatcher = options.dispatcher ?? new Agent({ keepAliveTimeout: 10_000, headersTimeout: 0, bodyTimeout: 0 });
    this.log = options.log;
    this.notice = options.notice;
    this.retryPolicy = { ...DEFAULT_RETRY, ...options.retry };
    this.userAgent = options.userAgent ?? `import-jobs (node ${process.version})`;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.random = options.random ?? Math.random;
  }

  /** A GET that may be retried. */
  get<T>(path: string, o: CallOptions = {}): Promise<T> {
    return this.request<T>(path, { ...o, method: 'GET', retry: true });
  }

  /** A POST; retried unless `retry: false` (start and run pass false). */
  post<T>(path: string, o: Omit<RequestOptions, 'method' | 'retry'> & { retry?: boolean } = {}): Promise<T> {
    return this.request<T>(path, { ...o, method: 'POST', retry: o.retry ?? true });
  }

  /**
   * GETs a configuration resource and reads it tolerantly: absent, `null` or `{}` members are "not
   * set", unknown members are ignored, values are read in the seed's spelling. An answer that cannot
   * be used at all is an ApiError naming the endpoint and the member.
   */
  async read<K extends ReadName>(name: K, path: string, o?: CallOptions): Promise<Read<K>> {
    const body = await this.get<unknown>(path, o);
    const checked = checkRead(name, body);
    if (!checked.ok) throw new ApiError(unusableAnswer(`GET ${this.urlOf(path)}`, checked.problem));
    return { body, value: checked.value as Read<K>['value'] };
  }

  /**
   * POSTs an update body after checking it against the contract's strict update schema (exactly
   * the seed's update members; nothing is sent otherwise). The answer may be anything (seed: not
   * shown): empty, 204, `{}`, an echo of the body or text; but a 2xx answer that reports a failure
   * (an `error` member, `success: false`, ...: contract `reportedFailure`) is the failed update it says it is.
   */
  async update<K extends UpdateName>(name: K, path: string, body: UpdateBody<K>, o?: CallOptions): Promise<unknown> {
    const checked = checkUpdate(name, body);
    if (!checked.ok) {
      const { path: at, problem } = checked.problem;
      throw new UsageError(`The ${name} update body is not in the seed's update shape: ${joinPath('', at) || 'the body'} ${problem}; nothing was sent to POST ${this.urlOf(path)}.`);
    }
    const { status, body: answer, url } = await this.exchange<unknown>(path, { ...o, method: 'POST', retry: true, body: checked.value, expect: 'lenient' });
    const failure = reportedFailure(answer);
    if (failure) {
      const member = failure.member === 'the body' ? 'its body' : `its member ${failure.member}`;
      const words = failure.words !== undefined ? `: ${this.redact(printable(failure.words))}` : '';
      throw new ApiError(`The service answered POST ${url} with ${status} but ${member} says the update failed${words}; the ${name} update is not taken as applied.`, status, failure.words);
    }
    return answer;
  }

  /** The full URL of an API path, for messages (no credentials in it). */
  urlOf(path: string): string {
    return this.origin + this.prefix + path;
  }

  /** The one request path: send, retry what may be repeated, judge the answer. */
  async request<T>(path: string, o: RequestOptions): Promise<T> {
    return (await this.exchange<T>(path, o)).body;
  }

  /**
   * `request`, with the status of the successful answer beside its body (for `run`, where a 202
   * says "accepted", not "complete").
   */
  async exchange<T>(path: string, o: RequestOptions): Promise<{ status: number; body: T; url: string }> {
    const url = this.urlOf(path);
    // A streamed body can be read once only, so it is never repeated whatever `retry` says.
    const maxRetries = o.retry && !isStream(o.raw?.data) ? this.retryPolicy.retries : 0;
    for (let attempt = 0; ; attempt++) {
      let answer: Answer;
      try {
        answer = await this.send(path, url, o);
      } catch (error) {
        if (error instanceof NetworkError && attempt < maxRetries && isRetryableNetworkError(error.cause)) {
          const delay = this.backoff(attempt);
          this.verbose(`! ${o.method} ${url} failed (${errorCode(error.cause)}); retrying in ${delay} ms (attempt ${attempt + 2} of ${maxRetries + 1})`);
          await this.sleep(delay);
          continue;
        }
        throw error;
      }
      if (attempt < maxRetries && isRetryableStatus(answer.status)) {
        const after = retryAfterMs(header(answer.headers, 'retry-after'), Date.now());
        if (after === undefined || after <= this.retryPolicy.maxRetryAfterMs) {
          const delay = after !== undefined ? Math.min(after, this.retryPolicy.maxWaitMs) : this.backoff(attempt);
          const attempts = `attempt ${attempt + 2} of ${maxRetries + 1}`;
          if (delay > ANNOUNCED_WAIT_MS && this.notice) {
            const asked = after !== undefined ? ` and asked to retry in ${seconds(after)}` : '';
            const capped = after !== undefined && after > delay ? ', the longest this tool waits at once' : '';
            this.notice(this.redact(`The service answered ${answer.status} to ${o.method} ${url}${asked}; waiting ${seconds(delay)}${capped} (${attempts}).`));
          } else {
            this.verbose(`! ${o.method} ${url} answered ${answer.status}; retrying in ${delay} ms (${attempts})`);
          }
          await this.sleep(delay);
          continue;
        }
      }
      return { status: answer.status, body: this.judge<T>(answer, path, url, o), url };
    }
  }

  /** Releases the keep-alive connections (only those of a dispatcher the client created). */
  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  /** Capped exponential backoff with "equal jitter": half fixed, half random. */
  private backoff(attempt: number): number {
    const ceiling = Math.min(this.retryPolicy.maxDelayMs, this.retryPolicy.baseDelayMs * 2 ** attempt);
    return Math.round(ceiling / 2 + this.random() * (ceiling / 2));
  }

  /** One attempt: headers, timeout, body; the answer's body is read in full under the same timer. */
  private async send(path: string, url: string, o: RequestOptions): Promise<Answer> {
    const timeoutMs = o.timeoutMs ?? this.timeoutMs;
    // We ask for no compression; a server may still compress (RFC 9110), and decodeBody undoes it.
    const headers: Record<string, string> = { accept: 'application/json', 'accept-encoding': 'identity', 'user-agent': this.userAgent };
    if (this.apiKey !== undefined && this.apiKey !== '') headers['x-api-key'] = this.apiKey;
    let body: string | Uint8Array | AsyncIterable<Uint8Array> | undefined;
    let size = '';
    const controller = new AbortController();
    let timedOut = false;
    // An idle timer: upload progress refreshes it, so a large file is bounded by stalls, not by size.
    const timer = setTimeout(() => { timedOut = true; controller.abort(); }, timeoutMs);
    if (o.raw) {
      headers['content-type'] = o.raw.contentType;
      if (o.raw.length !== undefined) headers['content-length'] = String(o.raw.length);
      body = isStream(o.raw.data) ? touching(o.raw.data, () => timer.refresh()) : o.raw.data;
      if (o.raw.length !== undefined) size = `, ${o.raw.length} bytes`;
    } else if (o.body !== undefined) {
      headers['content-type'] = 'application/json';
      // Written in the order it was built: regular-expression rules are Maps whose order is their meaning.
      body = stringifyJson(o.body);
      size = `, ${Buffer.byteLength(body)} bytes`;
    }
    const signal = o.signal ? AbortSignal.any([controller.signal, o.signal]) : controller.signal;
    const key = headers['x-api-key'] !== undefined ? 'x-api-key: [redacted]' : 'no x-api-key';
    this.verbose(`> ${o.method} ${url} (${key}${size})`);
    const started = Date.now();
    try {
      const res = await this.dispatcher.request({
        origin: this.origin, path: this.prefix + path, method: o.method, headers, signal,
        // undici streams async iterables (documented), though its types list only Readable.
        body: body as Dispatcher.RequestOptions['body'],
      });
      const bytes = Buffer.from(await res.body.arrayBuffer());
      const ms = Date.now() - started;
      const id = header(res.headers, 'x-request-id');
      const encoding = header(res.headers, 'content-encoding');
      this.verbose(`< ${res.statusCode} ${STATUS_CODES[res.statusCode] ?? ''} ${o.method} ${url} (${ms} ms, ${bytes.length} bytes${encoding ? `, ${encoding}` : ''}${id ? `, x-request-id ${id}` : ''})`);
      const decoded = decodeBody(bytes, encoding);
      if (typeof decoded !== 'string') {
        // A failure status keeps its meaning (its own text is lost); a 2xx answer we cannot read is
        // unusable, and says the service acted (a start created a job whose id we cannot read).
        if (res.statusCode >= 200 && res.statusCode < 300) {
          const note = this.unansweredNote(o);
          throw new ApiError(`The service's answer to ${o.method} ${url} cannot be used: ${decoded.problem}${note !== undefined ? `; ${note}` : ''}; report it to the service's operator.`, res.statusCode);
        }
        return { status: res.statusCode, headers: res.headers, text: '', ms };
      }
      return { status: res.statusCode, headers: res.headers, text: decoded, ms };
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if (timedOut) {
        this.verbose(`< timed out after ${timeoutMs} ms: ${o.method} ${url}`);
        const note = this.unansweredNote(o);
        const outcome = note !== undefined ? ` with no answer; ${note}` : '';
        throw new NetworkError(`The request ${o.method} ${url} timed out after ${timeoutMs} ms${outcome}; raise --timeout (or IMPORT_TIMEOUT) if the service needs longer.`, { cause: error });
      }
      if (o.signal?.aborted) throw error;
      this.verbose(`< failed: ${o.method} ${url}: ${this.redact(describeNetworkError(error))}`);
      throw new NetworkError(networkMessage(error, o.method, url, this.origin, this.unansweredNote(o)), { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Turns an answer into a value or the error class of its status. */
  private judge<T>(answer: Answer, path: string, url: string, o: RequestOptions): T {
    const { status, text } = answer;
    const where = `${o.method} ${url}`;
    if (status >= 200 && status < 300) {
      if (o.expect === 'text') return text as T;
      const trimmed = text.trim();
      if (trimmed === '') {
        // An update or run may answer with no body (seed: not shown); a read must answer with JSON.
        if (o.expect === 'lenient') return undefined as T;
        throw new ApiError(`The service answered ${where} with an empty body where JSON was expected; check that --base-url is the service's root URL.`, status);
      }
      try {
        return parseJson(trimmed) as T;
      } catch {
        const type = String(header(answer.headers, 'content-type') ?? 'no content type');
        if (o.expect === 'lenient' && !looksLikeHtml(trimmed, type)) return trimmed as T;
        throw new ApiError(`The service answered ${where} with something that is not JSON (${type.split(';')[0]}: "${this.redact(snippet(trimmed))}"); check that --base-url is the service's root URL.`, status);
      }
    }
    const statusText = `${status}${STATUS_CODES[status] ? ' ' + STATUS_CODES[status] : ''}`;
    const location = header(answer.headers, 'location');
    if (status >= 300 && status < 400 && location !== undefined && location.trim() !== '') {
      // Redirects are not followed: the key would go to wherever the answer points. Its target
      // is named (without what may be credentials) so that the user can fix the base URL.
      throw new ApiError(this.redact(redirectMessage(where, statusText, location, url, API_PREFIX + path)), status);
    }
    const service = serviceMessage(text, String(header(answer.headers, 'content-type') ?? ''));
    const said = service ? `: ${this.redact(service)}` : '';
    if (status === 401 || status === 403) {
      const fix = this.apiKey ? 'check the API key (--api-key, IMPORT_API_KEY or the profile)' : 'no API key was sent; pass --api-key or set IMPORT_API_KEY';
      throw new AuthError(`The service refused ${where} (${statusText})${said}; ${fix}.`, status, service);
    }
    if (status === 404) {
      throw new NotFoundError(`The service answered ${where} with ${statusText}${said}; check the job id printed by \`import start\` and --base-url.`, status, service);
    }
    const retryAfter = header(answer.headers, 'retry-after');
    const wait = isRetryableStatus(status) && o.retry && retryAfter ? `; the service asks to retry after ${retryAfter}` : '';
    // A server error or a gateway's (500, 502, 504) may come after the service acted on the call.
    const note = status === 500 || status === 502 || status === 504 ? this.unansweredNote(o) : undefined;
    const mayHaveActed = note !== undefined ? `; ${note}` : '';
    throw new ApiError(`The service answered ${where} with ${statusText}${said}${wait}${mayHaveActed}.`, status, service);
  }

  /** What a call sent but not usably answered may have done (`unanswered`: a job created or running), as messages say it; undefined for other calls. */
  private unansweredNote(o: RequestOptions): string | undefined {
    return o.unanswered !== undefined ? this.redact(o.unanswered) : undefined;
  }

  private verbose(line: string): void {
    if (this.log) this.log(this.redact(line));
  }

  /** Removes the API key from any text that leaves the client (log lines, echoed service messages). */
  private redact(text: string): string {
    const key = this.apiKey;
    // Very short keys would blank out ordinary words; real keys are long.
    if (!key || key.length < 4) return text;
    return text.split(key).join('[redacted]');
  }
}

/** A duration for people: `60 s`, `1.5 s`. */
function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/**
 * Where a redirect points, for a message: its Location resolved against the request's URL, without
 * user name, password, query or fragment (they may hold credentials or tokens); undefined when it
 * is not a URL.
 */
export function redirectTarget(location: string, from: string): URL | undefined {
  let target: URL;
  try {
    target = new URL(location.trim(), from);
  } catch {
    return undefined;
  }
  target.username = '';
  target.password = '';
  target.search = '';
  target.hash = '';
  return target;
}

/**
 * One sentence for a redirect we do not follow: its status and target, and the base URL to use
 * when the target is the same API path under another root (`apiPath`: the prefix and the call's path).
 */
function redirectMessage(where: string, statusText: string, location: string, url: string, apiPath: string): string {
  const target = redirectTarget(location, url);
  if (!target) {
    const bare = location.replace(/[?#].*$/s, '').replace(/^([^:/?#]*:)?\/\/[^/]*@/, '$1//');
    return `The service answered ${where} with ${statusText} to a Location that is not a URL ("${snippet(bare)}"), which this tool does not follow; check --base-url.`;
  }
  const shown = printable(target.href);
  const fix = target.pathname.endsWith(apiPath)
    ? `if the service has moved there, set --base-url (or IMPORT_BASE_URL, or the profile's base-url) to ${printable(target.origin + target.pathname.slice(0, -apiPath.length))}`
    : "check --base-url: it must be the service's root URL";
  return `The service answered ${where} with ${statusText} to ${shown}, which this tool does not follow; ${fix}.`;
}

/** One sentence for an answer a read cannot use: the endpoint and the member. */
function unusableAnswer(where: string, p: Problem): string {
  return `The service's answer to ${where} cannot be used: ${p.path ? `its member ${p.path}` : 'the body'} ${p.problem}; check --base-url, or report it to the service's operator.`;
}

/** Checks a base URL: present, http(s), and not plain http to another machine unless `insecure`. */
export function checkBaseUrl(raw: string | undefined, insecure: boolean): URL {
  if (raw === undefined || raw.trim() === '') {
    throw new UsageError('No service URL is set; pass --base-url <url>, set IMPORT_BASE_URL, or save one with `import config set base-url <url>`.');
  }
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new UsageError(`The base URL "${raw}" is not a URL; pass the service root, e.g. --base-url https://import.example.com.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`The base URL "${raw}" must start with https:// (or http:// for a local service).`);
  }
  if (url.username || url.password) {
    throw new UsageError('The base URL must not hold a user name or password; pass the key with --api-key or IMPORT_API_KEY.');
  }
  if (url.protocol === 'http:' && !insecure && !isLoopback(url.hostname)) {
    throw new UsageError(`Refusing plain http:// to ${url.host}: the API key would travel in clear; use https://, or pass --insecure if you accept that.`);
  }
  return url;
}

/** Whether a URL host name is this machine (localhost, 127.0.0.0/8, ::1). */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  return /^::ffff:127\./.test(host) || /^::ffff:7f[0-9a-f]{2}:/.test(host);
}

/** Milliseconds a `Retry-After` header asks for (seconds or an HTTP date), or undefined. */
export function retryAfterMs(value: string | string[] | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = (Array.isArray(value) ? value[0] : value).trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The service's own error text: `{"error":{"message"}}`, `{"message"}`, `{"error":"..."}`, or plain text. */
export function serviceMessage(text: string, contentType = ''): string | undefined {
  const said = rawServiceMessage(text, contentType);
  // The service's words go into a message on a terminal: its control characters are escaped.
  return said === undefined ? undefined : printable(said);
}

function rawServiceMessage(text: string, contentType: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  try {
    const value = JSON.parse(trimmed) as any;
    if (typeof value === 'string') return value;
    const error = value?.error;
    if (error && typeof error === 'object' && typeof error.message === 'string') {
      return error.code !== undefined ? `${error.message} (${error.code})` : error.message;
    }
    if (typeof error === 'string') return error;
    if (typeof value?.message === 'string') return value.message;
    if (typeof value?.detail === 'string') return value.detail;
    return snippet(JSON.stringify(value));
  } catch {
    if (looksLikeHtml(trimmed, contentType)) {
      const title = /<title[^>]*>([^<]*)<\/title>/i.exec(trimmed)?.[1]?.trim();
      return title ? `an HTML page titled "${title}"` : 'an HTML page';
    }
    return snippet(trimmed);
  }
}

function looksLikeHtml(text: string, contentType: string): boolean {
  return /html/i.test(contentType) || /^<(!doctype|html|head|body)/i.test(text);
}

/** The first 200 characters of a text on one line, control characters escaped (see `printable`). */
function snippet(text: string): string {
  const line = printable(text.replace(/\s+/g, ' ').trim());
  return line.length > 200 ? line.slice(0, 200) + '…' : line;
}

/** Statuses that say "try again": timeout, too many requests, server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

function isRetryableNetworkError(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && RETRYABLE_CODES.has(code);
}

function errorCode(error: unknown): string | undefined {
  let e: any = error;
  for (let depth = 0; e && depth < 4; depth++, e = e.cause) {
    if (typeof e.code === 'string' && e.code !== 'UND_ERR') return e.code;
    if (e instanceof AggregateError && e.errors.length) return errorCode(e.errors[0]);
  }
  return undefined;
}

function describeNetworkError(error: unknown): string {
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

/**
 * One sentence for a failed connection, with the likely fix. A connection that broke, or a failure
 * we do not know, may come after the request reached the service: then `unanswered` (what the call
 * may have done there, RequestOptions) is said instead of "try again". A connection never made
 * (refused, no such host, TLS) sent nothing.
 */
function networkMessage(error: unknown, method: string, url: string, origin: string, unanswered?: string): string {
  const code = errorCode(error);
  switch (code) {
    case 'ECONNREFUSED':
      return `Could not connect to ${origin} for ${method} ${url} (connection refused); check --base-url and that the service is running.`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `Could not resolve the host of ${origin} for ${method} ${url}; check --base-url.`;
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      if (unanswered !== undefined) return `The connection to ${origin} broke during ${method} ${url} (${code}) before an answer came; ${unanswered}.`;
      return `The connection to ${origin} broke during ${method} ${url} (${code}); the service closed it, try again or check the service's logs.`;
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return `Connecting to ${origin} for ${method} ${url} timed out; check --base-url and the network.`;
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
    case 'ERR_SSL_PACKET_LENGTH_TOO_LONG':
    case 'ERR_SSL_HTTP_REQUEST':
    case 'EPROTO': {
      const plain = origin.replace(/^https:/, 'http:');
      return isLoopback(new URL(origin).hostname)
        ? `The server at ${origin} does not speak https; use ${plain} for a loopback address.`
        : `The server at ${origin} does not speak https (a TLS handshake failed); check the port in --base-url, or use ${plain} with --insecure if the service has no TLS.`;
    }
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'UNABLE_TO_GET_ISSUER_CERT':
      return `The TLS certificate of ${origin} is not signed by a trusted authority (${code}); set NODE_EXTRA_CA_CERTS to the file of its CA certificate.`;
    case 'CERT_HAS_EXPIRED':
    case 'CERT_NOT_YET_VALID':
      return `The TLS certificate of ${origin} is ${code === 'CERT_HAS_EXPIRED' ? 'expired' : 'not valid yet'}; the service's operator must renew it (or check this machine's clock).`;
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `The TLS certificate of ${origin} is for another host name; check the host in --base-url.`;
    default:
      return `The request ${method} ${url} failed: ${describeNetworkError(error)}${unanswered !== undefined ? `; ${unanswered}` : ''}.`;
  }
}

/**
 * An answer's body as text, its Content-Encoding undone (gzip, deflate, br, in the order the
 * header lists them, last applied first); an encoding we do not know, or bytes that are not what
 * the header says, is a problem.
 */
export function decodeBody(bytes: Buffer, contentEncoding: string | undefined): string | { problem: string } {
  const codings = (contentEncoding ?? '').split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity');
  let data = bytes;
  for (const coding of codings.reverse()) {
    try {
      if (coding === 'gzip' || coding === 'x-gzip') data = gunzipSync(data);
      else if (coding === 'br') data = brotliDecompressSync(data);
      // RFC 9110's deflate is the zlib format; some servers send raw deflate instead.
      else if (coding === 'deflate') data = inflateEither(data);
      else return { problem: `it is sent with Content-Encoding ${JSON.stringify(printable(contentEncoding ?? ''))}, which this tool cannot decode (it reads gzip, deflate and br, and asks for none)` };
    } catch {
      return { problem: `its body is not valid ${coding} data although its Content-Encoding says ${JSON.stringify(printable(contentEncoding ?? ''))}` };
    }
  }
  return data.toString('utf8');
}

function inflateEither(data: Buffer): Buffer {
  try {
    return inflateSync(data);
  } catch {
    return inflateRawSync(data);
  }
}

function header(headers: Answer['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function isStream(data: RawBody['data'] | undefined): data is AsyncIterable<Uint8Array> {
  return data !== undefined && typeof data !== 'string' && !(data instanceof Uint8Array);
}

/** Passes a body through, calling `touch` for each chunk (refreshes the idle timer). */
async function* touching(data: AsyncIterable<Uint8Array>, touch: () => void): AsyncIterable<Uint8Array> {
  for await (const chunk of data) {
    touch();
    yield chunk;
  }
}
