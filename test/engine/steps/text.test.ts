import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { capitalize, swapCase, text, titleCase } from '../../../src/engine/steps/text.js';
import type { TextProcessingConfig } from '../../../src/contract/index.js';
import type { Row } from '../../../src/engine/types.js';
import { expectRows, makeConfig, makeContext, makeTable } from '../../support/rows.js';

function run(rows: Row[], config: TextProcessingConfig) {
  const engineConfig = makeConfig({ text: config });
  const ctx = makeContext();
  text.check!(engineConfig, ['name'], ctx);
  return { out: text.apply(makeTable(['name'], rows, { freeze: true }), engineConfig, ctx), ctx };
}

describe('text step', () => {
  it('applies every regular-expression replacement globally, in written order, with $1 references', async () => {
    const { out } = run([['(555) 123-4567'], ['abc']], { regexReplacement: { name: new Map([['[()\\s-]', ''], ['^(\\d{3})(\\d{3})', '$1.$2.']]) } });
    await expectRows(out, [{ name: '555.123.4567' }, { name: 'abc' }]);
  });

  it('applies rules in written order even when the patterns are integer-like ("9" before "0")', async () => {
    const { out } = run([['90']], { regexReplacement: { name: new Map([['9', 'X'], ['0', '9']]) } });
    await expectRows(out, [{ name: 'X9' }]);
  });

  it('applies casing after the replacements', async () => {
    const { out } = run([['  mary  ']], { regexReplacement: { name: new Map([['^\\s+|\\s+$', '']]) }, casing: { name: 'upper' } });
    await expectRows(out, [{ name: 'MARY' }]);
  });

  it('title-cases as Python does: mary-jane o\'NEIL becomes Mary-Jane O\'Neil', async () => {
    const { out } = run([["mary-jane o'NEIL"], ['élan VITAL 2nd']], { casing: { name: 'title' } });
    await expectRows(out, [{ name: "Mary-Jane O'Neil" }, { name: 'Élan Vital 2Nd' }]);
  });

  it('upper-cases, lower-cases, swaps and capitalizes', async () => {
    await expectRows(run([['Hello World']], { casing: { name: 'upper' } }).out, [{ name: 'HELLO WORLD' }]);
    await expectRows(run([['Hello World']], { casing: { name: 'lower' } }).out, [{ name: 'hello world' }]);
    await expectRows(run([['Hello World']], { casing: { name: 'swap' } }).out, [{ name: 'hELLO wORLD' }]);
    await expectRows(run([['hELLO wORLD']], { casing: { name: 'capitalize' } }).out, [{ name: 'Hello world' }]);
  });

  it('accepts casing values in any case', async () => {
    await expectRows(run([['ab']], { casing: { name: 'UPPER' as never } }).out, [{ name: 'AB' }]);
  });

  it('makes a value that becomes empty missing', async () => {
    const { out } = run([['N/A'], ['x']], { regexReplacement: { name: new Map([['^N/A$', '']]) }, casing: { name: 'upper' } });
    await expectRows(out, [{ name: null }, { name: 'X' }]);
  });

  it('counts changed cells per rule', async () => {
    const { out, ctx } = run([['a-b'], ['cd'], ['E-F']], { regexReplacement: { name: new Map([['-', ' ']]) }, casing: { name: 'lower' } });
    await expectRows(out, [{ name: 'a b' }, { name: 'cd' }, { name: 'e f' }]);
    expect(ctx.report.textChanges).toEqual([
      { rule: 'regex -', field: 'name', count: 2, examples: [{ before: 'a-b', after: 'a b' }, { before: 'E-F', after: 'E F' }] },
      { rule: 'casing lower', field: 'name', count: 1, examples: [{ before: 'E F', after: 'e f' }] },
    ]);
  });

  it('leaves number values alone', async () => {
    const config = makeConfig({ text: { regexReplacement: { n: new Map([['1', '2']]) } } });
    await expectRows(text.apply(makeTable(['n'], [[1], ['1']], { types: ['number'] }), config, makeContext()), [{ n: 1 }, { n: '2' }]);
  });

  it('refuses an invalid pattern, naming the field and the pattern', () => {
    const config = makeConfig({ text: { regexReplacement: { name: new Map([['([a-z', '']]) } } });
    expect(() => text.check!(config, ['name'], makeContext())).toThrow(UsageError);
    expect(() => text.check!(config, ['name'], makeContext())).toThrow(/Text rule for field "name": the regular expression "\(\[a-z" does not compile/);
  });

  it('refuses an unknown casing', () => {
    const config = makeConfig({ text: { casing: { name: 'sentence' as never } } });
    expect(() => text.check!(config, ['name'], makeContext())).toThrow('Casing "sentence" for field "name" is not one of upper, lower, title, swap, capitalize.');
  });
});

describe('casing functions', () => {
  it('follow Python str.title, swapcase and capitalize', () => {
    expect(titleCase("they're bill's friends from the UK")).toBe("They'Re Bill'S Friends From The Uk");
    expect(swapCase('ÄbC')).toBe('äBc');
    // Python's swapcase keeps the final sigma (these are its answers, from python3 3.11).
    const python: [string, string][] = [['ΟΔΟΣ', 'οδος'], ['ΑΣ ΣΑΣ', 'ας σας'], ['Σ', 'σ'], ["ΑΣ'Α", "ασ'α"], ["ΑΣ'", "ας'"], ['ΣΑ', 'σα'], ['aΣ1', 'Aς1'], ['ΌΣΟΣ.', 'όσος.']];
    for (const [input, expected] of python) expect(swapCase(input), input).toBe(expected);
    expect(capitalize('')).toBe('');
    expect(capitalize('ÉCOLE')).toBe('École');
  });

  it('keep a final sigma when capitalizing and a titlecase letter when swapping, as Python does', () => {
    // Python 3.11: 'ΑΣ1'.capitalize() == 'Ας1', 'aΣ b'.capitalize() == 'Aς b', 'ǅ'.swapcase() == 'ǅ'.
    expect(capitalize('ΑΣ1')).toBe('Ας1');
    expect(capitalize('aΣ b')).toBe('Aς b');
    expect(capitalize('ΟΔΟΣ ΟΔΟΣ')).toBe('Οδος οδος');
    // engine.md puts the first character in upper case, where Python uses its title case ('Ss').
    expect(capitalize('ßig')).toBe('SSig');
    expect(capitalize('İSTANBUL')).toBe('İstanbul');
    expect(swapCase('ǅungla')).toBe('ǅUNGLA');
    expect(swapCase('ᾈ ᾀ')).toBe('ᾈ ἈΙ');
  });
});
