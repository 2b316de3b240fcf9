import { crc32, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEFLATE_CHUNK, DeflateSink } from '../../../src/engine/write/deflate.js';

/** Sheet-like text: repetitive, with matches that reach back across a piece's start. */
function sheetText(rows: number): Buffer {
  const lines: string[] = [];
  for (let r = 0; r < rows; r++) lines.push(`<row r="${r + 2}"><c r="A${r + 2}"><v>${r * 7919 % 100003}</v></c><c r="B${r + 2}" t="inlineStr"><is><t>name ${r % 977}</t></is></c></row>`);
  return Buffer.from(lines.join(''), 'utf8');
}

/** Writes `data` to a sink in pieces of `step` bytes; resolves with the deflated bytes and the sink. */
async function deflated(data: Buffer, step: number): Promise<{ bytes: Buffer; sink: DeflateSink }> {
  const out: Buffer[] = [];
  const sink = new DeflateSink(1, (bytes) => out.push(Buffer.from(bytes)));
  for (let at = 0; at < data.length; at += step) {
    sink.write(data.subarray(at, at + step));
    await sink.ready();
  }
  await sink.end();
  return { bytes: Buffer.concat(out), sink };
}

describe('DeflateSink', () => {
  it('makes one raw deflate stream of many pieces, with the CRC-32 and size of the data', async () => {
    const data = sheetText(60_000);
    expect(data.length).toBeGreaterThan(4 * DEFLATE_CHUNK);
    const { bytes, sink } = await deflated(data, 300_007);
    expect(inflateRawSync(bytes).equals(data)).toBe(true);
    expect(sink.size).toBe(data.length);
    expect(sink.crc).toBe(crc32(data));
    // Primed with the bytes before each piece, it compresses as well as one stream does.
    expect(bytes.length).toBeLessThan(data.length / 5);
  });

  it('keeps bytes the caller reuses right after writing them', async () => {
    const data = sheetText(30_000);
    const out: Buffer[] = [];
    const sink = new DeflateSink(1, (bytes) => out.push(Buffer.from(bytes)));
    const scratch = Buffer.alloc(65_536);
    for (let at = 0; at < data.length; at += scratch.length) {
      const n = data.copy(scratch, 0, at);
      sink.write(scratch.subarray(0, n));
      scratch.fill(0x41);
      await sink.ready();
    }
    await sink.end();
    expect(inflateRawSync(Buffer.concat(out)).equals(data)).toBe(true);
  });

  it('ends an empty stream validly', async () => {
    const { bytes, sink } = await deflated(Buffer.alloc(0), 1);
    expect(inflateRawSync(bytes).length).toBe(0);
    expect(sink.size).toBe(0);
  });
});
