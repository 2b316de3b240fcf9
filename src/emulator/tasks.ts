/**
 * The engine work of the local service, as plain-data tasks so they can run in a worker thread
 * (off the event loop that answers requests) or, when running from TypeScript sources in tests,
 * in the same thread. Every input and result here is structured-clonable.
 */
import type { DataType, JobResources } from '../contract/index.js';
import { analyzeJob, runJob, type JobSetup } from '../engine/pipeline.js';
import { stat } from 'node:fs/promises';
import { googleSheetSource } from '../engine/read/google-sheet.js';
import { openInput } from '../engine/read/index.js';
import { inferDataType } from '../engine/suggest.js';
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

// Thrown from `configure` to stop runJob once the suggestions exist: they come from the sample
// alone, so the rest of a large input is never read just to answer `start`.
const STOP = Symbol('stop after suggestions');

async function suggest(spec: SetupSpec): Promise<SuggestResult> {
  const warnings: string[] = [];
  const tap = new SampleTap();
  const setup = await makeSetup(spec, warnings, tap);
  let resources: JobResources | undefined;
  try {
    await runJob(setup, { configure: (r) => { resources = r; throw STOP; } });
  } catch (e) {
    if (e !== STOP) throw e;
  } finally {
    await tap.close();
  }
  if (!resources) throw new Error('the engine gave no suggestions');
  // Column profiles come from the raw sample, which is the columns' sample only when no script reshaped them.
  const columnTypes = spec.preScripts.length === 0 && sameList(tap.columns, resources.fields.inputColumns) ? profile(tap.rows, tap.columns) : null;
  return { kind: 'suggest', resources, columnTypes, warnings };
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
    output: task.output,
    collectDataTable: task.collectDataTable,
  });
  const out: RunTaskResult = { kind: 'run', report: result.report, columns: result.columns };
  if (result.runWebhook) out.runWebhook = { dataTable: result.runWebhook.dataTable, dataTypes: result.runWebhook.dataTypes };
  return out;
}

async function makeSetup(spec: SetupSpec, warnings: string[], tap?: SampleTap): Promise<JobSetup> {
  const { path, googleSheet } = spec.input;
  const source = googleSheet
    ? googleSheetSource({ path, size: (await stat(path)).size, display: googleSheet.display }, googleSheet.sheet)
    : await openInput({ file: path });
  let input = named(source, spec.input.name);
  if (tap) input = tap.wrap(input);
  return {
    input,
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

/** Keeps the first SAMPLE_ROWS raw rows read from a source, and can close the readers it opened. */
class SampleTap {
  columns: string[] = [];
  rows: Row[] = [];
  private readonly closers: (() => Promise<void>)[] = [];

  /** The source, with every table it opens tapped. */
  wrap(source: InputSource): InputSource {
    return {
      ...source,
      sheets: () => source.sheets(),
      open: async (opts) => {
        const table = await source.open(opts);
        this.columns = [...table.columns];
        this.rows = [];
        const iterator = table.batches[Symbol.asyncIterator]();
        let isClosed = false;
        const close = async () => {
          if (isClosed) return;
          isClosed = true;
          await iterator.return?.();
        };
        this.closers.push(close);
        const rows = this.rows;
        async function* batches() {
          try {
            for (;;) {
              const next = await iterator.next();
              if (next.done) { isClosed = true; return; }
              for (const row of next.value.rows) { if (rows.length < SAMPLE_ROWS) rows.push(row); else break; }
              yield next.value;
            }
          } finally {
            await close();
          }
        }
        return { ...table, batches: batches() };
      },
    };
  }

  /** Ends every reader left open (the run was stopped after the sample), releasing its file. */
  async close(): Promise<void> {
    for (const close of this.closers) {
      try { await close(); } catch { /* the reader is gone either way */ }
    }
  }
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Per column: the inferred type, and the share of values that fit number and date_time. */
function profile(rows: Row[], columns: string[]): ColumnTypes {
  const out: ColumnTypes = {};
  columns.forEach((column, i) => {
    const fit = (type: DataType) => inferDataType(rows, i, type).confidence;
    out[column] = { inferred: inferDataType(rows, i), fit: { number: fit('number'), date_time: fit('date_time') } };
  });
  return out;
}
