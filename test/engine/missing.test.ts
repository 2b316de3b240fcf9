import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isMissing } from '../../src/engine/missing.js';

/**
 * engine.md: missing is absent, null, or text that is empty or only whitespace, which it leaves
 * undefined: Python's str.isspace (pandas is the parity reference), which is JavaScript's \s and NEL
 * and the information separators U+001C..U+001F, without U+FEFF.
 */
const reference = (text: string) => /^[\s\u0085\u001c-\u001f]*$/.test(text) && !text.includes('\ufeff');

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

  it('takes exactly what Python strips as whitespace, as pandas and the parity reference do', () => {
    const python = '/usr/bin/python3';
    const script = 'import json; print(json.dumps([c for c in range(0x10000) if chr(c).isspace()]))';
    const r = spawnSync(python, ['-c', script], { encoding: 'utf8' });
    if (r.status !== 0) {
      console.log(`skipped the comparison with Python: ${python} did not run (${r.error?.message ?? r.stderr})`);
      return;
    }
    const spaces = new Set<number>(JSON.parse(r.stdout));
    const disagreements: string[] = [];
    for (let c = 0; c <= 0xffff; c++) if (isMissing(String.fromCharCode(c)) !== spaces.has(c)) disagreements.push(c.toString(16));
    expect(disagreements).toEqual([]);
    expect(isMissing('\u001c\u001f ')).toBe(true);
    expect(isMissing('\ufeff')).toBe(false);
  });
});
