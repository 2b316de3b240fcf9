/** Test helpers for engine steps: build tables from rows, collect them back, compare as objects. */
import { expect } from 'vitest';
import type { DataType, PipelineSchema } from '../../src/contract/index.js';
import {
  emptyReport,
  type Batch, type EngineConfig, type Report, type Row, type ScriptFn, type StepContext, type Table, type Value,
} from '../../src/engine/types.js';

/** Options of `makeTable`. */
export interface TableOptions {
  types?: (DataType | undefined)[];
  /** Rows per batch (default: all rows in one batch). */
  batchSize?: number;
  /** Row numbers (default 1..n). */
  rowNumbers?: number[];
  /** Freeze every row, row-number array and batch, so a step that mutates its input throws. */
  freeze?: boolean;
}

/** A Table with the given columns whose batches replay `rows` (one batch unless `batchSize`). */
export function makeTable(columns: string[], rows: Row[], options: TableOptions = {}): Table {
  const size = options.batchSize ?? Math.max(rows.length, 1);
  const numbers = options.rowNumbers ?? rows.map((_, i) => i + 1);
  const batches: Batch[] = [];
  for (let start = 0; start < rows.length; start += size) {
    const batch = { rows: rows.slice(start, start + size), rowNumbers: numbers.slice(start, start + size) };
    if (options.freeze) {
      batch.rows.forEach((row) => Object.freeze(row));
      Object.freeze(batch.rows);
      Object.freeze(batch.rowNumbers);
      Object.freeze(batch);
    }
    batches.push(batch);
  }
  async function* replay(): AsyncGenerator<Batch> {
    yield* batches;
  }
  return { columns, types: options.types ?? columns.map(() => undefined), batches: replay() };
}

/** A table's content once drained: rows as objects keyed by column, in order. */
export interface Collected {
  columns: string[];
  types: (DataType | undefined)[];
  rows: Record<string, Value>[];
  arrays: Row[];
  rowNumbers: number[];
  batchCount: number;
}

/** Drains a table (or a step's result) into rows as objects, row arrays and row numbers. */
export async function collectRows(table: Table | Promise<Table>): Promise<Collected> {
  const t = await table;
  const arrays: Row[] = [];
  const rowNumbers: number[] = [];
  let batchCount = 0;
  for await (const batch of t.batches) {
    batchCount++;
    expect(batch.rowNumbers.length).toBe(batch.rows.length);
    arrays.push(...batch.rows);
    rowNumbers.push(...batch.rowNumbers);
  }
  const rows = arrays.map((row) => {
    expect(row.length).toBe(t.columns.length);
    const object: Record<string, Value> = {};
    t.columns.forEach((c, i) => { object[c] = row[i]; });
    return object;
  });
  return { columns: t.columns, types: t.types, rows, arrays, rowNumbers, batchCount };
}

/**
 * Drains a table and expects its rows to equal `expected` exactly (values and their JS types);
 * with at least one expected row, the column order must also be that row's key order.
 */
export async function expectRows(table: Table | Promise<Table>, expected: Record<string, Value>[]): Promise<Collected> {
  const collected = await collectRows(table);
  if (expected.length > 0) expect(collected.columns).toEqual(Object.keys(expected[0]));
  expect(collected.rows).toStrictEqual(expected);
  return collected;
}

/** A complete EngineConfig that changes nothing, with `overrides` on top. */
export function makeConfig(overrides: Partial<EngineConfig> = {}): EngineConfig {
  return {
    sheet: null,
    mapping: {},
    allowColumnCombining: false,
    combining: {},
    dataTypes: {},
    units: {},
    impute: {},
    pivot: null,
    presetRowDropping: [],
    additionalRowDropping: [],
    text: {},
    scripts: { preColumnMapping: [], postClean: [] },
    ...overrides,
  };
}

/** A StepContext for tests: warnings are collected in `warnings`; scripts come from `scripts`. */
export interface TestContext extends StepContext { warnings: string[]; report: Report }

/** A StepContext with an empty schema (or parts of one), a fresh report and the given scripts. */
export function makeContext(options: { schema?: Partial<PipelineSchema>; scripts?: Record<string, ScriptFn>; strictScripts?: boolean } = {}): TestContext {
  const warnings: string[] = [];
  return {
    schema: { expectedFields: [], optionalFields: [], fieldDataTypes: {}, fieldUnits: {}, imputeMethods: {}, rowDropping: [], ...options.schema },
    report: emptyReport(),
    loadScript: async (id) => options.scripts?.[id],
    strictScripts: options.strictScripts ?? false,
    warn: (message) => { warnings.push(message); },
    warnings,
  };
}
