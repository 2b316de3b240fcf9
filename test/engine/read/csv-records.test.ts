import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../src/engine/prng.js';
import { scanRecords, strayBreaks, type Newline, type StrayBreak } from '../../../src/engine/read/csv.js';

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

/**
 * The reference for strayBreaks, one character at a time: line breaks of the other kind (a CR not
 * before LF in text split on LF, an LF in text split on CR) outside quoted fields, with their record.
 */
function strayBreaksByChar(text: string, delimiter: string, newline: Newline): StrayBreak[] {
  const found: StrayBreak[] = [];
  let record = 0;
  let inQuotes = false;
  let atFieldStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inQuotes) {
      if (c === '"' && text[i + 1] === '"') i++;
      else if (c === '"') inQuotes = false;
      continue;
    }
    if (c === '"' && atFieldStart) { inQuotes = true; atFieldStart = false; continue; }
    atFieldStart = c === delimiter || c === newline;
    if (c === newline) record++;
    else if (newline === '\n' ? c === '\r' && text[i + 1] !== '\n' : c === '\n') found.push({ record, at: i });
  }
  return found;
}

describe('strayBreaks', () => {
  it('finds the line breaks of the other kind outside quotes exactly as a character-by-character walk does', () => {
    const random = mulberry32(29);
    const seen = { strays: 0, onlyQuoted: 0 };
    for (let i = 0; i < 20_000; i++) {
      const delimiter = [',', ';', '\t', '|'][i % 4];
      const newline: Newline = i % 3 === 0 ? '\r' : '\n';
      const alphabet = ['a', 'bc', delimiter, delimiter, '\n', '\r\n', '\r', '"x"', '"a""b"', '""', '"l\nm"', '"c\rd"', `"q${delimiter}\r"`, 'x"y'];
      const text = randomText(random, alphabet, Math.floor(random() * 14));
      // Only text the reader takes records from without error is walked.
      if (!scanRecords(text, delimiter, newline, true)) continue;
      // The caller finds the first candidate with indexOf, which may lie inside quotes.
      const first = newline === '\n' ? (/\r(?!\n)/.exec(text)?.index ?? -1) : text.indexOf('\n');
      if (first === -1) continue;
      const expected = strayBreaksByChar(text, delimiter, newline);
      seen[expected.length > 0 ? 'strays' : 'onlyQuoted']++;
      expect({ text, found: strayBreaks(text, text.length, delimiter, newline, first) }).toEqual({ text, found: expected });
    }
    expect(seen.strays).toBeGreaterThan(3_000);
    expect(seen.onlyQuoted).toBeGreaterThan(500);
  });

  it('leaves line breaks inside quotes and the CR of CRLF, and counts records across quoted line breaks', () => {
    expect(strayBreaks('a,b\r\n1,"x\ry"\r\n', 14, ',', '\n', 9)).toEqual([]);
    expect(strayBreaks('a,b\n"1\n2",x\ry\n', 14, ',', '\n', 11)).toEqual([{ record: 1, at: 11 }]);
    expect(strayBreaks('a,b\r1,"x\ny"\r2,z\n\r', 17, ',', '\r', 8)).toEqual([{ record: 2, at: 15 }]);
  });
});
