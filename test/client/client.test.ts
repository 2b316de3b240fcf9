import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import {
  ImportClient, checkBaseUrl, isLoopback, isRetryableStatus, retryAfterMs, serviceMessage, type ClientOptions,
} from '../../src/client/client.js';
import { ApiError, AuthError, NetworkError, NotFoundError, UsageError } from '../../src/errors.js';
import { json, startRecordingServer, type RecordingServer } from '../support/recording-server.js';

let server: RecordingServer;
beforeAll(async () => { server = await startRecordingServer(); });
afterAll(async () => { await server.close(); });
beforeEach(() => server.reset());

function client(o: Partial<ClientOptions> = {}): ImportClient {
  return new ImportClient({ baseUrl: server.url, apiKey: 'sk-test-0123456789', retry: { baseDelayMs: 1, maxDelayMs: 2 }, ...o });
}

const TYPES = { fieldDataTypes: { amount: { dataType: 'number', confidence: 0.9 } }, expectedFieldDataTypes: { amount: 'number' } };

describe('ImportClient requests', () => {
  it('sends GETs to base + /public/client-side/v1 with x-api-key and accept json', async () => {
    server.on('GET /field-data-types/J1', json(TYPES));
    const read = await client().types.get('J1');
    expect(read).toEqual(TYPES);
    const [req] = server.requests;
    expect(req.method).toBe('GET');
    expect(req.url).toBe('/public/client-side/v1/field-data-types/J1');
    expect(req.headers['x-api-key']).toBe('sk-test-0123456789');
    expect(req.headers.accept).toBe('application/json');
    expect(req.body.length).toBe(0);
  });

  it('keeps a path prefix of the base URL before the API prefix', async () => {
    server.fallback(() => json({ preColumnMapping: [], postClean: [] }));
    await client({ baseUrl: server.url + '/api/' }).scripts.get('J1');
    expect(server.requests[0].url).toBe('/api/public/client-side/v1/scripts/J1');
  });

  it('sends updates as POST with a JSON body and content-type', async () => {
    server.on('POST /impute-methods/J1', json({ ok: true }));
    const body = { imputeMethods: { country: { imputeMethod: 'fill' as const, imputeMethodConfig: { fillValue: 'US' } } } };
    const answer = await client().impute.update('J1', body);
    expect(answer).toEqual({ ok: true });
    const [req] = server.requests;
    expect(req.method).toBe('POST');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.json).toEqual(body);
  });

  it('addresses the sheet update to the fields path', async () => {
    server.on('POST /fields/J1', { status: 204 });
    await client().sheet.update('J1', { sheetSelection: { selected: 'Q3' } });
    expect(server.requests[0].path).toBe('/fields/J1');
    expect(server.requests[0].json).toEqual({ sheetSelection: { selected: 'Q3' } });
  });

  it('encodes a job id with a slash or spaces', async () => {
    server.fallback(() => json({ pivot: null }));
    await client().pivot.get('a/b c');
    expect(server.requests[0].url).toBe('/public/client-side/v1/pivot/a%2Fb%20c');
  });

  it('sends no x-api-key header when no key is set', async () => {
    server.fallback(() => json({ pivot: null }));
    await client({ apiKey: undefined }).pivot.get('J');
    expect(server.requests[0].headers['x-api-key']).toBeUndefined();
  });

  it('posts run with only the given options and never retries it', async () => {
    server.on('POST /run/J1', { status: 503, body: { error: { message: 'busy' } } });
    await expect(client().run.send('J1', { returnWhenComplete: true })).rejects.toBeInstanceOf(ApiError);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].json).toEqual({ returnWhenComplete: true });
  });

  it('accepts a plain-text answer to run', async () => {
    server.on('POST /run/J1', { status: 200, body: 'accepted', headers: { 'content-type': 'text/plain' } });
    expect(await client().run.send('J1', {})).toEqual({ status: 200, body: 'accepted', url: `${server.url}/public/client-side/v1/run/J1` });
  });
});

describe('ImportClient content encodings', () => {
  const body = JSON.stringify({ pivot: null, note: 'é' });
  const encoded: [string, Buffer][] = [
    ['gzip', gzipSync(body)],
    ['x-gzip', gzipSync(body)],
    ['deflate', deflateSync(body)],
    ['br', brotliCompressSync(body)],
    ['gzip, br', brotliCompressSync(gzipSync(body))],
    ['identity', Buffer.from(body)],
  ];
  it.each(encoded)('asks for no compression and still reads an answer sent with Content-Encoding %s', async (encoding, bytes) => {
    server.on('GET /pivot/J1', { body: bytes, headers: { 'content-type': 'application/json', 'content-encoding': encoding } });
    expect(await client().get('/pivot/J1')).toEqual({ pivot: null, note: 'é' });
    expect(server.requests[0].headers['accept-encoding']).toBe('identity');
  });

  it('reads raw deflate (no zlib header), as some servers send it', async () => {
    server.on('GET /pivot/J1', { body: deflateRawSync(body), headers: { 'content-type': 'application/json', 'content-encoding': 'deflate' } });
    expect(await client().get('/pivot/J1')).toEqual({ pivot: null, note: 'é' });
  });

  it('reads the service\'s words in a compressed error answer', async () => {
    server.on('GET /pivot/J1', { status: 422, body: gzipSync(JSON.stringify({ error: { message: 'no such pivot' } })), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
    const error = await client().pivot.get('J1').catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toContain('no such pivot');
  });

  it('says in one sentence that an unknown encoding, or bytes that are not what the header says, cannot be used (exit 1)', async () => {
    server.on('GET /pivot/J1', { body: Buffer.from('xyz'), headers: { 'content-type': 'application/json', 'content-encoding': 'zstd' } });
    const unknown = await client().pivot.get('J1').catch((e) => e);
    expect(unknown).toBeInstanceOf(ApiError);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.message).toBe(`The service's answer to GET ${server.url}/public/client-side/v1/pivot/J1 cannot be used: it is sent with Content-Encoding "zstd", which this tool cannot decode (it reads gzip, deflate and br, and asks for none); report it to the service's operator.`);
    server.on('GET /pivot/J2', { body: Buffer.from('{"pivot":null}'), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
    const garbled = await client().pivot.get('J2').catch((e) => e);
    expect(garbled).toBeInstanceOf(ApiError);
    expect(garbled.message).toContain('cannot be used: its body is not valid gzip data although its Content-Encoding says "gzip"');
  });

  it('keeps a failure status\'s meaning when its body cannot be decoded', async () => {
    server.on('GET /pivot/J1', { status: 404, body: Buffer.from('x'), headers: { 'content-encoding': 'zstd' } });
    await expect(client().pivot.get('J1')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('ImportClient retries', () => {
  it('retries a GET that fails twice with 503 and succeeds on the third call', async () => {
    server.on('GET /units/J1', { status: 503 }, { status: 502, body: 'bad gateway' }, json({ fieldUnitConversions: {}, expectedFieldUnits: {} }));
    const read = await client().units.get('J1');
    expect(read).toEqual({ fieldUnitConversions: {}, expectedFieldUnits: {} });
    expect(server.requests).toHaveLength(3);
  });

  it('retries an update on 429 and 408 (it sets a whole resource, so a repeat is harmless)', async () => {
    server.on('POST /units/J1', { status: 429 }, { status: 408 }, json({}));
    await client().units.update('J1', { fieldUnitConversions: {} });
    expect(server.requests).toHaveLength(3);
    expect(server.requests.every((r) => r.method === 'POST')).toBe(true);
  });

  it('gives up after three calls and reports the last status with the service text', async () => {
    server.on('GET /units/J1', { status: 500, body: { error: { code: 'BOOM', message: 'database down' } } });
    const error = await client().units.get('J1').catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.exitCode).toBe(1);
    expect(error.message).toContain('500 Internal Server Error');
    expect(error.message).toContain('database down (BOOM)');
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry 4xx answers other than 408 and 429', async () => {
    server.on('GET /units/J1', { status: 400, body: { error: { message: 'bad' } } });
    await expect(client().units.get('J1')).rejects.toBeInstanceOf(ApiError);
    expect(server.requests).toHaveLength(1);
  });

  it('never retries start, even on 503', async () => {
    server.on('POST /start', { status: 503 });
    await expect(client().start.send({ form: { jobName: 'x', jsonData: [{ a: 1 }] } })).rejects.toBeInstanceOf(ApiError);
    expect(server.requests).toHaveLength(1);
  });

  it('honours Retry-After (seconds) before the next attempt', async () => {
    server.on('GET /pivot/J1', { status: 429, headers: { 'retry-after': '1' } }, json({ pivot: null }));
    const waits: number[] = [];
    const c = client({ sleep: async (ms) => { waits.push(ms); } });
    await c.pivot.get('J1');
    expect(waits).toEqual([1000]);
    expect(server.requests).toHaveLength(2);
  });

  it('really waits for Retry-After with the default sleep', async () => {
    server.on('GET /pivot/J1', { status: 503, headers: { 'retry-after': '1' } }, json({ pivot: null }));
    const started = Date.now();
    await client().pivot.get('J1');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('does not wait for a Retry-After beyond the cap and says when to retry', async () => {
    server.on('GET /pivot/J1', { status: 503, headers: { 'retry-after': '3600' } });
    const error = await client().pivot.get('J1').catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toContain('retry after 3600');
    expect(server.requests).toHaveLength(1);
  });

  it('caps one wait at 30 s and announces a wait over 3 s on stderr, verbose or not', async () => {
    server.on('GET /pivot/J1', { status: 503, headers: { 'retry-after': '60' }, body: 'busy' });
    const waits: number[] = [];
    const notices: string[] = [];
    const c = client({ sleep: async (ms) => { waits.push(ms); }, notice: (l) => notices.push(l) });
    const error = await c.pivot.get('J1').catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toContain('the service asks to retry after 60');
    expect(waits).toEqual([30_000, 30_000]);
    const url = `${server.url}/public/client-side/v1/pivot/J1`;
    expect(notices).toEqual([
      `The service answered 503 to GET ${url} and asked to retry in 60 s; waiting 30 s, the longest this tool waits at once (attempt 2 of 3).`,
      `The service answered 503 to GET ${url} and asked to retry in 60 s; waiting 30 s, the longest this tool waits at once (attempt 3 of 3).`,
    ]);
  });

  it('waits a Retry-After under the cap as asked, announcing only waits over 3 s', async () => {
    server.on('GET /pivot/J1', { status: 429, headers: { 'retry-after': '2' } }, { status: 503, headers: { 'retry-after': '12' } }, json({ pivot: null }));
    const waits: number[] = [];
    const notices: string[] = [];
    await client({ sleep: async (ms) => { waits.push(ms); }, notice: (l) => notices.push(l) }).pivot.get('J1');
    expect(waits).toEqual([2000, 12_000]);
    expect(notices).toEqual([`The service answered 503 to GET ${server.url}/public/client-side/v1/pivot/J1 and asked to retry in 12 s; waiting 12 s (attempt 3 of 3).`]);
  });

  it('backs off exponentially with jitter, capped', async () => {
    server.on('GET /pivot/J1', { status: 500 });
    const waits: number[] = [];
    const c = client({ retry: { retries: 4, baseDelayMs: 100, maxDelayMs: 300 }, random: () => 0.5, sleep: async (ms) => { waits.push(ms); } });
    await expect(c.pivot.get('J1')).rejects.toBeInstanceOf(ApiError);
    expect(waits).toEqual([75, 150, 225, 225]);
  });

  it('retries connection errors for GETs, then reports a NetworkError', async () => {
    const port = await freePort();
    const c = new ImportClient({ baseUrl: `http://127.0.0.1:${port}`, retry: { baseDelayMs: 1 } });
    let calls = 0;
    const counting = new ImportClient({ baseUrl: `http://127.0.0.1:${port}`, sleep: async () => { calls++; } });
    const error = await c.fields.get('J1').catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.exitCode).toBe(1);
    expect(error.message).toContain('connection refused');
    await counting.fields.get('J1').catch(() => undefined);
    expect(calls).toBe(2);
    let runCalls = 0;
    const runClient = new ImportClient({ baseUrl: `http://127.0.0.1:${port}`, sleep: async () => { runCalls++; } });
    await runClient.run.send('J1', {}).catch(() => undefined);
    expect(runCalls).toBe(0);
  });

  it('retries a connection the server closes without answering', async () => {
    server.on('GET /scripts/J1', { destroy: true }, json({ preColumnMapping: ['s1'], postClean: [] }));
    const read = await client().scripts.get('J1');
    expect(read.preColumnMapping).toEqual(['s1']);
    expect(server.requests).toHaveLength(2);
  });
});

describe('ImportClient errors', () => {
  it('maps 401 and 403 to AuthError (exit 3) with the service text', async () => {
    server.on('GET /fields/J1', { status: 401, body: { error: { code: 'UNAUTHORIZED', message: 'missing or wrong API key' } } });
    server.on('GET /fields/J2', { status: 403, body: 'forbidden here' });
    const e1 = await client().fields.get('J1').catch((e) => e);
    expect(e1).toBeInstanceOf(AuthError);
    expect(e1.exitCode).toBe(3);
    expect(e1.message).toContain('missing or wrong API key');
    expect(e1.message).toContain('check the API key');
    const e2 = await client({ apiKey: undefined }).fields.get('J2').catch((e) => e);
    expect(e2).toBeInstanceOf(AuthError);
    expect(e2.message).toContain('forbidden here');
    expect(e2.message).toContain('no API key was sent');
  });

  it('maps 404 to NotFoundError (exit 4)', async () => {
    server.on('GET /fields/nope', { status: 404, body: { error: { code: 'NOT_FOUND', message: 'unknown job nope' } } });
    const error = await client().fields.get('nope').catch((e) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.exitCode).toBe(4);
    expect(error.message).toContain('unknown job nope');
  });

  it('turns a non-JSON answer into an ApiError (exit 1) with a clear sentence', async () => {
    server.on('GET /fields/J1', { status: 200, body: '<html><title>Login</title></html>', headers: { 'content-type': 'text/html' } });
    const error = await client().fields.get('J1').catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.exitCode).toBe(1);
    expect(error.message).toMatch(/not JSON \(text\/html/);
    expect(error.message).toContain('--base-url');
  });

  it('times out a hanging service with a NetworkError naming the URL and --timeout', async () => {
    server.on('GET /fields/J1', { hang: true });
    const started = Date.now();
    const error = await client({ timeoutMs: 200 }).fields.get('J1').catch((e) => e);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toContain(`${server.url}/public/client-side/v1/fields/J1`);
    expect(error.message).toContain('timed out after 200 ms');
    expect(error.message).toContain('--timeout');
    expect(server.requests).toHaveLength(1);
  });

  it('names a redirect\'s target without credentials or query, does not follow it, and gives the base URL it implies (exit 1)', async () => {
    server.on('GET /fields/J1', { status: 301, headers: { location: 'https://user:pw@imports.example.com/v2/public/client-side/v1/fields/J1?token=s3cret#x' }, body: '<html>Moved</html>' });
    const error = await client().fields.get('J1').catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.exitCode).toBe(1);
    expect(error.status).toBe(301);
    expect(error.message).toBe(`The service answered GET ${server.url}/public/client-side/v1/fields/J1 with 301 Moved Permanently to https://imports.example.com/v2/public/client-side/v1/fields/J1, which this tool does not follow; if the service has moved there, set --base-url (or IMPORT_BASE_URL, or the profile's base-url) to https://imports.example.com/v2.`);
    expect(server.requests).toHaveLength(1);
  });

  it('resolves a relative Location, and names a target that is not the API path with "check --base-url"', async () => {
    server.on('POST /start', { status: 308, headers: { location: '/api/public/client-side/v1/start' } });
    const moved = await client().start.send({ form: { jsonData: [{ a: 1 }] } }).catch((e) => e);
    expect(moved.message).toBe(`The service answered POST ${server.url}/public/client-side/v1/start with 308 Permanent Redirect to ${server.url}/api/public/client-side/v1/start, which this tool does not follow; if the service has moved there, set --base-url (or IMPORT_BASE_URL, or the profile's base-url) to ${server.url}/api.`);
    server.on('GET /scripts/J1', { status: 302, headers: { location: 'https://sso.example.com/login?next=%2Fscripts&session=abc' } });
    const login = await client().scripts.get('J1').catch((e) => e);
    expect(login.message).toBe(`The service answered GET ${server.url}/public/client-side/v1/scripts/J1 with 302 Found to https://sso.example.com/login, which this tool does not follow; check --base-url: it must be the service's root URL.`);
    server.on('GET /units/J1', { status: 302, headers: { location: 'http://u:p@[bad?t=1' } });
    const bad = await client().units.get('J1').catch((e) => e);
    expect(bad.message).toBe(`The service answered GET ${server.url}/public/client-side/v1/units/J1 with 302 Found to a Location that is not a URL ("http://[bad"), which this tool does not follow; check --base-url.`);
  });

  it('removes the API key from service messages that echo it', async () => {
    server.on('GET /fields/J1', { status: 401, body: { error: { message: 'key sk-test-0123456789 revoked' } } });
    const error = await client().fields.get('J1').catch((e) => e);
    expect(error.message).not.toContain('sk-test-0123456789');
    expect(error.message).toContain('[redacted]');
  });
});

describe('verbose logging', () => {
  it('logs one line per request and response with the key redacted', async () => {
    server.on('GET /fields/J1', { status: 503 }, json({ expectedFields: [], optionalFields: [], inputColumns: [], columnFieldMapping: {} }));
    const lines: string[] = [];
    await client({ log: (l) => lines.push(l) }).fields.get('J1');
    const text = lines.join('\n');
    expect(text).not.toContain('sk-test-0123456789');
    expect(lines[0]).toBe(`> GET ${server.url}/public/client-side/v1/fields/J1 (x-api-key: [redacted])`);
    expect(lines[1]).toMatch(/^< 503 Service Unavailable GET /);
    expect(lines[2]).toMatch(/^! GET .* answered 503; retrying in \d+ ms \(attempt 2 of 3\)$/);
    expect(lines[4]).toMatch(/^< 200 OK GET /);
  });
});

describe('start', () => {
  it('reads the job id from a JSON object, a bare JSON string or plain text', async () => {
    const form = { jsonData: [{ a: 1 }] };
    server.on('POST /start', json({ jobId: 'J-obj' }), json('J-str'), { body: 'J-text\n', headers: { 'content-type': 'text/plain' } }, json({ nothing: true }));
    expect(await client().start.send({ form })).toBe('J-obj');
    expect(await client().start.send({ form })).toBe('J-str');
    expect(await client().start.send({ form })).toBe('J-text');
    await expect(client().start.send({ form })).rejects.toThrow(/holds no job id/);
  });
});

describe('start and run sent but not answered (never repeated: a repeat could create or run a job twice)', () => {
  const form = { jsonData: [{ a: 1 }] };

  it('says a start whose connection broke may have created a job, where to look, and not to start again blindly', async () => {
    server.on('POST /start', { destroy: true });
    const error = await client().start.send({ form }).catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.exitCode).toBe(1);
    expect(error.message).toMatch(new RegExp(`^The connection to ${server.url} broke during POST ${server.url}/public/client-side/v1/start \\(\\w+\\) before an answer came; a job may have been created on the service though its id never came back, so look for it there before starting again, which would create a second job\\.$`));
    expect(error.message).not.toContain('try again');
    expect(error.message).not.toContain('sk-test-0123456789');
    expect(server.requests).toHaveLength(1);
  });

  it('names the start webhook as a place to look when the start gave a webhook URL', async () => {
    server.on('POST /start', { destroy: true });
    const error = await client().start.send({ form: { ...form, webhookUrl: 'https://hooks.example/start?token=t0k' } }).catch((e) => e);
    expect(error.message).toContain('so look for it there or in the start webhook sent to your webhook URL before starting again');
    expect(error.message).not.toContain('t0k');
  });

  it('says a start that timed out may have created a job', async () => {
    server.on('POST /start', { hang: true });
    const error = await client({ timeoutMs: 200 }).start.send({ form }).catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toBe(`The request POST ${server.url}/public/client-side/v1/start timed out after 200 ms with no answer; a job may have been created on the service though its id never came back, so look for it there before starting again, which would create a second job; raise --timeout (or IMPORT_TIMEOUT) if the service needs longer.`);
    expect(server.requests).toHaveLength(1);
  });

  it('says a run that timed out or broke may still be running, and how to check before running it again', async () => {
    server.on('POST /run/J1', { hang: true });
    const timedOut = await client({ timeoutMs: 200 }).run.send('J1', { returnWhenComplete: true }).catch((e) => e);
    expect(timedOut).toBeInstanceOf(NetworkError);
    expect(timedOut.message).toBe(`The request POST ${server.url}/public/client-side/v1/run/J1 timed out after 200 ms with no answer; job J1 may have started and may still be running on the service, so check the pipeline's output destination before running it again, which could run it twice; raise --timeout (or IMPORT_TIMEOUT) if the service needs longer.`);
    server.on('POST /run/J2', { destroy: true });
    const broke = await client().run.send('J2', { webhookUrl: 'https://hooks.example/run' }).catch((e) => e);
    expect(broke.message).toContain(`before an answer came; job J2 may have started and may still be running on the service, so check the pipeline's output destination or the run webhook sent to your webhook URL before running it again, which could run it twice.`);
    expect(server.requests).toHaveLength(2);
  });

  it('says a start or a run answered 2xx with a body that cannot be decoded (bad gzip, bad br) may have created or started the job', async () => {
    const garbled = { body: Buffer.from('{"jobId": "J-new"}'), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } };
    server.on('POST /start', garbled, { ...garbled, headers: { ...garbled.headers, 'content-encoding': 'br' } });
    const gzip = await client().start.send({ form }).catch((e) => e);
    expect(gzip).toBeInstanceOf(ApiError);
    expect(gzip.exitCode).toBe(1);
    expect(gzip.message).toBe(`The service's answer to POST ${server.url}/public/client-side/v1/start cannot be used: its body is not valid gzip data although its Content-Encoding says "gzip"; a job may have been created on the service though its id never came back, so look for it there before starting again, which would create a second job; report it to the service's operator.`);
    const br = await client().start.send({ form }).catch((e) => e);
    expect(br.message).toContain('its body is not valid br data although its Content-Encoding says "br"; a job may have been created on the service though its id never came back');
    server.on('POST /run/J1', garbled);
    const run = await client().run.send('J1', { returnWhenComplete: true }).catch((e) => e);
    expect(run.message).toContain('Content-Encoding says "gzip"; job J1 may have started and may still be running on the service');
    expect(server.requests).toHaveLength(3);
  });

  it('keeps "try again" for a read whose connection broke, and says nothing was sent when the connection was refused', async () => {
    server.on('GET /scripts/J1', { destroy: true });
    const read = await client({ retry: { retries: 0 } }).scripts.get('J1').catch((e) => e);
    expect(read.message).toContain('the service closed it, try again');
    const port = await freePort();
    const refused = await new ImportClient({ baseUrl: `http://127.0.0.1:${port}` }).start.send({ form }).catch((e) => e);
    expect(refused.message).toContain('connection refused');
    expect(refused.message).not.toContain('may have been created');
  });
});

describe('base URL checks', () => {
  it('requires a base URL and says how to set it', () => {
    expect(() => checkBaseUrl(undefined, false)).toThrow(UsageError);
    expect(() => checkBaseUrl(undefined, false)).toThrow(/--base-url.*IMPORT_BASE_URL/);
  });

  it('refuses plain http to a non-loopback host unless insecure', () => {
    expect(() => checkBaseUrl('http://import.example.com', false)).toThrow(/--insecure/);
    expect(checkBaseUrl('http://import.example.com', true).host).toBe('import.example.com');
    expect(checkBaseUrl('http://127.0.0.1:8787', false).port).toBe('8787');
    expect(checkBaseUrl('http://localhost:8787', false).hostname).toBe('localhost');
    expect(checkBaseUrl('http://[::1]:8787', false).hostname).toBe('[::1]');
    expect(checkBaseUrl('https://import.example.com', false).protocol).toBe('https:');
  });

  it('refuses other schemes, non-URLs and credentials in the URL', () => {
    expect(() => checkBaseUrl('ftp://x', false)).toThrow(UsageError);
    expect(() => checkBaseUrl('not a url', false)).toThrow(/not a URL/);
    expect(() => checkBaseUrl('https://u:p@x.example', false)).toThrow(/user name or password/);
  });

  it('knows loopback hosts', () => {
    for (const h of ['localhost', 'api.localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1']) expect(isLoopback(h)).toBe(true);
    for (const h of ['10.0.0.1', 'example.com', '128.0.0.1', 'localhost.example.com']) expect(isLoopback(h)).toBe(false);
  });
});

describe('helpers', () => {
  it('parses Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('2', 0)).toBe(2000);
    const now = Date.parse('2024-03-05T12:00:00Z');
    expect(retryAfterMs('Tue, 05 Mar 2024 12:00:03 GMT', now)).toBe(3000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });

  it('finds the service text in the usual error shapes', () => {
    expect(serviceMessage('{"error":{"code":"X","message":"m"}}')).toBe('m (X)');
    expect(serviceMessage('{"error":"e"}')).toBe('e');
    expect(serviceMessage('{"message":"m2"}')).toBe('m2');
    expect(serviceMessage('plain words')).toBe('plain words');
    expect(serviceMessage('<html><title>502 Bad Gateway</title></html>', 'text/html')).toBe('an HTML page titled "502 Bad Gateway"');
    expect(serviceMessage('  ')).toBeUndefined();
  });

  it('retries 408, 429 and 5xx only', () => {
    expect([408, 429, 500, 503, 599].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 404, 409, 422].some(isRetryableStatus)).toBe(false);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
