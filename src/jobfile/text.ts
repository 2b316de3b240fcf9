/**
 * A job file's bytes as text. Job files are UTF-8 (as YAML 1.2 and every editor's default have
 * it); other bytes are refused, never decoded with U+FFFD in their place, which would change a
 * job name or an output file name in silence (`café` in Latin-1 became `caf\uFFFD.csv`).
 */
import { Buffer, isUtf8 } from 'node:buffer';
import type { JobFileProblem } from '../errors.js';

/**
 * The UTF-8 text of a job (or schema) file, or the problem at the first byte that is not UTF-8.
 * UTF-16 and UTF-32 files (a byte order mark, or NUL bytes, which YAML text never holds) are
 * named as such in one sentence, rather than read as a string of NULs.
 */
export function decodeJobFileText(bytes: Uint8Array, file: string, what = 'job file'): { text: string } | { problem: JobFileProblem } {
  const wide = wideEncoding(bytes);
  if (wide !== undefined) {
    return { problem: { file, line: 1, col: 1, message: `the ${what} is ${wide} text, not UTF-8; save it as UTF-8 (most editors offer the encoding under "Save As").` } };
  }
  const bad = firstInvalidUtf8(bytes);
  if (bad === undefined) return { text: new TextDecoder('utf-8').decode(bytes) };
  let lineStart = 0;
  let line = 1;
  for (let i = 0; i < bad; i++) if (bytes[i] === 0x0a) { line++; lineStart = i + 1; }
  // Columns count characters as the YAML positions do (UTF-16 units of the decoded line).
  const col = new TextDecoder('utf-8').decode(bytes.subarray(lineStart, bad)).length + 1;
  const byte = bytes[bad];
  const latin1 = byte >= 0xa0 ? `, "${String.fromCharCode(byte)}" in Latin-1` : '';
  return { problem: { file, line, col, message: `the ${what} is not UTF-8 text: byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')} here is not UTF-8${latin1} (the file was probably saved as Latin-1 or Windows-1252); save it as UTF-8.` } };
}

/** "UTF-16" or "UTF-32" (with the byte order) when the bytes are such text, by their byte order mark or NUL bytes. */
function wideEncoding(bytes: Uint8Array): string | undefined {
  const [a, b, c, d] = bytes;
  if (a === 0xff && b === 0xfe && c === 0 && d === 0) return 'UTF-32 (little-endian)';
  if (a === 0 && b === 0 && c === 0xfe && d === 0xff) return 'UTF-32 (big-endian)';
  if (a === 0xff && b === 0xfe) return 'UTF-16 (little-endian)';
  if (a === 0xfe && b === 0xff) return 'UTF-16 (big-endian)';
  const nul = bytes.indexOf(0);
  if (nul === -1) return undefined;
  // Without a byte order mark: ASCII text in UTF-32 has three NULs per character, in UTF-16 one.
  if (bytes.length >= 4 && ((a !== 0 && b === 0 && c === 0 && d === 0) || (a === 0 && b === 0 && c === 0 && d !== 0))) return 'UTF-32';
  return 'UTF-16';
}

/**
 * The offset of the first byte that does not belong to a well-formed UTF-8 sequence, or undefined:
 * where the decoder's first replacement character is that is not a U+FFFD written in the file.
 */
function firstInvalidUtf8(bytes: Uint8Array): number | undefined {
  if (isUtf8(bytes)) return undefined;
  const text = new TextDecoder('utf-8').decode(bytes);
  for (let at = text.indexOf('\uFFFD'); at !== -1; at = text.indexOf('\uFFFD', at + 1)) {
    // The characters before it decoded from valid bytes, so their UTF-8 length is its offset.
    const offset = Buffer.byteLength(text.slice(0, at), 'utf8');
    if (!(bytes[offset] === 0xef && bytes[offset + 1] === 0xbf && bytes[offset + 2] === 0xbd)) return offset;
  }
  return undefined;
}
