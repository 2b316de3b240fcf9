import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import busboy from 'busboy';
import { ImportClient } from '../../src/client/client.js';
import { contentTypeOf, multipartBody, readChunks, startFields } from '../../src/client/multipart.js';
import { json, startRecordingServer, type RecordingServer } from '../support/recording-server.js';

let server: RecordingServer;
beforeAll(async () => { server = await startRecordingServer(); });
afterAll(async () => { await server.close(); });
beforeEach(() => { server.reset(); server.on('POST /start', json({ jobId: 'J1' })); });

const dir = mkdtempSync(join(tmpdir(), 'import-multipart-'));
const client = () => new ImportClient({ baseUrl: server.url, apiKey: 'k-123456' });

async function collect(data: AsyncIterable<Uint8Array> | Uint8Array | string): Promise<Buffer> {
  if (typeof data === 'string') return Buffer.from(data);
  if (data instanceof Uint8Array) return Buffer.from(data);
  const chunks: Buffer[] = [];
  for await (const c of data) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

describe('startFields', () => {
  it('sends strings as is, booleans as true/false, objects and several pipelines as JSON text', () => {
    expect(startFields({
      pipelineId: ['p1', 'p2'], jobName: 'Q3', gsUrl: 'https://g', gsSheetName: 'S', jsonData: [{ a: 1 }],
      destinationFileName: 'out.csv', useFullData: true, useVariableFields: false, scripts: { preColumnMapping: ['s1'] },
      webhookUrl: 'https://hook', outputFileType: 'excel',
    })).toEqual([
      ['pipelineId', '["p1","p2"]'], ['jobName', 'Q3'], ['gsUrl', 'https://g'], ['gsSheetName', 'S'], ['jsonData', '[{"a":1}]'],
      ['destinationFileName', 'out.csv'], ['useFullData', 'true'], ['useVariableFields', 'false'],
      ['scripts', '{"preColumnMapping":["s1"]}'], ['webhookUrl', 'https://hook'], ['outputFileType', 'excel'],
    ]);
  });

  it('sends one pipeline as a plain string and never sends outputFileType csv', () => {
    expect(startFields({ pipelineId: ['p1'], outputFileType: 'csv' })).toEqual([['pipelineId', 'p1']]);
    expect(startFields({ pipelineId: 'p1' })).toEqual([['pipelineId', 'p1']]);
  });
});

describe('multipartBody', () => {
  it('has an exact length and a file part named files', async () => {
    const file = join(dir, 'data.csv');
    writeFileSync(file, 'a,b\n1,2\n');
    const body = multipartBody([['jobName', 'x']], { path: file, size: 8 });
    const bytes = await collect(body.data);
    expect(bytes.length).toBe(body.length);
    const text = bytes.toString();
    expect(text).toContain('Content-Disposition: form-data; name="files"; filename="data.csv"\r\nContent-Type: text/csv\r\n\r\na,b\n1,2\n\r\n');
    expect(body.contentType).toMatch(/^multipart\/form-data; boundary=----import-jobs-[0-9a-f]{24}$/);
  });

  it('escapes quotes and newlines in file names as browsers do', async () => {
    const file = join(dir, 'q.csv');
    writeFileSync(file, 'a\n1\n');
    const bytes = await collect(multipartBody([], { path: file, size: 4, name: 'my "q"\n.csv' }).data);
    expect(bytes.toString()).toContain('filename="my %22q%22%0A.csv"');
  });

  it('picks a content type from the extension', () => {
    expect(contentTypeOf('a.xlsx')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(contentTypeOf('a.CSV')).toBe('text/csv');
    expect(contentTypeOf('a.bin')).toBe('application/octet-stream');
  });
});

describe('start over HTTP', () => {
  it('sends text parts then the file streamed from disk, with content-length, reporting progress', async () => {
    const file = join(dir, 'big.csv');
    const data = randomBytes(3 * 1024 * 1024 + 17);
    writeFileSync(file, data);
    const progress: number[] = [];
    const id = await client().start.send({
      form: { pipelineId: 'p1', jobName: 'big', useFullData: true },
      file: { path: file, size: data.length },
      onProgress: (n) => progress.push(n),
    });
    expect(id).toBe('J1');
    const [req] = server.requests;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/start');
    expect(req.headers['x-api-key']).toBe('k-123456');
    expect(Number(req.headers['content-length'])).toBe(req.body.length);
    expect(req.parts!.map((p) => p.name)).toEqual(['pipelineId', 'jobName', 'useFullData', 'files']);
    expect(req.parts![2].value).toBe('true');
    const part = req.parts![3];
    expect(part.filename).toBe('big.csv');
    expect(part.contentType).toBe('text/csv');
    expect(part.data!.equals(data)).toBe(true);
    expect(progress.at(-1)).toBe(data.length);
    expect(progress.length).toBeGreaterThan(1);
  });

  it('keeps a UTF-8 file name', async () => {
    const file = join(dir, 'données é.csv');
    writeFileSync(file, 'a\n1\n');
    await client().start.send({ form: {}, file: { path: file, size: 4 } });
    expect(server.requests[0].parts![0].filename).toBe('données é.csv');
  });
});

describe('reused read buffers', () => {
  it('yields full chunks and a short last one', async () => {
    const file = join(dir, 'chunks.bin');
    const data = randomBytes(2 * 1000 + 7);
    writeFileSync(file, data);
    const sizes: number[] = [];
    const copies: Buffer[] = [];
    for await (const chunk of readChunks(file, 1000)) { sizes.push(chunk.length); copies.push(Buffer.from(chunk)); }
    expect(sizes).toEqual([1000, 1000, 7]);
    expect(Buffer.concat(copies).equals(data)).toBe(true);
  });

  it('delivers every byte intact to a slow reader (backpressure on every chunk)', async () => {
    const file = join(dir, 'slow.bin');
    const data = randomBytes(24 * 1024 * 1024 + 3);
    writeFileSync(file, data);
    let digest = '';
    let size = 0;
    const slow = createServer((req, res) => {
      const bb = busboy({ headers: req.headers });
      bb.on('file', (_name, stream) => {
        const hash = createHash('sha256');
        stream.on('data', (c: Buffer) => {
          hash.update(c);
          size += c.length;
          // Stall now and then so the client's socket fills and waits for drain.
          if (Math.random() < 0.05) { req.pause(); setTimeout(() => req.resume(), 5); }
        });
        stream.on('end', () => { digest = hash.digest('hex'); });
      });
      bb.on('close', () => { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"jobId":"S"}'); });
      req.pipe(bb);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const c = new ImportClient({ baseUrl: `http://127.0.0.1:${(slow.address() as AddressInfo).port}` });
      expect(await c.start.send({ form: { jobName: 'slow' }, file: { path: file, size: data.length } })).toBe('S');
    } finally {
      slow.close();
    }
    expect(size).toBe(data.length);
    expect(digest).toBe(createHash('sha256').update(data).digest('hex'));
  });
});
