/**
 * Step 8, text processing: per field, every regular-expression replacement in written order, then
 * the casing. Text rules act on text values only: number cells (after the data-type step) are
 * left alone, since rewriting a number's text and parsing it back would make the type step's
 * work depend on a later step. date_time values are text (`YYYY-MM-DDTHH:mm:ss`) and are processed.
 */
import { CASINGS, READ_ONLY_CASINGS, type Casing, type DataType } from '../../contract/index.js';
import { entriesInOrder } from '../../contract/json.js';
import { UsageError } from '../../errors.js';
import { isMissing } from '../missing.js';
import { compileReplacement } from '../regex.js';
import { eachBatch, locatedMessage, ownsRows, REPORT_TEXT_EXAMPLES, type Batch, type EngineConfig, type Row, type Step, type StepContext, type Table, type TextChangeCount } from '../types.js';
import { fieldIndex } from './map.js';

const ALL_CASINGS: readonly Casing[] = [...CASINGS, ...READ_ONLY_CASINGS];

/** The casing a configured value names, ignoring case; `undefined` when none. */
export function casingOf(value: unknown): Casing | undefined {
  // Seed leaves the case of values open; we accept any case, as for methods.
  if (typeof value !== 'string') return undefined;
  const lower = value.toLowerCase();
  return ALL_CASINGS.find((c) => c === lower);
}

/*
 * Titlecase where it is not the uppercase (from Unicode's UnicodeData.txt and SpecialCasing.txt,
 * listed with Python 3.11, Unicode 14): digraphs (ǆ -> ǅ), ß -> Ss, ligatures (ﬁ -> Fi), Greek with
 * iota subscript, and Georgian Mkhedruli, whose titlecase is itself. Every other character
 * title-cases as String.prototype.toUpperCase does.
 */
const TITLE_IS_SELF: readonly [number, number][] = [[0x1c5, 0x1c5], [0x1c8, 0x1c8], [0x1cb, 0x1cb], [0x1f2, 0x1f2], [0x10d0, 0x10fa], [0x10fd, 0x10ff], [0x1f88, 0x1f8f], [0x1f98, 0x1f9f], [0x1fa8, 0x1faf], [0x1fbc, 0x1fbc], [0x1fcc, 0x1fcc], [0x1ffc, 0x1ffc]];
const TITLE_DIFFERS: readonly [number, string][] = [
  [0xdf, 'Ss'], [0x1c4, '\u{1c5}'], [0x1c6, '\u{1c5}'], [0x1c7, '\u{1c8}'], [0x1c9, '\u{1c8}'], [0x1ca, '\u{1cb}'],
  [0x1cc, '\u{1cb}'], [0x1f1, '\u{1f2}'], [0x1f3, '\u{1f2}'], [0x587, '\u{535}\u{582}'], [0x1f80, '\u{1f88}'],
  [0x1f81, '\u{1f89}'], [0x1f82, '\u{1f8a}'], [0x1f83, '\u{1f8b}'], [0x1f84, '\u{1f8c}'], [0x1f85, '\u{1f8d}'],
  [0x1f86, '\u{1f8e}'], [0x1f87, '\u{1f8f}'], [0x1f90, '\u{1f98}'], [0x1f91, '\u{1f99}'], [0x1f92, '\u{1f9a}'],
  [0x1f93, '\u{1f9b}'], [0x1f94, '\u{1f9c}'], [0x1f95, '\u{1f9d}'], [0x1f96, '\u{1f9e}'], [0x1f97, '\u{1f9f}'],
  [0x1fa0, '\u{1fa8}'], [0x1fa1, '\u{1fa9}'], [0x1fa2, '\u{1faa}'], [0x1fa3, '\u{1fab}'], [0x1fa4, '\u{1fac}'],
  [0x1fa5, '\u{1fad}'], [0x1fa6, '\u{1fae}'], [0x1fa7, '\u{1faf}'], [0x1fb2, '\u{1fba}\u{345}'], [0x1fb3, '\u{1fbc}'],
  [0x1fb4, '\u{386}\u{345}'], [0x1fb7, '\u{391}\u{342}\u{345}'], [0x1fc2, '\u{1fca}\u{345}'], [0x1fc3, '\u{1fcc}'],
  [0x1fc4, '\u{389}\u{345}'], [0x1fc7, '\u{397}\u{342}\u{345}'], [0x1ff2, '\u{1ffa}\u{345}'], [0x1ff3, '\u{1ffc}'],
  [0x1ff4, '\u{38f}\u{345}'], [0x1ff7, '\u{3a9}\u{342}\u{345}'], [0xfb00, 'Ff'], [0xfb01, 'Fi'], [0xfb02, 'Fl'],
  [0xfb03, 'Ffi'], [0xfb04, 'Ffl'], [0xfb05, 'St'], [0xfb06, 'St'], [0xfb13, '\u{544}\u{576}'],
  [0xfb14, '\u{544}\u{565}'], [0xfb15, '\u{544}\u{56b}'], [0xfb16, '\u{54e}\u{576}'], [0xfb17, '\u{544}\u{56d}'],
];

const TITLE = new Map<number, string>(TITLE_DIFFERS);
for (const [from, to] of TITLE_IS_SELF) for (let cp = from; cp <= to; cp++) TITLE.set(cp, String.fromCodePoint(cp));

const CASED = /\p{Cased}/u;
const CASE_IGNORABLE = /\p{Case_Ignorable}/u;
/** Per code point: 1 cased, 2 case-ignorable, 0 neither (non-ASCII only; the ASCII answers are cheap). */
const caseClass = new Map<number, number>();

function classOf(cp: number): number {
  if (cp < 128) {
    if ((cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122)) return 1;
    return cp === 39 || cp === 46 || cp === 58 || cp === 94 || cp === 96 ? 2 : 0; // ' . : ^ `
  }
  let known = caseClass.get(cp);
  if (known === undefined) {
    const ch = String.fromCodePoint(cp);
    // Unicode puts no character in both classes that matters here: Cased wins, as in Python's checks.
    known = CASED.test(ch) ? 1 : CASE_IGNORABLE.test(ch) ? 2 : 0;
    caseClass.set(cp, known);
  }
  return known;
}

/** The code point ending at code unit `j` of `text`, and where it starts. */
function pointBefore(text: string, j: number): { cp: number; at: number } {
  const c = text.charCodeAt(j);
  if (c >= 0xdc00 && c <= 0xdfff && j > 0) {
    const high = text.charCodeAt(j - 1);
    if (high >= 0xd800 && high <= 0xdbff) return { cp: text.codePointAt(j - 1) as number, at: j - 1 };
  }
  return { cp: c, at: j };
}

/** Python's final-sigma rule for a capital sigma at code unit `i`, lowered after a cased character: ς at a word's end, else σ. */
function lowerSigma(text: string, i: number): string {
  let j = i - 1;
  let before = 0;
  while (j >= 0) {
    const { cp, at } = pointBefore(text, j);
    before = classOf(cp);
    if (before !== 2) break;
    j = at - 1;
  }
  if (j < 0 || before !== 1) return '\u03c3';
  let k = i + 1;
  while (k < text.length) {
    const cp = text.codePointAt(k) as number;
    const cls = classOf(cp);
    if (cls !== 2) return cls === 1 ? '\u03c3' : '\u03c2';
    k += cp > 0xffff ? 2 : 1;
  }
  return '\u03c2';
}

/**
 * Title case exactly as Python's `str.title`: a character after a cased one takes its lowercase
 * form (a capital sigma its final form at a word's end), any other character its titlecase form;
 * "cased" is Unicode's Cased property, so digits and apostrophes start a new word (`2Nd`, `O'Neil`).
 */
export function titleCase(text: string): string {
  return asciiTitleCase(text) ?? unicodeTitleCase(text);
}

/** Scratch bytes for asciiTitleCase: cells longer than this take the general path. */
const TITLE_SCRATCH = Buffer.allocUnsafeSlow(1024);

/**
 * titleCase of ASCII text, made in one scratch buffer and decoded once (appending character by
 * character made a string per character for the GC); undefined when the text is not all ASCII.
 */
function asciiTitleCase(text: string): string | undefined {
  const n = text.length;
  if (n > TITLE_SCRATCH.length) return undefined;
  const out = TITLE_SCRATCH;
  let isAfterCased = false;
  let isChanged = false;
  for (let i = 0; i < n; i++) {
    const code = text.charCodeAt(i);
    if (code >= 128) return undefined;
    let c = code;
    if (code >= 65 && code <= 90) {
      if (isAfterCased) c = code + 32;
      isAfterCased = true;
    } else if (code >= 97 && code <= 122) {
      if (!isAfterCased) c = code - 32;
      isAfterCased = true;
    } else isAfterCased = false;
    if (c !== code) isChanged = true;
    out[i] = c;
  }
  return isChanged ? out.toString('latin1', 0, n) : text;
}

/** titleCase for any text, character by character. */
function unicodeTitleCase(text: string): string {
  let out = '';
  let isAfterCased = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 128) {
      const isUpper = code >= 65 && code <= 90;
      const isLower = code >= 97 && code <= 122;
      if (isUpper || isLower) {
        out += isAfterCased ? (isUpper ? String.fromCharCode(code + 32) : text[i]) : (isLower ? String.fromCharCode(code - 32) : text[i]);
        isAfterCased = true;
      } else {
        out += text[i];
        isAfterCased = false;
      }
      continue;
    }
    const cp = text.codePointAt(i) as number;
    const ch = String.fromCodePoint(cp);
    if (isAfterCased) out += cp === 0x3a3 ? lowerSigma(text, i) : ch.toLowerCase();
    else out += TITLE.get(cp) ?? ch.toUpperCase();
    isAfterCased = classOf(cp) === 1;
    if (cp > 0xffff) i++;
  }
  return out;
}

/** A letter of Unicode's titlecase category (`ǅ`, `ᾈ`). */
const TITLECASE_LETTER = /^\p{Lt}$/u;

/**
 * Inverts the case of each letter, as Python's `str.swapcase`, with its final sigma: a `Σ` after a
 * cased letter and not before one becomes `ς` (`ΟΔΟΣ` -> `οδος`), as lowering the whole text does.
 */
export function swapCase(text: string): string {
  let out = '';
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i) as number;
    const ch = String.fromCodePoint(cp);
    if (cp === 0x3a3) out += lowerSigma(text, i);
    else {
      const lower = ch.toLowerCase();
      // A titlecase letter (`ǅ`) is neither upper nor lower case, so Python leaves it as it is.
      out += lower === ch ? ch.toUpperCase() : ch.toUpperCase() !== ch && TITLECASE_LETTER.test(ch) ? ch : lower;
    }
    i += ch.length;
  }
  return out;
}

/**
 * First character upper case, the rest lower case (engine.md), as Python's `str.capitalize` but
 * for the first character, which engine.md puts in upper case (`ß` -> `SS`) and Python in title
 * case. The rest is lowered in its place in the text, so a final sigma stays one (`ΑΣ` -> `Ας`).
 */
export function capitalize(text: string): string {
  if (text === '') return text;
  const first = String.fromCodePoint(text.codePointAt(0) as number);
  // The first character's lower case needs no context (a sigma at the start is never final).
  return first.toUpperCase() + text.toLowerCase().slice(first.toLowerCase().length);
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
    // The rules are a Map in the order they were written ("9" before "0" stays so); the order is their meaning.
    for (const [pattern, replacement] of entriesInOrder(replacements)) {
      if (typeof replacement !== 'string') {
        throw new UsageError(`Replacement for pattern ${JSON.stringify(pattern)} of field "${field}" must be text (it may be empty).`);
      }
      rulesOf(field).push({ label: `regex ${pattern}`, apply: compileReplacement(pattern, replacement, `Text rule for field "${field}"`) });
    }
  }
  for (const [field, value] of Object.entries(config.text?.casing ?? {})) {
    const casing = casingOf(value);
    if (!casing) throw new UsageError(`Casing "${String(value)}" for field "${field}" is not one of ${ALL_CASINGS.join(', ')}.`);
    rulesOf(field).push({ label: `casing ${casing}`, apply: casingFunction(casing) });
  }
  return [...byField.values()];
}

/**
 * What text rules do on a field of this type, when it is not what they seem to promise: nothing on
 * a number field, and on a date_time field they edit the date as the data-type step wrote it.
 * The dry run and `import validate` both say this sentence.
 */
export function textRulesOnTypeWarning(field: string, type: DataType | undefined): string | undefined {
  if (type === 'number') {
    return `Text rules on field "${field}" change nothing: it is a number field, and text rules act on text values only; give it data type rich_text to edit its text, or remove the rules.`;
  }
  if (type === 'date_time') {
    return `Text rules on field "${field}" act on its dates as the data-type step writes them (YYYY-MM-DDTHH:mm:ss), not as the input wrote them; write the rules for that form, or give the field data type rich_text to edit the input's text.`;
  }
  return undefined;
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
      const index = fieldIndex(input.columns, field, ctx, `Text processing for field "${field}"`, { step: 'text', field });
      if (index < 0) continue;
      const note = textRulesOnTypeWarning(field, input.types[index]);
      if (note) ctx.warn(locatedMessage(ctx, { step: 'text', field }, note));
      fields.push({
        index,
        rules: rules.map(({ label, apply }) => {
          // Listed in the report even when nothing changes, in the order rules run.
          const change: TextChangeCount = { rule: label, field, count: 0, examples: [] };
          ctx.report.textChanges.push(change);
          return { apply, change };
        }),
      });
    }
    if (fields.length === 0) return input;
    const processRow = (row: Row, inPlace: boolean): Row => {
      let out = row;
      for (const { index, rules } of fields) {
        const value = row[index];
        if (typeof value !== 'string' || isMissing(value)) continue;
        let current: string | null = value;
        for (const rule of rules) {
          const next = rule.apply(current);
          if (next === current) continue;
          rule.change.count++;
          const isEmptied = isMissing(next);
          if (rule.change.examples.length < REPORT_TEXT_EXAMPLES) rule.change.examples.push({ before: current, after: isEmptied ? null : next });
          // engine.md: a value that becomes empty is missing from then on; later rules skip it.
          if (isEmptied) { current = null; break; }
          current = next;
        }
        if (current !== value) {
          if (out === row && !inPlace) out = row.slice();
          out[index] = current;
        }
      }
      return out;
    };
    const processBatch = (batch: Batch): Batch => {
      const inPlace = ownsRows(batch, ctx);
      return { rows: batch.rows.map((row) => processRow(row, inPlace)), rowNumbers: batch.rowNumbers, owned: batch.owned };
    };
    return { columns: input.columns, types: input.types, batches: eachBatch(input.batches, processBatch) };
  },
};
