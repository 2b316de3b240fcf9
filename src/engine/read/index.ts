/** Opens the engine's input: a CSV/TSV, XLSX or JSON file, or inline JSON rows. */
import { open as openFile, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { UsageError } from '../../errors.js';
import type { InputSource } from '../types.js';
import { csvSource, unreadableFile } from './csv.js';
import { jsonFileSource, jsonLines, jsonRowsSource } from './json.js';
import { isWorkbookPackage } from './xlsx-book.js';
import { xlsxSource } from './xlsx.js';

/** What to read: a file path, or rows given inline (the seed's `jsonData`). */
export interface InputSpec {
  file?: string;
  rows?: Record<string, unknown>[];
}

/** Opens an input; the kind comes from the file's first bytes (ZIP → XLSX under a workbook's name), else from its extension. */
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

  if (await isEncryptedPackage(path, head)) {
    throw new UsageError(`${path} is a password-protected (encrypted) workbook, which cannot be read; open it in Excel or LibreOffice, remove the password (save it without one), and retry.`);
  }
  const other = otherFormat(head, ext);
  if (other) throw new UsageError(`${path} is ${other.what}, which cannot be read; ${other.fix}`);
  if (!isZip(head) && (ext === '.xlsx' || ext === '.xlsm' || ext === '.xls')) {
    const text = textKind(head, ext);
    if (text) throw new UsageError(`${path} is not an Excel workbook, though its name ends in ${ext}: ${text.what}; ${text.fix}`);
  }
  const misnamed = await misnamedZip(path, path, head, ext);
  if (misnamed) throw misnamed;
  if (isZip(head) || ext === '.xlsx' || ext === '.xlsm') return xlsxSource(path, path, name, size);
  const isJsonLinesName = (ext === '.jsonl' || ext === '.ndjson') && !looksLikeJson(head);
  if (isJsonLinesName || (ext !== '.csv' && ext !== '.tsv' && ext !== '.txt' && looksLikeJsonLines(head))) {
    throw new UsageError(`${path} holds ${jsonLines(name)}`);
  }
  if (ext === '.json' || (ext !== '.csv' && ext !== '.tsv' && ext !== '.txt' && looksLikeJson(head))) {
    return jsonFileSource(path, path, name, size);
  }
  return csvSource(path, path, name, size, ext === '.tsv');
}

/**
 * Names under which ZIP bytes are read as a workbook: `.xlsx` and `.xlsm`, and `.xls`, since Excel
 * opens an `.xlsx` package renamed `.xls` as the workbook it is (so do pandas and LibreOffice, which
 * tell a workbook by its bytes); `.xlsb` goes to the reader, which names the binary workbook.
 */
const WORKBOOK_EXTENSIONS = new Set(['.xlsx', '.xlsm', '.xls', '.xlsb']);

/**
 * The refusal for ZIP bytes under a name that is no workbook's (`data.csv`, `data`): `import start`
 * uploads a file under its own name, so reading it here as a workbook would make the dry run and the
 * service read two different things. Undefined when the bytes are no ZIP, an OpenDocument file
 * (otherFormat names it) or the name is a workbook's. `shown` is how the message names the file.
 */
async function misnamedZip(path: string, shown: string, head: Buffer, ext: string): Promise<UsageError | undefined> {
  if (!isZip(head) || WORKBOOK_EXTENSIONS.has(ext) || otherFormat(head, ext)) return undefined;
  const named = ext ? `its name ends in ${ext}` : 'its name has no extension';
  if (await isWorkbookPackage(path)) {
    const stem = basename(path, extname(path));
    return new UsageError(`${shown} holds an XLSX workbook (ZIP bytes), though ${named}; rename it to ${stem}.xlsx so that the dry run and the service both read it as a workbook, and retry.`);
  }
  return new UsageError(`${shown} is a ZIP archive that holds no workbook; unzip it and give the CSV, TSV, XLSX or JSON file inside.`);
}

/**
 * Refuses a file `import start` would upload whose bytes are a workbook (ZIP) but whose name is no
 * workbook's, as reading it does (misnamedZip): one rule for the upload and the dry run.
 */
export async function checkUploadName(path: string, shown: string): Promise<void> {
  const head = await readHead(path);
  const misnamed = await misnamedZip(path, shown, head, extname(path).toLowerCase());
  if (misnamed) throw misnamed;
}

/** How many first bytes are read to tell a file's kind (an ODS package's `mimetype` entry ends by byte 85). */
const HEAD_BYTES = 96;

/** The first bytes of a file, for sniffing its kind. */
async function readHead(path: string): Promise<Buffer> {
  let handle;
  try {
    handle = await openFile(path, 'r');
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } catch (error) {
    throw unreadableFile(path, error);
  } finally {
    await handle?.close();
  }
}

/** OLE compound file (CFB) magic: an Excel 97-2003 workbook, or a workbook saved with a password to open. */
const CFB_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** The name of the stream an encrypted OOXML package keeps its bytes in (MS-OFFCRYPTO), as CFB directory entries write it. */
const ENCRYPTED_PACKAGE = Buffer.from('EncryptedPackage', 'utf16le');

/**
 * Whether a CFB file is an encrypted OOXML package (Excel's or LibreOffice's "password to open"):
 * its first directory sector names an `EncryptedPackage` stream, where writers put it (after the
 * root and `EncryptionInfo`). Any other CFB file is left to otherFormat's wording.
 */
async function isEncryptedPackage(path: string, head: Buffer): Promise<boolean> {
  if (head.length < 0x34 || !head.subarray(0, 8).equals(CFB_MAGIC)) return false;
  const sectorShift = head.readUInt16LE(0x1e);
  if (sectorShift !== 9 && sectorShift !== 12) return false;
  const size = 1 << sectorShift;
  const directory = head.readUInt32LE(0x30);
  if (directory >= 0xfffffffa) return false;
  let handle;
  try {
    handle = await openFile(path, 'r');
    const sector = Buffer.alloc(size);
    const { bytesRead } = await handle.read(sector, 0, size, (directory + 1) * size);
    return sector.subarray(0, bytesRead).includes(ENCRYPTED_PACKAGE);
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

/**
 * Formats that are not CSV, TSV, XLSX or JSON, told by their first bytes (a file named `.xls` is
 * no old workbook unless it starts like one: an `.xlsx` renamed is read (WORKBOOK_EXTENSIONS), and
 * text is named by textKind): read as text they would become a header of garbage or a misleading "not UTF-8"
 * error, so they are named, with the way out.
 */
function otherFormat(head: Buffer, ext: string): { what: string; fix: string } | undefined {
  const starts = (bytes: number[]): boolean => bytes.every((b, i) => head[i] === b);
  const text = head.toString('latin1');
  const saveAs = 'save it as .xlsx or CSV and retry.';
  const unpack = (tool: string) => `decompress it first (${tool}) and give the CSV, TSV, XLSX or JSON file inside.`;
  const exportIt = 'export the table as CSV, XLSX or a JSON array of row objects and retry.';
  if (starts([0xd0, 0xcf, 0x11, 0xe0])) {
    // Excel saves a workbook with a password to open as such an OLE file too, whatever its name.
    return ext === '.xlsx' || ext === '.xlsm'
      ? { what: `an Excel 97-2003 workbook (.xls) or a password-protected workbook, not the ZIP package an ${ext} file is`, fix: `remove the password if it has one, then ${saveAs}` }
      : { what: 'an Excel 97-2003 workbook (.xls)', fix: saveAs };
  }
  const ods = isZip(head) ? text.slice(30).startsWith('mimetypeapplication/vnd.oasis.opendocument') : ext === '.ods';
  if (ods) return { what: 'an OpenDocument file (.ods)', fix: saveAs };
  if (starts([0x1f, 0x8b])) return { what: 'gzip-compressed', fix: unpack('gunzip -k') };
  if (starts([0x42, 0x5a, 0x68])) return { what: 'bzip2-compressed', fix: unpack('bunzip2 -k') };
  if (starts([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])) return { what: 'xz-compressed', fix: unpack('unxz -k') };
  if (starts([0x28, 0xb5, 0x2f, 0xfd])) return { what: 'zstd-compressed', fix: unpack('unzstd') };
  if (text.startsWith('PAR1')) return { what: 'a Parquet file', fix: exportIt };
  if (text.startsWith('ARROW1')) return { what: 'an Arrow IPC file', fix: exportIt };
  if (text.startsWith('SQLite format 3\0')) return { what: 'an SQLite database', fix: exportIt };
  if (text.startsWith('%PDF-')) return { what: 'a PDF document', fix: exportIt };
  // A job or schema file given as the data (input.file: job.yaml) would read as a one-column CSV.
  if (ext === '.yaml' || ext === '.yml') return { what: 'a YAML file (a job file or a schema file?)', fix: 'give the CSV, TSV, XLSX or JSON file that holds the rows.' };
  return undefined;
}

/**
 * What a file named as a workbook holds when its first bytes are text (no NUL byte, UTF-8), with
 * the way out: a workbook is a ZIP package, so the ZIP reader's own error would only puzzle.
 */
function textKind(head: Buffer, ext: string): { what: string; fix: string } | undefined {
  if (head.length === 0) return { what: 'it is empty', fix: 'export the workbook again and retry.' };
  if (head.includes(0)) return undefined;
  try {
    // Streaming: the head may end inside a character.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
  } catch {
    return undefined;
  }
  const text = headText(head);
  // Web apps' "Export to Excel" and Excel's "XML Spreadsheet 2003" write an HTML table or XML named .xls, which Excel opens.
  if (ext === '.xls' && /^<(!doctype html|html|\?xml|!--|table)/i.test(text)) {
    return { what: 'it is an HTML table or an XML Spreadsheet 2003 file (as web apps\' "Export to Excel" write)', fix: 'open it in Excel or LibreOffice, save it as .xlsx or CSV, and retry.' };
  }
  if (/^<(!doctype html|html|\?xml|!--)/i.test(text)) return { what: 'it is an HTML or XML page (a sign-in or error page saved in its place?)', fix: 'download or export the workbook again and retry.' };
  if (text.startsWith('[') || text.startsWith('{')) return { what: 'it holds text that looks like JSON', fix: 'rename it to .json and retry.' };
  return { what: 'it holds text that looks like CSV', fix: 'rename it to .csv (or .tsv) and retry.' };
}

/** Whether a file with no known extension starts like JSON Lines: an object, then another object on a later line. */
function looksLikeJsonLines(head: Buffer): boolean {
  const text = headText(head);
  return text.startsWith('{') && /\}\s*\r?\n\s*\{/.test(text);
}

/** Whether a file with no known extension starts like a JSON array. */
function looksLikeJson(head: Buffer): boolean {
  return headText(head).startsWith('[');
}

/** The first bytes as text, without a byte-order mark and leading white space. */
function headText(head: Buffer): string {
  return head.toString('utf8').replace(/^\uFEFF/, '').trimStart();
}
