import { describe, expect, it } from 'vitest';
import { newFixes } from '../../../src/engine/write/csv.js';
import { escapeText, SheetEncoder, sheetFormat, SheetNumberer, sheetRowsText } from '../../../src/engine/write/xlsx.js';

/** One text cell's XML as SheetEncoder writes it in row 2. */
function textCell(value: string): string {
  const xml = sheetRowsText([[value]], sheetFormat(['v'], ['rich_text']), 2);
  return xml.slice('<row r="2"      ><c r="A2"      '.length, -'</row>'.length);
}

describe('SheetEncoder', () => {
  it('escapes XML specials in short and long text, ASCII or not', () => {
    expect(textCell('a&b')).toBe(' t="inlineStr"><is><t>a&amp;b</t></is></c>');
    expect(textCell('a longer text with <tags> & more')).toBe(' t="inlineStr"><is><t>a longer text with &lt;tags&gt; &amp; more</t></is></c>');
    expect(textCell('é<è')).toBe(' t="inlineStr"><is><t>é&lt;è</t></is></c>');
    expect(textCell('a\rb')).toBe(' t="inlineStr"><is><t>a&#13;b</t></is></c>');
  });

  it('finds each character that needs escaping at every place in short and long ASCII text, and lets tab and LF through', () => {
    // Text up to 48 units is checked as it is copied; longer text four bytes at a time after Node
    // wrote it: every offset in a word, every length around the words, on both sides of 48.
    const specials = ['&', '<', '>', '\r', '\x01', '\x1f', '_x0041_', '\t', '\n', '_', '_y'];
    for (const special of specials) {
      for (const before of [1, 2, 3, 4, 5, 6, 7, 8, 9, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52]) {
        for (const after of [1, 2, 3, 4, 5, 9]) {
          const value = 'a'.repeat(before) + special + 'b'.repeat(after);
          expect(textCell(value), JSON.stringify(value)).toBe(` t="inlineStr"><is><t>${escapeText(value, newFixes())}</t></is></c>`);
        }
      }
    }
  });

  it('escapes _xHHHH_ only, wherever it falls in the text', () => {
    expect(textCell('_x0041_')).toBe(' t="inlineStr"><is><t>_x005F_x0041_</t></is></c>');
    expect(textCell('a long text ending in _x00e9_')).toBe(' t="inlineStr"><is><t>a long text ending in _x005F_x00e9_</t></is></c>');
    expect(textCell('a long text ending in _x')).toBe(' t="inlineStr"><is><t>a long text ending in _x</t></is></c>');
  });

  it('replaces characters XML cannot hold and counts them, in ASCII and other text', () => {
    const fixes = newFixes();
    const xml = sheetRowsText([['ctl\x01'], ['a long text with a lone \ud800 surrogate']], sheetFormat(['v'], ['rich_text'], fixes), 2);
    expect(xml).toContain('<t>ctl\ufffd</t>');
    expect(xml).toContain('<t>a long text with a lone \ufffd surrogate</t>');
    expect(fixes.replaced).toBe(2);
  });

  it('writes numbers, number text and date serials as number cells, numbers in text columns as text', () => {
    const format = sheetFormat(['n', 't', 'd'], ['number', 'rich_text', 'date_time']);
    expect(sheetRowsText([[0.1 + 0.2, 1e21, '2024-03-05T12:00:00'], ['-.5', 7, '2024-03-05T00:00:00']], format, 2)).toBe(
      '<row r="2"      ><c r="A2"      ><v>0.30000000000000004</v></c><c t="inlineStr"><is><t>1e+21</t></is></c><c s="1"><v>45356.5</v></c></row>'
      + '<row r="3"      ><c r="A3"      ><v>-0.5</v></c><c t="inlineStr"><is><t>7</t></is></c><c s="1"><v>45356</v></c></row>',
    );
  });

  it('gives a cell its reference only when it is its row\'s first or follows a missing cell', () => {
    const format = sheetFormat(['a', 'b', 'c', 'd'], ['number', 'number', 'number', 'number']);
    expect(sheetRowsText([[1, 2, null, 4], [null, 6, 7, null]], format, 2)).toBe(
      '<row r="2"      ><c r="A2"      ><v>1</v></c><c><v>2</v></c><c r="D2"      ><v>4</v></c></row>'
      + '<row r="3"      ><c r="B3"      ><v>6</v></c><c><v>7</v></c></row>',
    );
  });

  it('leaves placeholders for row numbers when it does not know them, each saying where the next is, and records each row end', () => {
    const encoder = new SheetEncoder(16);
    const ends: number[] = [];
    encoder.addRows([[1], [null]], sheetFormat(['n'], ['number']), undefined, ends);
    const bytes = encoder.buffer.subarray(0, encoder.length);
    const xml = bytes.toString('latin1');
    // A placeholder: \x01, how far on the next slot is (uint32, little-endian), spaces.
    expect(xml.replace(/\x01[^]{4}/g, '\x01    ')).toBe('<row r="\x01       ><c r="A\x01       ><v>1</v></c></row><row r="\x01       ></row>');
    const slots = [...xml.matchAll(/\x01/g)].map((m) => m.index);
    expect(slots).toEqual([8, 24, xml.indexOf('</row>') + 6 + 8]);
    // The last one leads to where the next row's slot would be.
    expect(slots.map((at) => bytes.readUInt32LE(at + 1))).toEqual([16, slots[2] - 24, xml.length + 8 - slots[2]]);
    expect(ends).toEqual([xml.indexOf('</row>') + 6, xml.length]);
  });

  it('numbers the rows kept, in pieces of whole rows, as if their numbers had been known', () => {
    const format = sheetFormat(['a', 'b', 'c'], ['number', 'rich_text', 'date_time']);
    const rows = [
      [1, 'x', null], [null, null, '2024-03-05T12:00:00'], [3, null, 'soon'], [null, null, null],
      [5, 'y', '2024-03-05T00:00:01'], [null, 'z', null], [7, 'w', '2024-03-05T00:00:02'],
    ];
    const keep = [true, false, true, true, false, true, true];
    const encoder = new SheetEncoder(16);
    const ends: number[] = [];
    encoder.addRows(rows, format, undefined, ends);
    const text = Buffer.from(encoder.buffer.subarray(0, encoder.length));
    // Runs of kept rows, as a parallel run's merge cuts them.
    const pieces: Buffer[] = [];
    let start = -1;
    for (let r = 0; r <= rows.length; r++) {
      const from = r === 0 ? 0 : ends[r - 1];
      if (r < rows.length && keep[r]) start = start < 0 ? from : start;
      else if (start >= 0) {
        pieces.push(text.subarray(start, from));
        start = -1;
      }
    }
    expect(pieces).toHaveLength(3);
    const numberer = new SheetNumberer(1);
    for (const piece of pieces) numberer.number(piece);
    expect(numberer.lastRow).toBe(6);
    expect(Buffer.concat(pieces).toString('utf8')).toBe(sheetRowsText(rows.filter((_, r) => keep[r]), format, 2));
    // A piece that does not start with a row is refused, not numbered wrong.
    expect(() => new SheetNumberer(1).number(text.subarray(ends[0] + 1))).toThrow(/no row number's place/);
  });
});
