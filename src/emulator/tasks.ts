/**
 * The engine work of the local service, as plain-data tasks so they can run in a worker thread
 * (off the event loop that answers requests) or, when running from TypeScript sources in tests,
 * in the same thread. Every input and result here is structured-clonable.
 */
import { analyzeJob, runJob, suggestJob, type JobSetup } from '../engine/pipeline.js';
import { stat } from 'node:fs/promises';
import { googleSheetSource } from '../engine/read/google-sheet.js';
import { openInput } from '../engine/read/index.js';
import { columnTypeFits } from '../engine/suggest.js';
import { SAMPLE_ROWS, type InputSource, type Row } from '../engine/types.js';
import type { AnalyzeResult, RunTaskResult, SetupSpec, SuggestResult, Task, TaskResult } from './task-protocol.js';
import type { ColumnTypes } from './updates.js';

/** Runs one task in this thread. */
export async function performTask(task: Task): Promise<TaskResult> {
  switch (task.kind) {
    case 'suggest': return suggest(task.setup);
    case 'analyze': return analyze(task.setup);
    case 'run': return run(task);
  }
}

async function suggest(spec: SetupSpec): Promise<SuggestResult> {
  const warnings: string[] = [];
  const { resources, columns, sample } = await suggestJob(await makeSetup(spec, warnings));
  // Column profiles come from the raw sample, which is the columns' sample only when no script reshaped them.
  const isRaw = spec.preScripts.length === 0 && sameList(columns, resources.fields.inputColumns);
  return { kind: 'suggest', resources, columnTypes: isRaw ? profile(sample.slice(0, SAMPLE_ROWS), columns) : null, warnings };
}

async function analyze(spec: SetupSpec): Promise<AnalyzeResult> {
  const warnings: string[] = [];
  const analysis = await analyzeJob(await makeSetup(spec, warnings));
  return { kind: 'analyze', resources: analysis.resources, metadata: analysis.metadata, warnings };
}

async function run(task: Extract<Task, { kind: 'run' }>): Promise<RunTaskResult> {
  const warnings: string[] = [];
  const result = await runJob(await makeSetup(task.setup, warnings), {
    configure: () => task.bodies,
    suggestions: task.suggestions,
    output: task.output,
    collectDataTable: task.collectDataTable,
  });
  const out: RunTaskResult = { kind: 'run', report: result.report, columns: result.columns };
  if (result.runWebhook) out.runWebhook = { dataTable: result.runWebhook.dataTable, dataTypes: result.runWebhook.dataTypes };
  return out;
}

async function makeSetup(spec: SetupSpec, warnings: string[]): Promise<JobSetup> {
  const { path, googleSheet } = spec.input;
  const source = googleSheet
    ? googleSheetSource({ path, size: (await stat(path)).size, display: googleSheet.display }, googleSheet.sheet)
    : await openInput({ file: path });
  return {
    input: named(source, spec.input.name),
    schema: spec.schema ?? undefined,
    sheet: spec.sheet,
    preScripts: spec.preScripts,
    localScripts: spec.localScripts,
    // cli.md/engine.md: a script id with no local module is an error in `import serve`.
    strictScripts: true,
    useFullData: spec.useFullData,
    warn: (message) => warnings.push(message),
  };
}

/** The source under another name (the metadata key), its methods still bound to it. */
function named(source: InputSource, name: string): InputSource {
  // Spread keeps the reader's own members, among them the file a parallel run reads by path.
  return { ...source, name, sheets: () => source.sheets(), open: (opts) => source.open(opts) };
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Per column: the inferred type, and the share of values that fit number and date_time. */
function profile(rows: Row[], columns: string[]): ColumnTypes {
  const fits = columnTypeFits(rows, columns.length);
  const out: ColumnTypes = {};
  columns.forEach((column, i) => { out[column] = fits[i]; });
  return out;
}
