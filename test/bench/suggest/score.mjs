// Scoring of the mapping-suggestion benchmark: each case's file goes through the built engine as
// `import dry-run` reads it (sample of the first 10,000 rows), with the case's schema; the
// suggested mapping is compared with the true one written by hand.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeJob } from '../../../dist/engine/pipeline.js';
import { openInput } from '../../../dist/engine/read/index.js';

const NODE_MODULES = fileURLToPath(new URL('../../../node_modules/', import.meta.url));

/** Confidence at which a suggestion passes without review (the project's usual bar). */
export const CONFIDENT = 0.8;

/** The targets on the held-out set (issue 11). */
export const TARGETS = { precision: 0.97, recall: 0.9, confidentCorrect: 0.8 };

/** The schema of a case, as `PipelineSchema`. */
export function schemaOf(c) {
  const fieldDataTypes = Object.create(null);
  for (const [field, type] of [...c.expected, ...c.optional]) if (type) fieldDataTypes[field] = type;
  return {
    expectedFields: c.expected.map(([f]) => f), optionalFields: c.optional.map(([f]) => f),
    fieldDataTypes, fieldUnits: {}, imputeMethods: {}, rowDropping: [],
  };
}

/** Suggests the mapping of one case: [column, field, confidence] triples in column order. */
export async function suggestCase(c) {
  const input = await openInput({ file: join(NODE_MODULES, c.source) });
  const { resources } = await analyzeJob({ input, schema: schemaOf(c) });
  const mapping = resources.fields.columnFieldMapping[input.name];
  return resources.fields.inputColumns
    .filter((column) => Object.hasOwn(mapping, column))
    .map((column) => [column, mapping[column].field, mapping[column].confidence]);
}

/**
 * Compares suggestions with the truth. Returns counts: `suggested`, `truePairs`, `correct`,
 * `confidentCorrect` (correct with confidence >= 0.8), `confidentWrong` (wrong with >= 0.6),
 * and the lists of `wrong` and `missed` pairs.
 */
export function compare(c, suggestions) {
  const fieldOf = new Map();
  for (const [columns, field] of c.truth) for (const column of [columns].flat()) fieldOf.set(column, field);
  const correctFields = new Set();
  const wrong = [];
  let confidentCorrect = 0;
  let confidentWrong = 0;
  const confidences = [];
  for (const [column, field, confidence] of suggestions) {
    if (fieldOf.get(column) === field && !correctFields.has(field)) {
      correctFields.add(field);
      confidences.push(confidence);
      if (confidence >= CONFIDENT) confidentCorrect++;
    } else {
      wrong.push([column, field, confidence]);
      if (confidence >= 0.6) confidentWrong++;
    }
  }
  const missed = c.truth.filter(([, field]) => !correctFields.has(field)).map(([columns, field]) => [[columns].flat().join('|'), field]);
  return {
    suggested: suggestions.length, truePairs: c.truth.length, correct: correctFields.size,
    confidentCorrect, confidentWrong, wrong, missed, confidences,
  };
}

/** Scores a set of cases: per case and in total, with precision, recall and the confident-correct shares. */
export async function scoreCases(cases) {
  const perCase = [];
  for (const c of cases) perCase.push({ name: c.name, ...compare(c, await suggestCase(c)) });
  const sum = (key) => perCase.reduce((s, r) => s + r[key], 0);
  const counts = {
    suggested: sum('suggested'), truePairs: sum('truePairs'), correct: sum('correct'),
    confidentCorrectCount: sum('confidentCorrect'), confidentWrong: sum('confidentWrong'),
  };
  return { perCase, total: { ...counts, ...ratios(counts) } };
}

/**
 * precision = correct / suggested; recall = correct / true pairs; confidentCorrect = correct with
 * confidence >= 0.8 / correct (the "share of the correct ones that reach 0.8");
 * confidentOfTrue = the same over all true pairs.
 */
export function ratios({ suggested, truePairs, correct, confidentCorrectCount }) {
  return {
    precision: suggested === 0 ? 1 : correct / suggested,
    recall: truePairs === 0 ? 1 : correct / truePairs,
    confidentCorrect: correct === 0 ? 0 : confidentCorrectCount / correct,
    confidentOfTrue: truePairs === 0 ? 0 : confidentCorrectCount / truePairs,
  };
}

/**
 * The cases again with one true field dropped from the schema at a time (one variant per true
 * pair): its column should then stay unmapped, as when a file holds a column the pipeline lacks.
 * Returns how many variants, and the wrong suggestions they draw: in all, at >= 0.6 and at >= 0.8.
 */
export async function scoreDroppedFields(cases) {
  return scoreWrong(cases.flatMap((c) => c.truth.map(([, field]) => ({
    ...c, expected: c.expected.filter(([f]) => f !== field), optional: c.optional.filter(([f]) => f !== field),
    truth: c.truth.filter(([, f]) => f !== field),
  }))));
}

/** How many variants, and the wrong suggestions they draw: in all, at >= 0.6 and at >= 0.8. */
async function scoreWrong(variants) {
  const out = { variants: variants.length, wrong: 0, wrongAt06: 0, wrongAt08: 0 };
  for (const variant of variants) {
    for (const [, , confidence] of compare(variant, await suggestCase(variant)).wrong) {
      out.wrong++;
      if (confidence >= 0.6) out.wrongAt06++;
      if (confidence >= CONFIDENT) out.wrongAt08++;
    }
  }
  return out;
}

/** Expected fields no file of the benchmark has a column for: a text, a number and a date field. */
export const DECOY_FIELDS = [['batch_ref', 'rich_text'], ['fx_amount_eur', 'number'], ['load_ts', 'date_time']];

/**
 * The cases again with one decoy expected field added at a time (DECOY_FIELDS), as when the
 * pipeline asks for a field the file lacks: nothing should be mapped to it. Returns how many
 * variants, and the wrong suggestions they draw: in all, at >= 0.6 and at >= 0.8.
 */
export async function scoreDecoyFields(cases) {
  return scoreWrong(DECOY_FIELDS.flatMap((decoy) => cases.map((c) => ({ ...c, expected: [...c.expected, decoy] }))));
}
