import { describe, expect, it } from 'vitest';
import { isMissing } from '../../src/engine/missing.js';

/** engine.md: missing is absent, null, or text that is empty or only whitespace (JavaScript's \s, and NEL). */
const reference = (text: string) => /^[\s\u0085]*$/.test(text);

describe('isMissing', () => {
  it('takes absent and null as missing, and nothing else that is not text', () => {
    expect(isMissing(undefined)).toBe(true);
    expect(isMissing(null)).toBe(true);
    for (const value of [0, Number.NaN, false, {}, []]) expect(isMissing(value)).toBe(false);
  });

  it('agrees with the definition on every UTF-16 code unit, alone, after spaces and before text', () => {
    const disagreements: string[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      const ch = String.fromCharCode(c);
      for (const text of [ch, `  ${ch}`, `\t${ch}\u3000`, `${ch}x`]) {
        if (isMissing(text) !== reference(text)) disagreements.push(JSON.stringify(text));
      }
    }
    expect(disagreements).toEqual([]);
    expect(isMissing('')).toBe(true);
  });
});
