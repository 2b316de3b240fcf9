/** Messages between a parallel run's main thread (run.ts) and its worker threads (worker.ts). */
import type { PipelineSchema } from '../../contract/index.js';
import type { CsvPart } from '../read/csv.js';
import type { SlashOrders } from '../steps/types.js';
import type { Reject } from '../rejects.js';
import type { EngineConfig, Report, Row, TypeEvidence, Value } from '../types.js';

/** What every part of a parallel run shares: the file, the job's settings and what to send. */
export interface PartSettings {
  path: string;
  display: string;
  forced: string | undefined;
  lenient: boolean;
  config: EngineConfig;
  schema: PipelineSchema;
  orders: SlashOrders;
  /** The output's format: batches carry CSV lines, or sheet rows with placeholder row numbers (write/xlsx.ts). */
  output: 'csv' | 'excel';
  /** Send each batch's output rows too (the run webhook's data table, rejected rows' values). */
  collectRows: boolean;
  /** Report rejected rows and emptied cells (rejects.ts) with the batches. */
  rejects: boolean;
}

/**
 * What a worker is asked to do: run parts of the file, taking the next one in order as the main
 * thread does (claims.ts), until none is left.
 */
export interface WorkerJob extends PartSettings {
  /** The file's parts in order; the first (the main thread's from the start) holds the header. */
  parts: CsvPart[];
  /** The claims on the parts, shared with the main thread (claims.ts). */
  claims: SharedArrayBuffer;
  /**
   * The spill file (a descriptor the main thread opened and closes: file descriptors are the
   * process's) the batches are appended to rather than sent: the worker's output waits there
   * (in the page cache, not in the process) until the main thread's parts are merged, and no large
   * buffer crosses threads (freed only by the other thread's GC, such buffers made memory balloon).
   */
  spill: number;
}

/**
 * One row-dropping rule's outcome per row, in the order of activeRules: missingValues sends
 * whether each row keeps; duplicateValues sends each row's value (one field) or tuple key
 * (several fields), for the main thread to look up in order.
 */
export type RuleOutcome =
  | { kind: 'keeps'; keeps: boolean[] }
  | { kind: 'values'; values: Value[] | Float64Array }
  | { kind: 'keys'; keys: string[] };

/**
 * A batch of rows after the steps before row dropping, as what the merge needs. Both parts are
 * in the worker's spill file, at the main thread's running position: the CSV text (`length`
 * bytes), then the BatchData (`dataLength` bytes, v8.serialize). Only this small notice crosses
 * threads, so a part waiting for its turn costs the main thread no memory.
 */
export interface BatchMessage {
  type: 'batch';
  /** The batch's part (an index into WorkerJob.parts). */
  part: number;
  /** Bytes of the rows' output text (UTF-8): CSV lines each ending in `\n`, or `<row>` elements. */
  length: number;
  /** Bytes of the serialized BatchData after them. */
  dataLength: number;
  /** Bytes of the worker's parts read so far. */
  bytes: number;
}

/**
 * What the merge needs of a batch besides its text. Row offsets and numbers (and a rule's values
 * when all are numbers) are typed arrays: v8.serialize copies those whole, where arrays of numbers
 * went element by element (serialize and deserialize were ~130 ms of a 1M-row run's CPU).
 */
export interface BatchData {
  /** End offset (bytes) of each row's text (a batch's text may pass 2 GiB: 256 rows of up to 32 MiB). */
  ends: Float64Array;
  /** What the formatter changed (CSV: unpaired surrogates; Excel: more), per row (OutputFixes.rows), when anything. */
  sheetFixes?: number[];
  /** Each row's data-row number, counted from the part's first row. */
  rowNumbers: Int32Array;
  outcomes: RuleOutcome[];
  /** The output rows, when the run webhook's data table or rejected rows are collected. */
  rows?: Row[];
  /**
   * The rejects the worker's steps reported since the last batch, in order, rows counted from the
   * part's first row: up to this batch's last row, and those of earlier rows the worker dropped
   * whole. A batch with no rows carries only these (the worker sends one when many pile up).
   */
  rejects?: Reject[];
}

/** What a finished part gives besides its batches: how many data rows it had and the report of its steps. */
export interface PartDone {
  rows: number;
  report: Report;
  /** What the part's date and number columns showed (StepContext.typeEvidence; Maps cross threads whole), for the warnings. */
  typeEvidence: TypeEvidence;
}

/** The end of one of the worker's parts. */
export interface DoneMessage extends PartDone {
  type: 'done';
  part: number;
}

/** The worker found no part left to claim: its last message. */
export interface EndMessage { type: 'end' }

/** Any message a worker sends. */
export type WorkerMessage = BatchMessage | DoneMessage | EndMessage;

/** Asks the worker, as soon as it starts, where the file's parts start: the record boundaries at or past the aimed offsets (split.ts). */
export interface SplitJob { split: { path: string; size: number; aims: number[] } }

/**
 * The answers to a SplitJob: where the parts after the first start (none when the file has no
 * boundary past the first aim). The second part's start comes first on its own (`complete` false
 * unless there is none), so the main thread can start the first part while the rest are found.
 */
export interface SplitMessage { type: 'split'; points: number[]; complete: boolean }
