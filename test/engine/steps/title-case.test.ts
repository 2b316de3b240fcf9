/**
 * `title` casing is exactly Python's `str.title` (engine.md step 8), checked against a table that
 * Python wrote (test/fixtures/unicode/make-title-case.py; see its README for how it was made).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { titleCase } from '../../../src/engine/steps/text.js';

const lines = readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'unicode', 'title-case.jsonl'), 'utf8').trimEnd().split('\n');
const versions = JSON.parse(lines[0]) as { python: string; unicode: string };
const rows = lines.slice(1).map((line) => JSON.parse(line) as [string, string, string, string]);
/*
 * Rows whose plain upper or lower case differs between Python's Unicode and Node's (letters that
 * got a case partner in a later Unicode version, e.g. ƛ/Ƛ in Unicode 16) test the Unicode data,
 * not the title rule: they are set aside.
 */
const sameMappings = ([input, , upper, lower]: string[]) => input.toUpperCase() === upper && input.toLowerCase() === lower;
const table = rows.filter(sameMappings);
const versionDifferences = rows.filter((row) => !sameMappings(row)).map(([input]) => input);

describe(`titleCase against Python ${versions.python} (Unicode ${versions.unicode})`, () => {
  it('has a table covering thousands of characters, few of them mapped differently by the two Unicode versions', () => {
    expect(table.length).toBeGreaterThan(5000);
    expect(versionDifferences.length, versionDifferences.join(' ')).toBeLessThan(20);
  });

  it('gives Python\'s str.title for every row of the table', () => {
    const differences = table.filter(([input, expected]) => titleCase(input) !== expected)
      .map(([input, expected]) => `${JSON.stringify(input)}: Python ${JSON.stringify(expected)}, ours ${JSON.stringify(titleCase(input))}`);
    expect(differences).toEqual([]);
  });

  it.each([
    ['ßig', 'Ssig'], ['ǆungla', 'ǅungla'], ['ΟΔΟΣ', 'Οδος'], ['საქართველო', 'საქართველო'], ["mary-jane o'NEIL", "Mary-Jane O'Neil"], ['2nd', '2Nd'],
  ])('title-cases %j as %j', (input, expected) => {
    expect(titleCase(input)).toBe(expected);
  });
});
