/**
 * A small XML scanner for the two big parts of a workbook, worksheets and shared strings, working
 * on the inflated bytes chunk by chunk. A general SAX parser (saxes) spent most of the time of
 * reading a large sheet building tag objects, attribute maps and strings nobody reads; this one
 * knows the handful of SpreadsheetML elements the reader acts on (`row c v f is t rPh si`), reads
 * the one-letter attributes they carry (`r t s`) as byte ranges, and makes strings only of the
 * text its handler asks for.
 *
 * It still reads any well-formed XML as saxes did: namespace prefixes (`x:c`), single or double
 * quotes, comments, processing instructions, CDATA, the five entities and numeric character
 * references, line ends normalised to LF. Anything else fails loudly with a BookError: a DOCTYPE,
 * an unknown entity, a disallowed control character in text it reads, a close tag that does not
 * match its open tag, a part that ends inside a tag or with elements left open.
 */
import { BookError } from './xlsx-book.js';

/** The elements the reader acts on, by local name; every other element is `Other`. */
export const Name = { Other: 0, Row: 1, C: 2, V: 3, F: 4, Is: 5, T: 6, RPh: 7, Si: 8 } as const;

/** What the scanner calls for the elements and text of a part. */
export interface XmlHandler {
  /** An element opened: its name (`Name`); for `row` and `c`, `attributes` holds its one-letter attributes. */
  open(name: number, attributes: Attributes): void;
  /** An element closed (also right after `open` for an empty element `<c/>`). */
  close(name: number): void;
  /** Text (decoded) inside an element, only while `wantsText` is true. */
  text(text: string): void;
  /** Whether the text at this point is wanted: other text is skipped without being decoded. */
  readonly wantsText: boolean;
  /**
   * Set after a `close`: the rest of the current `row` is not needed (its count is known). The
   * scanner then jumps to the row's close tag when no comment, CDATA or processing instruction
   * lies between (where a `</row>` could hide); the skipped elements are not checked.
   */
  readonly skipsRow?: boolean;
}

const R = 0x72;
const S = 0x73;
const T = 0x74;
const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const AMP = 0x26;
const CR = 0x0d;
const REST_LIMIT = 64 * 1024 * 1024;

/** Whether `b` holds the bytes of `word` (ASCII) at `start`. */
export function hasWordAt(b: Buffer, start: number, word: string): boolean {
  if (start + word.length > b.length) return false;
  for (let i = 0; i < word.length; i++) if (b[start + i] !== word.charCodeAt(i)) return false;
  return true;
}

/** Whether a byte is XML white space. */
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

/**
 * The attributes `r`, `t` and `s` of the last `row` or `c` opened (`r="A1" t="s" s="3"`), as byte
 * ranges into `bytes`, indexed by their letter; other attributes are skipped.
 */
export class Attributes {
  bytes: Buffer = Buffer.alloc(0);
  readonly start = new Int32Array(128).fill(-1);
  readonly end = new Int32Array(128);

  reset(bytes: Buffer): void {
    this.start[R] = -1;
    this.start[S] = -1;
    this.start[T] = -1;
    this.bytes = bytes;
  }

  /** Keeps the value range of a one-letter attribute, when it is one of `r t s`. */
  set(letter: number, start: number, end: number): void {
    if (letter !== R && letter !== S && letter !== T) return;
    this.start[letter] = start;
    this.end[letter] = end;
  }

  /** Whether the attribute is present and not empty (`r=""` counts as absent, as `a.r ?` did). */
  has(letter: number): boolean {
    return this.start[letter] >= 0 && this.end[letter] > this.start[letter];
  }

  /** Whether the attribute is present at all. */
  present(letter: number): boolean {
    return this.start[letter] >= 0;
  }

  /** The attribute's value as text: entities decoded, white space normalised as XML attribute values are. */
  text(letter: number): string {
    return attributeText(this.bytes, this.start[letter], this.end[letter]);
  }

  /** Whether the value's bytes are all plain (no entity, no white space to normalise). */
  isPlain(letter: number): boolean {
    const b = this.bytes;
    for (let i = this.start[letter], end = this.end[letter]; i < end; i++) {
      const c = b[i];
      if (c === AMP || c < 0x21) return false;
    }
    return true;
  }
}

/** The text of an attribute value in `bytes[start, end)`: entities decoded, white space normalised. */
export function attributeText(bytes: Buffer, start: number, end: number): string {
  const raw = bytes.toString('utf8', start, end);
  return decodeEntities(raw.replace(/\r\n|[\t\n\r]/g, ' '), (reason) => { throw new BookError(`${reason} in an attribute`); });
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Text with the five XML entities and numeric character references decoded; any other entity is `fail`ed. */
export function decodeEntities(text: string, fail: (reason: string) => never): string {
  if (!text.includes('&')) return text;
  return text.replace(/&([^;&<]*);?/g, (whole, name: string) => {
    if (!whole.endsWith(';')) fail(`an unterminated entity (${whole.slice(0, 20)})`);
    const known = ENTITIES[name];
    if (known !== undefined) return known;
    const code = /^#x[0-9a-fA-F]+$/.test(name) ? parseInt(name.slice(2), 16) : /^#[0-9]+$/.test(name) ? parseInt(name.slice(1), 10) : NaN;
    if (!isXmlChar(code)) fail(`an undefined entity &${name.slice(0, 20)};`);
    return String.fromCodePoint(code);
  });
}

/** Whether a code point is a character XML 1.0 allows. */
function isXmlChar(code: number): boolean {
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
}

/** Local-name code of the element name in `b[start, end)` (the part after any `prefix:`). */
function nameCode(b: Buffer, start: number, end: number): number {
  const n = end - start;
  if (n > 3 && b[end - 4] === 0x3a) start = end - 3;
  else if (n > 2 && b[end - 3] === 0x3a) start = end - 2;
  else if (n > 1 && b[end - 2] === 0x3a) start = end - 1;
  else if (n > 4) return Name.Other;
  switch (end - start) {
    case 1:
      switch (b[start]) {
        case 0x63: return Name.C;
        case 0x76: return Name.V;
        case 0x66: return Name.F;
        case 0x74: return Name.T;
        default: return Name.Other;
      }
    case 2:
      if (b[start] === 0x69 && b[start + 1] === 0x73) return Name.Is;
      if (b[start] === 0x73 && b[start + 1] === 0x69) return Name.Si;
      return Name.Other;
    case 3:
      if (b[start] === 0x72 && b[start + 1] === 0x6f && b[start + 2] === 0x77) return Name.Row;
      if (b[start] === 0x72 && b[start + 1] === 0x50 && b[start + 2] === 0x68) return Name.RPh;
      return Name.Other;
    default:
      return Name.Other;
  }
}

/** Where the next `<!` or `<?` in `b` from `p` starts, or `b.length` (one-byte searches are memchr-fast). */
function nextSpecialOf(b: Buffer, p: number): number {
  return Math.min(nextMarkup(b, p, 0x21), nextMarkup(b, p, 0x3f));
}

/** Where the next `<` followed by `mark` starts in `b` from `p`, or `b.length`. */
function nextMarkup(b: Buffer, p: number, mark: number): number {
  for (let i = b.indexOf(mark, p + 1); i >= 0; i = b.indexOf(mark, i + 1)) {
    if (b[i - 1] === LT) return i - 1;
  }
  return b.length;
}

/** Where a DOCTYPE whose name starts at `p` ends (after its `>`, past quoted text and an internal subset), or -1 when not in `b`. */
function doctypeEnd(b: Buffer, p: number): number {
  let quote = 0;
  let subset = false;
  for (; p < b.length; p++) {
    const c = b[p];
    if (quote !== 0) { if (c === quote) quote = 0; }
    else if (c === 0x22 || c === 0x27) quote = c;
    else if (c === 0x5b) subset = true;
    else if (c === 0x5d) subset = false;
    else if (c === GT && !subset) return p + 1;
  }
  return -1;
}

/** Scans one part: `write` each chunk of its bytes, then `end`. */
export class XmlScanner {
  /** The one-letter attributes of the last `row` or `c` opened. */
  readonly attributes = new Attributes();
  /** Hashes of the names of the open elements, to check that each close tag matches. */
  private stack = new Int32Array(64);
  private depth = 0;
  private rest: Buffer = Buffer.alloc(0);
  private started = false;
  /** The close tag of the last `row` opened (`</row>`, `</x:row>`) and the hash of its name. */
  private rowClose = Buffer.from('</row>');
  private rowHash = 0;
  /** The depth inside the last `row` opened, where its close tag can be skipped to. */
  private rowDepth = -1;
  /** Where the next `<!` or `<?` of the current buffer starts (its length when none; -1 not yet searched). */
  private nextSpecial = -1;

  constructor(private readonly part: string, private readonly handler: XmlHandler) {}

  private readonly fail = (reason: string): never => {
    throw new BookError(`its part ${this.part} is not well-formed XML (${reason})`);
  };

  /** Scans a chunk; an element or text cut by the chunk's end waits for the next chunk. */
  write(chunk: Buffer): void {
    let b = this.rest.length > 0 ? Buffer.concat([this.rest, chunk]) : chunk;
    if (!this.started) {
      if (b.length < 3) { this.rest = b; return; }
      this.started = true;
      if ((b[0] === 0xfe && b[1] === 0xff) || (b[0] === 0xff && b[1] === 0xfe)) this.fail('it is UTF-16, which this reader does not read');
      if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) b = b.subarray(3);
    }
    const used = this.scan(b);
    this.rest = used < b.length ? b.subarray(used) : Buffer.alloc(0);
    // A tag or text this long is a broken part, not a workbook: stop before holding it all.
    if (this.rest.length > REST_LIMIT) this.fail('a tag or text longer than 64 MiB');
  }

  /** Ends the part: nothing may be left half read or open. */
  end(): void {
    for (let i = 0; i < this.rest.length; i++) {
      if (!isSpace(this.rest[i])) this.fail('it ends inside a tag or text');
    }
    if (this.depth > 0) this.fail(`it ends with ${this.depth} element${this.depth === 1 ? '' : 's'} left open`);
  }

  /** Where the current row's close tag starts, when it can be skipped to safely; else `p`. */
  private skipRow(b: Buffer, p: number): number {
    if (this.depth !== this.rowDepth) return p;
    const close = b.indexOf(this.rowClose, p);
    if (close < 0) return p;
    if (this.nextSpecial < p) this.nextSpecial = nextSpecialOf(b, p);
    return close < this.nextSpecial ? close : p;
  }

  /** Scans complete tags and text of `b`; returns where the first incomplete one starts. */
  private scan(b: Buffer): number {
    const handler = this.handler;
    const end = b.length;
    let p = 0;
    this.nextSpecial = -1;
    while (p < end) {
      if (b[p] !== LT) {
        // Text up to the next tag.
        if (handler.wantsText && this.depth > 0) {
          let q = p;
          let special = false;
          let ascii = true;
          for (; q < end; q++) {
            const c = b[q];
            if (c === LT) break;
            if (c < 0x20) {
              if (c === CR) special = true;
              else if (c !== 0x0a && c !== 0x09) this.fail(`a disallowed control character U+${c.toString(16).padStart(4, '0').toUpperCase()} in text`);
            } else if (c === AMP) special = true;
            else if (c > 0x7f) ascii = false;
          }
          if (q === end) return p;
          let text = b.toString(ascii ? 'latin1' : 'utf8', p, q);
          if (special) text = decodeEntities(text.replace(/\r\n?/g, '\n'), this.fail);
          handler.text(text);
          p = q;
        } else {
          const q = b.indexOf(LT, p);
          if (q < 0) return p;
          p = q;
        }
        continue;
      }
      if (p + 1 >= end) return p;
      const c1 = b[p + 1];
      if (c1 === SLASH) {
        // A close tag: `</name>` with optional white space before `>`.
        let q = p + 2;
        let hash = 0;
        while (q < end) {
          const c = b[q];
          if (c === GT || isSpace(c)) break;
          hash = (Math.imul(hash, 31) + c) | 0;
          q++;
        }
        const nameEnd = q;
        while (q < end && isSpace(b[q])) q++;
        if (q >= end) return p;
        if (b[q] !== GT) this.fail('a close tag with something after its name');
        if (this.depth === 0) this.fail(`a close tag </${b.toString('utf8', p + 2, nameEnd)}> with no element open`);
        if (this.stack[--this.depth] !== hash) this.fail(`the close tag </${b.toString('utf8', p + 2, nameEnd)}> does not match the element open`);
        handler.close(nameCode(b, p + 2, nameEnd));
        p = q + 1;
        if (handler.skipsRow) p = this.skipRow(b, p);
        continue;
      }
      if (c1 === 0x3f) {
        // A processing instruction or the XML declaration.
        const q = b.indexOf('?>', p + 2);
        if (q < 0) return p;
        p = q + 2;
        continue;
      }
      if (c1 === 0x21) {
        if (p + 4 > end) return p;
        if (b[p + 2] === 0x2d && b[p + 3] === 0x2d) {
          const q = b.indexOf('-->', p + 4);
          if (q < 0) return p;
          p = q + 3;
          continue;
        }
        if (p + 9 > end) return p;
        if (hasWordAt(b, p, '<![CDATA[')) {
          const q = b.indexOf(']]>', p + 9);
          if (q < 0) return p;
          if (handler.wantsText && this.depth > 0) handler.text(b.toString('utf8', p + 9, q).replace(/\r\n?/g, '\n'));
          p = q + 3;
          continue;
        }
        if (hasWordAt(b, p, '<!DOCTYPE')) {
          // Skipped, as saxes did: its entity declarations were never used either.
          const q = doctypeEnd(b, p + 9);
          if (q < 0) return p;
          p = q;
          continue;
        }
        this.fail(`a declaration (${b.toString('latin1', p, p + 9)}...) this reader does not read`);
      }
      // An open tag: its name, then attributes up to `>` outside quotes.
      let q = p + 1;
      let hash = 0;
      while (q < end) {
        const c = b[q];
        if (c === GT || c === SLASH || isSpace(c)) break;
        hash = (Math.imul(hash, 31) + c) | 0;
        q++;
      }
      const nameEnd = q;
      if (nameEnd === p + 1 && q < end) this.fail('a tag without a name');
      const name = nameCode(b, p + 1, nameEnd);
      const wantsAttributes = name === Name.C || name === Name.Row;
      if (wantsAttributes) this.attributes.reset(b);
      // Attributes: `name = "value"` or `'value'`.
      let closed = false;
      for (;;) {
        while (q < end && isSpace(b[q])) q++;
        if (q >= end) return p;
        const c = b[q];
        if (c === GT) { q++; break; }
        if (c === SLASH) {
          if (q + 1 >= end) return p;
          if (b[q + 1] !== GT) this.fail('a "/" inside a tag');
          closed = true;
          q += 2;
          break;
        }
        const attributeStart = q;
        while (q < end && b[q] !== 0x3d && b[q] !== GT && !isSpace(b[q])) q++;
        const attributeEnd = q;
        while (q < end && isSpace(b[q])) q++;
        if (q >= end) return p;
        if (b[q] !== 0x3d) this.fail('an attribute without a value');
        q++;
        while (q < end && isSpace(b[q])) q++;
        if (q >= end) return p;
        const quote = b[q];
        if (quote !== 0x22 && quote !== 0x27) this.fail('an attribute value without quotes');
        // Values are short (`A1`, `s`): a loop beats a call to indexOf.
        let valueEnd = q + 1;
        while (valueEnd < end && b[valueEnd] !== quote) valueEnd++;
        if (valueEnd >= end) return p;
        if (wantsAttributes && attributeEnd === attributeStart + 1) this.attributes.set(b[attributeStart], q + 1, valueEnd);
        q = valueEnd + 1;
      }
      if (this.depth === this.stack.length) {
        const grown = new Int32Array(this.stack.length * 2);
        grown.set(this.stack);
        this.stack = grown;
      }
      this.stack[this.depth++] = hash;
      if (name === Name.Row && hash !== this.rowHash) {
        this.rowHash = hash;
        this.rowClose = Buffer.concat([Buffer.from('</'), b.subarray(p + 1, nameEnd), Buffer.from('>')]);
      }
      if (name === Name.Row) this.rowDepth = this.depth;
      handler.open(name, this.attributes);
      if (closed) {
        this.depth--;
        handler.close(name);
      }
      p = q;
      if (closed && handler.skipsRow) p = this.skipRow(b, p);
    }
    return p;
  }
}
