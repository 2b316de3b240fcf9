import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimNext, newClaims } from '../../../src/engine/parallel/claims.js';
import { isUtf16, looksLikeRecordStarts, splitPoints } from '../../../src/engine/parallel/split.js';
import { droppingRule } from '../../../src/engine/steps/drop-rows.js';

async function file(text: string | Buffer): Promise<{ path: string; size: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'import-split-'));
  const path = join(dir, 'in.csv');
  await writeFile(path, text);
  return { path, size: Buffer.byteLength(text) };
}

/** Where a second part starts when aimed at the middle (undefined: no record boundary past it). */
async function middleSplit(path: string, size: number): Promise<number | undefined> {
  return (await splitPoints(path, size, [Math.floor(size / 2)]))[0];
}

describe('splitPoints', () => {
  it('splits just after the first line break past the middle', async () => {
    const text = 'a,b\n' + Array.from({ length: 100 }, (_, i) => `${i},x`).join('\n') + '\n';
    const { path, size } = await file(text);
    const at = (await middleSplit(path, size))!;
    expect(at).toBeGreaterThanOrEqual(size / 2);
    expect(text[at - 1]).toBe('\n');
    expect(text.slice(0, at - 1).lastIndexOf('\n')).toBeLessThan(Math.floor(size / 2));
  });

  it('skips line breaks inside quoted fields, counting doubled quotes and quotes of every byte position', async () => {
    // The middle falls inside a long quoted field with line breaks and doubled quotes.
    const quoted = '"' + 'x\n""y'.repeat(400) + '"';
    const text = `a,b\n1,"q""" \n2,${quoted}\n3,z\n4,w\n`;
    const { path, size } = await file(text);
    const at = (await middleSplit(path, size))!;
    expect(text.slice(at)).toBe('3,z\n4,w\n');
  });

  it('finds no split when the second half has no record boundary', async () => {
    const { path, size } = await file('a\n"' + 'x\n'.repeat(100) + '"');
    expect(await middleSplit(path, size)).toBeUndefined();
  });

  it('finds a record boundary for each aim in one pass, ascending, and stops at the file\'s end', async () => {
    const quoted = '"' + 'x\n'.repeat(50) + '"';
    const text = `a,b\n1,x\n2,${quoted}\n3,y\n4,z\n`;
    const { path, size } = await file(text);
    const aims = [6, 20, 30, size - 2];
    const points = await splitPoints(path, size, aims);
    // 6 is inside row 1: the next boundary is row 2's start; 20 and 30 are inside row 2's quoted
    // field: the first takes row 3's start, the second (passed already) row 4's; the last aim has none.
    expect(points.map((at) => text.slice(at, at + 3))).toEqual(['2,"', '3,y', '4,z']);
    // Resumed from a boundary found before, the scan gives the same later points.
    expect(await splitPoints(path, size, aims.slice(1), points[0])).toEqual(points.slice(1));
  });

  it('agrees with a byte-by-byte scan over reads of many chunks, whatever quote falls where', async () => {
    // ~1.5 MB of rows whose quoted fields hold line breaks and doubled quotes at every alignment.
    let seed = 7;
    const random = (n: number) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
    const rows: string[] = ['id,text'];
    let length = 0;
    for (let i = 0; length < 1_500_000; i++) {
      const inner = Array.from({ length: random(6) }, () => ['x', '""', '\n', 'yy,'][random(4)]).join('');
      const row = random(3) === 0 ? `${i},"${inner}"` : `${i},plain${'z'.repeat(random(7))}`;
      rows.push(row);
      length += row.length + 1;
    }
    const text = rows.join('\n') + '\n';
    const { path, size } = await file(text);
    const aims = Array.from({ length: 40 }, (_, k) => Math.floor((size * (k + 1)) / 41) + k);
    // The reference: the quote state byte by byte gives every record boundary (just after a line
    // break outside quotes, before the end); each aim takes the first one past it and past the last taken.
    const boundaries: number[] = [];
    let inQuotes = false;
    for (let i = 0; i < size; i++) {
      const c = text.charCodeAt(i);
      if (c === 34) inQuotes = !inQuotes;
      else if (c === 10 && !inQuotes && i + 1 < size) boundaries.push(i + 1);
    }
    const expected: number[] = [];
    for (const aim of aims) {
      const found = boundaries.find((b) => b - 1 >= aim && b > (expected.at(-1) ?? 0));
      if (found === undefined) break;
      expected.push(found);
    }
    expect(expected.length).toBe(aims.length);
    expect(await splitPoints(path, size, aims)).toEqual(expected);
  });

  it('tells UTF-16 files', async () => {
    const { path } = await file(Buffer.from([0xff, 0xfe, 0x61, 0x00]));
    expect(await isUtf16(path)).toBe(true);
    const utf8 = await file('a,b\n');
    expect(await isUtf16(utf8.path)).toBe(false);
  });
});

describe('looksLikeRecordStarts', () => {
  it('trusts lines of exactly the header\'s cells with an even number of quotes, up to the next line break or the end', async () => {
    const text = 'a,b,c\n1,"x,y",3\n4,5,6';
    const { path } = await file(text);
    expect(looksLikeRecordStarts(path, [text.indexOf('1,'), text.indexOf('4,')], ',', 3)).toBe(true);
  });

  it('doubts a line that closes a quoted field, one with too few or too many cells, and one that runs past 1 MiB', async () => {
    const text = 'a,b,c\n1,2,"note\nstill the note",3\n4,5\n6,7,8,9\n';
    const { path } = await file(text);
    expect(looksLikeRecordStarts(path, [text.indexOf('still')], ',', 3)).toBe(false);
    expect(looksLikeRecordStarts(path, [text.indexOf('4,')], ',', 3)).toBe(false);
    expect(looksLikeRecordStarts(path, [text.indexOf('6,')], ',', 3)).toBe(false);
    const long = await file(`a,b\n${'x'.repeat(1.5 * 1024 * 1024)},y\n`);
    expect(looksLikeRecordStarts(long.path, [4], ',', 2)).toBe(false);
  });
});

describe('claims', () => {
  it('gives each part once, in file order, after the ones already taken, then -1', () => {
    const claims = newClaims(1);
    expect([claimNext(claims, 4), claimNext(claims, 4), claimNext(claims, 4)]).toEqual([1, 2, 3]);
    expect(claimNext(claims, 4)).toBe(-1);
    expect(claimNext(claims, 4)).toBe(-1);
  });
});

describe('droppingRule', () => {
  it('asks later rules only while earlier ones keep the row', () => {
    const asked: number[] = [];
    expect(droppingRule(3, (i) => { asked.push(i); return i !== 1; })).toBe(1);
    expect(asked).toEqual([0, 1]);
    expect(droppingRule(2, () => true)).toBe(-1);
  });
});
