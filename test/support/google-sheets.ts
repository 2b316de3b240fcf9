/**
 * A stand-in for Google's export of spreadsheets shared by link, on 127.0.0.1, for
 * IMPORT_SHEETS_BASE_URL. `/spreadsheets/d/<id>/export?format=xlsx` answers as Google does:
 * a public id 307-redirects to a download path that serves the workbook, a private id gets an
 * HTML sign-in page, `signin-redirect` a redirect to a sign-in path, `forbidden` 403, `hang`
 * never answers, `slow` sends half the workbook and then nothing, `broken` a 500, `page` a web page served as if it were the file, and any other
 * id 404. Every request is recorded with its headers.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';

/** The spreadsheet id served publicly, and the workbook it serves (examples/workbook/orders.xlsx: sheets Notes, Orders). */
export const PUBLIC_ID = '1PubLicSheet_id-0123456789';
/** A workbook shared only with its owner's people. */
export const PRIVATE_ID = '1PrivateSheet_id-0123456789';
/** The committed workbook served for PUBLIC_ID. */
export const WORKBOOK = join(import.meta.dirname, '..', '..', 'examples', 'workbook', 'orders.xlsx');

/** A running fake Google. */
export interface FakeGoogle {
  /** What IMPORT_SHEETS_BASE_URL takes. */
  url: string;
  requests: { url: string; headers: IncomingHttpHeaders }[];
  /** Serves another workbook for an id (public). */
  serve(id: string, workbook: Buffer): void;
  close(): Promise<void>;
}

const SIGN_IN_PAGE = '<!DOCTYPE html><html lang="en"><head><title>Google Sheets: Sign-in</title></head><body><form action="https://accounts.google.com/ServiceLogin">Sign in to continue to Sheets</form></body></html>';

/** Starts the fake on a free port of 127.0.0.1. */
export async function startFakeGoogle(): Promise<FakeGoogle> {
  const books = new Map<string, Buffer>([[PUBLIC_ID, readFileSync(WORKBOOK)]]);
  const requests: FakeGoogle['requests'] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    requests.push({ url: req.url ?? '', headers: req.headers });
    const url = new URL(req.url ?? '/', 'http://fake');
    const download = /^\/download\/([^/]+)\.xlsx$/.exec(url.pathname);
    if (download && books.has(download[1])) {
      const book = books.get(download[1])!;
      res.writeHead(200, { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'content-length': book.length });
      res.end(book);
      return;
    }
    const m = /^\/spreadsheets\/d\/([^/]+)\/export$/.exec(url.pathname);
    if (!m || url.searchParams.get('format') !== 'xlsx') {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<html>Not Found</html>');
      return;
    }
    const id = m[1];
    if (books.has(id)) {
      // Google answers the export with a redirect to its download host.
      res.writeHead(307, { location: `/download/${id}.xlsx` }).end();
    } else if (id === PRIVATE_ID) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(SIGN_IN_PAGE);
    } else if (id === 'signin-redirect') {
      res.writeHead(302, { location: '/ServiceLogin?continue=export' }).end();
    } else if (id === 'forbidden') {
      res.writeHead(403, { 'content-type': 'text/html' }).end('<html>Forbidden</html>');
    } else if (id === 'page') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(SIGN_IN_PAGE);
    } else if (id === 'broken') {
      res.writeHead(500, { 'content-type': 'text/html' }).end('<html>Server Error</html>');
    } else if (id === 'elsewhere') {
      res.writeHead(307, { location: `http://localhost:${(server.address() as AddressInfo).port}/download/${PUBLIC_ID}.xlsx` }).end();
    } else if (id === 'slow') {
      // Half the workbook, then nothing more: a download in progress.
      const book = books.get(PUBLIC_ID)!;
      res.writeHead(200, { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'content-length': book.length });
      res.write(book.subarray(0, book.length >> 1));
    } else if (id === 'hang') {
      // Never answers: the reader must give up within its timeout.
    } else {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<html>Not Found</html>');
    }
  });
  server.on('connection', (socket) => { sockets.add(socket); socket.on('close', () => sockets.delete(socket)); });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    serve: (id, workbook) => { books.set(id, workbook); },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

/** A link to a spreadsheet as people paste it. */
export function sheetLink(id: string, suffix = '/edit?usp=sharing'): string {
  return `https://docs.google.com/spreadsheets/d/${id}${suffix}`;
}
