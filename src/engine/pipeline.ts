/**
 * Runs a job through the engine: open the input, run the import steps, derive the suggestions
 * from a sample, resolve the configuration, run the remaining steps and write the output.
 * Used by `import dry-run` and by the local service, so both process data identically.
 */
import { pathToFileURL } from 'node:url';
import type { JobConfig, JobResources, PipelineSchema, RunWebhookBody, SheetSelectionRead } from '../contract/index.js';
import { UsageError } from '../errors.js';
import { engineConfig } from '../jobfile/translate.js';
import { DataTableCollector, MetadataCollector } from './metadata.js';
import { STEPS } from './steps/index.js';
import { suggestResources, suggestSheet } from './suggest.js';
import {
  emptyReport, SAMPLE_ROWS,
  type Batch, type EngineConfig, type InputSource, type Report, type Row, type ScriptFn, type SheetInfo, type StepContext, type Table,
} from './types.js';
import { writeTable } from './write/index.js';

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
}

/** Options of `runJob` beyond the setup. */
export interface RunOptions {
  /** Given the suggestions, the complete update bodies to apply (job file over suggestions, or a job's stored state). */
  configure: (resources: JobResources) => Required<JobConfig> | Promise<Required<JobConfig>>;
  output?: { path: string; format: 'csv' | 'excel' };
  collectDataTable?: boolean;
}

/** Derives the suggestions and the start metadata (reads the whole input once, counting rows). */
export async function analyzeJob(setup: JobSetup): Promise<Analysis> {
  const opened = await openJob(setup, emptyReport());
  for await (const _ of opened.table.batches) { /* drain: the metadata collector counts every row */ }
  return { resources: opened.resources, metadata: opened.metadata.result(), sheets: opened.sheets };
}

/** Processes a job end to end and writes its output. */
export async function runJob(setup: JobSetup, options: RunOptions): Promise<RunResult> {
  const report = emptyReport();
  const opened = await openJob(setup, report);
  const bodies = await options.configure(opened.resources);
  if (opened.sheets && bodies.sheet && bodies.sheet !== opened.selectedSheet) {
    // The configuration chose another sheet than the one read: start over on that sheet.
    return runJob({ ...setup, sheet: bodies.sheet }, options);
  }
  const config = engineConfig(opened.resources, bodies);
  const ctx = opened.ctx;
  const rest = STEPS.slice(STEPS.findIndex((s) => s.name === 'map'));
  for (const step of rest) step.check?.(config, opened.table.columns, ctx);
  let table: Table = opened.table;
  for (const step of rest) table = await step.apply(table, config, ctx);

  const collector = options.collectDataTable ? new DataTableCollector() : undefined;
  const counted = tap(table, (batch) => {
    report.rowsOut += batch.rows.length;
    collector?.push(batch);
  });
  if (options.output) await writeTable(counted, options.output.path, options.output.format);
  else for await (const _ of counted.batches) { /* drain */ }

  return {
    resources: opened.resources,
    metadata: opened.metadata.result(),
    sheets: opened.sheets,
    bodies,
    config,
    report,
    columns: table.columns,
    runWebhook: collector?.body('', table.columns, table.types),
  };
}

interface OpenedJob {
  table: Table;
  resources: JobResources;
  metadata: MetadataCollector;
  sheets: SheetInfo[] | null;
  selectedSheet: string | null;
  ctx: StepContext;
}

/** Opens the input, runs the steps before mapping, and derives the suggestions from a sample. */
async function openJob(setup: JobSetup, report: Report): Promise<OpenedJob> {
  const warn = setup.warn ?? (() => {});
  const ctx: StepContext = {
    schema: setup.schema ?? emptySchema(),
    report,
    strictScripts: Boolean(setup.strictScripts),
    loadScript: (id) => loadScript(id, setup.localScripts ?? {}),
    warn: (message) => { report.warnings.push(message); warn(message); },
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
  const raw = await setup.input.open({ sheet: selectedSheet ?? undefined, lenient: setup.lenient, report, onProgress: setup.onProgress });

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
  const { sample, rest } = await takeSample(counted, setup.useFullData ? Infinity : SAMPLE_ROWS);
  const resources = suggestResources({
    sourceName: setup.input.name,
    columns: table.columns,
    sample,
    schema: setup.schema,
    sheet: sheetSelection,
    scripts: { preColumnMapping: setup.preScripts ?? [] },
  });
  return { table: rest, resources, metadata, sheets, selectedSheet, ctx };
}

/** Reads batches until `limit` rows are in hand; returns them and a table that replays them first. */
async function takeSample(table: Table, limit: number): Promise<{ sample: Row[]; rest: Table }> {
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
  return { sample, rest: { ...table, batches: replay() } };
}

/** A table whose batches pass through `see` on their way. */
function tap(table: Table, see: (batch: Batch) => void): Table {
  async function* batches(): AsyncGenerator<Batch> {
    for await (const batch of table.batches) { see(batch); yield batch; }
  }
  return { ...table, batches: batches() };
}

/** The schema of a pipeline nobody described: identity suggestions. */
export function emptySchema(): PipelineSchema {
  return { expectedFields: [], optionalFields: [], fieldDataTypes: {}, fieldUnits: {}, imputeMethods: {}, rowDropping: [] };
}

const scriptCache = new Map<string, ScriptFn>();

/** Imports a local script module and returns its default export. */
async function loadScript(id: string, localScripts: Record<string, string>): Promise<ScriptFn | undefined> {
  const path = localScripts[id];
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
