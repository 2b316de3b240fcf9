/**
 * A small HTTP server for client and command tests: records every request (method, path,
 * headers, raw body, parsed JSON or multipart parts) and answers with scripted replies.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import busboy from 'busboy';

/** The API prefix the client adds. */
export const PREFIX = '/public/client-side/v1';

/** One part of a multipart body. */
export interface RecordedPart { name: string; value?: string; filename?: string; contentType?: string; size: number; data?: Buffer }

/** One request as the server saw it. */
export interface RecordedRequest {
  method: string;
  /** The raw (still encoded) path with query. */
  url: string;
  /** The raw path with the API prefix removed (`/fields/abc`). */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body parsed as JSON, when it is JSON. */
  json?: unknown;
  /** Multipart parts, when the body is multipart/form-data. */
  parts?: RecordedPart[];
}

/** A scripted answer. */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string or Buffer as is. */
  body?: unknown;
  delayMs?: number;
  /** Never answer (the client must time out). */
  hang?: boolean;
  /** Close the connection without answering. */
  destroy?: boolean;
}

/** A handler decides the reply from the request. */
export type Handler = (req: RecordedRequest) => Reply | Promise<Reply>;

/** A started recording server. */
export interface RecordingServer {
  /** Base URL to pass as --base-url (no prefix). */
  url: string;
  requests: RecordedRequest[];
  /**
   * Scripts replies for `METHOD /path` (path after the prefix, encoded as on the wire). With several
   * replies, each call takes the next; the last one repeats. A reply may be a handler of the request
   * (an answer that echoes the body).
   */
  on(route: string, ...replies: (Reply | Handler)[]): RecordingServer;
  /** Replaces the fallback handler (default: 404 JSON error). */
  fallback(handler: Handler): RecordingServer;
  /** Forgets recorded requests and routes. */
  reset(): void;
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 and a free port. */
export async function startRecordingServer(): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const routes = new Map<string, (Reply | Handler)[]>();
  let fallback: Handler = (req) => ({ status: 404, body: { error: { code: 'NOT_FOUND', message: `no route for ${req.method} ${req.path}` } } });
  const sockets = new Set<Socket>();

  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = req.url ?? '/';
    const rawPath = url.split('?')[0];
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET', url, path: rawPath.startsWith(PREFIX) ? rawPath.slice(PREFIX.length) : rawPath, headers: req.headers, body,
    };
    const type = req.headers['content-type'] ?? '';
    if (type.startsWith('application/json') && body.length) {
      try { recorded.json = JSON.parse(body.toString('utf8')); } catch { /* left unparsed */ }
    }
    if (type.startsWith('multipart/form-data')) recorded.parts = await parseMultipart(req.headers, body);
    requests.push(recorded);
    const queue = routes.get(`${recorded.method} ${recorded.path}`);
    const scripted = queue ? (queue.length > 1 ? queue.shift()! : queue[0]) : fallback;
    await answer(res, typeof scripted === 'function' ? await scripted(recorded) : scripted);
  });
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const api: RecordingServer = {
    url: `http://127.0.0.1:${port}`,
    requests,
    on(route, ...replies) { routes.set(route, replies); return api; },
    fallback(handler) { fallback = handler; return api; },
    reset() { requests.length = 0; routes.clear(); },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return api;
}

async function answer(res: ServerResponse, reply: Reply): Promise<void> {
  if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
  if (reply.hang) return;
  if (reply.destroy) { res.socket?.destroy(); return; }
  const isRaw = typeof reply.body === 'string' || Buffer.isBuffer(reply.body);
  const payload = reply.body === undefined ? '' : isRaw ? (reply.body as string | Buffer) : JSON.stringify(reply.body);
  const headers: Record<string, string> = { ...(reply.body !== undefined && !isRaw ? { 'content-type': 'application/json' } : {}), ...reply.headers };
  res.writeHead(reply.status ?? 200, headers);
  res.end(payload);
}

/** Parses a multipart body with busboy (as a service would). */
function parseMultipart(headers: IncomingHttpHeaders, body: Buffer): Promise<RecordedPart[]> {
  return new Promise((resolve, reject) => {
    const parts: RecordedPart[] = [];
    const bb = busboy({ headers, defParamCharset: 'utf8', limits: { fieldSize: 100 * 1024 * 1024 } });
    bb.on('field', (name, value) => parts.push({ name, value, size: Buffer.byteLength(value) }));
    bb.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const data = Buffer.concat(chunks);
        parts.push({ name, filename: info.filename, contentType: info.mimeType, size: data.length, data });
      });
    });
    bb.on('close', () => resolve(parts));
    bb.on('error', reject);
    bb.end(body);
  });
}

/** Helper: a JSON reply. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Reply {
  return { status, body, headers };
}

/** Makes `server` a recording proxy: every request is forwarded to `target` (a service root) and its answer returned. */
export function forwardTo(server: RecordingServer, target: string): RecordingServer {
  return server.fallback(async (req) => {
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'x-api-key']) {
      const v = req.headers[name];
      if (typeof v === 'string') headers[name] = v;
    }
    const r = await fetch(target + req.url, { method: req.method, headers, body: req.body.length ? new Uint8Array(req.body) : undefined });
    return { status: r.status, headers: { 'content-type': r.headers.get('content-type') ?? 'application/json' }, body: Buffer.from(await r.arrayBuffer()) };
  });
}
