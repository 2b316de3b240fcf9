/**
 * Rejected rows: every row a run dropped (row-dropping rules, `dropMissing`, a missing pivot
 * value) and every cell the data-type step emptied, with the input row number, the rule, the
 * field(s) and the row's values. Steps report them through `StepContext.rejects`; a
 * RejectOrderer hands them on in input-row order (a row's rejects in step order), whatever the
 * batch sizes or the number of threads, so one input always gives the same list.
 */
import { closeSync, ftruncateSync, openSync } from 'node:fs';
import { orderedObject } from '../contract/json.js';
import { eachBatch, type Row, type Table, type Value } from './types.js';
import { uniqueNames } from './read/csv.js';
import { csvField, csvFixWarnings, csvLine, loneSurrogates, newFixes, nulBytes } from './write/csv.js';
import { writeAtomic } from './write/atomic.js';
import { writeAll } from './write/fd.js';

/** Which step rejected: a row-dropping rule (`preset` or `additional`), `impute` (dropMissing), `pivot` (missing pivot value), `dataType` or `units` (a cell emptied). */
export type RejectOrigin = 'dataType' | 'units' | 'impute' | 'preset' | 'additional' | 'pivot';

/** One rejected row, or one emptied cell. */
export interface Reject {
  /** 1-based data-row number in the input (header excluded), as the report counts rows. */
  row: number;
  /** `missingValues`, `duplicateValues`, `dropMissing`, `missingPivotValue`, the data type a cell failed (`number`, `date_time`), or the unit conversion (`F -> C`). */
  rule: string;
  origin: RejectOrigin;
  fields: string[];
  /** The value that failed (dataType and units only), as text, else null. */
  original: string | null;
  /** The row's values as the rule saw them, one per column given to RejectSink.begin. */
  values: Row;
}

/** Where ordered rejects go. */
export interface RejectSink {
  /** Called before the first reject of a run attempt, with the columns of `values`; starts over if called again (a parallel run that fell back). */
  begin(columns: string[]): void;
  add(reject: Reject): void;
}

/** Steps in the order they reject; a row's rejects are listed in this order. */
const RANK: Record<RejectOrigin, number> = { dataType: 0, units: 1, impute: 2, preset: 3, additional: 3, pivot: 4 };

/**
 * Takes rejects as steps report them (step by step for each batch) and hands them to a sink in
 * (row, step) order once no step can still report an earlier row (see releaseRejectsAfter).
 * Holds at most the rejects of the batches in flight.
 */
export class RejectOrderer {
  private pending: Reject[] = [];

  constructor(private readonly sink: RejectSink) {}

  /** Starts a run attempt over the rows of these columns. */
  begin(columns: string[]): void {
    this.pending = [];
    this.sink.begin(columns);
  }

  /** Reports one reject (from a step). */
  add(reject: Reject): void {
    this.pending.push(reject);
  }

  /** How many rejects wait to be released. */
  get waiting(): number {
    return this.pending.length;
  }

  /** Hands on, in order, every reject of a row before `row`. */
  release(row = Infinity): void {
    if (this.pending.length === 0) return;
    // Stable: a row's rejects from one step keep the order the step gave them (column order).
    this.pending.sort((a, b) => a.row - b.row || RANK[a.origin] - RANK[b.origin]);
    let n = 0;
    while (n < this.pending.length && this.pending[n].row < row) this.sink.add(this.pending[n++]);
    this.pending = n === this.pending.length ? [] : this.pending.slice(n);
  }
}

/**
 * The table after the data-type step, releasing the rejects of earlier rows as each batch passes.
 * Every step that rejects runs from the data-type step on, handles a whole batch before it asks
 * for the next and never looks ahead (the data-type step holds rows back, but reports their
 * rejects only when it hands them on), so when a batch leaves the data-type step, every step has
 * reported all it will for the rows before it.
 */
export function releaseRejectsAfter(table: Table, orderer: RejectOrderer): Table {
  return {
    ...table,
    batches: eachBatch(table.batches, (batch) => {
      if (batch.rowNumbers.length > 0) orderer.release(batch.rowNumbers[0]);
      return batch;
    }),
  };
}

/** The header of a rejects CSV file: fixed columns, then the output's columns. */
export const REJECT_COLUMNS = ['row', 'rule', 'origin', 'fields', 'original'] as const;

/**
 * The rejects CSV's header: the fixed columns, then the output's, an output column named like one
 * before it renamed as the readers rename a repeated header (`row` → `row_2`), so a reader keyed
 * by name (DictReader, pandas) keeps the reject's own `row`.
 */
export function rejectsHeader(columns: readonly string[]): string[] {
  return uniqueNames([...REJECT_COLUMNS, ...columns]);
}

/** One reject as a CSV line (no line break). */
export function rejectCsvLine(reject: Reject): string {
  return `${reject.row},${csvField(reject.rule)},${reject.origin},${csvField(reject.fields.join(', '))},${csvField(reject.original)},${csvLine(reject.values)}`;
}

/** A rejects file being written: a sink, then commit (rename into place) or abort (remove). */
export interface RejectsFile extends RejectSink {
  /** How many rejects were written. */
  count: number;
  /** What the format made the writer change, as report warnings (CSV: unpaired surrogates, written as U+FFFD). */
  warnings(): string[];
  /** Finishes the file and renames it into place. */
  commit(): Promise<void>;
  /** Removes the temp file; the target is left as it was. */
  abort(error?: unknown): Promise<void>;
}

/** Bytes gathered before a write: few system calls, bounded memory. */
const FLUSH_BYTES = 1 << 16;

/**
 * Opens a rejects file at `path`, written as a temp file beside it and renamed on commit (the
 * output's rule: a failed run leaves no partial file). `format`: CSV (`row,rule,origin,fields,
 * original,<columns>`) or JSON lines (one object a line, `values` keyed by column).
 */
export async function openRejectsFile(path: string, format: 'csv' | 'jsonl'): Promise<RejectsFile> {
  let finish!: () => void;
  let fail!: (error: unknown) => void;
  const finished = new Promise<void>((resolve, reject) => { finish = resolve; fail = reject; });
  let fd = -1;
  let opened!: () => void;
  const isOpen = new Promise<void>((resolve) => { opened = resolve; });
  const done = writeAtomic(path, async (temp) => {
    fd = openSync(temp, 'w');
    opened();
    try { await finished; } finally { closeSync(fd); }
    // Written at positions and started over by a run that falls back: a pipe gets the finished file.
  }, { seeks: true });
  // A failure surfaces through commit or abort, never as an unhandled rejection.
  done.catch(() => opened());
  await isOpen;
  if (fd < 0) await done;

  let chunk = '';
  let position = 0;
  let columns: string[] = [];
  // JSON lines escape an unpaired surrogate (\ud800), losing nothing; UTF-8 CSV cannot hold one, as for the output.
  let fixes = newFixes();
  const line = (text: string) => {
    if (format === 'csv') fixes.replaced += loneSurrogates(text);
    chunk += text + '\n';
  };
  const flush = () => {
    if (chunk === '') return;
    const bytes = Buffer.from(chunk, 'utf8');
    if (format === 'csv') fixes.nul += nulBytes(bytes);
    writeAll(fd, bytes, position);
    position += bytes.length;
    chunk = '';
  };
  const file: RejectsFile = {
    count: 0,
    begin(names) {
      columns = names;
      file.count = 0;
      fixes = newFixes();
      position = 0;
      ftruncateSync(fd, 0);
      chunk = '';
      if (format === 'csv') line(csvLine(rejectsHeader(columns)));
    },
    add(reject) {
      file.count++;
      line(format === 'csv' ? rejectCsvLine(reject) : rejectJsonLine(reject, columns));
      if (chunk.length >= FLUSH_BYTES) flush();
    },
    warnings: () => csvFixWarnings(fixes, 'CSV rejects file'),
    async commit() {
      flush();
      finish();
      await done;
    },
    async abort(error) {
      fail(error ?? new Error('aborted'));
      await done.catch(() => {});
    },
  };
  return file;
}

/** One reject as a line of JSON; `values` keyed by column, in column order (any column name, `__proto__` too). */
export function rejectJsonLine(reject: Reject, columns: string[]): string {
  const values = columns.map((c, i) => `${JSON.stringify(c)}:${JSON.stringify(reject.values[i] ?? null)}`).join(',');
  return `{"row":${reject.row},"rule":${JSON.stringify(reject.rule)},"origin":"${reject.origin}","fields":${JSON.stringify(reject.fields)},"original":${JSON.stringify(reject.original)},"values":{${values}}}`;
}

/** A reject as data: `values` keyed by column in column order (for JSON and text listings). */
export interface RejectView { row: number; rule: string; origin: RejectOrigin; fields: string[]; original: string | null; values: Record<string, Value> }

/** A sink keeping the first `limit` rejects (and counting them all), for `plan`'s preview. */
export function firstRejects(limit: number): RejectSink & { count: number; list(): RejectView[] } {
  let columns: string[] = [];
  let kept: Reject[] = [];
  const sink = {
    count: 0,
    begin(names: string[]) { columns = names; kept = []; sink.count = 0; },
    add(reject: Reject) { sink.count++; if (kept.length < limit) kept.push(reject); },
    list: () => kept.map((r) => ({ ...r, values: orderedObject(columns.map((c, i) => [c, r.values[i] ?? null] as const)) })),
  };
  return sink;
}
