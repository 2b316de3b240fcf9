/**
 * Step 8, text processing: per field, every regular-expression replacement in key order, then
 * the casing. Text rules act on text values only: number cells (after the data-type step) are
 * left alone, since rewriting a number's text and parsing it back would make the type step's
 * work depend on a later step. date_time values are text (`YYYY-MM-DDTHH:mm:ss`) and are processed.
 */
import { CASINGS, READ_ONLY_CASINGS, type Casing } from '../../contract/index.js';
import { UsageError } from '../../errors.js';
import { isMissing } from '../missing.js';
import { compileRegex } from '../regex.js';
import type { Batch, EngineConfig, Row, Step, StepContext, Table, TextChangeCount } from '../types.js';
import { fieldIndex } from './map.js';

const ALL_CASINGS: readonly Casing[] = [...CASINGS, ...READ_ONLY_CASINGS];

/** The casing a configured value names, ignoring case; `undefined` when none. */
export function casingOf(value: unknown): Casing | undefined {
  // Seed leaves the case of values open; we accept any case, as for methods.
  if (typeof value !== 'string') return undefined;
  const lower = value.toLowerCase();
  return ALL_CASINGS.find((c) => c === lower);
}

function isCased(ch: string): boolean {
  return ch.toLowerCase() !== ch.toUpperCase();
}

/** Title case as Python's `str.title`: a letter after a non-letter (or at the start) is upper case, every other letter lower case. */
export function titleCase(text: string): string {
  let out = '';
  let isAfterLetter = false;
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (code < 128) {
      const isUpper = code >= 65 && code <= 90;
      const isLower = code >= 97 && code <= 122;
      if (isUpper || isLower) {
        out += isAfterLetter ? (isUpper ? String.fromCharCode(code + 32) : ch) : (isLower ? String.fromCharCode(code - 32) : ch);
        isAfterLetter = true;
      } else {
        out += ch;
        isAfterLetter = false;
      }
    } else if (isCased(ch)) {
      out += isAfterLetter ? ch.toLowerCase() : ch.toUpperCase();
      isAfterLetter = true;
    } else {
      out += ch;
      isAfterLetter = false;
    }
  }
  return out;
}

/** Inverts the case of each letter, as Python's `str.swapcase`. */
export function swapCase(text: string): string {
  let out = '';
  for (const ch of text) {
    const lower = ch.toLowerCase();
    out += lower !== ch ? lower : ch.toUpperCase();
  }
  return out;
}

/** First character upper case, the rest lower case, as Python's `str.capitalize`. */
export function capitalize(text: string): string {
  if (text === '') return text;
  const first = String.fromCodePoint(text.codePointAt(0) as number);
  return first.toUpperCase() + text.slice(first.length).toLowerCase();
}

/** The function applying a casing to text. */
export function casingFunction(casing: Casing): (text: string) => string {
  switch (casing) {
    case 'upper': return (t) => t.toUpperCase();
    case 'lower': return (t) => t.toLowerCase();
    case 'title': return titleCase;
    case 'swap': return swapCase;
    case 'capitalize': return capitalize;
  }
}

/**
 * Compiles a regexReplacement pattern as the engine runs it (regex.ts: ECMAScript, global, linear
 * time); throws a UsageError naming field and pattern when it is invalid or cannot run in linear time.
 */
export function compilePattern(field: string, pattern: string): RegExp {
  try {
    new RegExp(pattern, 'g');
  } catch (e) {
    throw new UsageError(`Regular expression ${JSON.stringify(pattern)} for field "${field}" is invalid: ${(e as Error).message}.`);
  }
  return compileRegex(pattern, `Text rule for field "${field}"`);
}

interface FieldRules {
  field: string;
  rules: { label: string; apply: (text: string) => string }[];
}

function validate(config: EngineConfig): FieldRules[] {
  const byField = new Map<string, FieldRules>();
  const rulesOf = (field: string) => {
    let entry = byField.get(field);
    if (!entry) { entry = { field, rules: [] }; byField.set(field, entry); }
    return entry.rules;
  };
  for (const [field, replacements] of Object.entries(config.text?.regexReplacement ?? {})) {
    if (replacements === null || typeof replacements !== 'object') {
      throw new UsageError(`regexReplacement for field "${field}" must map patterns to replacement text.`);
    }
    for (const [pattern, replacement] of Object.entries(replacements)) {
      if (typeof replacement !== 'string') {
        throw new UsageError(`Replacement for pattern ${JSON.stringify(pattern)} of field "${field}" must be text (it may be empty).`);
      }
      const re = compilePattern(field, pattern);
      rulesOf(field).push({ label: `regex ${pattern}`, apply: (t) => t.replace(re, replacement) });
    }
  }
  for (const [field, value] of Object.entries(config.text?.casing ?? {})) {
    const casing = casingOf(value);
    if (!casing) throw new UsageError(`Casing "${String(value)}" for field "${field}" is not one of ${ALL_CASINGS.join(', ')}.`);
    rulesOf(field).push({ label: `casing ${casing}`, apply: casingFunction(casing) });
  }
  return [...byField.values()];
}

interface ActiveRule { apply: (text: string) => string; change: TextChangeCount }

/** Step 8: regular-expression replacements, then casing, on text values; a value left empty becomes missing. */
export const text: Step = {
  name: 'text',
  check(config) {
    validate(config);
  },
  apply(input: Table, config: EngineConfig, ctx: StepContext): Table {
    const fields: { index: number; rules: ActiveRule[] }[] = [];
    for (const { field, rules } of validate(config)) {
      const index = fieldIndex(input.columns, field, ctx, `Text processing for field "${field}"`);
      if (index < 0) continue;
      fields.push({
        index,
        rules: rules.map(({ label, apply }) => {
          // Listed in the report even when nothing changes, in the order rules run.
          const change: TextChangeCount = { rule: label, field, count: 0 };
          ctx.report.textChanges.push(change);
          return { apply, change };
        }),
      });
    }
    if (fields.length === 0) return input;
    const processRow = (row: Row): Row => {
      let out = row;
      for (const { index, rules } of fields) {
        const value = row[index];
        if (typeof value !== 'string' || isMissing(value)) continue;
        let current: string | null = value;
        for (const rule of rules) {
          const next = rule.apply(current);
          if (next === current) continue;
          rule.change.count++;
          // engine.md: a value that becomes empty is missing from then on; later rules skip it.
          if (isMissing(next)) { current = null; break; }
          current = next;
        }
        if (current !== value) {
          if (out === row) out = row.slice();
          out[index] = current;
        }
      }
      return out;
    };
    async function* batches(): AsyncGenerator<Batch> {
      for await (const batch of input.batches) {
        yield { rows: batch.rows.map(processRow), rowNumbers: batch.rowNumbers };
      }
    }
    return { columns: input.columns, types: input.types, batches: batches() };
  },
};
