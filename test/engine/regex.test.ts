import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { asciiClass, asciiClassReplacer, compileRegex, compileReplacement, runsInLinearTime } from '../../src/engine/regex.js';
import { text } from '../../src/engine/steps/text.js';
import { expectRows, makeConfig, makeContext, makeTable } from '../support/rows.js';

describe('text rules in linear time', () => {
  it('finishes (a+)+$ on forty a and a ! at once, with the same result as a backtracking engine', async () => {
    const hostile = 'a'.repeat(40) + '!';
    const config = makeConfig({ text: { regexReplacement: { name: new Map([['(a+)+$', 'X'], ['b(a+)+$', 'Y']]) } } });
    const rows = Array.from({ length: 200 }, (_, i) => [i % 2 ? hostile : 'a'.repeat(i) + 'b']);
    const ctx = makeContext();
    text.check!(config, ['name'], ctx);
    // A backtracking engine alone needs 2^40 steps per value; the linear fallback answers in milliseconds.
    await expectRows(text.apply(makeTable(['name'], rows), config, ctx), rows.map(([v], i) => ({ name: i % 2 ? hostile : (v as string).replace(/(a+)+$/g, 'X') })));
  }, 20_000);

  it('refuses what the linear engine cannot run, saying why and how to rewrite it', () => {
    for (const pattern of ['(a)\\1', '(?=x)y', '(?<=\\$)\\d+', '(?!a)b', '\\d{1,20}', '(?:ab){17}']) {
      expect(runsInLinearTime(pattern), pattern).toBe(false);
      expect(() => compileRegex(pattern, 'Text rule for field "f"')).toThrow(UsageError);
    }
    expect(() => compileRegex('\\d{1,20}', 'Text rule for field "f"')).toThrow(
      /^Text rule for field "f": the regular expression "\\\\d\{1,20\}" cannot be run in linear time, .*repetition counts over 16 .*\\d\+ for \\d\{1,20\}/,
    );
  });

  it('accepts the patterns people write for cleaning data', () => {
    for (const pattern of ['[^0-9]', '^\\s+|\\s+$', '\\s{2,}', '(\\d{3})-(\\d{4})', '\\d{1,16}', '(?<year>\\d{4})-(?<month>\\d{2})', '[A-Z][a-z]*', '.*?,', '\\bN/A\\b', '[\\u00c0-\\u017f]+', '(a+)+$']) {
      expect(runsInLinearTime(pattern), pattern).toBe(true);
    }
  });

  it('gives exactly the results of a backtracking engine (ECMAScript leftmost-first, $ references)', () => {
    // The `l` flag runs a pattern on the linear engine from the start: the engine a hostile match falls back to.
    const patterns = ['[^0-9]', '(\\d+)-(\\d+)', '^\\s+|\\s+$', '\\s+', '(a|ab)(c|bcd)(d*)', '(a+)+$', '(a*)*b', '(x?)*y', '\\b\\w', '(?:(a)|b)+',
      '(a)|(b)', '^(\\w+)@(\\w+)\\.com$', '.*?', 'x*', '(?<y>\\d{4})-(?<m>\\d{2})', '[A-Z][a-z]*', '(\\s*,\\s*)+', '^$', 'a|b|', '(a?){3}', '((a)|b)*', '[\\u00c0-\\u017f]+', '\\W+', '^.', '.$'];
    const inputs = ['', 'a', 'aaa!', 'abcd', '(555) 123-4567', '  hello  world  ', "Mary-Jane O'NEIL", 'abab', 'xxy', 'x y\nz', 'foo@bar.com', '2024-03-05', 'a,  b ,c,,d', 'ÄÖü élan', '\u2028line', 'ab', 'aab'];
    const replacements = ['', '[$&]', '$1|$2', '$<y>/$<m>', '$$', '$`', "$'", '<$1>'];
    let compared = 0;
    for (const pattern of patterns) {
      const backtracking = compileRegex(pattern, 'test');
      const linear = new RegExp(pattern, 'gl');
      for (const input of inputs) {
        for (const replacement of replacements) {
          expect(input.replace(linear, replacement), `${pattern} on ${JSON.stringify(input)} with ${replacement}`).toBe(input.replace(backtracking, replacement));
          compared++;
        }
      }
    }
    expect(compared).toBe(patterns.length * inputs.length * replacements.length);
  });
});

describe('one-class patterns replaced in JavaScript', () => {
  /** Seeded text of ASCII characters (controls included), now and then one that is not ASCII. */
  function texts(count: number): string[] {
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    return Array.from({ length: count }, (_, i) => {
      const length = Math.floor(next() * 40);
      let text = '';
      for (let k = 0; k < length; k++) text += String.fromCharCode(Math.floor(next() * 128));
      return i % 10 === 9 ? text + 'é😀' : text;
    });
  }

  it('gives exactly the RegExp\'s result for every class it takes', () => {
    const patterns = ['[^0-9]', '[0-9]', '[-() ]', '[a-z-0]', '[--/]', '[\\d-z]', '[\\D]', '[\\w.]', '[^\\W_]', '[\\s]', '[\\S]',
      '[\\--a]', '[.-]', '[\\]\\[]', '[\\\\]', '[^a-zA-Z]', '[\\^^]', '[$]', '[\t]', '[ -~]', '[^ -~]'];
    const replacements = ['', 'X', '--', 'a b'];
    const values = texts(400);
    for (const pattern of patterns) {
      expect(asciiClass(pattern), pattern).toBeDefined();
      for (const replacement of replacements) {
        const fast = asciiClassReplacer(pattern, replacement)!;
        const regex = new RegExp(pattern, 'g');
        const replace = compileReplacement(pattern, replacement, 'test');
        for (const value of values) {
          const expected = value.replace(regex, replacement);
          // Not ASCII: the RegExp's turn.
          expect(fast(value), `${pattern} -> ${replacement} on ${JSON.stringify(value)}`).toBe(/^[\x00-\x7f]*$/.test(value) ? expected : undefined);
          expect(replace(value)).toBe(expected);
        }
      }
    }
  });

  it('leaves every other pattern and replacement to the RegExp', () => {
    for (const pattern of ['[a]|[b]', '[a][b]', '[^]]', '[é]', '[\\b]', '[\\x41]', '[\\u0041]', '[a-\\d]', 'a', '[a]+', '\\d', '[^0-9]g']) {
      expect(asciiClass(pattern), pattern).toBeUndefined();
    }
    expect(asciiClassReplacer('[0-9]', '$&$&')).toBeUndefined();
    expect(asciiClassReplacer('[0-9]', 'é')).toBeUndefined();
    const replace = compileReplacement('[0-9]', '<$&>', 'test');
    expect(replace('a1b22')).toBe('a<1>b<2><2>');
    // Longer than the scratch bytes: the RegExp's turn, the same result.
    const long = '(555) 123-4567 '.repeat(400);
    expect(asciiClassReplacer('[^0-9]', 'xx')!(long)).toBeUndefined();
    expect(compileReplacement('[^0-9]', 'xx', 'test')(long)).toBe(long.replace(/[^0-9]/g, 'xx'));
  });
});

