/**
 * Splitting a CSV file into parts at record boundaries, so two threads can each read some.
 * Counting quote bytes from the file's start gives the quote state at any byte (a doubled quote
 * toggles twice); a part starts after the first line break outside quotes past its aimed byte.
 * When no quoted field holds a line break, every line break is a boundary and nothing needs
 * counting. Either way a wrong start (a quote inside an unquoted field upsets the count; an
 * uncounted file has a quoted line break after all) makes the part before it end inside a quoted
 * field, which its reader reports as an unclosed quote: the run then goes sequential.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';

/** Bytes per read while counting. */
const CHUNK = 256 << 10;
const QUOTE = 0x22;
const LF = 0x0a;

/**
 * Where parts of the file start, in one pass: for each aimed byte offset (ascending), the first
 * record boundary (just after a line break outside quotes) at or past it and before the file's
 * end, strictly ascending (an aim the previous boundary passed takes the next one); fewer points
 * than aims when the file ends first. `from`, a record boundary found before, skips the bytes
 * before it. Without `quotes`, quotes are not counted: the first line break past each aim is taken.
 */
export async function splitPoints(path: string, size: number, aims: number[], from = 0, quotes = true): Promise<number[]> {
  const fd = openSync(path, 'r');
  const points: number[] = [];
  try {
    // Its own ArrayBuffer, so the Uint32Array view below is aligned.
    const buffer = Buffer.allocUnsafeSlow(CHUNK);
    const words = new Uint32Array(buffer.buffer, 0, CHUNK / 4);
    let inQuotes = false;
    let position = from;
    for (const aim of aims) {
      if (!quotes) position = Math.max(position, aim);
      // Up to the aim only the parity matters: count quote bytes four at a time.
      while (position < aim) {
        const bytesRead = readSync(fd, buffer, 0, Math.min(CHUNK, aim - position), position);
        if (bytesRead === 0) return points;
        const whole = bytesRead >> 2;
        let odd = quoteParity(words, whole);
        for (let i = whole << 2; i < bytesRead; i++) if (buffer[i] === QUOTE) odd = !odd;
        if (odd) inQuotes = !inQuotes;
        position += bytesRead;
      }
      // From the aim: the first line break outside quotes (or any, when they are not counted).
      let found: number | undefined;
      while (found === undefined && position < size) {
        const bytesRead = readSync(fd, buffer, 0, Math.min(CHUNK, size - position), position);
        if (bytesRead === 0) return points;
        let i = 0;
        for (; i < bytesRead; i++) {
          const c = buffer[i];
          if (c === QUOTE) inQuotes = quotes && !inQuotes;
          else if (c === LF && !inQuotes) { found = position + i + 1; break; }
        }
        position += found === undefined ? bytesRead : i + 1;
      }
      if (found === undefined || found >= size) return points;
      points.push(found);
    }
    return points;
  } finally {
    closeSync(fd);
  }
}

/** Longest line looked at past a part's start (looksLikeRecordStarts). */
const LINE_LOOK = 1 << 20;

/**
 * Whether the line at each of `starts` (line breaks taken without counting quotes) reads as one
 * whole record: an even number of quotes and exactly `width - 1` delimiters outside them before
 * the next line break (or the file's end), within LINE_LOOK bytes. A line break inside a quoted
 * field is then almost always told: what follows it closes the field with a single quote, or is no
 * whole record. A record that itself holds a quoted line break fails too, which only costs the scan.
 */
export function looksLikeRecordStarts(path: string, starts: readonly number[], delimiter: string, width: number): boolean {
  const d = delimiter.charCodeAt(0);
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafeSlow(CHUNK);
    for (const start of starts) {
      let inQuotes = false;
      let delimiters = 0;
      let ended = false;
      for (let position = start; !ended;) {
        if (position - start >= LINE_LOOK) return false;
        const bytesRead = readSync(fd, buffer, 0, CHUNK, position);
        if (bytesRead === 0) break;
        for (let i = 0; i < bytesRead; i++) {
          const c = buffer[i];
          if (c === LF) { ended = true; break; }
          if (c === QUOTE) inQuotes = !inQuotes;
          else if (c === d && !inQuotes) delimiters++;
        }
        position += bytesRead;
      }
      if (inQuotes || delimiters !== width - 1) return false;
    }
    return true;
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether the first `count` words hold an odd number of quote bytes. Per word, the has-zero-byte
 * trick on the word xor four quotes clears a byte's high bit exactly when that byte is a quote;
 * xor-ing those words together keeps, per byte lane, the parity of the set bits, and the parity
 * of all the lanes' set bits is the quotes' (4 lanes x count words, an even number of bits in
 * all). One xor per word instead of a popcount: the scan took ~40% less time.
 */
function quoteParity(words: Uint32Array, count: number): boolean {
  return isOddLanes(quoteMasks(words, count));
}

/**
 * The words' masks xor-ed together. Nothing follows the loop but the return: V8 compiles this
 * function mid-loop, and code after the loop that had not run yet (the folding, when it was here)
 * made it deoptimise on every call, leaving the scan interpreted at up to 2 s for 166 MB.
 */
function quoteMasks(words: Uint32Array, count: number): number {
  let acc = 0;
  for (let i = 0; i < count; i++) {
    const x = words[i] ^ 0x22222222;
    acc ^= (((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x);
  }
  return acc;
}

/** Whether an odd number of the four byte lanes' high bits are set. */
function isOddLanes(mask: number): boolean {
  const bits = (mask >>> 7) & 0x01010101;
  const half = bits ^ (bits >>> 16);
  return ((half ^ (half >>> 8)) & 1) === 1;
}

/** True when the file starts with a UTF-16 byte-order mark (such files are read sequentially). */
export async function isUtf16(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    return bytesRead === 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff));
  } finally {
    await handle.close();
  }
}
