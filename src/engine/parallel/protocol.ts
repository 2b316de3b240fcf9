/** Messages between a parallel run's main thread (run.ts) and its worker threads (worker.ts). */
import type { PipelineSchema } from '../../contract/index.js';
import type { CsvPart } from '../read/csv.js';
import type { SlashOrders } from '../steps/types.js';
import type { Reject } from '../rejects.js';
import type { EngineConfig, Report, Row, TypeEvidence, Value } from '../types.js';

/** What a worker is asked to do: read one part of the file and run the steps on it. */
export interface WorkerJob {
  path: string;
  display: string;
  forced: string | undefined;
  part: CsvPart;
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
  /** Batches a worker may have sent and not yet seen credited back: bounds the main thread's queue. */
  maxInFlight: number;
  /**
   * The spill file (a descriptor the main thread opened and closes: file descriptors are the
   * process's) the batches are appended to rather than sent: the second part's output waits there
   * (in the page cache, not in the process) until the first part is merged, and no large buffer
   * crosses threads (freed only by the other thread's GC, such buffers made memory balloon).
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
  | { kind: 'values'; values: Value[] }
  | { kind: 'keys'; keys: string[] };

/**
 * A batch of rows after the steps before row dropping, as what the merge needs. Both parts are
 * in the worker's spill file, at the main thread's running position: the CSV text (`length`
 * bytes), then the BatchData (`dataLength` bytes, v8.serialize). Only this small notice crosses
 * threads, so a part waiting for its turn costs the main thread no memory.
 */
export interface BatchMessage {
  type: 'batch';
  /** Bytes of the rows' output text (UTF-8): CSV lines each ending in `\n`, or `<row>` elements. */
  length: number;
  /** Bytes of the serialized BatchData after them. */
  dataLength: number;
  /** Bytes of the part read so far. */
  bytes: number;
}

/** What the merge needs of a batch besides its text. */
export interface BatchData {
  /** End offset (bytes) of each row's text. */
  ends: number[];
  /** Excel output: what the formatter changed, per row (SheetFixes.rows), when anything. */
  sheetFixes?: number[];
  /** Each row's data-row number, counted from the part's first row. */
  rowNumbers: number[];
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

/** The end of a part: how many data rows it had and the report of its steps. */
export interface DoneMessage {
  type: 'done';
  rows: number;
  report: Report;
  /** What the part's date and number columns showed (StepContext.typeEvidence; Maps cross threads whole), for the warnings. */
  typeEvidence: TypeEvidence;
}

/** Any message a worker sends. */
export type WorkerMessage = BatchMessage | DoneMessage;

/** What the main thread sends back: batches it has consumed. */
export interface CreditMessage { credit: number }

/** Asks the second worker, as soon as it starts, where the file's second part starts. */
export interface SplitJob { split: { path: string; size: number; share: number } }

/** The answer to a SplitJob: the split point, or null when there is none. */
export interface SplitMessage { split: number | null }
