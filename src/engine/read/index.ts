/** Opens the engine's input: a CSV/TSV, XLSX or JSON file, or inline JSON rows. */
import { open as openFile, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { UsageError } from '../../errors.js';
import type { InputSource } from '../types.js';
import { csvSource, unreadableFile } from './csv.js';
import { jsonFileSource, jsonRowsSource } from './json.js';
import { xlsxSource } from './xlsx.js';

/** What to read: a file path, or rows given inline (the seed's `jsonData`). */
export interface InputSpec {
  file?: string;
  rows?: Record<string, unknown>[];
}

/** Opens an input; the kind comes from the file's first bytes (ZIP → XLSX), else from its extension. */
export async function openInput(spec: InputSpec): Promise<InputSource> {
  if (spec.rows) return jsonRowsSource(spec.rows);
  if (spec.file === undefined) throw new UsageError('No input given; pass a file or inline rows.');
  const path = spec.file;
  let size: number;
  try {
    const info = await stat(path);
    if (info.isDirectory()) {
      throw new UsageError(`Cannot read ${path}: it is a folder, not a file; give the path of a CSV, TSV, XLSX or JSON file.`);
    }
    size = info.size;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw unreadableFile(path, error);
  }
  const name = basename(path);
  const head = await readHead(path);
  const ext = extname(path).toLowerCase();

  if (isZip(head) || ext === '.xlsx' || ext === '.xlsm') return xlsxSource(path, path, name, size);
  if (isOle(head) || ext === '.xls') {
    throw new UsageError(`${path} is an Excel 97-2003 workbook (.xls), which cannot be read; save it as .xlsx or CSV and retry.`);
  }
  if (ext === '.json' || (ext !== '.csv' && ext !== '.tsv' && ext !== '.txt' && looksLikeJson(head))) {
    return jsonFileSource(path, path, name, size);
  }
  return csvSource(path, path, name, size, ext === '.tsv');
}

/** The first bytes of a file, for sniffing its kind. */
async function readHead(path: string): Promise<Buffer> {
  let handle;
  try {
    handle = await openFile(path, 'r');
    const buffer = Buffer.alloc(8);
    const { bytesRead } = await handle.read(buffer, 0, 8, 0);
    return buffer.subarray(0, bytesRead);
  } catch (error) {
    throw unreadableFile(path, error);
  } finally {
    await handle?.close();
  }
}

/** ZIP local-file magic `PK\x03\x04`: an XLSX workbook. */
function isZip(head: Buffer): boolean {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
}

/** OLE compound-file magic: an old binary .xls workbook. */
function isOle(head: Buffer): boolean {
  return head.length >= 4 && head[0] === 0xd0 && head[1] === 0xcf && head[2] === 0x11 && head[3] === 0xe0;
}

/** Whether a file with no known extension starts like a JSON array. */
function looksLikeJson(head: Buffer): boolean {
  const text = head.toString('utf8').replace(/^\uFEFF/, '').trimStart();
  return text.startsWith('[');
}
