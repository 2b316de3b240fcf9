// Job files cost work linear in their size, whatever they hold: big collections, YAML aliases
// (including a "billion laughs"), aliases that contain themselves, unclosed brackets, deep nesting.
import { describe, expect, it } from 'vitest';
import { keysInOrder, stringifyJson } from '../../src/contract/json.js';
import { formatProblems, validateJobFileText } from '../../src/jobfile/validate.js';

const opts = { path: '/jobs/job.yaml', displayPath: 'job.yaml', env: {} };
const check = (text: string) => validateJobFileText(text, opts);
const problemsOf = (text: string) => formatProblems(check(text).problems).split('\n').filter(Boolean);

/**
 * The CPU time (not wall time: the machine may be busy) of validating `text`, in ms: the least
 * of three runs, so a pause elsewhere in the process does not count.
 */
function timeOf(text: string): number {
  const times = [0, 1, 2].map(() => {
    const start = process.cpuUsage();
    check(text);
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000;
  });
  return Math.min(...times);
}

const mappingOf = (n: number) => `version: 1\ninput: {file: a.csv}\nconfig:\n  mapping:\n${Array.from({ length: n }, (_, i) => `    col_${i}: field_${i}\n`).join('')}`;
const rulesOf = (n: number) => `version: 1\ninput: {file: a.csv}\nconfig:\n  rowDropping:\n${Array.from({ length: n }, (_, i) => `    - {method: missingValues, fields: [f${i}]}\n`).join('')}`;

describe('the cost of a job file', () => {
  it('grows linearly with a collection: 4x the entries take well under 16x the time (quadratic)', { timeout: 120_000 }, () => {
    for (const make of [mappingOf, rulesOf]) {
      check(make(1000)); // warm up the JIT
      const small = timeOf(make(2500));
      const large = timeOf(make(10000));
      expect({ make: make.name, ratio: large / small }).toEqual({ make: make.name, ratio: expect.any(Number) });
      expect(large / small).toBeLessThan(8);
    }
  });

  it('validates a 1 MB job file with a 50,000-entry mapping', { timeout: 60_000 }, () => {
    const text = mappingOf(50_000);
    expect(text.length).toBeGreaterThan(1_000_000);
    const result = check(text);
    expect(result.problems).toEqual([]);
    expect(keysInOrder(result.job!.config.mapping!)).toHaveLength(50_000);
  });

  it('refuses a YAML alias bomb in input.rows at once, naming where', () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (const [prev, name] of [['a', 'b'], ['b', 'c'], ['c', 'd'], ['d', 'e'], ['e', 'f'], ['f', 'g'], ['g', 'h'], ['h', 'i']]) {
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const bomb = `version: 1\ninput:\n  rows:\n    - {${levels.join(', ')}}\n`;
    expect(bomb.length).toBeLessThan(430);
    const start = performance.now();
    const problems = problemsOf(bomb);
    expect(performance.now() - start).toBeLessThan(5000); // 82 s and 810 MB before
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^job\.yaml:4:\d+: YAML aliases expand here to more than [\d,]+ values, far more than the file's \d+ bytes hold; write the values out instead of repeating them through aliases\.$/);
  });

  it('allows aliases that repeat a value a few times', () => {
    const result = check('version: 1\ninput:\n  rows:\n    - &row {id: 1, name: Ann}\n    - *row\n    - *row\n');
    expect(result.problems).toEqual([]);
    expect(result.job!.input.rows).toEqual([{ id: 1, name: 'Ann' }, { id: 1, name: 'Ann' }, { id: 1, name: 'Ann' }]);
  });

  it('names an alias that contains itself instead of overflowing the stack', () => {
    expect(problemsOf('version: 1\ninput:\n  rows:\n    - &x {a: *x}\n')).toEqual([
      'job.yaml:4:14: the alias *x stands for a value that contains it, so it never ends; write the value out instead.',
    ]);
    expect(problemsOf('version: 1\ninput:\n  rows:\n    - {a: &y [1, [2, *y]]}\n')).toEqual([
      'job.yaml:4:22: the alias *y stands for a value that contains it, so it never ends; write the value out instead.',
    ]);
  });

  it('names an unclosed "[" followed by 2,000 lines once, at the bracket', () => {
    const text = `version: 1\ninput:\n  rows: [\n${'    {a: 1},\n'.repeat(2000)}`;
    expect(problemsOf(text)).toEqual([
      'job.yaml:3:9: invalid YAML: this "[" is never closed (the parser reached line 2004 looking for "]"); add the "]".',
    ]);
    const mapping = `version: 1\ninput: {file: a.csv}\nconfig:\n  mapping: [\n${'  a: b\n'.repeat(2000)}`;
    expect(problemsOf(mapping)).toEqual([
      expect.stringMatching(/^job\.yaml:4:12: invalid YAML: this "\[" is never closed/),
    ]);
  });

  it('refuses brackets nested past 64 levels before parsing them', () => {
    expect(problemsOf(`version: 1\ninput:\n  rows: ${'['.repeat(5000)}${']'.repeat(5000)}\n`)).toEqual([
      'job.yaml:3:73: brackets nest more than 64 levels deep here; a job file needs only a few levels, so look for a "[" or "{" that is never closed.',
    ]);
    expect(problemsOf(`version: 1\ninput:\n  rows: [\n${'    [\n'.repeat(2000)}`)[0]).toMatch(/^job\.yaml:67:5: brackets nest more than 64 levels/);
  });

  it('does not count brackets inside quotes, comments or words', () => {
    const text = `version: 1\n# [[[[ a comment\nname: "[[[[[["\npipeline: a[b[c{d\ninput:\n  rows: [{note: 'it''s [x', w: "a[b"}]\n${'config: {sheet: "x["}\n'}`;
    expect(check(text).problems).toEqual([]);
  });
});

describe('keys in a job file', () => {
  it('keeps input.rows keys in written order, integer-like ones included, and sends them so', () => {
    const result = check('version: 1\ninput:\n  rows:\n    - {TQ: a, "1976": b, "1962": c, __proto__: d}\n');
    const [row] = result.job!.input.rows!;
    expect(keysInOrder(row)).toEqual(['TQ', '1976', '1962', '__proto__']);
    expect(Object.prototype.hasOwnProperty.call(row, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(stringifyJson(result.job!.input.rows)).toBe('[{"TQ":"a","1976":"b","1962":"c","__proto__":"d"}]');
  });

  it('keeps regexReplacement rules in written order, as a Map per field', () => {
    const result = check('version: 1\ninput: {file: a.csv}\nconfig:\n  text:\n    regexReplacement:\n      phone: {"9": X, "0": "9", "__proto__": p}\n');
    const rules = result.job!.config.text!.regexReplacement!.phone;
    expect(rules).toBeInstanceOf(Map);
    expect([...rules]).toEqual([['9', 'X'], ['0', '9'], ['__proto__', 'p']]);
  });

  it('takes __proto__ and "1962" as ordinary keys of the mapping and other keyed maps', () => {
    const result = check('version: 1\ninput: {file: a.csv}\nconfig:\n  mapping: {__proto__: proto, "1962": y1962, constructor: c}\n  dataTypes: {__proto__: number}\n');
    const { mapping, dataTypes } = result.job!.config;
    expect(keysInOrder(mapping!)).toEqual(['__proto__', '1962', 'constructor']);
    expect(mapping!.__proto__).toBe('proto');
    expect(Object.prototype.hasOwnProperty.call(dataTypes, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).proto).toBeUndefined();
  });
});
