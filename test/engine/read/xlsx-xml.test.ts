import { describe, expect, it } from 'vitest';
import { isShortestNumberText, serialText } from '../../../src/engine/read/xlsx-book.js';
import { Name, XmlScanner, type Attributes } from '../../../src/engine/read/xlsx-xml.js';

const NAMES = Object.fromEntries(Object.entries(Name).map(([k, v]) => [v, k]));

/** The events the scanner gives for `xml` fed in chunks of `size` bytes; text is wanted inside `v`, `t` and `f`. */
function events(xml: string | Buffer, size = Infinity): string[] {
  const out: string[] = [];
  let depthInText = 0;
  const scanner = new XmlScanner('xl/worksheets/sheet1.xml', {
    get wantsText() { return depthInText > 0; },
    open(name: number, a: Attributes) {
      const attrs = name === Name.C || name === Name.Row ? ['r', 't', 's'].filter((l) => a.present(l.charCodeAt(0))).map((l) => ` ${l}=${a.text(l.charCodeAt(0))}`).join('') : '';
      out.push(`<${NAMES[name]}${attrs}>`);
      if (name === Name.V || name === Name.T || name === Name.F) depthInText++;
    },
    close(name: number) {
      out.push(`</${NAMES[name]}>`);
      if (name === Name.V || name === Name.T || name === Name.F) depthInText--;
    },
    text(text: string) { out.push(JSON.stringify(text)); },
  });
  const bytes = typeof xml === 'string' ? Buffer.from(xml) : xml;
  for (let i = 0; i < bytes.length; i += Math.min(size, bytes.length)) scanner.write(bytes.subarray(i, i + size));
  scanner.end();
  return out;
}

function failure(xml: string): string {
  try {
    events(xml);
  } catch (error) {
    return (error as Error).message;
  }
  return 'no error';
}

describe('XLSX part scanner', () => {
  const sheet = '<?xml version="1.0" encoding="UTF-8"?>\r\n<worksheet xmlns="x"><sheetData><row r="2" spans="1:2">'
    + '<c r="A2" s="1"><v>45000.5</v></c><c r = \'B2\' t="inlineStr"><is><t>caf\u00e9 &amp; &lt;b&gt; &#x1F600;&#65;</t></is></c>'
    + '<c r="C2" t="str"><f>A1&amp;"x"</f><v>a\r\nb\rc</v></c><!-- a </row> in a comment --><?pi </row>?>'
    + '<c r="D2"><v><![CDATA[1<2 & 3]]></v></c><c r="E2"/></row></sheetData></worksheet>';
  const expected = ['<Other>', '<Other>', '<Row r=2>', '<C r=A2 s=1>', '<V>', '"45000.5"', '</V>', '</C>',
    '<C r=B2 t=inlineStr>', '<Is>', '<T>', '"café & <b> 😀A"', '</T>', '</Is>', '</C>',
    '<C r=C2 t=str>', '<F>', '"A1&\\"x\\""', '</F>', '<V>', '"a\\nb\\nc"', '</V>', '</C>',
    '<C r=D2>', '<V>', '"1<2 & 3"', '</V>', '</C>', '<C r=E2>', '</C>', '</Row>', '</Other>', '</Other>'];

  it('reads elements, the one-letter attributes of rows and cells, and decoded text', () => {
    expect(events(sheet)).toEqual(expected);
  });

  it('reads the same whatever the chunk boundaries, inside tags, entities and multibyte characters', () => {
    for (const size of [1, 2, 3, 7, 64]) expect(events(sheet, size)).toEqual(expected);
  });

  it('drops namespace prefixes from element names and skips a byte order mark and a DOCTYPE', () => {
    const xml = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<!DOCTYPE x [ <!ENTITY e "]>"> ]><x:worksheet><x:row><x:c><x:v>1</x:v></x:c></x:row></x:worksheet>')]);
    expect(events(xml, 5)).toEqual(['<Other>', '<Row>', '<C>', '<V>', '"1"', '</V>', '</C>', '</Row>', '</Other>']);
  });

  it('skips the rest of a row when asked, but not past a comment, CDATA or processing instruction', () => {
    const seen: string[] = [];
    let skipsRow = false;
    const scanner = new XmlScanner('xl/worksheets/sheet1.xml', {
      wantsText: false,
      get skipsRow() { return skipsRow; },
      open(name: number, a: Attributes) {
        if (name === Name.Row) skipsRow = false;
        if (name === Name.C) seen.push(a.text(0x72));
      },
      close(name: number) { if (name === Name.C) skipsRow = true; },
      text() {},
    });
    scanner.write(Buffer.from('<sheetData><x:row><c r="A1"/><c r="B1"><v>1</v></c></x:row><row><c r="A2"/><!-- </row> --><c r="B2"/><c r="C2"/></row>'
      + '<row><c r="A3"><is><t>x</t></is></c><c r="B3"/></row></sheetData>'));
    scanner.end();
    expect(seen).toEqual(['A1', 'A2', 'B2', 'A3']);
  });

  it('fails on XML that is not well-formed, naming the part', () => {
    expect(failure('<row><c><v>1</c></v></row>')).toBe('its part xl/worksheets/sheet1.xml is not well-formed XML (the close tag </c> does not match the element open)');
    expect(failure('<row><c><v>1</v></c>')).toBe('its part xl/worksheets/sheet1.xml is not well-formed XML (it ends with 1 element left open)');
    expect(failure('<row><c><v>1</v')).toBe('its part xl/worksheets/sheet1.xml is not well-formed XML (it ends inside a tag or text)');
    expect(failure('<row><c><v>a&nbsp;b</v></c></row>')).toBe('its part xl/worksheets/sheet1.xml is not well-formed XML (an undefined entity &nbsp;)');
    expect(failure('<row><c><v>a & b</v></c></row>')).toBe('its part xl/worksheets/sheet1.xml is not well-formed XML (an unterminated entity (& b))');
    expect(failure('<row><c><v>a\u0001b</v></c></row>')).toBe('its part xl/worksheets/sheet1.xml is not well-formed XML (a disallowed control character U+0001 in text)');
    expect(failure('<row><c r=A1><v>1</v></c></row>')).toBe('its part xl/worksheets/sheet1.xml is not well-formed XML (an attribute value without quotes)');
  });
});

describe('XLSX cell text without detours', () => {
  it('keeps number text that is already its shortest form, and only that', () => {
    for (const text of ['0', '7', '-12.25', '1000001', '0.1', '0.000001', '123456789012345', '-0.5']) expect([text, isShortestNumberText(text)]).toEqual([text, true]);
    for (const text of ['-0', '00123', '1.50', '1.', '.5', '+3', '1E3', '0.0000001', '1234567890123456', ' 1', '', '-']) expect([text, isShortestNumberText(text)]).toEqual([text, false]);
  });

  it('writes serial dates as Date would from year 0 to 9999, and none outside (engine.md dates have four-digit years)', () => {
    for (const serial of [-693959, -693594, -693593.5, 1, 59, 61, 45428.86353009259, 2958465.99999]) {
      const ms = Math.floor(Math.round(((serial < 60 && serial >= 1 ? serial + 1 : serial) - 25_569) * 86_400_000) / 1000) * 1000;
      expect(serialText(serial, false)).toBe(new Date(ms).toISOString().slice(0, 19));
    }
    for (const serial of [2958466, 3e6, 20240305, 1e10, -693959.5, -800000, 1e300]) expect([serial, serialText(serial, false)]).toEqual([serial, null]);
  });
});
