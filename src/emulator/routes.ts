/**
 * The seed's 21 operations as routes: method + path under `/public/client-side/v1` -> job service
 * call. Also the variants the seed mentions: row-dropping and text-processing updates sent to
 * the pivot path (told apart by the body's member).
 */
import type { IncomingMessage } from 'node:http';
import { API_PREFIX } from '../contract/index.js';
import { HttpError, invalidBody, tooLarge } from './http-error.js';
import type { JobService, ResourceName, UpdatableResource } from './jobs.js';
import { isCutOff } from './multipart.js';
import { parseJson } from './validate-bodies.js';

/** A handler's answer. */
export interface Answer { status: number; body: unknown }

/** What a handler gets. */
export interface RouteContext {
  req: IncomingMessage;
  jobs: JobService;
  /** The `{jobId}` path segment, decoded. */
  jobId: string;
  /** The body parsed as JSON (`undefined` when empty); 400 when not JSON, 413 when too large. */
  json(): Promise<unknown>;
}

/** One route. */
export interface Route {
  method: 'GET' | 'POST';
  /** Path after the prefix, `{jobId}` standing for the id segment. */
  path: string;
  handle(ctx: RouteContext): Promise<Answer>;
}

/** Largest JSON body accepted (update and run bodies are small). */
export const MAX_JSON_BYTES = 16 * 1024 * 1024;

const ok = (body: unknown): Answer => ({ status: 200, body });

function get(path: string, resource: ResourceName): Route {
  return { method: 'GET', path, handle: async (c) => ok(await c.jobs.read(c.jobId, resource)) };
}

function post(path: string, resource: UpdatableResource): Route {
  return { method: 'POST', path, handle: async (c) => ok(await c.jobs.update(c.jobId, resource, await c.json())) };
}

/** The body's one top-level member, to tell apart updates that share a path. */
function memberOf(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const keys = Object.keys(body);
  return keys.length === 1 ? keys[0] : undefined;
}

/** Every route of the seed. */
export const ROUTES: Route[] = [
  {
    method: 'POST', path: '/start',
    handle: async (c) => ok(await c.jobs.start(c.req)),
  },
  {
    method: 'POST', path: '/run/{jobId}',
    handle: async (c) => {
      const answer = await c.jobs.run(c.jobId, await c.json());
      return { status: answer.status, body: answer.body };
    },
  },
  get('/selected-sheet/{jobId}', 'sheet'),
  get('/fields/{jobId}', 'fields'),
  {
    // Seed note 6: the sheet selection update is sent to the fields path, its body holding only sheetSelection.
    method: 'POST', path: '/fields/{jobId}',
    handle: async (c) => {
      const body = await c.json();
      const isSheet = body !== null && typeof body === 'object' && Object.hasOwn(body, 'sheetSelection');
      if (isSheet && memberOf(body) !== 'sheetSelection') {
        throw invalidBody('A sheet selection update holds only sheetSelection; send the mapping in a second call.');
      }
      return ok(await c.jobs.update(c.jobId, isSheet ? 'sheet' : 'fields', body));
    },
  },
  get('/column-combining-methods/{jobId}', 'combining'),
  post('/column-combining-methods/{jobId}', 'combining'),
  get('/field-data-types/{jobId}', 'dataTypes'),
  post('/field-data-types/{jobId}', 'dataTypes'),
  get('/units/{jobId}', 'units'),
  post('/units/{jobId}', 'units'),
  get('/impute-methods/{jobId}', 'impute'),
  post('/impute-methods/{jobId}', 'impute'),
  get('/pivot/{jobId}', 'pivot'),
  {
    // Seed note 5: row-dropping and text-processing updates also exist on the pivot path.
    method: 'POST', path: '/pivot/{jobId}',
    handle: async (c) => {
      const body = await c.json();
      const member = memberOf(body);
      const resource: UpdatableResource = member === 'additionalRowDroppingMethods' ? 'rowDropping' : member === 'textProcessingMethods' ? 'text' : 'pivot';
      return ok(await c.jobs.update(c.jobId, resource, body));
    },
  },
  get('/row-dropping-methods/{jobId}', 'rowDropping'),
  post('/row-dropping-methods/{jobId}', 'rowDropping'),
  get('/text-processing-methods/{jobId}', 'text'),
  post('/text-processing-methods/{jobId}', 'text'),
  get('/scripts/{jobId}', 'scripts'),
];

interface Compiled { route: Route; pattern: RegExp }
const COMPILED: Compiled[] = ROUTES.map((route) => ({
  route,
  pattern: new RegExp(`^${API_PREFIX}${route.path.replace('{jobId}', '([^/]+)')}/?$`),
}));

/** The route for a method and path: `{route, jobId}`, or an HttpError (404 unknown path, 405 other method). */
export function matchRoute(method: string, pathname: string): { route: Route; jobId: string } {
  const matches = COMPILED.map((c) => ({ c, m: c.pattern.exec(pathname) })).filter((x) => x.m);
  if (matches.length === 0) {
    throw new HttpError(404, 'not_found', `No endpoint ${pathname}; the endpoints are under ${API_PREFIX} (see the seed).`);
  }
  const hit = matches.find((x) => x.c.route.method === method);
  if (!hit) {
    const allowed = [...new Set(matches.map((x) => x.c.route.method))].join(', ');
    throw new HttpError(405, 'method_not_allowed', `${method} is not allowed on ${pathname}; use ${allowed}.`, {}, { allow: allowed });
  }
  let jobId = '';
  if (hit.m && hit.m[1] !== undefined) {
    try { jobId = decodeURIComponent(hit.m[1]); } catch { throw new HttpError(404, 'not_found', 'The job id in the path is not valid percent-encoding (URL encoding).'); }
  }
  return { route: hit.c.route, jobId };
}

/** Reads a request body as UTF-8 text, up to `limit` bytes (413 beyond). */
export function readText(req: IncomingMessage, limit = MAX_JSON_BYTES): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge(`The body is ${declared} bytes; the limit is ${limit}.`));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let isDone = false;
    req.on('data', (chunk: Buffer) => {
      if (isDone) return;
      size += chunk.length;
      if (size > limit) {
        isDone = true;
        reject(tooLarge(`The body is over the limit of ${limit} bytes.`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (isDone) return;
      isDone = true;
      try {
        resolve(UTF8.decode(Buffer.concat(chunks)));
      } catch {
        // Decoded leniently, a name in the body would hold U+FFFD where the client meant a letter.
        reject(invalidBody('The body is not UTF-8 text (a Latin-1 or UTF-16 text?); send JSON as UTF-8.'));
      }
    });
    req.on('error', (e) => { if (!isDone) { isDone = true; reject(invalidBody(`The body could not be read (${e.message}).`)); } });
    // Gone before the whole body came (and maybe before this ran): no 'end' will come.
    const cutOff = () => { if (!isDone) { isDone = true; reject(invalidBody('The body could not be read: the connection closed before it ended.')); } };
    if (isCutOff(req)) cutOff();
    else req.on('close', () => { if (!req.complete) cutOff(); });
  });
}

/** Strict: bytes that are not UTF-8 are an error, never U+FFFD. A byte order mark is dropped. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Reads and parses a JSON body. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  return parseJson(await readText(req));
}
