/**
 * The `start` form: multipart/form-data read with @fastify/busboy, the `files` part and the
 * `jsonData` part streamed straight to disk (never held whole in memory, never one string), each
 * under its own size limit; the other text parts, small, collected by name.
 *
 * @fastify/busboy rather than busboy: it can treat a text part as a stream (`isPartAFile`), which
 * busboy cannot (it builds every text part as one string: a 600 MB jsonData crashed the service).
 */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Busboy } from '@fastify/busboy';
import { HttpError, invalidBody, invalidValue, tooLarge } from './http-error.js';

/** The start form as received. */
export interface StartUpload {
  /** Text parts: name -> values in the order sent. */
  fields: Map<string, string[]>;
  /** The `files` part, written to disk. */
  file?: { path: string; fileName: string; size: number };
  /** The `jsonData` part, written to disk as sent (`jsonData.json`). */
  jsonData?: { path: string; size: number };
}

/** Limits of the start form. */
export interface UploadLimits {
  /** Largest file part, in bytes. */
  maxUpload: number;
  /** Largest jsonData part, in bytes. */
  maxJsonData: number;
}

/** Largest other text part (pipelineId, jobName, scripts, webhookUrl...). */
export const MAX_TEXT_FIELD = 64 * 1024;

/** All text parts together: each may hold MAX_TEXT_FIELD, but a thousand of them would hold 64 MiB in memory per request. */
export const MAX_TEXT_FIELDS = 1024 * 1024;

/** Longest uploaded file name, in UTF-8 bytes: what a file system takes (NAME_MAX). */
export const MAX_FILE_NAME_BYTES = 255;

/** A safe base name for an uploaded file: no folders, no control characters; `upload` when nothing is left. */
export function safeFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return clean === '' || clean === '.' || clean === '..' ? 'upload' : clean;
}

/**
 * Node frees the buffers a request body arrives in only when V8 collects this thread's young
 * generation, and the request thread makes too little garbage of its own for that to happen
 * often: a 126 MB upload left about 30 MiB of dead buffers in the process, for as long as it ran.
 * A young-generation collection every RECEIVED_PER_GC bytes (about 0.5 ms on this thread's small
 * heap, 1% of the upload's time) keeps them to a few MiB. Without the `gc` function (an engine
 * that refuses the flag) uploads work the same, with the larger footprint.
 */
const RECEIVED_PER_GC = 8 << 20;
const collectYoung = ((): (() => void) => {
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as (options: { type: 'minor' }) => void;
    return () => gc({ type: 'minor' });
  } catch {
    return () => {};
  }
})();
let receivedSinceGc = 0;

/** Counts upload bytes received (over all uploads at once) and collects every RECEIVED_PER_GC. */
function received(bytes: number): void {
  receivedSinceGc += bytes;
  if (receivedSinceGc < RECEIVED_PER_GC) return;
  receivedSinceGc = 0;
  collectYoung();
}

/** Whether the request ended before its whole body arrived (the client went away, or the server cut it off). */
export function isCutOff(req: IncomingMessage): boolean {
  return !req.complete && (req.destroyed || req.readableAborted);
}

/**
 * How much of a part may wait in memory for the disk. A part arrives in the socket's 64 KiB reads;
 * while one write is under way the chunks behind it gather and go in the next write together
 * (one writev), so a larger buffer means fewer, larger writes. At Node's 16 KiB a 166 MB upload
 * cost the server ~0.4 s of CPU (about 2,500 writes); at 1 MiB ~0.2 s.
 */
const WRITE_BUFFER_BYTES = 1 << 20;

/**
 * Reads the start form of `req` into `dir`. Rejects with an HttpError: 415 when the body is not
 * multipart, 400 when it is malformed or has a second file or a file under another name, 413
 * when a part is over the limit. A partly written file is removed.
 */
export function readStartForm(req: IncomingMessage, dir: string, limits: UploadLimits): Promise<StartUpload> {
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*(;|$)/i.test(type)) {
    return Promise.reject(new HttpError(415, 'unsupported_media_type', `start takes a multipart/form-data body, got ${type ? JSON.stringify(type) : 'none'}; in curl use -F files=@data.csv.`));
  }
  const declared = Number(req.headers['content-length']);
  // The whole body may carry a little form overhead beyond the file itself.
  const largest = Math.max(limits.maxUpload, limits.maxJsonData);
  if (Number.isFinite(declared) && declared > largest + 1024 * 1024) {
    return Promise.reject(tooLarge(`The upload is ${declared} bytes, over this service's limit of ${largest} bytes (--max-upload, --max-json-data).`));
  }
  return new Promise<StartUpload>((resolve, reject) => {
    let parser: InstanceType<typeof Busboy>;
    try {
      parser = new Busboy({
        headers: req.headers as { 'content-type': string },
        // jsonData is streamed like a file; so is a part sent with a file name or as octet-stream.
        isPartAFile: (name, contentType, fileName) => name === 'jsonData' || fileName !== undefined || contentType === 'application/octet-stream',
        limits: { fileSize: largest, fieldSize: MAX_TEXT_FIELD, files: 4, fields: 1000, parts: 1000 },
      });
    } catch (e) {
      reject(invalidBody(`The multipart body cannot be read (${(e as Error).message}).`));
      return;
    }
    const fields = new Map<string, string[]>();
    let textBytes = 0;
    let file: StartUpload['file'];
    let jsonData: StartUpload['jsonData'];
    const writing: Promise<void>[] = [];
    const streams: Readable[] = [];
    const written: string[] = [];
    let failure: Error | undefined;
    let isSettled = false;

    const fail = (error: Error) => {
      if (failure) return;
      failure = error;
      // Stop parsing; the rest of the request is discarded by the server.
      req.unpipe(parser);
      req.resume();
      // The parser no longer sees the rest of the body, so a file part would never end: end it here.
      for (const stream of streams) stream.destroy();
      void Promise.allSettled(writing).then(async () => {
        for (const path of written) await rm(path, { force: true }).catch(() => {});
        if (!isSettled) { isSettled = true; reject(error); }
      });
    };

    /** Streams a part to `path`, failing with `over` past `limit` bytes. */
    const store = (stream: Readable, path: string, limit: number, over: () => HttpError, entry: { size: number }) => {
      streams.push(stream);
      written.push(path);
      stream.on('data', (chunk: Buffer) => {
        entry.size += chunk.length;
        received(chunk.length);
        if (entry.size > limit) fail(over());
      });
      stream.on('limit', () => fail(over()));
      writing.push(pipeline(stream, createWriteStream(path, { highWaterMark: WRITE_BUFFER_BYTES })).catch((e: Error) => {
        fail(failure ?? new Error(`cannot store the upload: ${e.message}`));
      }));
    };

    parser.on('file', (name: string, stream: Readable, filename: string | undefined) => {
      if (failure) { stream.resume(); return; }
      if (name === 'jsonData') {
        if (jsonData) { stream.resume(); fail(invalidBody('The start form field jsonData is given 2 times; give it once.')); return; }
        jsonData = { path: join(dir, 'jsonData.json'), size: 0 };
        store(stream, jsonData.path, limits.maxJsonData, () => tooLarge(`The start form field jsonData is over this service's limit of ${limits.maxJsonData} bytes (--max-json-data); upload the rows as a file ("files") instead.`), jsonData);
        return;
      }
      if (name !== 'files') {
        stream.resume();
        fail(invalidBody(`The file part is named ${JSON.stringify(name)}; the seed's raw form names it "files".`));
        return;
      }
      if (file) {
        stream.resume();
        fail(invalidBody('The start form has more than one file; exactly one data input is allowed per job.'));
        return;
      }
      // The form's header bytes are read as UTF-8, so a name in another encoding comes out with U+FFFD.
      if (filename?.includes('\ufffd')) {
        stream.resume();
        fail(invalidValue(`The uploaded file's name ${JSON.stringify(filename)} is not UTF-8 text (U+FFFD stands for bytes that are not); rename the file with UTF-8 characters and upload it again.`));
        return;
      }
      const fileName = safeFileName(filename);
      const bytes = Buffer.byteLength(fileName);
      if (bytes > MAX_FILE_NAME_BYTES) {
        stream.resume();
        fail(invalidValue(`The uploaded file's name is ${bytes} bytes long; the limit is ${MAX_FILE_NAME_BYTES} bytes; rename the file and upload it again.`));
        return;
      }
      file = { path: join(dir, fileName), fileName, size: 0 };
      store(stream, file.path, limits.maxUpload, () => tooLarge(`The file ${fileName} is over this service's upload limit of ${limits.maxUpload} bytes (--max-upload).`), file);
    });
    parser.on('field', (name: string, value: string, _nameTruncated: boolean, valueTruncated: boolean) => {
      if (failure) return;
      if (valueTruncated) {
        fail(tooLarge(`The start form field ${JSON.stringify(name)} is over this service's limit of ${MAX_TEXT_FIELD} bytes for a text field.`));
        return;
      }
      textBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
      if (textBytes > MAX_TEXT_FIELDS) {
        fail(tooLarge(`The start form's text fields hold over ${MAX_TEXT_FIELDS} bytes in all, this service's limit; send the rows as a file ("files") or jsonData.`));
        return;
      }
      const list = fields.get(name) ?? [];
      list.push(value);
      fields.set(name, list);
    });
    for (const event of ['filesLimit', 'fieldsLimit', 'partsLimit'] as const) {
      parser.on(event, () => fail(invalidBody('The start form has too many parts.')));
    }
    parser.on('error', (e: Error) => fail(invalidBody(`The multipart body is malformed (${e.message}).`)));
    parser.on('finish', () => {
      void Promise.all(writing).then(() => {
        if (failure || isSettled) return;
        isSettled = true;
        resolve({ fields, file, jsonData });
      });
    });
    req.on('error', (e) => fail(invalidBody(`The upload was interrupted (${e.message}).`)));
    // A client that sends its body and closes at once may be gone before this runs (the job
    // folder is made first): its 'error' and 'close' are past, so the form would never end.
    const interrupted = () => fail(invalidBody('The upload was interrupted: the client closed the connection before the form ended.'));
    if (isCutOff(req)) interrupted();
    else req.on('close', () => { if (!req.complete) interrupted(); });
    req.pipe(parser);
  });
}
