/**
 * Google Sheets links (the seed's `gsUrl` + `gsSheetName`, a job file's `input.googleSheet`): read
 * the way Google exports a spreadsheet shared as "anyone with the link": the whole workbook as XLSX
 * (which keeps every sheet's name and its number and date cells), streamed to a file under a size
 * limit, then read by the XLSX reader as the one named sheet.
 *
 * Only a plain GET goes to Google: no API key, no cookie, no credential of any kind. Google answers
 * the export with a redirect to its download host; redirects are followed a few times, never from
 * https to http, and only to Google's hosts (or, with IMPORT_SHEETS_BASE_URL, to that base's host).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, rmSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Agent, request, type Dispatcher } from 'undici';
import { ApiError, NetworkError, UsageError } from '../../errors.js';
import type { InputSource } from '../types.js';
import { parseSheetsLink, type SheetsLink } from './sheets-link.js';
import { xlsxSource } from './xlsx.js';

export { DEFAULT_SHEETS_BASE_URL, parseSheetsLink, sheetsBaseUrl, type SheetsLink } from './sheets-link.js';

/** Per-request timeout when the caller has none (the CLI's default --timeout). */
export const DEFAULT_SHEETS_TIMEOUT_MS = 30_000;
/** The largest export a dry run or `init` reads (the same as `import serve`'s default --max-upload). */
export const DEFAULT_SHEETS_MAX_BYTES = 2 * 1024 ** 3;
/** Redirects followed per export; Google uses one (to its download host). */
const MAX_REDIRECTS = 5;
/** How a user can do without the link, ending our error sentences unless the caller gives its own. */
const DEFAULT_FALLBACK = 'use input.file';




/** The export URL of a spreadsheet: its whole workbook as XLSX. */
export function exportUrl(baseUrl: string, id: string): URL {
  return new URL(`${baseUrl.replace(/\/+$/, '')}/spreadsheets/d/${encodeURIComponent(id)}/export?format=xlsx`);
}

/** How to fetch a spreadsheet's workbook. */
export interface SheetsFetchOptions {
  /** Export base (`sheetsBaseUrl`). */
  baseUrl: string;
  /** Per-request timeout: for connecting, for the answer's headers, and between chunks of its body. */
  timeoutMs: number;
  /** Largest workbook accepted, in bytes (SheetsTooLargeError beyond). */
  maxBytes: number;
  /** Where to write the workbook; a temp file, removed on exit and on Ctrl-C, when not given. */
  path?: string;
  /** Stops the download (the file is removed). */
  signal?: AbortSignal;
  /** Ends error sentences: what the user can do instead ("use input.file" unless given). */
  fallback?: string;
  /** The transport (tests); a new undici Agent with the timeouts otherwise. */
  dispatcher?: Dispatcher;
  /** `--verbose`: one line per request and per answer, as the API client logs its own. */
  log?: (line: string) => void;
}

/** A spreadsheet's workbook on disk. */
export interface SheetsWorkbook {
  id: string;
  /** The link's short form, for messages. */
  display: string;
  path: string;
  size: number;
  /** Removes the file (and forgets it for the exit handler). */
  remove(): Promise<void>;
}

/** The export is over the size limit: exit 2, and 413 in `import serve`. */
export class SheetsTooLargeError extends UsageError {}

/**
 * Downloads the workbook of a Google Sheets link as XLSX. Errors are one sentence each: a link
 * of another form, a spreadsheet not shared by link, or one Google does not know are UsageErrors
 * (exit 2); no network, a timeout, or an answer Google should not give are NetworkError or
 * ApiError (exit 1). On any error the partial file is removed.
 */
export async function downloadSheetsWorkbook(link: string, opts: SheetsFetchOptions): Promise<SheetsWorkbook> {
  const parsed = parseSheetsLink(link, opts.baseUrl);
  const fallback = opts.fallback ?? DEFAULT_FALLBACK;
  const base = new URL(opts.baseUrl);
  const path = opts.path ?? join(tmpdir(), `import-sheet-${randomBytes(6).toString('hex')}.xlsx`);
  if (opts.path === undefined) track(path);
  const agent = opts.dispatcher ?? new Agent({ connect: { timeout: opts.timeoutMs }, headersTimeout: opts.timeoutMs, bodyTimeout: opts.timeoutMs });
  const remove = async () => {
    await rm(path, { force: true });
    forget(path);
  };
  try {
    const size = await fetchInto(path, parsed, base, agent, opts, fallback);
    return { id: parsed.id, display: parsed.display, path, size, remove };
  } catch (error) {
    await rm(path, { force: true }).catch(() => {});
    forget(path);
    throw error;
  } finally {
    if (!opts.dispatcher) await agent.close().catch(() => {});
  }
}

/** Follows the export to the workbook and streams it into `path`; returns its size. */
async function fetchInto(path: string, link: SheetsLink, base: URL, agent: Dispatcher, opts: SheetsFetchOptions, fallback: string): Promise<number> {
  const notShared = (how: string) => new UsageError(
    `The Google Sheet ${link.display} is not shared publicly (${how}); share it as 'anyone with the link can view', or download it and ${fallback}.`,
  );
  let url = exportUrl(opts.baseUrl, link.id);
  for (let hop = 0; ; hop++) {
    let answer: Dispatcher.ResponseData;
    const started = Date.now();
    opts.log?.(`> GET ${url}`);
    try {
      // Our own headers only: nothing of the API client (its key) is ever sent here.
      answer = await request(url, {
        method: 'GET', dispatcher: agent, signal: opts.signal,
        headers: { accept: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, */*', 'user-agent': `import-jobs (node ${process.version})` },
      });
    } catch (error) {
      throw networkError(error, url, link, opts, fallback);
    }
    const { statusCode: status, headers, body } = answer;
    opts.log?.(`< ${status} ${String(headers['content-type'] ?? '')} (${Date.now() - started} ms)`);
    if (status >= 300 && status < 400) {
      await body.dump();
      if (hop === MAX_REDIRECTS) throw new ApiError(`Google redirected the export of ${link.display} more than ${MAX_REDIRECTS} times; try again later, or download it and ${fallback}.`, status);
      const next = redirectTarget(url, headers.location, base, link, fallback);
      if (next === 'sign-in') throw notShared('Google asked to sign in');
      url = next;
      continue;
    }
    if (status === 401 || status === 403) {
      await body.dump();
      throw notShared(`Google answered ${status}`);
    }
    if (status === 404) {
      await body.dump();
      throw new UsageError(`The Google Sheet ${link.display} was not found (404); check the link (Share > Copy link), or download it and ${fallback}.`);
    }
    if (status !== 200) {
      await body.dump();
      throw new ApiError(`Google answered ${status} to the export of ${link.display}; try again later, or download it and ${fallback}.`, status);
    }
    if (/^text\/html\b/i.test(String(headers['content-type'] ?? ''))) {
      // The sign-in page: what Google shows for a sheet only its people may open.
      await body.dump();
      throw notShared('Google answered with a sign-in page');
    }
    const tooLarge = () => new SheetsTooLargeError(
      `The Google Sheet ${link.display} is over the ${sizeText(opts.maxBytes)} limit for one input; download it and ${fallback}.`,
    );
    const declared = Number(headers['content-length']);
    if (Number.isFinite(declared) && declared > opts.maxBytes) {
      await body.dump();
      throw tooLarge();
    }
    let size = 0;
    try {
      await pipeline(body, async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          size += chunk.length;
          if (size > opts.maxBytes) throw tooLarge();
          yield chunk;
        }
      }, createWriteStream(path));
    } catch (error) {
      if (error instanceof SheetsTooLargeError) throw error;
      throw networkError(error, url, link, opts, fallback);
    }
    await checkWorkbook(path, link, notShared, fallback);
    return size;
  }
}

/** Where a redirect leads: the next URL, or 'sign-in' for Google's sign-in page; throws for a target we do not follow. */
function redirectTarget(from: URL, location: string | string[] | undefined, base: URL, link: SheetsLink, fallback: string): URL | 'sign-in' {
  const refuse = (why: string) => new ApiError(`Google redirected the export of ${link.display} ${why}, which is not followed; try again later, or download it and ${fallback}.`);
  if (typeof location !== 'string' || location === '') throw refuse('without a Location');
  let to: URL;
  try { to = new URL(location, from); } catch { throw refuse(`to "${location}"`); }
  if (to.hostname === 'accounts.google.com' || /\/(ServiceLogin|signin)\b/i.test(to.pathname)) return 'sign-in';
  // Never from https down to http (a tampered answer could take the download off TLS).
  if (!(to.protocol === 'https:' || (to.protocol === 'http:' && from.protocol === 'http:'))) throw refuse(`to ${to.protocol}//${to.host}`);
  if (!isExportHost(to.hostname, base)) throw refuse(`to ${to.host}`);
  return to;
}

/** Hosts an export may be redirected to: Google's (its download host is under googleusercontent.com), or a custom base's own. */
function isExportHost(host: string, base: URL): boolean {
  if (base.hostname !== 'docs.google.com') return host === base.hostname;
  return host === 'docs.google.com' || host.endsWith('.googleusercontent.com');
}

/** Checks the file is a ZIP (XLSX) and not a page Google showed instead. */
async function checkWorkbook(path: string, link: SheetsLink, notShared: (how: string) => Error, fallback: string): Promise<void> {
  const handle = await open(path, 'r');
  const head = Buffer.alloc(64);
  let read: number;
  try { ({ bytesRead: read } = await handle.read(head, 0, head.length, 0)); } finally { await handle.close(); }
  const start = head.subarray(0, read);
  if (read >= 4 && start[0] === 0x50 && start[1] === 0x4b && start[2] === 0x03 && start[3] === 0x04) return;
  if (/^\s*</.test(start.toString('utf8').replace(/^\uFEFF/, ''))) throw notShared('Google answered with a web page, not the workbook');
  throw new ApiError(`Google's answer for ${link.display} is not an XLSX workbook${read === 0 ? ' (it is empty)' : ''}; try again later, or download it and ${fallback}.`);
}

/** A failed connection or stream as one sentence: NetworkError (exit 1). */
function networkError(error: unknown, url: URL, link: SheetsLink, opts: SheetsFetchOptions, fallback: string): Error {
  if (error instanceof UsageError || error instanceof ApiError || error instanceof NetworkError) return error;
  const e = error as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code;
  if (e.name === 'AbortError' || code === 'ABORT_ERR') return new NetworkError(`Reading the Google Sheet ${link.display} was stopped.`, { cause: error });
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new NetworkError(
      `${url.host} did not answer within ${opts.timeoutMs} ms while reading the Google Sheet ${link.display}; retry with a longer --timeout, or download it and ${fallback}.`,
      { cause: error },
    );
  }
  return new NetworkError(
    `Cannot reach ${url.host} to read the Google Sheet ${link.display} (${code ?? e.message ?? String(error)}); check the network connection, or download it and ${fallback}.`,
    { cause: error },
  );
}

/** A byte count for messages: `2 GiB`, `500 MiB`, `1024 bytes`. */
function sizeText(bytes: number): string {
  for (const [unit, size] of [['GiB', 1024 ** 3], ['MiB', 1024 ** 2], ['KiB', 1024]] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes} bytes`;
}

/** The parts of a downloaded workbook its readers need. */
export type WorkbookFile = Pick<SheetsWorkbook, 'path' | 'size' | 'display'>;

/** A downloaded workbook as an XLSX input named `name`, every sheet listed (for `init`, which suggests the sheet). */
export function googleWorkbookSource(book: WorkbookFile, name: string): InputSource {
  return xlsxSource(book.path, `The Google Sheet ${book.display}`, name, book.size);
}

/** The named sheet of a downloaded workbook as an input: keyed by the sheet name (engine.md), with no sheet left to select. */
export function googleSheetSource(book: WorkbookFile, sheet: string): InputSource {
  const workbook = googleWorkbookSource(book, sheet);
  return {
    name: sheet,
    kind: 'xlsx',
    size: book.size,
    // The link names its sheet (gsSheetName), so there is no sheet selection, as for a file that is not a workbook.
    sheets: async () => null,
    open: (opts = {}) => workbook.open({ ...opts, sheet }),
  };
}

// ---- temp files: removed on exit, also after Ctrl-C ----

/** Workbooks downloaded to temp files and not removed yet. */
const temps = new Set<string>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Registers a temp file for removal on exit and on a signal, until `forget`. */
function track(path: string): void {
  if (temps.size === 0) {
    process.on('exit', removeTemps);
    for (const signal of SIGNALS) process.on(signal, onSignal);
  }
  temps.add(path);
}

/** Forgets a temp file (removed by its owner); the handlers go with the last one. */
function forget(path: string): void {
  if (!temps.delete(path) || temps.size > 0) return;
  process.off('exit', removeTemps);
  for (const signal of SIGNALS) process.off(signal, onSignal);
}

function removeTemps(): void {
  for (const path of temps) {
    try { rmSync(path, { force: true }); } catch { /* best effort while exiting */ }
  }
}

function onSignal(signal: NodeJS.Signals): void {
  // Another handler (main's Ctrl-C) decides what happens: it exits, and the exit handler removes the files.
  if (process.listenerCount(signal) > 1) return;
  removeTemps();
  for (const path of [...temps]) forget(path);
  process.kill(process.pid, signal);
}
