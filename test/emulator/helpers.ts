/** Small HTTP helpers for the emulator tests: everything goes over real HTTP with fetch. */
import { openAsBlob } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename } from 'node:path';
import { stringifyJson } from '../../src/contract/json.js';
import type { Emulator } from '../support/emulator.js';

/** A JSON answer. */
export interface Answer<T = any> { status: number; body: T; headers: Headers }

/** Calls `<apiUrl><path>` with an optional JSON body. */
export async function call<T = any>(emu: Emulator, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> {
  const init: RequestInit = { method, headers: { 'x-api-key': 'test', ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : stringifyJson(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const response = await fetch(emu.apiUrl + path, init);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

/** What a start form holds. */
export interface StartParts {
  /** A file to upload as `files`. */
  file?: string;
  /** The name the upload carries (default: the file's base name). */
  fileName?: string;
  /** Inline content to upload as `files` instead of a path. */
  content?: string | Buffer;
  /** Text parts; an array gives repeated parts. */
  fields?: Record<string, string | string[]>;
}

/** POSTs a start form; resolves with the answer. */
export async function start(emu: Emulator, parts: StartParts, headers: Record<string, string> = {}): Promise<Answer> {
  const form = new FormData();
  if (parts.file) form.append('files', await openAsBlob(parts.file), parts.fileName ?? basename(parts.file));
  else if (parts.content !== undefined) form.append('files', new Blob([parts.content]), parts.fileName ?? 'data.csv');
  for (const [name, value] of Object.entries(parts.fields ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) form.append(name, v);
  }
  const response = await fetch(emu.apiUrl + '/start', { method: 'POST', body: form, headers: { 'x-api-key': 'test', ...headers } });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

/** Starts a job and returns its id (fails the test on a non-200 answer). */
export async function startJob(emu: Emulator, parts: StartParts): Promise<string> {
  const answer = await start(emu, parts);
  if (answer.status !== 200) throw new Error(`start answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body.jobId as string;
}

/** A received webhook. */
export interface Received { path: string; headers: IncomingMessage['headers']; body: any; at: number }

/** A local webhook listener; `failFirst` answers 500 to that many requests before accepting. */
export async function webhookListener(failFirst = 0): Promise<{ url: string; received: Received[]; attempts: Received[]; next(count?: number, timeoutMs?: number): Promise<Received[]>; close(): Promise<void> }> {
  const received: Received[] = [];
  const attempts: Received[] = [];
  let failures = failFirst;
  const waiters: (() => void)[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const entry: Received = { path: req.url ?? '/', headers: req.headers, body: text ? JSON.parse(text) : undefined, at: Date.now() };
      attempts.push(entry);
      if (failures > 0) {
        failures--;
        res.writeHead(500).end('not now');
        return;
      }
      received.push(entry);
      res.writeHead(204).end();
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    attempts,
    async next(count = 1, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} webhook(s), got ${received.length} (attempts: ${attempts.length})`);
        await new Promise<void>((r) => { waiters.push(r); setTimeout(r, 100); });
      }
      return received;
    },
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

/** Polls the local status endpoint until the job is no longer running. */
export async function waitForJob(emu: Emulator, jobId: string, timeoutMs = 60_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(`${emu.url}/local/jobs/${jobId}`, { headers: { 'x-api-key': 'test' } });
    const body = await response.json() as any;
    if (body.status === 'succeeded' || body.status === 'failed') return body;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${body.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
