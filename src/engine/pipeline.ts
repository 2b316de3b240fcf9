/**
 * Runs a job through the engine: open the input, run the import steps, derive the suggestions
 * from a sample, resolve the configuration, run the remaining steps and write the output.
 * Used by `import dry-run` and by the local service, so both process data identically.
 */
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import type { JobConfig, JobResources, PipelineSchema, RunWebhookBody, SheetSelectionRead } from '../contract/index.js';
import { getOwn } from '../contract/json.js';
import { UsageError } from '../errors.js';
import { engineConfig } from '../contract/translate.js';
import { DataTableCollector, MetadataCollector } from './metadata.js';
import { STEPS } from './steps/index.js';
import { typeWarnings } from './steps/types.js';
import { secondHeaderNote } from './value-shapes.js';
import { suggestResources, suggestSheet } from './suggest.js';
import {
  eachBatch, emptyReport, emptyTypeEvidence, SAMPLE_ROWS,
  type Batch, type EngineConfig, type InputSource, type Report, type Row, type RunOutput, type ScriptFn, type SheetInfo, type StepContext, type Table,
} from './types.js';
import { writeTable } from './write/index.js';
import { isStreamTarget } from './write/atomic.js';
import { RejectOrderer, releaseRejectsAfter, type RejectSink } from './rejects.js';
import { Profiler, type ColumnProfile } from './profile.js';
import type { ParallelFallback as ParallelFallbackClass, runParallel as RunParallel, WorkerPool } from './parallel/run.js';

/** The start-webhook metadata of an input, keyed by its name. */
export type InputMetadata = ReturnType<MetadataCollector['result']>;

/** What the engine needs to know about a job besides its data. */
export interface JobSetup {
  input: InputSource;
  schema?: PipelineSchema;
  /** The sheet to read (XLSX); the suggestion when not given. */
  sheet?: string | null;
  /** preColumnMapping script ids, as given to `start`. */
  preScripts?: string[];
  /** script id -> absolute path of an ES module. */
  localScripts?: Record<string, string>;
  /** Unknown script ids are errors (`import serve`) rather than warnings (dry run). */
  strictScripts?: boolean;
  useFullData?: boolean;
  lenient?: boolean;
  warn?: (message: string) => void;
  /** Where a rule was configured (StepContext.locate), to place the steps' messages about it. */
  locate?: StepContext['locate'];
  onProgress?: (bytesRead: number) => void;
}

/** The suggestions and start metadata of a job. */
export interface Analysis {
  resources: JobResources;
  metadata: InputMetadata;
  sheets: SheetInfo[] | null;
}

/** What a run produced. */
export interface RunResult extends Analysis {
  bodies: Required<JobConfig>;
  config: EngineConfig;
  report: Report;
  columns: string[];
  /** The run-webhook body, when `collectDataTable` was asked for. */
  runWebhook?: Omit<RunWebhookBody, 'jobId'>;
  /** The output columns' profile, when `profile` was asked for. */
  profile?: ColumnProfile[];
}

/** Options of `runJob` beyond the setup. */
export interface RunOptions {
  /** Given the suggestions, the complete update bodies to apply (job file over suggestions, or a job's stored state). */
  configure: (resources: JobResources) => Required<JobConfig> | Promise<Required<JobConfig>>;
  output?: RunOutput;
  collectDataTable?: boolean;
  /** Receives every rejected row and emptied cell, in input-row order (rejects.ts). */
  rejects?: RejectSink;
  /** Profile the output columns (profile.ts), for the HTML report. */
  profile?: boolean;
  /**
   * The suggestions for this input, schema, sheet and scripts when the caller already holds them
   * (`import serve` made them at start): used as they are instead of being derived again from the sample.
   */
  suggestions?: JobResources;
}

/** Derives the suggestions and the start metadata (reads the whole input once, counting rows). */
export async function analyzeJob(setup: JobSetup): Promise<Analysis> {
  const opened = await openJob(setup, emptyReport());
  for await (const _ of opened.table.batches) { /* drain: the metadata collector counts every row */ }
  return { resources: opened.resources, metadata: opened.metadata.result(), sheets: opened.sheets };
}

/**
 * Derives the suggestions from the sample alone and stops reading (`import serve`'s start): no
 * worker threads, no read past the sample. `sample` is the rows they were made from, `columns` theirs.
 */
export async function suggestJob(setup: JobSetup): Promise<{ resources: JobResources; columns: string[]; sample: Row[] }> {
  const opened = await openJob(setup, emptyReport());
  await opened.close();
  return { resources: opened.resources, columns: opened.table.columns, sample: opened.sample };
}

/** Input files at least this large may be processed by two threads; below it, starting them costs more than it saves. */
const PARALLEL_MIN_BYTES = 8 << 20;

/** Processes a job end to end and writes its output. */
export async function runJob(setup: JobSetup, options: RunOptions): Promise<RunResult> {
  // Worker threads start before the sample is read, so their start-up overlaps it (parallel/run.ts).
  const parallel = mayRunParallel(setup, options) ? await import('./parallel/run.js') : undefined;
  const pool = parallel?.startWorkers(setup.input);
  try {
    return await runJobWith(setup, options, pool && parallel ? { pool, ...parallel } : undefined);
  } finally {
    await pool?.terminate();
  }
}

/** runJob, with the parallel path's workers and module when it may be taken. */
async function runJobWith(
  setup: JobSetup, options: RunOptions,
  parallel: { pool: WorkerPool; runParallel: typeof RunParallel; ParallelFallback: typeof ParallelFallbackClass } | undefined,
): Promise<RunResult> {
  const report = emptyReport();
  const opened = await openJob(setup, report, options);
  const bodies = await options.configure(opened.resources);
  if (opened.sheets && bodies.sheet && bodies.sheet !== opened.selectedSheet) {
    // The configuration chose another sheet than the one read: start over on that sheet (whose suggestions differ).
    return runJob({ ...setup, sheet: bodies.sheet }, { ...options, suggestions: undefined });
  }
  const config = engineConfig(opened.resources, bodies);
  const rest = STEPS.slice(STEPS.findIndex((s) => s.name === 'map'));
  for (const step of rest) step.check?.(config, opened.table.columns, opened.ctx);

  if (parallel) {
    const { runParallel, ParallelFallback, pool } = parallel;
    try {
      const done = await runParallel({
        input: setup.input, columns: opened.table.columns, sample: opened.sample, config, ctx: opened.ctx, report,
        metadata: opened.metadata, lenient: Boolean(setup.lenient), onProgress: setup.onProgress, sendRows: Boolean(options.rejects), profile: Boolean(options.profile),
        output: options.output, collectDataTable: Boolean(options.collectDataTable), closeInput: opened.close, pool,
      });
      if (done) {
        trace('engine: 2 threads');
        return {
          resources: opened.resources, metadata: opened.metadata.result(), sheets: opened.sheets,
          bodies, config, report, columns: done.columns, runWebhook: done.runWebhook, profile: done.profile,
        };
      }
      await pool.terminate(); // not taken: the workers go now rather than idle through the run
    } catch (error) {
      if (!(error instanceof ParallelFallback)) throw error;
      trace(`engine: fell back to 1 thread (${error.message})`);
      // A worker failed (a bad row, a file the split misjudged): start over in one thread, which
      // gives the exact error or output. Warnings already given are not given twice.
      const given = [...report.warnings];
      const warn = setup.warn ?? (() => {});
      const again = await openJob({
        ...setup,
        warn: (message) => {
          const i = given.indexOf(message);
          if (i >= 0) given.splice(i, 1);
          else warn(message);
        },
      }, emptyReport(), options);
      return runRest(again, bodies, config, options);
    }
  }
  return runRest(opened, bodies, config, options);
}

/** Whether a run may take the parallel path (runParallel checks the rest): a large CSV file, no scripts, sample-based metadata. */
function mayRunParallel(setup: JobSetup, options: RunOptions): boolean {
  // IMPORT_ENGINE_THREADS=1 forces one thread (tests compare both paths with it); =2 lets Excel output take two on two cores.
  const threads = process.env.IMPORT_ENGINE_THREADS || undefined;
  if (threads !== undefined && threads !== '1' && threads !== '2') {
    throw new UsageError(`IMPORT_ENGINE_THREADS is ${JSON.stringify(threads)}; set it to 1 (one thread) or 2 (two threads where the file allows, Excel output too), or unset it.`);
  }
  if (threads === '1') return false;
  const may = setup.input.kind === 'csv' && setup.input.size >= PARALLEL_MIN_BYTES && !setup.useFullData
    && (setup.preScripts ?? []).length === 0
    // A parallel run that falls back writes its output again from the start, which a pipe written
    // as the run goes cannot take back (one with a check before the commit gets the finished file).
    && !(options.output && !options.output.beforeCommit && isStreamTarget(options.output.path));
  if (may && options.output?.format === 'excel' && threads !== '2' && availableParallelism() <= 2) {
    // Excel output's compression (Node's zlib thread pool) already takes the second core, and the
    // two-thread path's own cost (a second isolate compiling the same code, its GC, the spill, the
    // merge) then outweighs what it shares: measured (1M rows, 8 in-turn pairs) one thread took
    // 0.966x the wall time and 0.79x the CPU, with a peak RSS of 112 MiB against 162.
    trace('engine: 1 thread (Excel output on two cores: its compression takes the other)');
    return false;
  }
  return may;
}

/** With IMPORT_ENGINE_TRACE=1, says on stderr which path a run took (for tests and benchmarks). */
function trace(message: string): void {
  if (process.env.IMPORT_ENGINE_TRACE === '1') process.stderr.write(message + '\n');
}

/** The sequential rest of a run: the steps from mapping on, then the output. */
async function runRest(opened: OpenedJob, bodies: Required<JobConfig>, config: EngineConfig, options: RunOptions): Promise<RunResult> {
  const ctx = opened.ctx;
  const report = ctx.report;
  const rest = STEPS.slice(STEPS.findIndex((s) => s.name === 'map'));
  let table: Table = opened.table;
  for (const step of rest) {
    table = await step.apply(table, config, ctx);
    if (step.name === 'types' && ctx.rejects) {
      // Every step that rejects runs from here on: see releaseRejectsAfter.
      ctx.rejects.begin(table.columns);
      table = releaseRejectsAfter(table, ctx.rejects);
    }
  }

  const collector = options.collectDataTable ? new DataTableCollector() : undefined;
  const profiler = options.profile ? new Profiler(table.columns, table.types) : undefined;
  const counted = tap(table, (batch) => {
    report.rowsOut += batch.rows.length;
    collector?.push(batch);
    profiler?.push(batch);
  });
  const { output } = options;
  if (output) await writeTable(counted, output.path, output.format, ctx.warn, output.beforeCommit && (() => output.beforeCommit?.(report)));
  else for await (const _ of counted.batches) { /* drain */ }
  ctx.rejects?.release();
  for (const warning of typeWarnings(ctx.typeEvidence)) ctx.warn(warning);

  return {
    resources: opened.resources,
    metadata: opened.metadata.result(),
    sheets: opened.sheets,
    bodies,
    config,
    report,
    columns: table.columns,
    runWebhook: collector?.body('', table.columns, table.types),
    profile: profiler?.result(),
  };
}

interface OpenedJob {
  table: Table;
  resources: JobResources;
  metadata: MetadataCollector;
  sheets: SheetInfo[] | null;
  selectedSheet: string | null;
  ctx: StepContext;
  /** The first rows (raw), from which the suggestions were made. */
  sample: Row[];
  /** Stops reading the input (the parallel path reads it itself). */
  close: () => Promise<void>;
}

/** Opens the input, runs the steps before mapping, and derives the suggestions from a sample. */
async function openJob(setup: JobSetup, report: Report, options?: Pick<RunOptions, 'rejects' | 'suggestions'>): Promise<OpenedJob> {
  const warn = setup.warn ?? (() => {});
  const ctx: StepContext = {
    schema: setup.schema ?? emptySchema(),
    report,
    strictScripts: Boolean(setup.strictScripts),
    loadScript: (id) => loadScript(id, setup.localScripts ?? {}),
    warn: (message) => { report.warnings.push(message); warn(message); },
    locate: setup.locate,
    rejects: options?.rejects ? new RejectOrderer(options.rejects) : undefined,
    typeEvidence: emptyTypeEvidence(),
  };
  const sheets = await setup.input.sheets();
  let sheetSelection: SheetSelectionRead['sheetSelection'] | null = null;
  let selectedSheet: string | null = null;
  if (sheets) {
    const suggested = suggestSheet(sheets, setup.schema);
    selectedSheet = setup.sheet ?? suggested.selected;
    if (!sheets.some((s) => s.name === selectedSheet)) {
      throw new UsageError(`Sheet "${selectedSheet}" is not in the workbook; choose one of: ${sheets.map((s) => s.name).join(', ')}.`);
    }
    sheetSelection = { ...suggested, selected: selectedSheet };
  }
  const raw = await setup.input.open({ sheet: selectedSheet ?? undefined, lenient: setup.lenient, report, onProgress: setup.onProgress, warn: ctx.warn });
  for (const note of raw.notes ?? []) ctx.warn(note);
  ctx.reopen = async (step, config) => {
    // preColumnMapping scripts ran once over the whole input, which is in memory: not run again.
    if ((setup.preScripts ?? []).length > 0) return undefined;
    const scratch: StepContext = { ...ctx, report: emptyReport(), warn: () => {} };
    let table: Table = await setup.input.open({ sheet: selectedSheet ?? undefined, lenient: setup.lenient, report: scratch.report });
    for (const s of STEPS.slice(STEPS.findIndex((x) => x.name === 'map'), STEPS.findIndex((x) => x.name === step))) {
      table = await s.apply(table, config, scratch);
    }
    return table;
  };

  // Steps before mapping (sheet selection, preColumnMapping scripts) shape the columns that
  // suggestions are made for, so they run first; steps/index.ts still holds the one order.
  const preConfig = { scripts: { preColumnMapping: setup.preScripts ?? [], postClean: [] } } as unknown as EngineConfig;
  const before = STEPS.slice(0, STEPS.findIndex((s) => s.name === 'map'));
  for (const step of before) step.check?.(preConfig, raw.columns, ctx);
  let table: Table = raw;
  for (const step of before) table = await step.apply(table, preConfig, ctx);

  const metadata = new MetadataCollector(setup.input.name, table.columns, { full: Boolean(setup.useFullData) });
  const counted = tap(table, (batch) => {
    report.rowsIn += batch.rows.length;
    metadata.push(batch);
  });
  const { sample, rest, close } = await takeSample(counted, setup.useFullData ? Infinity : SAMPLE_ROWS);
  const display = selectedSheet === null ? setup.input.name : `${setup.input.name}, sheet "${selectedSheet}"`;
  for (const note of secondHeaderNote(table.columns, sample, display)) ctx.warn(note);
  const resources = options?.suggestions ?? suggestResources({
    sourceName: setup.input.name,
    columns: table.columns,
    sample,
    schema: setup.schema,
    sheet: sheetSelection,
    scripts: { preColumnMapping: setup.preScripts ?? [] },
  });
  return { table: rest, resources, metadata, sheets, selectedSheet, ctx, sample, close };
}

/** Reads batches until `limit` rows are in hand; returns them and a table that replays them first. */
async function takeSample(table: Table, limit: number): Promise<{ sample: Row[]; rest: Table; close: () => Promise<void> }> {
  const iterator = table.batches[Symbol.asyncIterator]();
  const held: Batch[] = [];
  const sample: Row[] = [];
  let done = false;
  while (sample.length < limit) {
    const next = await iterator.next();
    if (next.done) { done = true; break; }
    held.push(next.value);
    for (const row of next.value.rows) { if (sample.length < limit) sample.push(row); }
  }
  async function* replay(): AsyncGenerator<Batch> {
    yield* held;
    held.length = 0;
    if (done) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  const close = async () => {
    held.length = 0;
    await iterator.return?.(undefined);
  };
  return { sample, rest: { ...table, batches: replay() }, close };
}

/** A table whose batches pass through `see` on their way. */
function tap(table: Table, see: (batch: Batch) => void): Table {
  return { ...table, batches: eachBatch(table.batches, (batch) => { see(batch); return batch; }) };
}

/** The schema of a pipeline nobody described: identity suggestions. */
export function emptySchema(): PipelineSchema {
  return { expectedFields: [], optionalFields: [], fieldDataTypes: {}, fieldUnits: {}, imputeMethods: {}, rowDropping: [] };
}

const scriptCache = new Map<string, ScriptFn>();

/** Imports a local script module and returns its default export. */
async function loadScript(id: string, localScripts: Record<string, string>): Promise<ScriptFn | undefined> {
  const path = getOwn(localScripts, id);
  if (!path) return undefined;
  const cached = scriptCache.get(path);
  if (cached) return cached;
  let mod: { default?: unknown };
  try {
    mod = await import(pathToFileURL(path).href);
  } catch (e) {
    throw new UsageError(`Script "${id}" could not be loaded from ${path} (${(e as Error).message}); check localScripts in the job file.`);
  }
  if (typeof mod.default !== 'function') {
    throw new UsageError(`Script "${id}" (${path}) has no default export function; export default a function taking {columns, rows}.`);
  }
  scriptCache.set(path, mod.default as ScriptFn);
  return mod.default as ScriptFn;
}
