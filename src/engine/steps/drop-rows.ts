/**
 * Step 9, row dropping: the schema's preset rules, then the job's additional rules, in order.
 * `missingValues` drops a row where any listed field is missing; `duplicateValues` drops a row
 * whose listed fields' values were seen before (the first stays).
 */
import { NumberSet } from '../number-set.js';
import { ROW_DROPPING_METHODS, type RowDroppingMethod, type RowDroppingRule } from '../../contract/index.js';
import { UsageError } from '../../errors.js';
import { isMissing } from '../missing.js';
import type { RejectOrigin } from '../rejects.js';
import { eachBatch, REPORT_FIRST_ROWS, type Batch, type DropCount, type EngineConfig, type Row, type Step, type StepContext, type Table, type Value } from '../types.js';
import { fieldIndex } from './map.js';

/** What a drop rule is, for rejected-row listings (rejects.ts). */
export interface DropRule { method: string; origin: RejectOrigin; fields: string[] }

/** Counts one dropped row (by its input row number) and, when rejects are collected, reports it with its values. */
export type DropCounter = (rowNumber: number, row?: Row) => void;

/** Adds a drop rule to the report and returns a function counting one dropped row. */
export function dropCounter(ctx: Pick<StepContext, 'report' | 'rejects'>, label: string, rule: DropRule): DropCounter {
  const entry: DropCount = { rule: label, count: 0, firstRows: [] };
  // Added when the step is applied, with count 0 until rows drop: the report then lists every
  // rule that ran, in the order rules run, rather than in the order they first happened to drop.
  ctx.report.dropped.push(entry);
  const rejects = ctx.rejects;
  return (rowNumber, row) => {
    entry.count++;
    if (entry.firstRows.length < REPORT_FIRST_ROWS) entry.firstRows.push(rowNumber);
    if (rejects && row) rejects.add({ row: rowNumber, rule: rule.method, origin: rule.origin, fields: rule.fields, original: null, values: row });
  };
}

/**
 * An injective text key for a tuple of values, for duplicate detection and grouping. Missing
 * equals missing; a number and its text differ (`1` vs `"1"`): after the data-type step a column
 * holds one kind, so the only way to get both is a script, and then they are different values.
 * Strings are compared exactly (case and inner spaces count).
 */
export function tupleKey(row: Row, indices: number[]): string {
  if (indices.length === 1) return valueKey(row[indices[0]]);
  let key = '';
  for (const i of indices) {
    const v = row[i];
    // Length-prefixed strings so no choice of text can fake a boundary between two values.
    if (v === null || v === undefined || isMissing(v)) key += '-';
    else if (typeof v === 'number') key += `n${v};`;
    else key += `s${v.length}:${v}`;
  }
  return key;
}

function valueKey(v: Value | undefined): string {
  if (v === null || v === undefined || isMissing(v)) return '-';
  return typeof v === 'number' ? `n${v}` : `s${v}`;
}

/** The allowed row-dropping method a configured value names, ignoring case; `undefined` when none. */
export function rowDroppingMethodOf(value: unknown): RowDroppingMethod | undefined {
  // Seed leaves the case of method values open; we accept any case.
  if (typeof value !== 'string') return undefined;
  const lower = value.toLowerCase();
  return ROW_DROPPING_METHODS.find((m) => m.toLowerCase() === lower);
}

/** A rule with its report label, and its place in its list (preset or additional). */
interface LabelledRule { rule: RowDroppingRule; method: RowDroppingMethod; label: string; isPreset: boolean; index: number }

function validate(config: EngineConfig): LabelledRule[] {
  const rules: LabelledRule[] = [];
  const add = (rule: RowDroppingRule, isPreset: boolean, index: number) => {
    const method = rowDroppingMethodOf(rule?.method);
    if (!method) {
      throw new UsageError(`Row-dropping method "${String(rule?.method)}" is not one of ${ROW_DROPPING_METHODS.join(', ')}.`);
    }
    const fields = rule.methodConfig?.fields;
    if (!Array.isArray(fields) || fields.length === 0 || !fields.every((f) => typeof f === 'string')) {
      throw new UsageError(`Row-dropping rule ${method} needs methodConfig.fields, a non-empty list of field names.`);
    }
    rules.push({ rule, method, label: `${method}: ${fields.join(', ')}${isPreset ? ' (preset)' : ''}`, isPreset, index });
  };
  (config.presetRowDropping ?? []).forEach((rule, i) => add(rule, true, i));
  (config.additionalRowDropping ?? []).forEach((rule, i) => add(rule, false, i));
  return rules;
}

/**
 * What a duplicateValues rule has seen: the only state of this step. One field (the common
 * primary-key case) keeps numbers and strings in their own sets, which needs no key building and
 * stores numbers unboxed; several fields keep one tuple key per distinct row.
 */
export class SeenValues {
  private readonly numbers = new NumberSet();
  private readonly strings = new Set<string>();
  private hasMissing = false;

  constructor(private readonly indices: number[]) {}

  /** True when the row's values were seen before; otherwise remembers them. */
  isRepeat(row: Row): boolean {
    if (this.indices.length > 1) return this.isRepeatKey(tupleKey(row, this.indices));
    return this.isRepeatValue(row[this.indices[0]]);
  }

  /** isRepeat for a one-field rule, given the field's value (parallel runs send values, not rows). */
  isRepeatValue(v: Value | undefined): boolean {
    if (typeof v === 'number') return !this.numbers.add(v);
    if (v === null || v === undefined || isMissing(v)) {
      if (this.hasMissing) return true;
      this.hasMissing = true;
      return false;
    }
    return this.isRepeatIn(this.strings, v);
  }

  /** isRepeat for a several-field rule, given the row's tupleKey. */
  isRepeatKey(key: string): boolean {
    return this.isRepeatIn(this.strings, key);
  }

  private isRepeatIn<T>(set: Set<T>, key: T): boolean {
    if (set.has(key)) return true;
    set.add(key);
    return false;
  }
}

/** One row-dropping rule as it acts on a table's columns: its method, column positions, state and report counter. */
export interface ActiveRule {
  method: RowDroppingMethod;
  indices: number[];
  seen: SeenValues;
  count: DropCounter;
}

/**
 * The rules that act on `columns`, in the order they run, each with its report counter added now
 * (so the report lists every rule in order). Unmapped fields are skipped with a warning.
 */
export function activeRules(columns: string[], config: EngineConfig, ctx: StepContext): ActiveRule[] {
  const active: ActiveRule[] = [];
  for (const { rule, method, label, isPreset, index } of validate(config)) {
    const what = `Row-dropping rule ${label}`;
    // A schema field nobody mapped is skipped (fieldIndex warns); a rule left with no field does nothing.
    const indices = rule.methodConfig.fields
      .map((f, at) => fieldIndex(columns, f, ctx, what, { step: 'drop-rows', field: f, isPreset, rule: index, at }))
      .filter((i) => i >= 0);
    if (indices.length === 0) continue;
    const fields = indices.map((i) => columns[i]);
    active.push({ method, indices, seen: new SeenValues(indices), count: dropCounter(ctx, label, { method, origin: isPreset ? 'preset' : 'additional', fields }) });
  }
  return active;
}

/**
 * The earlier rule of the same list that a rule repeats (the same method on the same fields, in any
 * order), or -1: rules apply in order and a row a rule would drop was dropped by the earlier one,
 * so the repeat drops nothing.
 */
export function repeatedRule(rules: readonly { method: string; fields: readonly string[] }[], index: number): number {
  const rule = rules[index];
  const fields = new Set(rule.fields);
  const method = rowDroppingMethodOf(rule.method);
  return rules.findIndex((earlier, i) => i < index && rowDroppingMethodOf(earlier.method) === method
    && new Set(earlier.fields).size === fields.size && earlier.fields.every((f) => fields.has(f)));
}

/** True when a missingValues rule keeps the row (no listed field is missing). */
export function hasAll(indices: number[], row: Row): boolean {
  for (const i of indices) if (isMissing(row[i])) return false;
  return true;
}

/**
 * The one statement of how rules combine, shared by this step and the parallel merge: rules apply
 * in order and `keeps(i)` is asked only while every earlier rule kept the row, so a row dropped by
 * one rule never reaches (nor is remembered by) a later duplicateValues rule. Returns the index of
 * the rule that drops the row, or -1 when all keep it.
 */
export function droppingRule(ruleCount: number, keeps: (rule: number) => boolean): number {
  for (let i = 0; i < ruleCount; i++) if (!keeps(i)) return i;
  return -1;
}

/** Step 9: drops rows that break the preset, then the additional, row-dropping rules. */
export const dropRows: Step = {
  name: 'drop-rows',
  check(config) {
    validate(config);
  },
  apply(input: Table, config: EngineConfig, ctx: StepContext): Table {
    const active = activeRules(input.columns, config, ctx);
    if (active.length === 0) return input;
    let row: Row = [];
    const keeps = (i: number): boolean => {
      const rule = active[i];
      return rule.method === 'missingValues' ? hasAll(rule.indices, row) : !rule.seen.isRepeat(row);
    };
    const dropFromBatch = (batch: Batch): Batch | undefined => {
      const rows: Row[] = [];
      const rowNumbers: number[] = [];
      for (let r = 0; r < batch.rows.length; r++) {
        row = batch.rows[r];
        const dropper = droppingRule(active.length, keeps);
        if (dropper >= 0) active[dropper].count(batch.rowNumbers[r], row);
        else { rows.push(row); rowNumbers.push(batch.rowNumbers[r]); }
      }
      return rows.length > 0 ? { rows, rowNumbers } : undefined;
    };
    return { columns: input.columns, types: input.types, batches: eachBatch(input.batches, dropFromBatch) };
  },
};
