/**
 * `import serve` under hostile and clumsy requests (issue 12), over real HTTP on 127.0.0.1 with
 * bounded sizes: what matters is that each limit holds and the service answers the next request.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../src/contract/index.js';
import { startEmulator, ROOT, type Emulator } from '../support/emulator.js';
import { call, start, startJob, waitForJob } from './helpers.js';

const CUSTOMERS = join(ROOT, 'examples/customers/customers.csv');
const MiB = 1024 * 1024;

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ maxJsonData: 16 * MiB, webhookRetry: { attempts: 2, baseDelayMs: 20, timeoutMs: 400 }, webhookAllow: ['127.0.0.1', 'localhost:1'] });
});
afterAll(async () => { await emu?.stop(); });

/** The service still answers: a read of /healthz. */
async function stillAnswers(): Promise<void> {
  const health = await fetch(`${emu.url}/healthz`);
  expect(health.status).toBe(200);
}

/** A raw HTTP request (fetch normalises paths, so malformed ones go this way). */
function rawRequest(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<{ status: number; body: any }> {
  const { hostname, port } = new URL(emu.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, method, path, headers: { 'x-api-key': 'test', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d) => { text += d; }).on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('inline rows (jsonData)', () => {
  it('refuses a 40 MB jsonData over a 16 MB limit with 413, and answers the next request', async () => {
    const row = JSON.stringify({ id: 1, note: 'x'.repeat(200) });
    const rows = `[${Array.from({ length: Math.ceil((40 * MiB) / row.length) }, () => row).join(',')}]`;
    expect(rows.length).toBeGreaterThan(40 * MiB);
    const jobsBefore = (await readdir(join(emu.dataDir, 'jobs'))).sort();
    const answer = await start(emu, { fields: { jsonData: rows } });
    expect(answer.status).toBe(413);
    expect(answer.body.error.code).toBe('too_large');
    expect(answer.body.error.message).toMatch(/jsonData is over this service's limit of 16777216 bytes \(--max-json-data\)/);
    await stillAnswers();
    // Nothing of the refused start is left on disk.
    expect((await readdir(join(emu.dataDir, 'jobs'))).sort()).toEqual(jobsBefore);
    const ok = await startJob(emu, { fields: { jsonData: '[{"a": 1}]' } });
    expect((await call(emu, 'GET', `/fields/${ok}`)).body.inputColumns).toEqual(['a']);
  }, 60_000);

  it('stores inline rows byte for byte as sent', async () => {
    const jobId = await startJob(emu, { fields: { jsonData: '[{"name": "Ann", "1962": 3, "__proto__": "p"}]' } });
    const stored = await readFile(join(emu.dataDir, 'jobs', jobId, 'input', 'jsonData.json'), 'utf8');
    expect(stored).toBe('[{"name": "Ann", "1962": 3, "__proto__": "p"}]');
    expect((await call(emu, 'GET', `/fields/${jobId}`)).body.inputColumns).toContain('__proto__');
  });

  it('answers 400 for jsonData that is not an array of rows, and 413 for a text field over 64 KiB', async () => {
    const notRows = await start(emu, { fields: { jsonData: '{"not": "rows"}' } });
    expect(notRows.status).toBe(400);
    expect(notRows.body.error.message).toMatch(/^The start form field jsonData must be a JSON array of row objects/);
    expect(notRows.body.error.message).not.toContain(emu.dataDir);
    const longName = await start(emu, { file: CUSTOMERS, fields: { jobName: 'n'.repeat(70_000) } });
    expect(longName.status).toBe(413);
    expect(longName.body.error.message).toContain('"jobName" is over this service\'s limit of 65536 bytes');
  });
});

describe('names that become files', () => {
  it('refuses at start, with 422 and no server path, destination names that are too long, hold line breaks or folders, or start with a dot', async () => {
    const bad = ['d'.repeat(300) + '.csv', 'd'.repeat(197) + '.csv', 'out\r\n.csv', 'a\nb.csv', 'sub/out.csv', '..', '../../etc/passwd', '.out.csv.123-abcdefabcdef.tmp', '.hidden.csv', 'é'.repeat(128)];
    for (const name of bad) {
      const answer = await start(emu, { file: CUSTOMERS, fields: { destinationFileName: name } });
      expect(answer.status, name).toBe(422);
      expect(answer.body.error.message, name).toMatch(/^destinationFileName /);
      expect(answer.body.error.message).not.toContain(emu.dataDir);
    }
    // 200 bytes is the limit (the temp file beside it needs 26 more), and it works end to end.
    const longest = `${'d'.repeat(196)}.csv`;
    const jobId = await startJob(emu, { file: CUSTOMERS, fields: { destinationFileName: longest } });
    expect((await call(emu, 'POST', `/run/${jobId}`, { returnWhenComplete: true })).body.status).toBe('succeeded');
    expect(existsSync(join(emu.dataDir, 'output', longest))).toBe(true);
  });

  it('refuses an uploaded file name over 255 bytes with 422, never a 500', async () => {
    const answer = await start(emu, { content: 'a,b\n1,2\n', fileName: `${'f'.repeat(300)}.csv` });
    expect(answer.status).toBe(422);
    expect(answer.body.error.message).toBe('The uploaded file\'s name is 304 bytes long; the limit is 255 bytes; rename the file and upload it again.');
    await stillAnswers();
  });

  it('lets a later job reuse a destination name: its run replaces the file', async () => {
    const first = await startJob(emu, { content: 'v\nfirst\n', fileName: 'a.csv', fields: { destinationFileName: 'shared.csv' } });
    const second = await startJob(emu, { content: 'v\nsecond\n', fileName: 'b.csv', fields: { destinationFileName: 'shared.csv' } });
    expect((await call(emu, 'POST', `/run/${first}`, { returnWhenComplete: true })).status).toBe(200);
    expect(await readFile(join(emu.dataDir, 'output', 'shared.csv'), 'utf8')).toBe('v\nfirst\n');
    expect((await call(emu, 'POST', `/run/${second}`, { returnWhenComplete: true })).status).toBe(200);
    expect(await readFile(join(emu.dataDir, 'output', 'shared.csv'), 'utf8')).toBe('v\nsecond\n');
  });
});

describe('malformed requests', () => {
  it('answers malformed percent-encoding and traversal in paths with 404, never 500', async () => {
    for (const path of [`${API_PREFIX}/fields/%E0%A4%A`, '/local/jobs/%E0%A4%A', `${API_PREFIX}/fields/..%2F..%2Fjobs`, '/local/jobs/..%2F..%2Foutput', `${API_PREFIX}/fields/${'%2e'.repeat(2)}`]) {
      const answer = await rawRequest('GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.body.error.code).toBe('not_found');
    }
    const update = await rawRequest('POST', `${API_PREFIX}/text-processing-methods/%E0%A4%A`, { 'content-type': 'application/json' }, '{}');
    expect(update.status).toBe(404);
  });

  it('answers bodies of the wrong shape or type as 4xx', async () => {
    const jobId = await startJob(emu, { file: CUSTOMERS });
    for (const body of ['[]', '"text"', 'null', '{"textProcessingMethods": []}', '{"textProcessingMethods": {"regexReplacement": {"x": {"(": ""}}}}', `${'['.repeat(100_000)}`]) {
      const answer = await rawRequest('POST', `${API_PREFIX}/text-processing-methods/${jobId}`, { 'content-type': 'application/json' }, body);
      expect([400, 422], body.slice(0, 40)).toContain(answer.status);
    }
    for (const type of ['multipart/form-data', 'multipart/form-data; boundary=', 'text/plain']) {
      const answer = await rawRequest('POST', `${API_PREFIX}/start`, { 'content-type': type }, '--x\r\n');
      expect([400, 415], type).toContain(answer.status);
    }
    await stillAnswers();
  });

  it('refuses a text rule the linear engine cannot run with 422, naming the rule and the way out', async () => {
    const jobId = await startJob(emu, { file: CUSTOMERS });
    const answer = await call(emu, 'POST', `/text-processing-methods/${jobId}`, { textProcessingMethods: { regexReplacement: { email: { '(\\w)\\1': '$1' } } } });
    expect(answer.status).toBe(422);
    expect(answer.body.error.message).toMatch(/regular expression "\(\\\\w\)\\\\1" cannot be run in linear time.*back-references/);
  });
});

describe('webhooks', () => {
  it('ends an attempt that gets no answer at its time-out, even after GC, and sends the second attempt', async () => {
    const arrivals: number[] = [];
    const held: ServerResponse[] = [];
    // A receiver that takes the request and never answers.
    const receiver = createServer((req: IncomingMessage, res: ServerResponse) => { req.resume(); arrivals.push(Date.now()); held.push(res); });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const { port } = receiver.address() as AddressInfo;
    try {
      const jobId = await startJob(emu, { content: 'a\n1\n', fileName: 'one.csv' });
      expect((await call(emu, 'POST', `/run/${jobId}`, { webhookUrl: `http://127.0.0.1:${port}/hook`, returnWhenComplete: true })).status).toBe(200);
      // Collect garbage while the first attempt waits: a time-out nobody references would be lost here.
      setFlagsFromString('--expose-gc');
      const gc = runInNewContext('gc') as () => void;
      const deadline = Date.now() + 10_000;
      while (arrivals.length < 2 && Date.now() < deadline) {
        gc();
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(arrivals).toHaveLength(2);
      // Time-out (400 ms) then backoff (20 ms); arrivals are stamped by this busy thread, so with some slack.
      expect(arrivals[1] - arrivals[0]).toBeGreaterThanOrEqual(300);
      await until(async () => (await fetch(`${emu.url}/local/jobs/${jobId}`).then((r) => r.json()) as any).webhooks[0]?.status === 'failed');
      const job = await fetch(`${emu.url}/local/jobs/${jobId}`).then((r) => r.json()) as any;
      expect(job.webhooks[0]).toMatchObject({ status: 'failed', attempts: 2, lastError: 'no answer within 400 ms' });
    } finally {
      for (const res of held) res.destroy();
      receiver.closeAllConnections();
      await new Promise((r) => receiver.close(r));
    }
  }, 20_000);

  it('refuses webhook URLs that are not http(s), or whose host --webhook-allow does not list, with 422', async () => {
    const jobId = await startJob(emu, { file: CUSTOMERS });
    for (const url of ['file:///etc/passwd', 'data:text/plain,x', 'ftp://127.0.0.1/x', 'http://169.254.169.254.example/latest', 'http://localhost:2/x']) {
      const answer = await call(emu, 'POST', `/run/${jobId}`, { webhookUrl: url });
      expect(answer.status, url).toBe(422);
    }
    const atStart = await start(emu, { file: CUSTOMERS, fields: { webhookUrl: 'http://hooks.example.com/x' } });
    expect(atStart.status).toBe(422);
    expect(atStart.body.error.message).toBe('The start form field webhookUrl names host hooks.example.com, which this service does not send webhooks to (--webhook-allow 127.0.0.1,localhost:1).');
  });
});

describe('memory', () => {
  it('keeps a bounded number of job records in memory and reads the others from disk', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 300; i++) ids.push(await startJob(emu, { fields: { jsonData: `[{"n": ${i}}]` } }));
    const health = await fetch(`${emu.url}/healthz`).then((r) => r.json()) as any;
    expect(health.jobs).toBeGreaterThanOrEqual(300);
    expect(health.recordsInMemory).toBeLessThanOrEqual(64);
    // The first job left memory long ago: read from disk, updated and run like any other.
    const first = ids[0];
    expect((await call(emu, 'GET', `/fields/${first}`)).body.inputColumns).toEqual(['n']);
    expect((await call(emu, 'POST', `/text-processing-methods/${first}`, { textProcessingMethods: { casing: { n: 'upper' } } })).status).toBe(200);
    expect((await call(emu, 'POST', `/run/${first}`, { returnWhenComplete: true })).body).toMatchObject({ status: 'succeeded', rowsOut: 1 });
    expect((await waitForJob(emu, first)).status).toBe('succeeded');
  }, 120_000);
});

async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}
