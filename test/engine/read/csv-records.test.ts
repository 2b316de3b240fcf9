import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../src/engine/prng.js';
import { scanRecords, type Newline } from '../../../src/engine/read/csv.js';

/** Papa Parse's records of `text`, as the reader called it before scanRecords: the reference. */
function papaRecords(text: string, delimiter: string, newline: Newline, atEnd: boolean) {
  const parser = new Papa.Parser({ delimiter, newline, quoteChar: '"' });
  const result = parser.parse(text, 0, !atEnd) as { data: string[][]; errors: { row: number }[]; meta: { cursor: number } };
  return { data: result.data, cursor: result.meta.cursor, errors: result.errors };
}

/** Random CSV-like text over a small alphabet rich in quotes, delimiters and line breaks. */
function randomText(random: () => number, alphabet: string[], length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
  return text;
}

describe('scanRecords', () => {
  it('splits records exactly as Papa Parse does, or leaves the text to it', () => {
    const random = mulberry32(13);
    let scanned = 0;
    for (let i = 0; i < 20_000; i++) {
      const delimiter = [',', ';', '\t', '|'][i % 4];
      const newline: Newline = i % 3 === 0 ? '\r' : '\n';
      // Mostly well-formed fields, with odd pieces (bare quotes, CR, spaces) mixed in.
      const alphabet = ['a', 'bc', ' ', delimiter, delimiter, '\n', '\r\n', '\r', '"', '"x"', '"a""b"', '""', `"q${delimiter}r"`, '"l\nm"', 'é'];
      const text = randomText(random, alphabet, Math.floor(random() * 14));
      for (const atEnd of [false, true]) {
        const ours = scanRecords(text, delimiter, newline, atEnd);
        if (!ours) continue;
        scanned++;
        const theirs = papaRecords(text, delimiter, newline, atEnd);
        expect({ text, atEnd, data: ours.data, cursor: ours.cursor }).toEqual({ text, atEnd, data: theirs.data, cursor: theirs.cursor });
        // Papa finds no error in the records taken (one on the unfinished last record is retried with more text).
        expect(theirs.errors.filter((e) => atEnd || e.row < theirs.data.length)).toEqual([]);
      }
    }
    // Most texts are scanned here, not handed to Papa Parse.
    expect(scanned).toBeGreaterThan(20_000);
  });

  it('reads quoted fields, doubled quotes, CR LF after a closing quote and a last record without a line break', () => {
    expect(scanRecords('a,"b,""c"""\r\n"d\ne",f', ',', '\n', true)).toEqual({ data: [['a', 'b,"c"'], ['d\ne', 'f']], cursor: 20 });
    expect(scanRecords('a,b\nc,"d', ',', '\n', false)).toEqual({ data: [['a', 'b']], cursor: 4 });
    expect(scanRecords('a,b\n', ',', '\n', true)).toEqual({ data: [['a', 'b'], ['']], cursor: 4 });
  });

  it('leaves text after a closing quote, and an unclosed quote at the end, to Papa Parse', () => {
    expect(scanRecords('"a"b,c\n', ',', '\n', true)).toBeUndefined();
    expect(scanRecords('"a" ,c\n', ',', '\n', true)).toBeUndefined();
    expect(scanRecords('a,"b\n', ',', '\n', true)).toBeUndefined();
  });
});
