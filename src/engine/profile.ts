/**
 * A profile of each output column for the HTML report: type, missing share, distinct count, a
 * histogram (numbers and dates), top values and sample values. Memory is bounded whatever the
 * number of rows: distinct values and top-value counts are tracked for the first DISTINCT_CAP
 * distinct values of a column (past that the distinct count reads "more than"), and histograms
 * are drawn from a uniform reservoir sample of RESERVOIR values (exact min and max).
 */
import type { DataType } from '../contract/index.js';
import { isMissing } from './missing.js';
import { isoOutputSeconds } from './parse.js';
import { mulberry32 } from './prng.js';
import type { Batch, Value } from './types.js';

/** Distinct values tracked per column. */
export const DISTINCT_CAP = 10_000;
/** Values kept per column for the histogram. */
export const RESERVOIR = 4_096;
/** Bins of a histogram. */
const BINS = 20;
/** Sample values shown per column. */
const SAMPLES = 5;
/** Top values shown per column. */
const TOP = 8;
/** Longest value kept as text (a tracked value longer than this is cut, so memory stays bounded). */
const MAX_TEXT = 200;

/** One column's profile. */
export interface ColumnProfile {
  field: string;
  type: DataType | 'text';
  rows: number;
  missing: number;
  /** Distinct non-missing values (exact while `distinctCapped` is false). */
  distinct: number;
  /** True when the column had more than DISTINCT_CAP distinct values: `distinct` is then a lower bound. */
  distinctCapped: boolean;
  /** The most frequent values with their counts (exact among the tracked values). */
  top: { value: string; count: number }[];
  /** The first few distinct values. */
  samples: string[];
  /** Numbers and dates: min, max and a histogram (counts scaled to all non-missing values). */
  histogram?: { min: number; max: number; bins: number[]; isDate: boolean };
}

interface ColumnState {
  field: string;
  type: DataType | 'text';
  missing: number;
  counts: Map<string, number>;
  capped: boolean;
  samples: string[];
  min: number;
  max: number;
  reservoir: number[];
  seen: number;
}

/** Collects a profile of the batches it is given. */
export class Profiler {
  private readonly columns: ColumnState[];
  private rows = 0;
  // A fixed seed: the same input always draws the same reservoir, so reports are reproducible.
  private random = mulberry32(0x5eed);

  constructor(columns: string[], types: (DataType | undefined)[]) {
    this.columns = columns.map((field, i) => ({
      field, type: types[i] ?? 'text', missing: 0, counts: new Map(), capped: false, samples: [],
      min: Infinity, max: -Infinity, reservoir: [], seen: 0,
    }));
  }

  /** Adds a batch of output rows. */
  push(batch: Batch): void {
    this.rows += batch.rows.length;
    for (let c = 0; c < this.columns.length; c++) {
      const column = this.columns[c];
      for (const row of batch.rows) this.add(column, row[c]);
    }
  }

  private add(column: ColumnState, value: Value | undefined): void {
    if (value === null || value === undefined || isMissing(value)) { column.missing++; return; }
    const text = (typeof value === 'number' ? String(value) : value).slice(0, MAX_TEXT);
    const count = column.counts.get(text);
    if (count !== undefined) column.counts.set(text, count + 1);
    else if (column.counts.size < DISTINCT_CAP) {
      column.counts.set(text, 1);
      if (column.samples.length < SAMPLES) column.samples.push(text);
    } else column.capped = true;
    // A date is the engine's date_time text read as the Excel writer reads it (isoOutputSeconds): Date.parse
    // would take 2023-02-29 for March 1; a date the calendar does not have, or other text, is no date here.
    const n = column.type === 'number' ? (typeof value === 'number' ? value : Number(value))
      : column.type === 'date_time' ? isoOutputSeconds(text) * 1000 : NaN;
    if (!Number.isFinite(n)) return;
    if (n < column.min) column.min = n;
    if (n > column.max) column.max = n;
    // Reservoir sampling (Algorithm R): every value has the same chance to be kept.
    column.seen++;
    if (column.reservoir.length < RESERVOIR) column.reservoir.push(n);
    else {
      const j = Math.floor(this.random() * column.seen);
      if (j < RESERVOIR) column.reservoir[j] = n;
    }
  }

  /** The profile of every column. */
  result(): ColumnProfile[] {
    return this.columns.map((column) => ({
      field: column.field,
      type: column.type,
      rows: this.rows,
      missing: column.missing,
      distinct: column.counts.size,
      distinctCapped: column.capped,
      top: [...column.counts].sort((a, b) => b[1] - a[1]).slice(0, TOP).map(([value, count]) => ({ value, count })),
      samples: column.samples,
      histogram: column.reservoir.length ? histogram(column) : undefined,
    }));
  }
}

function histogram(column: ColumnState): ColumnProfile['histogram'] {
  const { min, max, reservoir, seen } = column;
  const bins = new Array<number>(BINS).fill(0);
  const width = (max - min) / BINS;
  for (const v of reservoir) bins[width === 0 ? 0 : Math.min(BINS - 1, Math.floor((v - min) / width))]++;
  // Scaled from the sample to every value, so the bars read as row counts.
  const scale = seen / reservoir.length;
  return { min, max, bins: bins.map((b) => Math.round(b * scale)), isDate: column.type === 'date_time' };
}
