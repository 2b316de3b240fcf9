import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { BIN, runCli } from '../support/cli.js';
import { json, startRecordingServer, type RecordingServer } from '../support/recording-server.js';
import { FIELDS, KEY } from './reads.js';

let server: RecordingServer;
beforeAll(async () => { server = await startRecordingServer(); });
afterAll(async () => { await server.close(); });
beforeEach(() => server.reset());

const cli = (args: string[], o: Parameters<typeof runCli>[1] = {}) => runCli([...args, '--base-url', server.url, '--api-key', KEY], o);

describe('exit codes of cli.md', () => {
  it('0 on success', async () => {
    server.on('GET /fields/J1', json(FIELDS));
    expect((await cli(['fields', 'get', 'J1'])).exitCode).toBe(0);
  });

  it('3 on 401 and on 403, with the service text', async () => {
    server.on('GET /fields/J1', { status: 401, body: { error: { code: 'UNAUTHORIZED', message: 'wrong API key' } } });
    let res = await cli(['fields', 'get', 'J1']);
    expect(res.exitCode).toBe(3);
    expect(res.stderr).toBe(`error: The service refused GET ${server.url}/public/client-side/v1/fields/J1 (401 Unauthorized): wrong API key (UNAUTHORIZED); check the API key (--api-key, IMPORT_API_KEY or the profile).\n`);
    server.on('GET /fields/J1', { status: 403, body: 'not yours' });
    res = await cli(['fields', 'get', 'J1']);
    expect(res.exitCode).toBe(3);
    expect(res.stderr).toContain('not yours');
  });

  it('4 on 404', async () => {
    server.on('GET /fields/gone', { status: 404, body: { error: { code: 'NOT_FOUND', message: 'job gone does not exist' } } });
    const res = await cli(['fields', 'get', 'gone']);
    expect(res.exitCode).toBe(4);
    expect(res.stderr).toContain('job gone does not exist');
    expect(res.stderr).toContain('check the job id');
  });

  it('1 on 500 after the retries', async () => {
    server.on('GET /fields/J1', { status: 500, body: { error: { message: 'kaputt' } } });
    const res = await cli(['fields', 'get', 'J1']);
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toContain('500 Internal Server Error');
    expect(res.stderr).toContain('kaputt');
    expect(server.requests).toHaveLength(3);
  });

  it('0 when the service fails twice then answers (3 calls)', async () => {
    server.on('GET /fields/J1', { status: 503 }, { status: 500 }, json(FIELDS));
    const res = await cli(['fields', 'get', 'J1', '-o', 'json']);
    expect(res.exitCode).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual(FIELDS);
    expect(server.requests).toHaveLength(3);
  });

  it('0 when an update fails twice then answers (3 posts, 1 read)', async () => {
    server.on('GET /fields/J1', json(FIELDS));
    server.on('POST /fields/J1', { status: 502 }, { status: 503 }, json({}));
    const res = await cli(['fields', 'update', 'J1', '--map', 'Notes=phone']);
    expect(res.exitCode).toBe(0);
    expect(server.requests.map((r) => r.method)).toEqual(['GET', 'POST', 'POST', 'POST']);
  });

  it('1 on a non-JSON answer, in one sentence', async () => {
    server.on('GET /fields/J1', { status: 200, body: '<!doctype html><html>login</html>', headers: { 'content-type': 'text/html; charset=utf-8' } });
    const res = await cli(['fields', 'get', 'J1']);
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toMatch(/^error: The service answered GET \S+ with something that is not JSON \(text\/html: "<!doctype html>.*"\); check that --base-url is the service's root URL\.\n$/);
  });

  it('1 on a timeout, naming the URL and --timeout', async () => {
    server.on('GET /fields/J1', { hang: true });
    const res = await cli(['fields', 'get', 'J1', '--timeout', '300']);
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toBe(`error: The request GET ${server.url}/public/client-side/v1/fields/J1 timed out after 300 ms; raise --timeout (or IMPORT_TIMEOUT) if the service needs longer.\n`);
  });

  it('1 on connection refused', async () => {
    const port = await freePort();
    const res = await runCli(['fields', 'get', 'J1', '--base-url', `http://127.0.0.1:${port}`]);
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toContain('connection refused');
    expect(res.stderr).toContain('check --base-url and that the service is running');
  });

  it('2 when no base URL is set, saying how to set one', async () => {
    const res = await runCli(['fields', 'get', 'J1']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toBe('error: No service URL is set; pass --base-url <url>, set IMPORT_BASE_URL, or save one with `import config set base-url <url>`.\n');
  });

  it('2 for plain http to a non-loopback host without --insecure', async () => {
    const res = await runCli(['fields', 'get', 'J1', '--base-url', 'http://import.example.com']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain('Refusing plain http:// to import.example.com');
    expect(res.stderr).toContain('--insecure');
    const allowed = await runCli(['fields', 'get', 'J1', '--base-url', 'http://host.invalid', '--insecure', '--timeout', '3000']);
    expect(allowed.exitCode).toBe(1);
  });

  it('2 for an unknown command or option', async () => {
    expect((await runCli(['nope'])).exitCode).toBe(2);
    expect((await runCli(['fields', 'get', 'J1', '--frobnicate'])).exitCode).toBe(2);
  });

  it('130 on Ctrl-C, without a stack trace', async () => {
    server.on('GET /fields/J1', { hang: true });
    const child = spawn(process.execPath, [BIN, 'fields', 'get', 'J1', '--base-url', server.url], { env: { ...process.env, NO_COLOR: '1', CI: '1' } });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    await waitFor(() => server.requests.length > 0);
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(130);
    expect(stderr).toBe('\nInterrupted.\n');
  });
});

describe('--verbose', () => {
  it('logs each request and response on stderr and never shows the key', async () => {
    server.on('GET /fields/J1', json(FIELDS));
    server.on('POST /fields/J1', json({}));
    const res = await cli(['fields', 'update', 'J1', '--map', 'Notes=phone', '--verbose', '-o', 'json']);
    expect(res.exitCode).toBe(0);
    expect(res.stderr).toContain(`> GET ${server.url}/public/client-side/v1/fields/J1 (x-api-key: [redacted])`);
    expect(res.stderr).toMatch(/< 200 OK GET \S+ \(\d+ ms, \d+ bytes\)/);
    expect(res.stderr).toMatch(/> POST \S+fields\/J1 \(x-api-key: \[redacted\], \d+ bytes\)/);
    expect(res.stdout + res.stderr).not.toContain(KEY);
    expect(server.requests[0].headers['x-api-key']).toBe(KEY);
  });

  it('does not show the key in errors either, even when the service echoes it', async () => {
    server.on('GET /fields/J1', { status: 401, body: { error: { message: `key ${KEY} is revoked` } } });
    const res = await cli(['fields', 'get', 'J1', '--verbose']);
    expect(res.exitCode).toBe(3);
    expect(res.stdout + res.stderr).not.toContain(KEY);
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

async function waitFor(condition: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 20));
  }
}
