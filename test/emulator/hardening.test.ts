/**
 * `import serve` against clients that misbehave at the HTTP level (cut-off, stalled or oversized
 * bodies, deep JSON, wide inputs), over raw sockets on 127.0.0.1: each answer is the documented
 * 4xx, nothing is left in the data dir, and the service answers the next request.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../src/contract/index.js';
import { spawnEmulator, startEmulator, type Emulator } from '../support/emulator.js';
import { call, start, startJob } from './helpers.js';

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ bodyTimeoutMs: 500, schema: 'examples/customers/schema.yaml' });
});
afterAll(async () => { await emu?.stop(); });

/** The folders under jobs/ now. */
async function jobFolders(): Promise<string[]> {
  return (await readdir(join(emu.dataDir, 'jobs'))).sort();
}

/** Waits (up to `ms`) until `check` holds; returns whether it did. */
async function eventually(check: () => Promise<boolean>, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Writes `data` on a new connection; `end` closes our side at once, else the socket stays open.
 * Resolves with everything the server sent before it closed the connection, or after `ms`.
 */
function rawExchange(data: string | Buffer, opts: { end?: boolean; ms?: number } = {}): Promise<{ text: string; closedByServer: boolean; elapsedMs: number }> {
  const { port } = new URL(emu.url);
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => { socket.destroy(); resolve({ text, closedByServer: false, elapsedMs: Date.now() - started }); }, opts.ms ?? 5000);
    socket.on('data', (d) => { text += d.toString('utf8'); });
    socket.on('error', () => {});
    socket.on('close', () => { clearTimeout(timer); resolve({ text, closedByServer: true, elapsedMs: Date.now() - started }); });
    socket.on('connect', () => { if (opts.end) socket.end(data); else socket.write(data); });
  });
}

/** A start request's head and the first part of a form whose whole body is `total` bytes. */
function cutStart(total = 10_000): string {
  const part = '--B\r\nContent-Disposition: form-data; name="files"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\nid,name\n1,Ann\n';
  return `POST ${API_PREFIX}/start HTTP/1.1\r\nHost: x\r\nx-api-key: test\r\nContent-Type: multipart/form-data; boundary=B\r\nContent-Length: ${total}\r\n\r\n${part}`;
}

describe('bodies that never end', () => {
  it('leaves no job folder behind when the client sends part of a start form and closes at once', async () => {
    const before = await jobFolders();
    for (let i = 0; i < 3; i++) await rawExchange(cutStart(), { end: true, ms: 2000 });
    expect(await eventually(async () => (await jobFolders()).length === before.length)).toBe(true);
    expect(await jobFolders()).toEqual(before);
    expect((await fetch(`${emu.url}/healthz`)).status).toBe(200);
  });

  it('answers 408 and closes the connection when a start form stops arriving midway, and leaves no job folder', async () => {
    const before = await jobFolders();
    const { text, closedByServer } = await rawExchange(cutStart(), { ms: 5000 });
    expect(closedByServer).toBe(true);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(text).toMatch(/"code":"request_timeout"/);
    expect(await eventually(async () => (await jobFolders()).length === before.length)).toBe(true);
    expect((await fetch(`${emu.url}/healthz`)).status).toBe(200);
  });

  it('answers 408 to an update whose JSON body stops arriving, and to a chunked body that stops', async () => {
    const jobId = await startJob(emu, { content: 'id,name\n1,Ann\n' });
    const head = `POST ${API_PREFIX}/fields/${jobId} HTTP/1.1\r\nHost: x\r\nx-api-key: test\r\nContent-Type: application/json\r\n`;
    for (const request of [`${head}Content-Length: 100\r\n\r\n{"columnFieldMapping":`, `${head}Transfer-Encoding: chunked\r\n\r\n5\r\n{"col\r\n`]) {
      const { text, closedByServer } = await rawExchange(request, { ms: 5000 });
      expect(closedByServer).toBe(true);
      expect(text).toMatch(/^HTTP\/1\.1 408 /);
    }
    // A body that keeps coming, however slowly, is read to its end.
    const body = JSON.stringify({ columnFieldMapping: { 'data.csv': {} } });
    const { port } = new URL(emu.url);
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    socket.on('data', (d) => { text += d.toString('utf8'); });
    await new Promise((r) => socket.on('connect', r));
    socket.write(`${head}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`);
    for (const piece of [body.slice(0, 10), body.slice(10, 20), body.slice(20)]) {
      await new Promise((r) => setTimeout(r, 300));
      socket.write(piece);
    }
    expect(await eventually(async () => text.includes('\r\n\r\n{'))).toBe(true);
    socket.destroy();
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe('deeply nested JSON', () => {
  it('refuses an update body nested thousands of levels deep with 400, never a 500, and keeps the resource', async () => {
    const jobId = await startJob(emu, { content: 'id,country\n1,US\n', fields: { pipelineId: 'pl_customers' } });
    const before = await call(emu, 'GET', `/impute-methods/${jobId}`);
    for (const depth of [100, 10_000, 200_000]) {
      const fillValue = '['.repeat(depth) + ']'.repeat(depth);
      const answer = await call(emu, 'POST', `/impute-methods/${jobId}`, `{"imputeMethods": {"country": {"imputeMethod": "fill", "imputeMethodConfig": {"fillValue": ${fillValue}}}}}`);
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('invalid_body');
      expect(answer.body.error.message).toMatch(/nests arrays and objects more than 64 levels deep/);
    }
    expect(await call(emu, 'GET', `/impute-methods/${jobId}`)).toMatchObject({ status: 200, body: before.body });
    // A fill value nested a few levels is still a value like any other.
    const nested = await call(emu, 'POST', `/impute-methods/${jobId}`, { imputeMethods: { country: { imputeMethod: 'fill', imputeMethodConfig: { fillValue: [[['US']]] } } } });
    expect(nested.status).toBe(200);
  });

  it('refuses rows nested thousands of levels deep, as jsonData (400) or as an uploaded file (422), never a 500', async () => {
    const before = await jobFolders();
    const rows = `[{"id": 1, "v": ${'['.repeat(200_000)}${']'.repeat(200_000)}}]`;
    const inline = await start(emu, { fields: { jsonData: rows } });
    expect(inline.status).toBe(400);
    expect(inline.body.error.message).toMatch(/jsonData\.json:1:\d+: arrays and objects nest more than 1000 levels deep here/);
    const upload = await start(emu, { content: rows, fileName: 'rows.json' });
    expect(upload.status).toBe(422);
    expect(upload.body.error).toMatchObject({ code: 'invalid_input' });
    expect(upload.body.error.message).toMatch(/rows\.json:1:\d+: arrays and objects nest more than 1000 levels deep here/);
    expect(await jobFolders()).toEqual(before);
  });
});

/** A webhook receiver on 127.0.0.1 that answers every request with `answer`; closed by the returned function. */
async function receiver(answer: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => { req.resume(); req.on('end', () => answer(req, res)); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

/** Waits (up to `ms`) for a log line matching `pattern`. */
async function logLine(pattern: RegExp, ms = 8000): Promise<string | undefined> {
  await eventually(async () => emu.logs.some((l) => pattern.test(l)), ms);
  return emu.logs.find((l) => pattern.test(l));
}

describe('webhook receivers that misbehave', () => {
  it('reads only the start of an endless answer body: the delivery succeeds on its status, the rest is never read', async () => {
    let sent = 0;
    let isCut = false;
    const hook = await receiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(1 << 20, 120);
      // Up to 4 GiB, as fast as the service reads; it should stop reading after a few KiB.
      const pump = () => {
        while (!isCut && sent < 4096) {
          sent++;
          if (!res.write(chunk)) { res.once('drain', pump); return; }
        }
        res.end();
      };
      res.on('close', () => { isCut = true; });
      pump();
    });
    try {
      const jobId = await startJob(emu, { content: 'id\n1\n', fields: { webhookUrl: `${hook.url}/endless` } });
      const line = await logLine(new RegExp(`start webhook of ${jobId} .*(delivered|giving up)`));
      expect(line).toMatch(/delivered \(HTTP 200\) on attempt 1\//);
      expect(await eventually(async () => isCut)).toBe(true);
      // The service stopped reading after the first MiB or so (the socket buffers hold a few more).
      expect(sent).toBeLessThan(64);
    } finally {
      await hook.close();
    }
  });

  it('sends a user and password given in the webhook URL as Basic authorization, and never logs the password', async () => {
    const seen: (string | undefined)[] = [];
    const hook = await receiver((req, res) => { seen.push(req.headers.authorization); res.writeHead(204).end(); });
    try {
      const url = hook.url.replace('http://', 'http://hook%40user:s3cret-Pa55@') + '/auth?token=t0ken';
      const jobId = await startJob(emu, { content: 'id\n1\n', fields: { webhookUrl: url } });
      const line = await logLine(new RegExp(`start webhook of ${jobId} .*(delivered|giving up)`));
      expect(line).toMatch(/delivered \(HTTP 204\) on attempt 1\//);
      expect(seen).toEqual([`Basic ${Buffer.from('hook@user:s3cret-Pa55').toString('base64')}`]);
      expect(emu.logs.join('\n')).not.toMatch(/s3cret|t0ken/);
    } finally {
      await hook.close();
    }
  });
});

describe('wide inputs', () => {
  it('takes a mapping and a data-types update naming each of 40,000 columns, and names ten of them in an error', async () => {
    const n = 40_000;
    const names = Array.from({ length: n }, (_, i) => `c${i}`);
    const jobId = await startJob(emu, { content: `${names.join(',')}\n${names.map(() => '1').join(',')}\n`, fileName: 'wide.csv' });
    const mapping = Object.fromEntries(names.map((c, i) => [c, { field: `f${i}` }]));
    // Sets, not includes over the columns: quadratic, this update held every client for ~20 s.
    const fields = await call(emu, 'POST', `/fields/${jobId}`, { columnFieldMapping: { 'wide.csv': mapping } });
    expect(fields.status).toBe(200);
    const types = Object.fromEntries(names.map((_, i) => [`f${i}`, { dataType: 'number' }]));
    expect((await call(emu, 'POST', `/field-data-types/${jobId}`, { fieldDataTypes: types })).status).toBe(200);
    const unknown = await call(emu, 'POST', `/fields/${jobId}`, { columnFieldMapping: { 'wide.csv': { nope: { field: 'f0' } } } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.message).toBe(`body.columnFieldMapping["wide.csv"].nope: column "nope" is not in the input; input columns: ${names.slice(0, 10).join(', ')} and 39990 more.`);
  }, 60_000);
});

describe('start forms', () => {
  it('refuses text fields over 1 MiB in all with 413, though each is under its 64 KiB limit', async () => {
    const before = await jobFolders();
    const ids = Array.from({ length: 20 }, (_, i) => `pl_${i}_${'x'.repeat(60_000)}`);
    const answer = await start(emu, { content: 'id\n1\n', fields: { pipelineId: ids } });
    expect(answer.status).toBe(413);
    expect(answer.body.error).toMatchObject({ code: 'too_large' });
    expect(answer.body.error.message).toMatch(/text fields hold over 1048576 bytes in all/);
    expect(await jobFolders()).toEqual(before);
    // Ten of them are fine.
    expect((await start(emu, { content: 'id\n1\n', fields: { pipelineId: ids.slice(0, 10) } })).status).toBe(200);
  });
});

describe('upload file names', () => {
  it('refuses a file name that is not UTF-8 with 422, rather than store it with U+FFFD, and takes the same name in UTF-8', async () => {
    const before = await jobFolders();
    const form = (name: Buffer) => Buffer.concat([
      Buffer.from('--B\r\nContent-Disposition: form-data; name="files"; filename="'), name,
      Buffer.from('"\r\nContent-Type: text/csv\r\n\r\nid,name\n1,Ann\n\r\n--B--\r\n'),
    ]);
    const send = (name: Buffer) => fetch(`${emu.apiUrl}/start`, { method: 'POST', headers: { 'x-api-key': 'test', 'content-type': 'multipart/form-data; boundary=B' }, body: form(name) });
    const latin1 = await send(Buffer.from('caf\u00e9.csv', 'latin1'));
    const body = await latin1.json() as any;
    expect(latin1.status).toBe(422);
    expect(body.error.message).toMatch(/name "caf\ufffd\.csv" is not UTF-8 text .*rename the file/);
    expect(await jobFolders()).toEqual(before);
    const utf8 = await send(Buffer.from('caf\u00e9.csv', 'utf8'));
    expect(utf8.status).toBe(200);
    const added = (await jobFolders()).filter((f) => !before.includes(f));
    expect(added).toHaveLength(1);
    expect(await readdir(join(emu.dataDir, 'jobs', added[0]!), { recursive: true })).toContain(join('input', 'caf\u00e9.csv'));
  });
});

describe('a stop during runs', () => {
  it('leaves no temp output behind when it stops while a run writes its output', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'import-hardening-'));
    // A process of its own, from the build: engine work runs in worker threads there, as in `import serve`.
    const own = await spawnEmulator({ dataDir });
    try {
      const rows = Array.from({ length: 300_000 }, (_, i) => `${i},name ${i},${i}@example.com,${(i * 7) % 1000}.25`);
      const jobId = await startJob(own, { content: `id,name,email,amount\n${rows.join('\n')}\n`, fileName: 'big.csv' });
      expect((await call(own, 'POST', `/run/${jobId}`, {})).status).toBe(200);
      const output = join(dataDir, 'output');
      const isTemp = (name: string) => /^\..*\.tmp$/.test(name);
      // Stop while the temp output is being written (it appears once rows reach the writer).
      const writing = await eventually(async () => (await readdir(output)).some(isTemp), 20_000);
      expect(writing).toBe(true);
      await own.stop();
      expect(await own.exited).toEqual({ code: 0, signal: null });
      expect((await readdir(output)).filter(isTemp)).toEqual([]);
    } finally {
      await own.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('JSON bodies', () => {
  it('refuses an update body that is not UTF-8 with 400, rather than read U+FFFD into a column name', async () => {
    const jobId = await startJob(emu, { content: 'id,caf\u00e9\n1,x\n', fileName: 'latin.csv' });
    const latin1 = Buffer.from('{"columnFieldMapping": {"latin.csv": {"caf\u00e9": {"field": "cafe"}}}}', 'latin1');
    const response = await fetch(`${emu.apiUrl}/fields/${jobId}`, { method: 'POST', headers: { 'x-api-key': 'test', 'content-type': 'application/json' }, body: latin1 });
    expect(response.status).toBe(400);
    expect((await response.json() as any).error.message).toMatch(/not UTF-8 text/);
  });

  it('refuses an update body that names a key twice in one object with 400, rather than keep the last', async () => {
    const jobId = await startJob(emu, { content: 'id,country\n1,US\n', fields: { pipelineId: 'pl_customers' } });
    const answer = await call(emu, 'POST', `/impute-methods/${jobId}`, '{"imputeMethods": {"country": {"imputeMethod": "dropMissing"}, "country": {"imputeMethod": null}}}');
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(/names key "country" twice in one object/);
  });
});

describe('requests Node refuses before a handler sees them', () => {
  it('answers headers or a URL over 16 KiB with 431, and a request that is not HTTP with 400, each with a JSON body', async () => {
    for (const request of [
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Long: ${'a'.repeat(100_000)}\r\n\r\n`,
      `GET ${API_PREFIX}/fields/${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    ]) {
      const { text } = await rawExchange(request, { ms: 3000 });
      expect(text).toMatch(/^HTTP\/1\.1 431 /);
      expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).error.code).toBe('too_large');
    }
    const { text } = await rawExchange('\u0000\u0001 not http\r\n\r\n', { ms: 3000 });
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text).toMatch(/content-length: \d+/);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).error.code).toBe('invalid_body');
    expect((await fetch(`${emu.url}/healthz`)).status).toBe(200);
  });
});
