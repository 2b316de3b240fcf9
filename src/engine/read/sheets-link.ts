/**
 * Google Sheets links as people paste them, and the export base they are read from. Kept apart
 * from the download (google-sheet.ts) so that checking a link, as `import validate` does, loads
 * no HTTP client.
 */
import { UsageError } from '../../errors.js';

/** Where spreadsheets are exported from unless IMPORT_SHEETS_BASE_URL says otherwise. */
export const DEFAULT_SHEETS_BASE_URL = 'https://docs.google.com';
/** The link forms we read, for error messages. */
const LINK_FORMS = 'https://docs.google.com/spreadsheets/d/<id>/edit (also /edit#gid=N or /view, with or without ?usp=sharing)';

/** A parsed Google Sheets link. */
export interface SheetsLink {
  /** The spreadsheet id (`/spreadsheets/d/<id>`). */
  id: string;
  /** The link in its short form, for messages: `https://docs.google.com/spreadsheets/d/<id>`. */
  display: string;
}

/** The export base URL: IMPORT_SHEETS_BASE_URL (for tests and mirrors) or Google's own; exit 2 when it is not an http(s) URL. */
export function sheetsBaseUrl(env: NodeJS.ProcessEnv): string {
  const given = env.IMPORT_SHEETS_BASE_URL;
  if (given === undefined || given === '') return DEFAULT_SHEETS_BASE_URL;
  let url: URL;
  try { url = new URL(given); } catch { url = new URL('invalid:'); }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) {
    throw new UsageError(`IMPORT_SHEETS_BASE_URL "${given}" is not an http(s) URL without credentials; set it to e.g. https://docs.google.com or unset it.`);
  }
  return url.href.replace(/\/+$/, '');
}

/**
 * The spreadsheet id of a link as people paste it: `/spreadsheets/d/<id>` alone or followed by
 * `/edit` or `/view`; any query (`?usp=sharing`, `?gid=0`) and fragment (`#gid=N`) only choose a
 * view and are ignored. The host is docs.google.com, or the export base's own host. Anything else
 * is a UsageError naming the form expected.
 */
export function parseSheetsLink(link: string, baseUrl = DEFAULT_SHEETS_BASE_URL): SheetsLink {
  const shown = link.length > 120 ? `${link.slice(0, 117)}...` : link;
  const wrong = (why: string) => new UsageError(`"${shown}" is not a Google Sheets link (${why}); copy it with Share > Copy link, in the form ${LINK_FORMS}.`);
  let url: URL;
  try { url = new URL(link.trim()); } catch { throw wrong('not a URL'); }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw wrong(`${url.protocol} is not http(s)`);
  const base = new URL(baseUrl);
  if (url.hostname !== 'docs.google.com' && url.host !== base.host) throw wrong(`the host is ${url.host || 'missing'}, not docs.google.com`);
  if (/^\/spreadsheets\/d\/e\//.test(url.pathname)) {
    throw wrong('a "Publish to the web" link cannot be exported as a workbook; share the sheet and use its sharing link');
  }
  // Google adds /u/<n> when several accounts are signed in.
  const m = /^\/spreadsheets(?:\/u\/\d+)?\/d\/([A-Za-z0-9_-]+)(?:\/(?:edit|view))?\/?$/.exec(url.pathname);
  if (!m) throw wrong(/^\/spreadsheets\//.test(url.pathname) ? `the path ${url.pathname} is not a spreadsheet's` : 'not a spreadsheet');
  return { id: m[1], display: `https://docs.google.com/spreadsheets/d/${m[1]}` };
}
