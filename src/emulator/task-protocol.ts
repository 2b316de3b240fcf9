/** The plain-data protocol of engine tasks (what executor.ts posts to a worker and gets back); no engine code here. */
import type { JobConfig, JobResources, PipelineSchema, RunWebhookBody } from '../contract/index.js';
import { ImportError, UsageError } from '../errors.js';
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
  | { kind: 'run'; setup: SetupSpec; bodies: Required<JobConfig>; output: { path: string; format: 'csv' | 'excel' }; collectDataTable: boolean };

/** The suggestions for a job, from a sample only (the whole input with useFullData). */
export interface SuggestResult { kind: 'suggest'; resources: JobResources; columnTypes: ColumnTypes | null; warnings: string[] }
/** The suggestions and the start-webhook metadata, from a read of the whole input. */
export interface AnalyzeResult { kind: 'analyze'; resources: JobResources; metadata: StartMetadata; warnings: string[] }
/** What a run produced (the output file is written). */
export interface RunTaskResult { kind: 'run'; report: Report; columns: string[]; runWebhook?: Omit<RunWebhookBody, 'jobId'> }
/** Any task's result. */
export type TaskResult = SuggestResult | AnalyzeResult | RunTaskResult;

/** A task's failure as plain data: `isUsage` when the input or configuration is at fault (422), not the service. */
export interface TaskFailure { message: string; isUsage: boolean; stack?: string }

/** A failed task, rebuilt on the side that asked for it. */
export class TaskError extends Error {
  constructor(message: string, readonly isUsage: boolean) {
    super(message);
    this.name = 'TaskError';
  }
}

/** A thrown value as plain data. */
export function toFailure(error: unknown): TaskFailure {
  if (error instanceof TaskError) return { message: error.message, isUsage: error.isUsage };
  const isUsage = error instanceof UsageError || (error instanceof ImportError && error.exitCode === 2);
  const message = error instanceof Error ? error.message : String(error);
  return { message, isUsage, stack: error instanceof Error ? error.stack : undefined };
}
