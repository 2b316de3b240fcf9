/**
 * Webhook delivery: a JSON POST off the request path, retried with exponential backoff.
 * The seed leaves delivery headers, retries and time-outs open; our choices:
 * - a 2xx answer is success; any other status, a network error or a time-out is retried;
 * - up to `attempts` tries (default 5), waiting base × 2^(n-1) between them (1, 2, 4, 8 s);
 * - each attempt has a time-out (default 10 s, `--webhook-timeout`), answer body included, and is
 *   logged; the URL is logged without its query string, which may hold a token;
 * - targets are http(s) URLs only, and with `--webhook-allow` only the hosts listed (WebhookPolicy);
 *   redirects are not followed, so an allowed host cannot send the body elsewhere;
 * - headers `x-import-event` (start or run), `x-import-job-id`, `x-import-delivery` (the same id
 *   on every retry, for de-duplication) and `x-import-attempt`;
 * - a user and password in the URL (`https://user:secret@hooks.example.com/`) are sent as Basic
 *   authorization, as curl sends them (fetch refuses such a URL), and never logged;
 * - of the receiver's answer, the first ANSWER_BYTES are read (so the connection can be reused) and
 *   the rest is not: an answer body is never held whole, however large.
 * A failed delivery is recorded on the job and never fails it.
 */
import { randomUUID } from 'node:crypto';
import { stringifyJson } from '../contract/json.js';

/** How deliveries are retried. */
export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  timeoutMs: number;
}

/** The default retry policy. */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 1000, maxDelayMs: 30_000, timeoutMs: 10_000 };

/** How much of a receiver's answer body is read; the status is what counts. */
export const ANSWER_BYTES = 64 * 1024;

/** How a delivery ended. */
export interface DeliveryOutcome { delivered: boolean; attempts: number; lastError?: string }

/** One webhook to send. */
export interface Delivery {
  event: 'start' | 'run';
  jobId: string;
  url: string;
  body: unknown;
}

/** The URL as logged: no query string or credentials. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}

/** POSTs the body as JSON, retrying per `policy`; resolves (never rejects) with the outcome. */
export async function deliverWebhook(
  delivery: Delivery,
  policy: RetryPolicy,
  log: (line: string) => void,
  signal?: AbortSignal,
  onAttempt?: (attempt: number, error?: string) => void,
): Promise<DeliveryOutcome> {
  const payload = stringifyJson(delivery.body);
  const { target, authorization } = splitCredentials(delivery.url);
  const id = randomUUID();
  const where = `${delivery.event} webhook of ${delivery.jobId} to ${redactUrl(delivery.url)}`;
  let lastError: string | undefined;
  for (let attempt = 1; attempt <= policy.attempts; attempt++) {
    if (signal?.aborted) break;
    // One controller per attempt, its timer held here: `AbortSignal.any([signal, AbortSignal.timeout()])`
    // loses the timeout once GC has run (nothing references the timeout signal), and the attempt then
    // waits forever for a receiver that never answers.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; controller.abort(); }, policy.timeoutMs);
    const stop = () => controller.abort();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      const response = await fetch(target, {
        method: 'POST',
        headers: {
          ...(authorization && { authorization }),
          'content-type': 'application/json',
          'user-agent': 'import-serve',
          'x-import-event': delivery.event,
          'x-import-job-id': delivery.jobId,
          'x-import-delivery': id,
          'x-import-attempt': String(attempt),
        },
        body: payload,
        signal: controller.signal,
        redirect: 'manual',
      });
      // Read the start of the answer (under the same time-out) so the connection can be reused.
      await readSome(response, ANSWER_BYTES);
      if (timedOut) throw new Error('timed out');
      if (response.status >= 200 && response.status < 300) {
        log(`${where}: delivered (HTTP ${response.status}) on attempt ${attempt}/${policy.attempts}`);
        onAttempt?.(attempt);
        return { delivered: true, attempts: attempt };
      }
      lastError = `HTTP ${response.status}`;
    } catch (e) {
      const error = e as Error & { cause?: { code?: string; message?: string } };
      lastError = timedOut ? `no answer within ${policy.timeoutMs} ms` : (error.cause?.code ?? error.cause?.message ?? error.message);
      // An error may quote the URL, whose query may hold a token.
      lastError = lastError.split(delivery.url).join(redactUrl(delivery.url)).split(target).join(redactUrl(delivery.url));
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
    }
    onAttempt?.(attempt, lastError);
    if (attempt < policy.attempts && !signal?.aborted) {
      const delay = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
      log(`${where}: attempt ${attempt}/${policy.attempts} failed (${lastError}); retrying in ${delay} ms`);
      await sleep(delay, signal);
    } else {
      log(`${where}: attempt ${attempt}/${policy.attempts} failed (${lastError})${signal?.aborted ? '; service stopping' : '; giving up'}`);
    }
  }
  return { delivered: false, attempts: policy.attempts, lastError };
}

/** The URL without its user and password, and those as a Basic authorization header (undefined when there are none). */
function splitCredentials(url: string): { target: string; authorization?: string } {
  let u: URL;
  // Not a URL: fetch says so on each attempt, as for any other URL it cannot use (deliverWebhook never rejects).
  try { u = new URL(url); } catch { return { target: url }; }
  if (u.username === '' && u.password === '') return { target: url };
  const user = `${decodeOr(u.username)}:${decodeOr(u.password)}`;
  u.username = '';
  u.password = '';
  return { target: u.toString(), authorization: `Basic ${Buffer.from(user).toString('base64')}` };
}

/** A percent-encoded URL part decoded, or as written when it is not valid percent-encoding. */
function decodeOr(part: string): string {
  try { return decodeURIComponent(part); } catch { return part; }
}

/** Reads up to about `limit` bytes of the answer body and lets go of the rest; a failure (the time-out) ends it quietly. */
async function readSome(response: Response, limit: number): Promise<void> {
  if (!response.body) return;
  const reader = response.body.getReader();
  try {
    for (let read = 0; read < limit;) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // Aborted by the time-out or cut by the receiver: the caller looks at the time-out and the status.
  }
}

/**
 * Which webhook targets are allowed: http and https only, and with `--webhook-allow` only the
 * hosts listed there (`hooks.example.com`, `*.example.com` for its subdomains, `127.0.0.1:9000`
 * for one port). An empty list allows any host.
 */
export class WebhookPolicy {
  private readonly rules: { host: string; port?: string; isWildcard: boolean }[];

  constructor(readonly allow: string[] = []) {
    this.rules = allow.map((entry) => {
      const text = entry.trim().toLowerCase();
      const m = /^(\*\.)?(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(text);
      if (!m) throw new Error(`"${entry}" is not a host, *.domain or host:port`);
      return { isWildcard: Boolean(m[1]), host: m[2], port: m[3] };
    });
  }

  /** Why `url` may not receive webhooks (a sentence fragment), or undefined when it may. */
  problem(url: string): string | undefined {
    let u: URL;
    try { u = new URL(url); } catch { return 'is not an absolute URL; give e.g. https://hooks.example.com/import'; }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return `must be an http or https URL, got ${u.protocol}`;
    if (this.rules.length === 0) return undefined;
    const host = u.hostname.toLowerCase();
    const port = u.port || (u.protocol === 'https:' ? '443' : '80');
    const allowed = this.rules.some((r) => (r.isWildcard ? host.endsWith(`.${r.host}`) : host === r.host) && (r.port === undefined || r.port === port));
    return allowed ? undefined : `names host ${u.host}, which this service does not send webhooks to (--webhook-allow ${this.allow.join(',')})`;
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    timer.unref();
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
