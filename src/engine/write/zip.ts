/**
 * The ZIP container of an XLSX file, written straight to a file descriptor: entries one after
 * another, each local header written first and completed in place (CRC and sizes) once its data
 * is written, then the central directory. Data comes deflated by the caller (Node's zlib), so the
 * compression runs natively. No ZIP64: an entry or archive past 4 GiB is an error (Excel's own
 * writer and xlsxwriter do the same without an explicit ZIP64 switch).
 */
import { crc32, deflateRawSync } from 'node:zlib';
import { UsageError } from '../../errors.js';
import { writeAll } from './fd.js';

/** Largest size or offset a ZIP field without ZIP64 holds. */
const ZIP_MAX = 0xffff_fffe;
/** DOS date 1980-01-01, time 00:00: a fixed timestamp, so the same rows always give the same bytes. */
const DOS_DATE = 0x0021;
const DOS_TIME = 0;

interface Entry { name: Buffer; offset: number; crc: number; compressed: number; size: number }

/** A streamed entry being written: its data follows its local header. */
export interface OpenEntry { name: Buffer; offset: number; dataStart: number }

/** Writes a ZIP archive of deflated entries to an open, seekable file descriptor. */
export class ZipWriter {
  private at = 0;
  private readonly entries: Entry[] = [];

  constructor(private readonly fd: number, private readonly path: string) {}

  /** Bytes written so far: where the next write goes. */
  get position(): number {
    return this.at;
  }

  /** Adds a small entry whose text is all known now. */
  addText(name: string, text: string): void {
    const data = Buffer.from(text, 'utf8');
    const entry = this.begin(name);
    this.write(deflateRawSync(data, { level: 6 }));
    this.end(entry, crc32(data), data.length);
  }

  /** Starts an entry whose deflated data the caller appends with `write`, then completes with `end`. */
  begin(name: string): OpenEntry {
    const bytes = Buffer.from(name, 'utf8');
    const offset = this.at;
    this.write(localHeader(bytes));
    return { name: bytes, offset, dataStart: this.at };
  }

  /** Appends bytes at the end of the archive. */
  write(bytes: Uint8Array): void {
    writeAll(this.fd, bytes);
    this.at += bytes.length;
    if (this.at > ZIP_MAX) throw tooLarge(this.path);
  }

  /** Overwrites bytes already written at `position` (an entry's data being completed). */
  patch(position: number, bytes: Uint8Array): void {
    writeAll(this.fd, bytes, position);
  }

  /** Completes an entry: its CRC-32 and uncompressed size; the compressed size is what was written. */
  end(entry: OpenEntry, crc: number, size: number): void {
    const compressed = this.at - entry.dataStart;
    if (size > ZIP_MAX) throw tooLarge(this.path);
    const sizes = Buffer.alloc(12);
    sizes.writeUInt32LE(crc >>> 0, 0);
    sizes.writeUInt32LE(compressed, 4);
    sizes.writeUInt32LE(size, 8);
    this.patch(entry.offset + 14, sizes);
    this.entries.push({ name: entry.name, offset: entry.offset, crc: crc >>> 0, compressed, size });
  }

  /** Writes the central directory and its end record; the archive is complete after this. */
  finish(): void {
    const start = this.at;
    for (const e of this.entries) {
      const h = Buffer.alloc(46);
      h.writeUInt32LE(0x02014b50, 0);
      h.writeUInt16LE(20, 4); // made by: MS-DOS, spec 2.0
      h.writeUInt16LE(20, 6); // needed to extract: 2.0 (deflate)
      h.writeUInt16LE(0, 8);
      h.writeUInt16LE(8, 10); // deflate
      h.writeUInt16LE(DOS_TIME, 12);
      h.writeUInt16LE(DOS_DATE, 14);
      h.writeUInt32LE(e.crc, 16);
      h.writeUInt32LE(e.compressed, 20);
      h.writeUInt32LE(e.size, 24);
      h.writeUInt16LE(e.name.length, 28);
      h.writeUInt32LE(e.offset, 42);
      this.write(h);
      this.write(e.name);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(this.at - start, 12);
    end.writeUInt32LE(start, 16);
    this.write(end);
  }
}

/** A local file header with CRC and sizes left zero (end() fills them in). */
function localHeader(name: Buffer): Buffer {
  const h = Buffer.alloc(30 + name.length);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt16LE(0, 6);
  h.writeUInt16LE(8, 8);
  h.writeUInt16LE(DOS_TIME, 10);
  h.writeUInt16LE(DOS_DATE, 12);
  h.writeUInt16LE(name.length, 26);
  name.copy(h, 30);
  return h;
}

function tooLarge(path: string): UsageError {
  return new UsageError(`Cannot write ${path}: the Excel output passed 4 GiB, more than an XLSX file without ZIP64 holds; write CSV (outputFileType: csv) or fewer rows or columns.`);
}

const POLY = 0xedb88320;

/** a(x) * b(x) modulo the CRC-32 polynomial (bit-reflected), as zlib's multmodp. */
function multModP(a: number, b: number): number {
  let m = 1 << 31;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** x^(2^k) modulo the polynomial, k = 0..31. */
const X2N: number[] = [];
for (let k = 0, p = 1 << 30; k < 32; k++) {
  X2N.push(p >>> 0);
  p = multModP(p, p);
}

/**
 * The CRC-32 of A followed by B from crc(A), crc(B) and B's length (zlib's crc32_combine), so a
 * part written first (the sheet's head, completed last) and the rest can be checksummed apart.
 */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  let p = 1 << 31; // x^0
  let n = lengthB;
  for (let k = 3; n > 0; k++, n = Math.floor(n / 2)) {
    if (n % 2) p = multModP(X2N[k & 31], p);
  }
  return (multModP(p, crcA >>> 0) ^ crcB) >>> 0;
}
