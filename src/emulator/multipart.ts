/**
 * The `start` form: multipart/form-data read with busboy, the `files` part streamed straight to
 * disk (never held whole in memory) under a size limit, text parts collected by name.
 */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import busboy from 'busboy';
import { HttpError, invalidBody, tooLarge } from './http-error.js';

/** The start form as received. */
export interface StartUpload {
  /** Text parts: name -> values in the order sent. */
  fields: Map<string, string[]>;
  /** The `files` part, written to disk. */
  file?: { path: string; fileName: string; size: number };
}

/** Limits of the start form. */
export interface UploadLimits {
  /** Largest file part, and largest text part (jsonData), in bytes. */
  maxUpload: number;
}

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

/**
 * Reads the start form of `req` into `dir`. Rejects with an HttpError: 415 when the body is not
 * multipart, 400 when it is malformed or has a second file or a file under another name, 413
 * when a part is over the limit. A partly written file is removed.
 */
export function readStartForm(req: IncomingMessage, dir: string, limits: UploadLimits): Promise<StartUpload> {
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(type)) {
    return Promise.reject(new HttpError(415, 'unsupported_media_type', `start takes a multipart/form-data body, got ${type ? JSON.stringify(type) : 'none'}; in curl use -F files=@data.csv.`));
  }
  const declared = Number(req.headers['content-length']);
  // The whole body may carry a little form overhead beyond the file itself.
  if (Number.isFinite(declared) && declared > limits.maxUpload + 1024 * 1024) {
    return Promise.reject(tooLarge(`The upload is ${declared} bytes, over this service's limit of ${limits.maxUpload} bytes (--max-upload).`));
  }
  return new Promise<StartUpload>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // Browsers, curl and undici send UTF-8 file names as raw bytes (busboy's default reads latin1).
        defParamCharset: 'utf8',
        limits: { fileSize: limits.maxUpload, fieldSize: limits.maxUpload, files: 4, fields: 1000, parts: 1000 },
      });
    } catch (e) {
      reject(invalidBody(`The multipart body cannot be read (${(e as Error).message}).`));
      return;
    }
    const fields = new Map<string, string[]>();
    let file: StartUpload['file'];
    let writing: Promise<void> | undefined;
    let fileStream: Readable | undefined;
    let failure: Error | undefined;
    let isSettled = false;

    const fail = (error: Error) => {
      if (failure) return;
      failure = error;
      // Stop parsing; the rest of the request is discarded by the server.
      req.unpipe(parser);
      req.resume();
      // The parser no longer sees the rest of the body, so the file part would never end: end it here.
      fileStream?.destroy();
      void Promise.resolve(writing).catch(() => {}).then(async () => {
        if (file) await rm(file.path, { force: true }).catch(() => {});
        if (!isSettled) { isSettled = true; reject(error); }
      });
    };

    parser.on('file', (name, stream, info) => {
      if (failure) { stream.resume(); return; }
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
      const fileName = safeFileName(info.filename);
      const path = join(dir, fileName);
      const entry = { path, fileName, size: 0 };
      file = entry;
      fileStream = stream;
      stream.on('data', (chunk: Buffer) => {
        entry.size += chunk.length;
        received(chunk.length);
      });
      stream.on('limit', () => fail(tooLarge(`The file ${fileName} is over this service's upload limit of ${limits.maxUpload} bytes (--max-upload).`)));
      writing = pipeline(stream, createWriteStream(path)).catch((e: Error) => {
        fail(failure ?? new Error(`cannot store the upload: ${e.message}`));
      });
    });
    parser.on('field', (name, value, info) => {
      if (failure) return;
      if (info.valueTruncated) {
        fail(tooLarge(`The form field ${name} is over this service's limit of ${limits.maxUpload} bytes (--max-upload).`));
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
    parser.on('close', () => {
      void Promise.resolve(writing).then(() => {
        if (failure || isSettled) return;
        isSettled = true;
        resolve({ fields, file });
      });
    });
    req.on('error', (e) => fail(invalidBody(`The upload was interrupted (${e.message}).`)));
    req.pipe(parser);
  });
}
