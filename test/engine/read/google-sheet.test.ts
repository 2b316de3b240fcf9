import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  downloadSheetsWorkbook, googleSheetSource, parseSheetsLink, sheetsBaseUrl, SheetsTooLargeError, type SheetsFetchOptions,
} from '../../../src/engine/read/google-sheet.js';
import { openInput } from '../../../src/engine/read/index.js';
import type { Table } from '../../../src/engine/types.js';
import { ApiError, NetworkError, UsageError } from '../../../src/errors.js';
import { PRIVATE_ID, PUBLIC_ID, sheetLink, startFakeGoogle, WORKBOOK, type FakeGoogle } from '../../support/google-sheets.js';

const ID = '1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms';

describe('parseSheetsLink', () => {
  it.each([
    ['/edit', `https://docs.google.com/spreadsheets/d/${ID}/edit`],
    ['/edit#gid=N', `https://docs.google.com/spreadsheets/d/${ID}/edit#gid=1832659230`],
    ['/edit?usp=sharing', `https://docs.google.com/spreadsheets/d/${ID}/edit?usp=sharing`],
    ['/edit?usp=sharing#gid=N', `https://docs.google.com/spreadsheets/d/${ID}/edit?usp=sharing#gid=0`],
    ['/edit?gid=N#gid=N', `https://docs.google.com/spreadsheets/d/${ID}/edit?gid=0#gid=0`],
    ['/view', `https://docs.google.com/spreadsheets/d/${ID}/view`],
    ['/view?usp=sharing', `https://docs.google.com/spreadsheets/d/${ID}/view?usp=sharing`],
    ['the bare link', `https://docs.google.com/spreadsheets/d/${ID}`],
    ['a trailing slash', `https://docs.google.com/spreadsheets/d/${ID}/`],
    ['a second signed-in account (/u/1)', `https://docs.google.com/spreadsheets/u/1/d/${ID}/edit`],
    ['spaces around it', `  https://docs.google.com/spreadsheets/d/${ID}/edit \n`],
  ])('reads the id from %s', (_form, link) => {
    expect(parseSheetsLink(link)).toEqual({ id: ID, display: `https://docs.google.com/spreadsheets/d/${ID}` });
  });

  const expected = 'in the form https://docs.google.com/spreadsheets/d/<id>/edit (also /edit#gid=N or /view, with or without ?usp=sharing).';
  it.each([
    ['not a URL', 'docs.google.com/spreadsheets/d/x/edit', '"docs.google.com/spreadsheets/d/x/edit" is not a Google Sheets link (not a URL)'],
    ['another host', 'https://example.com/spreadsheets/d/x/edit', '"https://example.com/spreadsheets/d/x/edit" is not a Google Sheets link (the host is example.com, not docs.google.com)'],
    ['a document', 'https://docs.google.com/document/d/x/edit', '"https://docs.google.com/document/d/x/edit" is not a Google Sheets link (not a spreadsheet)'],
    ['a Drive file', 'https://drive.google.com/file/d/x/view', '"https://drive.google.com/file/d/x/view" is not a Google Sheets link (the host is drive.google.com, not docs.google.com)'],
    ['an export link', 'https://docs.google.com/spreadsheets/d/x/export?format=csv', '"https://docs.google.com/spreadsheets/d/x/export?format=csv" is not a Google Sheets link (the path /spreadsheets/d/x/export is not a spreadsheet\'s)'],
    ['a published link', 'https://docs.google.com/spreadsheets/d/e/2PACX-1vQ/pubhtml', 'is not a Google Sheets link (a "Publish to the web" link cannot be exported as a workbook; share the sheet and use its sharing link)'],
    ['an ftp link', 'ftp://docs.google.com/spreadsheets/d/x/edit', '(ftp: is not http(s))'],
  ])('refuses %s, naming the form expected', (_what, link, message) => {
    let error: unknown;
    try { parseSheetsLink(link); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(2);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).toContain(`copy it with Share > Copy link, ${expected}`);
  });

  it('also accepts links on the export base\'s own host (a mirror)', () => {
    expect(parseSheetsLink('http://127.0.0.1:9/spreadsheets/d/abc/edit', 'http://127.0.0.1:9').id).toBe('abc');
  });
});

describe('sheetsBaseUrl', () => {
  it('is Google unless IMPORT_SHEETS_BASE_URL says otherwise', () => {
    expect(sheetsBaseUrl({})).toBe('https://docs.google.com');
    expect(sheetsBaseUrl({ IMPORT_SHEETS_BASE_URL: 'http://127.0.0.1:8080/' })).toBe('http://127.0.0.1:8080');
    expect(() => sheetsBaseUrl({ IMPORT_SHEETS_BASE_URL: 'ftp://x' })).toThrow(/IMPORT_SHEETS_BASE_URL "ftp:\/\/x" is not an http\(s\) URL/);
  });
});

describe('downloadSheetsWorkbook', () => {
  let google: FakeGoogle;
  let temp: string;
  let savedTmp: string | undefined;
  beforeAll(async () => { google = await startFakeGoogle(); });
  afterAll(async () => { await google.close(); });
  beforeEach(async () => {
    // Temp workbooks go to the TMPDIR of the moment: a folder of this test's own, checked empty after each test.
    savedTmp = process.env.TMPDIR;
    temp = await mkdtemp(join(tmpdir(), 'import-sheets-test-'));
    process.env.TMPDIR = temp;
    google.requests.length = 0;
  });
  afterEach(async () => {
    process.env.TMPDIR = savedTmp;
    if (savedTmp === undefined) delete process.env.TMPDIR;
    await rm(temp, { recursive: true, force: true });
  });

  const options = (over: Partial<SheetsFetchOptions> = {}): SheetsFetchOptions => ({ baseUrl: google.url, timeoutMs: 5_000, maxBytes: 1 << 20, ...over });
  const failure = async (link: string, over: Partial<SheetsFetchOptions> = {}): Promise<Error> => {
    const error = await downloadSheetsWorkbook(link, options(over)).then(() => undefined, (e: Error) => e);
    if (!error) throw new Error('expected the download to fail');
    expect(await readdir(temp)).toEqual([]);
    return error;
  };

  it('follows the export\'s redirect and saves the workbook byte for byte, sending no key or credential', async () => {
    const book = await downloadSheetsWorkbook(sheetLink(PUBLIC_ID), options());
    expect(book.path.startsWith(temp)).toBe(true);
    expect(await readFile(book.path)).toEqual(await readFile(WORKBOOK));
    expect(book.size).toBe((await readFile(WORKBOOK)).length);
    expect(google.requests.map((r) => r.url)).toEqual([`/spreadsheets/d/${PUBLIC_ID}/export?format=xlsx`, `/download/${PUBLIC_ID}.xlsx`]);
    for (const r of google.requests) {
      expect(Object.keys(r.headers).filter((h) => /api-key|authorization|cookie/i.test(h))).toEqual([]);
    }
    await book.remove();
    expect(existsSync(book.path)).toBe(false);
  });

  it('reads the named sheet as the XLSX reader does, keyed by the sheet name, with no sheet to select', async () => {
    const book = await downloadSheetsWorkbook(sheetLink(PUBLIC_ID), options());
    const source = googleSheetSource(book, 'Orders');
    expect(source.name).toBe('Orders');
    expect(await source.sheets()).toBeNull();
    const file = await openInput({ file: WORKBOOK });
    expect(await rows(await source.open())).toEqual(await rows(await file.open({ sheet: 'Orders' })));
    await expect(googleSheetSource(book, 'Sheet1').open()).rejects.toThrow(
      `The Google Sheet https://docs.google.com/spreadsheets/d/${PUBLIC_ID} has no sheet named "Sheet1"; choose one of: "Notes", "Orders".`,
    );
    await book.remove();
  });

  const notShared = (how: string, id = PRIVATE_ID) =>
    `The Google Sheet https://docs.google.com/spreadsheets/d/${id} is not shared publicly (${how}); share it as 'anyone with the link can view', or download it and use input.file.`;

  it.each([
    ['a sign-in page', PRIVATE_ID, notShared('Google answered with a sign-in page')],
    ['a redirect to sign in', 'signin-redirect', notShared('Google asked to sign in', 'signin-redirect')],
    ['403', 'forbidden', notShared('Google answered 403', 'forbidden')],
    ['a web page instead of the file', 'page', notShared('Google answered with a web page, not the workbook', 'page')],
    ['404', 'no-such-sheet', 'The Google Sheet https://docs.google.com/spreadsheets/d/no-such-sheet was not found (404); check the link (Share > Copy link), or download it and use input.file.'],
  ])('says what to do for %s (exit 2)', async (_what, id, message) => {
    const error = await failure(sheetLink(id));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe(message);
  });

  it('ends the sentences with the caller\'s own fallback', async () => {
    expect((await failure(sheetLink(PRIVATE_ID), { fallback: 'upload it as "files"' })).message).toMatch(/, or download it and upload it as "files"\.$/);
  });

  it('is exit 1 when Google fails (500)', async () => {
    const error = await failure(sheetLink('broken'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('Google answered 500 to the export of https://docs.google.com/spreadsheets/d/broken; try again later, or download it and use input.file.');
  });

  it('gives up on a server that does not answer within the timeout (exit 1)', async () => {
    const error = await failure(sheetLink('hang'), { timeoutMs: 300 });
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toBe(`${new URL(google.url).host} did not answer within 300 ms while reading the Google Sheet https://docs.google.com/spreadsheets/d/hang; retry with a longer --timeout, or download it and use input.file.`);
  });

  it('says when the network is not there (exit 1)', async () => {
    const closed = await startFakeGoogle();
    await closed.close();
    const error = await failure(sheetLink(PUBLIC_ID), { baseUrl: closed.url });
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toBe(`Cannot reach ${new URL(closed.url).host} to read the Google Sheet https://docs.google.com/spreadsheets/d/${PUBLIC_ID} (ECONNREFUSED); check the network connection, or download it and use input.file.`);
  });

  it('refuses a workbook over the size limit and leaves no partial file', async () => {
    const error = await failure(sheetLink(PUBLIC_ID), { maxBytes: 1000 });
    expect(error).toBeInstanceOf(SheetsTooLargeError);
    expect((error as UsageError).exitCode).toBe(2);
    expect(error.message).toBe(`The Google Sheet https://docs.google.com/spreadsheets/d/${PUBLIC_ID} is over the 1000 bytes limit for one input; download it and use input.file.`);
  });

  it('does not follow a redirect to another host', async () => {
    const error = await failure(sheetLink('elsewhere'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toMatch(/^Google redirected the export of https:\/\/docs.google.com\/spreadsheets\/d\/elsewhere to localhost:\d+, which is not followed;/);
    expect(google.requests.map((r) => r.url)).toEqual(['/spreadsheets/d/elsewhere/export?format=xlsx']);
  });

  it('refuses a malformed link before any request', async () => {
    await expect(failure('https://docs.google.com/document/d/x/edit')).resolves.toBeInstanceOf(UsageError);
    expect(google.requests).toEqual([]);
  });
});

async function rows(table: Table): Promise<unknown[]> {
  const out: unknown[] = [table.columns];
  for await (const batch of table.batches) out.push(...batch.rows);
  return out;
}
