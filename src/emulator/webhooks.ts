/**
 * Webhook delivery: a JSON POST off the request path, retried with exponential backoff.
 * The seed leaves delivery headers, retries and time-outs open; our choices:
 * - a 2xx answer is success; any other status, a network error or a time-out is retried;
 * - up to `attempts` tries (default 5), waiting base × 2^(n-1) between them (1, 2, 4, 8 s);
 * - each attempt has a time-out (default 10 s) and is logged; the URL is logged without its
 *   query string, which may hold a token;
 * - headers `x-import-event` (start or run), `x-import-job-id`, `x-import-delivery` (the same id
 *   on every retry, for de-duplication) and `x-import-attempt`.
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
  const id = randomUUID();
  const where = `${delivery.event} webhook of ${delivery.jobId} to ${redactUrl(delivery.url)}`;
  let lastError: string | undefined;
  for (let attempt = 1; attempt <= policy.attempts; attempt++) {
    if (signal?.aborted) break;
    try {
      const response = await fetch(delivery.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'import-serve',
          'x-import-event': delivery.event,
          'x-import-job-id': delivery.jobId,
          'x-import-delivery': id,
          'x-import-attempt': String(attempt),
        },
        body: payload,
        signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(policy.timeoutMs)]) : AbortSignal.timeout(policy.timeoutMs),
        redirect: 'manual',
      });
      // Drain the answer so the connection can be reused.
      await response.arrayBuffer().catch(() => undefined);
      if (response.status >= 200 && response.status < 300) {
        log(`${where}: delivered (HTTP ${response.status}) on attempt ${attempt}/${policy.attempts}`);
        onAttempt?.(attempt);
        return { delivered: true, attempts: attempt };
      }
      lastError = `HTTP ${response.status}`;
    } catch (e) {
      const error = e as Error & { cause?: { code?: string; message?: string } };
      lastError = error.name === 'TimeoutError' ? `no answer within ${policy.timeoutMs} ms` : (error.cause?.code ?? error.cause?.message ?? error.message);
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
