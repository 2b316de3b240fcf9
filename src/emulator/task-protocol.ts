/** The plain-data protocol of engine tasks (what executor.ts posts to a worker and gets back); no engine code here. */
import type { JobConfig, JobResources, PipelineSchema, RunWebhookBody } from '../contract/index.js';
import { ImportError, UsageError } from '../errors.js';
import { InputLimitError } from '../engine/read/limits.js';
import type { StartMetadata } from '../engine/metadata.js';
import type { Report } from '../engine/types.js';
import type { ColumnTypes } from './updates.js';

/** Where a job's input is and what its metadata calls it. */
export interface InputSpec {
  /** Absolute path of the stored input (the upload, or jsonData written as a JSON file). */
  path: string;
  /** Key of the start-webhook metadata and of the column mapping: the file's base name, `jsonData`, or the sheet name. */
  name: string;
  /** A Google Sheets input: `path` is its workbook, of which only `sheet` is read. */
  googleSheet?: { sheet: string; display: string };
}

/** Everything the engine needs about a job besides its configuration, as plain data. */
export interface SetupSpec {
  input: InputSpec;
  schema: PipelineSchema | null;
  sheet: string | null;
  preScripts: string[];
  /** script id -> absolute path of its ES module. */
  localScripts: Record<string, string>;
  useFullData: boolean;
}

/** A unit of engine work. */
export type Task =
  | { kind: 'suggest'; setup: SetupSpec }
  | { kind: 'analyze'; setup: SetupSpec }
  | {
    kind: 'run'; setup: SetupSpec; bodies: Required<JobConfig>; output: { path: string; format: 'csv' | 'excel' }; collectDataTable: boolean;
    /** The suggestions `start` made for this setup (a sheet update makes them again): the run does not derive them again. */
    suggestions: JobResources;
  };

/** The suggestions for a job, from a sample only (the whole input with useFullData). */
export interface SuggestResult { kind: 'suggest'; resources: JobResources; columnTypes: ColumnTypes | null; warnings: string[] }
/** The suggestions and the start-webhook metadata, from a read of the whole input. */
export interface AnalyzeResult { kind: 'analyze'; resources: JobResources; metadata: StartMetadata; warnings: string[] }
/** What a run produced (the output file is written). */
export interface RunTaskResult { kind: 'run'; report: Report; columns: string[]; runWebhook?: Omit<RunWebhookBody, 'jobId'> }
/** Any task's result. */
export type TaskResult = SuggestResult | AnalyzeResult | RunTaskResult;

/**
 * Why a task failed: the input or configuration (`usage`, 422), an input over a size limit
 * (`too_large`, 413), over the time limit (`timeout`), its engine thread lost under it (`lost`:
 * a crash, or another task on the thread ran over its time; the task may be run again), or the
 * service itself (`internal`).
 */
export type FailureKind = 'usage' | 'too_large' | 'timeout' | 'lost' | 'internal';

/** A task's failure as plain data. */
export interface TaskFailure { message: string; kind: FailureKind; stack?: string }

/** A failed task, rebuilt on the side that asked for it. */
export class TaskError extends Error {
  constructor(message: string, readonly kind: FailureKind) {
    super(message);
    this.name = 'TaskError';
  }

  /** Whether the job's input or configuration is at fault (not the service). */
  get isUsage(): boolean {
    return this.kind === 'usage' || this.kind === 'too_large' || this.kind === 'timeout';
  }
}

/** A thrown value as plain data. */
export function toFailure(error: unknown): TaskFailure {
  if (error instanceof TaskError) return { message: error.message, kind: error.kind };
  const kind: FailureKind = error instanceof InputLimitError ? 'too_large'
    : error instanceof UsageError || (error instanceof ImportError && error.exitCode === 2) ? 'usage' : 'internal';
  const message = error instanceof Error ? error.message : String(error);
  return { message, kind, stack: error instanceof Error ? error.stack : undefined };
}
