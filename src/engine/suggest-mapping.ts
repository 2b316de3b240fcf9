/**
 * The mapping suggestion (engine.md "Suggestions", mapping): each input column scored against
 * each expected and optional field by name (similarity.ts, with the lexicon) and by what its values
 * look like (value-shapes.ts); pairs chosen for the best total score (assignment.ts); then each
 * chosen pair's confidence calibrated by how clearly it beats its rivals. A column whose best score
 * is under 0.5 stays unmapped (engine.md), even when it is the last of its kind.
 */
import type { DataType } from '../contract/index.js';
import { assignPairs, type Candidate, type Choice } from './assignment.js';
import { isMissing } from './missing.js';
import { EXACT_SCORE, isKnownName, prepareName, preparedSimilarity, SYNONYM_SCORE, type PreparedName } from './similarity.js';
import type { Row } from './types.js';
import {
  expectedShapes, measureShapes, MISFIT_COUNTS, VALUE_ONLY_SCORES, VALUE_ONLY_SHARE, type Shape, type ShapeShares,
} from './value-shapes.js';

/** A best score under this leaves a column unmapped. */
export const MIN_MAPPING_CONFIDENCE = 0.5;
/** Non-missing values per column the value shapes are measured on (the first ones of the sample). */
export const SHAPE_SAMPLE_VALUES = 1000;
/** Up to this many column × field pairs, every pair is scored; above, only pairs sharing a word (or values). */
export const FULL_SCAN_PAIRS = 1_000_000;
/** Most pairs scored for a very wide input; past it only equal and synonym names are matched. */
export const MAX_SCORED_PAIRS = 2_000_000;
/** Past this many columns (and FULL_SCAN_PAIRS pairs), values alone no longer make a pair: every column would be read. */
export const VALUE_ONLY_MAX_COLUMNS = 10_000;
// A word in more than this share of the columns (and more than COMMON_WORD_MIN) does not make
// pairs by itself in a wide input.
const COMMON_WORD_SHARE = 0.01;
const COMMON_WORD_MIN = 100;

// How much value shapes move a name score: up by this much when every value fits the field,
// down by as much when none does (for shapes whose misfit counts).
const SHAPE_WEIGHT = 0.2;
// A move this far down (under a fifth of the values fit: 2 × 0.2 - 1) means the values contradict
// a name asking for one of the RANGES.
const CONTRADICTED_MOVE = -0.6;
const RANGES: ReadonlySet<Shape> = new Set<Shape>(['latitude', 'longitude']);
// Shapes real columns rarely write otherwise, and the share of values under which none fit.
const RELIABLE_SHAPES: ReadonlySet<Shape> = new Set<Shape>([
  'email', 'number', 'latitude', 'longitude', 'countryAlpha2', 'countryAlpha3', 'countryNumeric', 'currency', 'abbreviation', 'usStateCode',
  'timeZone',
]);
const NO_FIT = 0.1;
const BELOW_BAR = MIN_MAPPING_CONFIDENCE - 0.01;
// A name score this low is not helped by values (unless they alone identify the field).
const SHAPE_MIN_NAME_SCORE = 0.3;
// Only an exact name scores 1; every other match stays below it, whatever its values.
const MAX_INEXACT_SCORE = 0.99;
// Calibration (see `calibrated`).
const LIFT = 0.75;
const GAP_FOR_FULL_LIFT = 0.25;
const TIE_CONFIDENCE = 0.55;
const TIE_SLOPE = 4;
// Rivals scoring under the bar do not count: a pair with none is measured against this.
const NO_RIVAL = MIN_MAPPING_CONFIDENCE - 0.1;

/** A field as the mapping sees it. */
interface Target { name: PreparedName; shapes: Shape[] }

/** The chosen field of each mapped column (by index), with its confidence. */
export type MappingSuggestion = Map<number, { field: number; confidence: number }>;

/** Suggests the mapping of `columns` onto `fields` (expected and optional), from names and the sample's values. */
export function suggestMapping(
  columns: readonly string[], fields: readonly string[], types: Readonly<Record<string, DataType>>, sample: readonly Row[],
): MappingSuggestion {
  const candidates = mappingCandidates(columns, fields, types, sample);
  const choices = assignPairs(columns.length, candidates);
  return calibrate(choices, candidates);
}

/** A candidate pair, and whether its values speak against it (most do not fit the field). */
interface ScoredPair extends Candidate { doubted: boolean }

/** Every column × field pair scoring at least the bar, by name and values. */
function mappingCandidates(
  columns: readonly string[], fields: readonly string[], types: Readonly<Record<string, DataType>>, sample: readonly Row[],
): ScoredPair[] {
  const preparedColumns = columns.map(prepareName);
  const targets: Target[] = fields.map((field) => {
    const name = prepareName(field);
    return { name, shapes: expectedShapes(name.canonical, Object.hasOwn(types, field) ? types[field] : undefined, name.tokens) };
  });
  const wanted = new Set(targets.flatMap((t) => t.shapes));
  const values = columns.map((_, i) => new ColumnValues(sample, i, wanted));
  return candidatePairs(preparedColumns, targets, (c, f) => pairScore(preparedColumns[c], targets[f], values[c]));
}

/** The chosen pairs of columns and fields by name alone (sheet selection). */
export function assignByName(columns: readonly string[], fields: readonly string[]): (Choice | undefined)[] {
  const preparedColumns = columns.map(prepareName);
  const targets: Target[] = fields.map((field) => ({ name: prepareName(field), shapes: [] }));
  const candidates = candidatePairs(preparedColumns, targets, (c, f) => ({ score: preparedSimilarity(preparedColumns[c], targets[f].name), doubted: false }));
  return assignPairs(columns.length, candidates);
}

/**
 * Every pair scoring at least the bar, with its rounded score. Up to FULL_SCAN_PAIRS pairs are
 * all scored; a wider input scores only pairs that share a canonical word, an equal name, or a
 * value-only shape, and past MAX_SCORED_PAIRS of those, only equal and synonym names.
 */
function candidatePairs(
  columns: PreparedName[], targets: Target[], score: (column: number, field: number) => { score: number; doubted: boolean },
): ScoredPair[] {
  const out: ScoredPair[] = [];
  const consider = (c: number, f: number) => {
    const scored = score(c, f);
    const s = round2(scored.score);
    if (s >= MIN_MAPPING_CONFIDENCE) out.push({ column: c, field: f, score: s, doubted: scored.doubted });
  };
  if (columns.length * targets.length <= FULL_SCAN_PAIRS) {
    for (let c = 0; c < columns.length; c++) for (let f = 0; f < targets.length; f++) consider(c, f);
    return out;
  }
  const pairs = linkedPairs(columns, targets);
  if (pairs) {
    for (let k = 0; k < pairs.length; k += 2) consider(pairs[k], pairs[k + 1]);
    return out;
  }
  // Equal names only, through hash lookups: linear in columns + fields.
  const keysOf = (n: PreparedName) => [n.joined, n.canonicalKey, n.canonicalJoined];
  const byKey = keysOf(columns[0]).map(() => new Map<string, number[]>());
  columns.forEach((col, c) => keysOf(col).forEach((key, k) => {
    const list = byKey[k].get(key);
    if (list) list.push(c); else byKey[k].set(key, [c]);
  }));
  targets.forEach((t, f) => {
    const seen = new Set<number>();
    keysOf(t.name).forEach((key, k) => {
      // A synonym key may also equal a column's exact (joined) key: `zipcode` and `zip code`.
      for (const map of k === 0 ? [byKey[0]] : byKey.slice(1)) {
        for (const c of map.get(key) ?? []) if (!seen.has(c)) { seen.add(c); consider(c, f); }
      }
    });
  });
  return out;
}

/**
 * The pairs (column, field, flattened) that share a canonical word or the exact name, and (up to
 * VALUE_ONLY_MAX_COLUMNS columns) every column with each field that values alone may identify;
 * undefined past MAX_SCORED_PAIRS. A word
 * held by more than COMMON_WORD_SHARE of the columns (`col` in `col_1` ... `col_80000`) links
 * nothing by itself. Only the fields' words are indexed, so a wide input costs one lookup per word.
 */
function linkedPairs(columns: PreparedName[], targets: Target[]): number[] | undefined {
  const fieldsByWord = new Map<string, number[]>();
  const fieldsByName = new Map<string, number[]>();
  const everyColumn: number[] = [];
  const push = (map: Map<string, number[]>, key: string, f: number) => {
    const list = map.get(key);
    if (!list) map.set(key, [f]); else if (list[list.length - 1] !== f) list.push(f);
  };
  targets.forEach((t, f) => {
    if (columns.length <= VALUE_ONLY_MAX_COLUMNS && t.shapes.some((s) => VALUE_ONLY_SCORES.has(s))) everyColumn.push(f);
    for (const word of t.name.canonical) push(fieldsByWord, word, f);
    push(fieldsByName, t.name.joined, f);
  });
  // How many columns hold each of the fields' words.
  const held = new Map<string, number>();
  for (const col of columns) {
    for (let i = 0; i < col.canonical.length; i++) {
      const word = col.canonical[i];
      if (fieldsByWord.has(word) && col.canonical.indexOf(word) === i) held.set(word, (held.get(word) ?? 0) + 1);
    }
  }
  const common = Math.max(COMMON_WORD_MIN, COMMON_WORD_SHARE * columns.length);
  const pairs: number[] = [];
  const linked = new Set<number>();
  for (let c = 0; c < columns.length; c++) {
    linked.clear();
    for (const f of everyColumn) linked.add(f);
    for (const f of fieldsByName.get(columns[c].joined) ?? []) linked.add(f);
    for (const word of columns[c].canonical) {
      if ((held.get(word) ?? 0) > common) continue;
      for (const f of fieldsByWord.get(word) ?? []) linked.add(f);
    }
    for (const f of linked) pairs.push(c, f);
    if (pairs.length > 2 * MAX_SCORED_PAIRS) return undefined;
  }
  return pairs;
}

/**
 * A column's score for a field: name similarity, moved by how well its values fit the field; doubted
 * when they plainly do not (`state` names for `state_abbr`).
 */
function pairScore(column: PreparedName, target: Target, values: ColumnValues): { score: number; doubted: boolean } {
  const name = preparedSimilarity(column, target.name);
  if (name === EXACT_SCORE || target.shapes.length === 0) return { score: name, doubted: false };
  let score = name;
  let doubted = false;
  const valueOnly = target.shapes.some((s) => VALUE_ONLY_SCORES.has(s));
  if (name >= SHAPE_MIN_NAME_SCORE || valueOnly) {
    const shares = values.shares();
    if (shares) {
      const fit = (shapes: Shape[]) => Math.max(0, ...shapes.map((s) => shares.get(s) ?? 0));
      const counted = target.shapes.filter((s) => MISFIT_COUNTS.has(s));
      const bonusOnly = target.shapes.filter((s) => !MISFIT_COUNTS.has(s));
      if (name >= SHAPE_MIN_NAME_SCORE) {
        // A misfit of a shape that counts moves down, unless a bonus shape fits instead.
        const down = counted.length > 0 ? 2 * fit(counted) - 1 : 0;
        const bonus = fit(bonusOnly);
        const move = bonus > 0 ? Math.max(down, bonus) : down;
        // Up in proportion to the room left, so values never reorder two names (`Loans_from_Candidate`
        // stays over `Candidate_Loan_Repayments` for `cand_loans` when both hold amounts); down in full.
        score += move > 0 ? SHAPE_WEIGHT * move * (1 - name) / (1 - SHAPE_MIN_NAME_SCORE) : SHAPE_WEIGHT * move;
        // Values none of which have a shape told reliably (not dates, years, months, counts or
        // flags, which real columns write in many ways) speak against the pair.
        doubted = counted.length > 0 && counted.every((s) => RELIABLE_SHAPES.has(s)) && fit(counted) < NO_FIT;
        // Coordinates most of which are out of range (screen pixels for `latitude`) overrule the
        // name: the column stays under the bar. (Other shapes only lower it: a `Year` column of
        // dates still serves `model_yr`.)
        if (move <= CONTRADICTED_MOVE && counted.some((s) => RANGES.has(s))) return { score: Math.min(score, BELOW_BAR), doubted };
      }
      // Values alone identify a field for a column whose name says nothing (`cca2`), not for one
      // whose name says it is something else (`state` holding `CA`, `DE`... for `country_code`);
      // dates aside, whose columns are often named for the kind of time (`month` for `period`).
      const saysOtherwise = name === 0 && isKnownName(column);
      for (const shape of target.shapes) {
        const base = VALUE_ONLY_SCORES.get(shape);
        const share = shares.get(shape) ?? 0;
        if (base === undefined || share < VALUE_ONLY_SHARE || (saysOtherwise && shape !== 'date')) continue;
        const valueScore = base + (name >= SHAPE_MIN_NAME_SCORE ? name / 4 : 0);
        if (valueScore > score) { score = valueScore; doubted = false; }
      }
    }
  }
  return { score: Math.min(MAX_INEXACT_SCORE, Math.max(0, score)), doubted };
}

/**
 * The confidence of each chosen pair: its score, raised when it clearly beats every rival (the
 * other columns scored for its field, the other fields scored for its column) and lowered when a
 * rival comes close, so a tie is never confident.
 */
function calibrate(choices: (Choice | undefined)[], candidates: readonly ScoredPair[]): MappingSuggestion {
  // What each column and each field holds: a rival pair counts unless that side holds something
  // better (an equal hold is a swap as good as the choice: a tie).
  const heldByColumn = choices.map((c) => c?.score ?? 0);
  const heldByField = new Map<number, number>();
  const holderOfField = new Map<number, number>();
  choices.forEach((c, column) => { if (c) { heldByField.set(c.field, c.score); holderOfField.set(c.field, column); } });
  const rivals = new Map<string, number>(); // `${column},${field}` of a chosen pair -> best rival score
  const chosen = (column: number, field: number) => choices[column]?.field === field;
  const raise = (column: number, field: number, score: number) => {
    const key = `${column},${field}`;
    if ((rivals.get(key) ?? NO_RIVAL) < score) rivals.set(key, score);
  };
  for (const p of candidates) {
    if (chosen(p.column, p.field)) continue;
    // p competes with the pair chosen for its column, unless its field holds something better.
    const column = choices[p.column];
    if (column && (heldByField.get(p.field) ?? 0) <= p.score) raise(p.column, column.field, p.score);
    // ... and with the pair chosen for its field, unless its column holds something better.
    const holder = holderOfField.get(p.field);
    if (holder !== undefined && heldByColumn[p.column] <= p.score) raise(holder, p.field, p.score);
  }
  const doubted = new Set(candidates.filter((p) => p.doubted && chosen(p.column, p.field)).map((p) => p.column));
  const out: MappingSuggestion = new Map();
  choices.forEach((choice, column) => {
    if (!choice) return;
    const rival = rivals.get(`${column},${choice.field}`) ?? NO_RIVAL;
    const confidence = choice.score === EXACT_SCORE ? EXACT_SCORE
      : doubted.has(column) ? doubtedConfidence(choice.score) : calibrated(choice.score, rival);
    out.set(column, { field: choice.field, confidence });
  });
  return out;
}

/**
 * The calibration curve, tuned on the benchmark's tuning set: a pair with no rival within
 * GAP_FOR_FULL_LIFT of its score is raised LIFT of the way to the synonym score (a clear, unique
 * match is usually right), and the confidence is capped at TIE_CONFIDENCE + TIE_SLOPE × the gap, so
 * a tie stays at 0.55 or under (a coin flip) and a rival within 0.06 keeps it under 0.8. Never under the bar.
 */
function calibrated(score: number, rival: number): number {
  const gap = score - rival;
  const lift = score < SYNONYM_SCORE ? (SYNONYM_SCORE - score) * LIFT * Math.min(1, Math.max(0, gap / GAP_FOR_FULL_LIFT)) : 0;
  const cap = TIE_CONFIDENCE + TIE_SLOPE * gap;
  return round2(Math.max(MIN_MAPPING_CONFIDENCE, Math.min(score + lift, cap)));
}

/**
 * The confidence of a pair whose values speak against it: never raised, however clear its name
 * or lonely its score, and no surer than a tie (TIE_CONFIDENCE). Never under the bar.
 */
function doubtedConfidence(score: number): number {
  return round2(Math.max(MIN_MAPPING_CONFIDENCE, Math.min(score, TIE_CONFIDENCE)));
}

/** One column of the sample, for the value shapes (measured on first use). */
class ColumnValues {
  private measured?: ShapeShares | null;

  constructor(private readonly rows: readonly Row[], private readonly index: number, private readonly wanted: ReadonlySet<Shape>) {}

  /** Shares of the first SHAPE_SAMPLE_VALUES non-missing values having each shape; null with no values. */
  shares(): ShapeShares | null {
    if (this.measured === undefined) {
      const texts = this.texts(SHAPE_SAMPLE_VALUES);
      this.measured = texts.length === 0 ? null : measureShapes(texts, this.wanted);
    }
    return this.measured;
  }

  private texts(limit: number): string[] {
    const out: string[] = [];
    for (const row of this.rows) {
      if (out.length >= limit) break;
      const value = row[this.index];
      if (typeof value === 'number') out.push(String(value));
      else if (!isMissing(value)) out.push(value as string);
    }
    return out;
  }
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
