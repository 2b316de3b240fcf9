/**
 * The `start` form as multipart/form-data: text parts first, then the file part `files` streamed
 * from disk in chunks (never read whole into memory), with an exact content-length.
 */
import { open } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, extname } from 'node:path';
import type { StartForm } from '../contract/index.js';
import { stringifyJson } from '../contract/json.js';
import type { RawBody } from './client.js';

/** A local file to upload. */
export interface UploadFile {
  path: string;
  /** Size in bytes (from `stat`), so the body's length is known before sending. */
  size: number;
  /** File name sent in the part; the path's base name by default. */
  name?: string;
  contentType?: string;
}

/** Chunk size of the file reads: large enough for throughput, far above a socket's 16 KiB high-water mark. */
export const UPLOAD_CHUNK_BYTES = 256 * 1024;

/** Buffers the file reads rotate through (see `readChunks`). */
const POOL_SIZE = 3;

/**
 * The text parts of the start form, in wire form: strings as is, booleans as `true`/`false`,
 * `jsonData`, `scripts` and several `pipelineId`s as JSON text. Absent values are not sent.
 */
export function startFields(form: StartForm): [string, string][] {
  const fields: [string, string][] = [];
  const add = (name: string, value: unknown) => {
    if (value === undefined || value === null) return;
    if (typeof value === 'string') fields.push([name, value]);
    else if (typeof value === 'boolean' || typeof value === 'number') fields.push([name, String(value)]);
    // Written key order kept: a row's keys ("1962", __proto__) are its columns, in order.
    else fields.push([name, stringifyJson(value)]);
  };
  // One pipeline id travels as a plain string; several as a JSON array (seed: "string, or array of string").
  const pipeline = Array.isArray(form.pipelineId) && form.pipelineId.length === 1 ? form.pipelineId[0] : form.pipelineId;
  add('pipelineId', pipeline);
  add('jobName', form.jobName);
  add('gsUrl', form.gsUrl);
  add('gsSheetName', form.gsSheetName);
  add('jsonData', form.jsonData);
  add('destinationFileName', form.destinationFileName);
  add('useFullData', form.useFullData);
  add('useVariableFields', form.useVariableFields);
  add('scripts', form.scripts);
  add('webhookUrl', form.webhookUrl);
  // Seed: csv is the default; only the non-default value is sent.
  if (form.outputFileType === 'excel') add('outputFileType', 'excel');
  return fields;
}

/** The content type for a file name, by extension. */
export function contentTypeOf(name: string): string {
  switch (extname(name).toLowerCase()) {
    case '.csv': return 'text/csv';
    case '.tsv': return 'text/tab-separated-values';
    case '.txt': return 'text/plain';
    case '.json': return 'application/json';
    case '.xlsx': return 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    case '.xls': return 'application/vnd.ms-excel';
    default: return 'application/octet-stream';
  }
}

/** Builds the multipart body; `onProgress` gets the file bytes read so far. */
export function multipartBody(fields: [string, string][], file?: UploadFile, onProgress?: (bytes: number) => void): RawBody {
  const boundary = `----import-jobs-${randomBytes(12).toString('hex')}`;
  const head = Buffer.from(fields.map(([name, value]) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${escapeQuoted(name)}"\r\n\r\n${value}\r\n`).join(''), 'utf8');
  const fileName = file ? (file.name ?? basename(file.path)) : '';
  const fileHead = file
    ? Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${escapeQuoted(fileName)}"\r\nContent-Type: ${file.contentType ?? contentTypeOf(fileName)}\r\n\r\n`, 'utf8')
    : Buffer.alloc(0);
  const tail = Buffer.from(`${file ? '\r\n' : ''}--${boundary}--\r\n`, 'utf8');
  const length = head.length + fileHead.length + (file?.size ?? 0) + tail.length;
  async function* generate(): AsyncIterable<Uint8Array> {
    yield Buffer.concat([head, fileHead]);
    if (file) {
      let sent = 0;
      for await (const chunk of readChunks(file.path)) {
        sent += chunk.length;
        onProgress?.(sent);
        yield chunk;
      }
    }
    yield tail;
  }
  return { data: generate(), contentType: `multipart/form-data; boundary=${boundary}`, length };
}

/**
 * Reads a file in full chunks through a small ring of reused buffers, so a file of any size costs
 * the same memory and no garbage (fresh 256 KiB buffers per chunk cost ~50 MB of RSS between
 * collections and a page fault per 4 KiB). Reuse is safe because of how the body is consumed: a
 * chunk this large never fits under the socket's high-water mark, so `socket.write` returns
 * false and undici waits for 'drain' (every queued byte handed to the kernel) before it asks
 * for the next chunk; a buffer is refilled only `POOL_SIZE - 1` chunks later.
 */
export async function* readChunks(path: string, chunkBytes = UPLOAD_CHUNK_BYTES): AsyncIterable<Buffer> {
  const handle = await open(path, 'r');
  try {
    const pool = Array.from({ length: POOL_SIZE }, () => Buffer.allocUnsafeSlow(chunkBytes));
    let position = 0;
    for (let i = 0; ; i++) {
      const buffer = pool[i % POOL_SIZE];
      let filled = 0;
      // Fill the whole buffer (reads may return less) so every chunk but the last is full size.
      while (filled < buffer.length) {
        const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, position);
        if (bytesRead === 0) break;
        filled += bytesRead;
        position += bytesRead;
      }
      if (filled === 0) return;
      yield filled === buffer.length ? buffer : buffer.subarray(0, filled);
      if (filled < buffer.length) return;
    }
  } finally {
    await handle.close();
  }
}

/** Quotes a header parameter the way browsers do (HTML spec): `"`, CR and LF percent-encoded. */
function escapeQuoted(value: string): string {
  return value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
