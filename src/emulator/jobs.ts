/**
 * Jobs of the local service: start, configuration reads and updates, run, and the state machine
 *
 *   start -> started --run--> running --> succeeded | failed
 *
 * Updates are allowed in `started` only (409 after); `run` once (409 after). Calls on one job
 * are serialised, so an update and a run never interleave. Engine work goes to the executor
 * (worker threads), webhooks are sent in the background.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join, relative } from 'node:path';
import type { JobConfig, JobResources, PipelineSchema, RunRequest, StartResponse } from '../contract/index.js';
import { startWebhookBody } from '../engine/metadata.js';
import { stringifyJson } from '../contract/json.js';
import { currentBodies } from '../contract/translate.js';
import { checkConfiguration } from './check-config.js';
import { StoppedError, type Executor } from './executor.js';
import { ImportError, UsageError } from '../errors.js';
import { conflict, HttpError, invalidBody, invalidValue, jobNotFound, tooLarge } from './http-error.js';
import { readStartForm } from './multipart.js';
import type { JobRecord, JobStore, WebhookRecord } from './store.js';
import { TaskError, type RunTaskResult, type SetupSpec, type SuggestResult } from './task-protocol.js';
import {
  applyCombining, applyDataTypes, applyFields, applyImpute, applyPivot, applyRowDropping, applyText, applyUnits, type ConfigState,
} from './updates.js';
import {
  checkCombiningUpdate, checkDataTypesUpdate, checkFieldsUpdate, checkImputeUpdate, checkPivotUpdate, checkRowDroppingUpdate,
  checkRunBody, checkSheetUpdate, checkStartFields, checkTextUpdate, checkUnitsUpdate, type JobView, type StartFields,
} from './validate-bodies.js';
import { deliverWebhook, redactUrl, type RetryPolicy } from './webhooks.js';

/** A configuration resource, by its JobResources member name. */
export type ResourceName = keyof JobResources;
/** A resource that has an update. */
export type UpdatableResource = Exclude<ResourceName, 'scripts'>;

/** What the job service is built from. */
export interface JobServiceOptions {
  store: JobStore;
  executor: Executor;
  /** Pipelines by id (from --schema). */
  schemas: Map<string, PipelineSchema>;
  /** Script id -> absolute path of its ES module (from --scripts). */
  scripts: Map<string, string>;
  maxUpload: number;
  /** Where Google Sheets links are exported from (IMPORT_SHEETS_BASE_URL; Google's by default) and the per-request timeout for it. */
  sheets: { baseUrl?: string; timeoutMs?: number };
  webhookRetry: RetryPolicy;
  /** Most runs processed at once; more wait their turn (still `running`). */
  maxConcurrentRuns: number;
  log: (line: string) => void;
}

/** A `run` answer: HTTP status and body. */
export interface RunAnswer { status: number; body: Record<string, unknown> }

/** A new job id: `job_` and 16 random URL-safe characters. */
export function newJobId(): string {
  return `job_${randomBytes(12).toString('base64url')}`;
}

type Check<B> = (body: unknown, job: JobView) => B;
type Apply<B> = (state: ConfigState, body: B) => ConfigState;
const UPDATES: { [R in Exclude<UpdatableResource, 'sheet'>]: [Check<any>, Apply<any>] } = {
  fields: [checkFieldsUpdate, applyFields],
  combining: [checkCombiningUpdate, applyCombining],
  dataTypes: [checkDataTypesUpdate, applyDataTypes],
  units: [checkUnitsUpdate, applyUnits],
  impute: [checkImputeUpdate, applyImpute],
  pivot: [checkPivotUpdate, applyPivot],
  rowDropping: [checkRowDroppingUpdate, applyRowDropping],
  text: [checkTextUpdate, applyText],
};

/** The jobs and everything done to them. */
export class JobService {
  private readonly locks = new Map<string, Promise<unknown>>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly stopController = new AbortController();
  private readonly waiting: (() => void)[] = [];
  private activeRuns = 0;
  private isStopping = false;

  constructor(private readonly o: JobServiceOptions) {}

  /** Jobs known, and jobs running now. */
  counts(): { jobs: number; running: number } {
    const all = this.o.store.all();
    return { jobs: all.length, running: all.filter((j) => j.state === 'running').length };
  }

  // ---- start ----

  /** `start`: reads the form (the file streamed to disk), derives the suggestions, stores the job. */
  async start(req: IncomingMessage): Promise<StartResponse> {
    const { store } = this.o;
    const jobId = newJobId();
    const inputDir = store.inputDir(jobId);
    await mkdir(inputDir, { recursive: true });
    let record: JobRecord;
    try {
      const upload = await readStartForm(req, inputDir, { maxUpload: this.o.maxUpload });
      const form = checkStartFields(upload.fields);
      checkDataInput(form, Boolean(upload.file));
      let input: JobRecord['input'];
      if (upload.file) {
        input = { path: relative(store.dataDir, upload.file.path), name: upload.file.fileName, kind: 'file', size: upload.file.size };
      } else if (form.gsUrl !== undefined) {
        input = await this.fetchSheet(form.gsUrl, form.gsSheetName as string, inputDir);
      } else {
        // Inline rows are stored as a JSON file, read like any JSON input; their metadata key is `jsonData`.
        const path = join(inputDir, 'jsonData.json');
        const text = stringifyJson(form.jsonData);
        await writeFile(path, text);
        input = { path: relative(store.dataDir, path), name: 'jsonData', kind: 'jsonData', size: Buffer.byteLength(text) };
      }
      const localScripts: Record<string, string> = {};
      for (const id of form.scripts?.preColumnMapping ?? []) {
        const path = this.o.scripts.get(id);
        if (!path) {
          const known = [...this.o.scripts.keys()];
          throw invalidValue(`Script ${JSON.stringify(id)} has no module on this service; ${known.length ? `known scripts: ${known.join(', ')}` : 'start the service with --scripts <dir> holding ' + id + '.mjs'}.`);
        }
        localScripts[id] = path;
      }
      const now = new Date().toISOString();
      const base: JobRecord = {
        version: 1, jobId, createdAt: now, updatedAt: now, state: 'started',
        form: {
          jobName: form.jobName, pipelineIds: form.pipelineIds, destinationFileName: form.destinationFileName,
          useFullData: Boolean(form.useFullData), useVariableFields: Boolean(form.useVariableFields),
          webhookUrl: form.webhookUrl, outputFileType: form.outputFileType, scripts: form.scripts?.preColumnMapping ?? [],
        },
        pipelineId: null, schema: null, input, localScripts,
        resources: undefined as unknown as JobResources, suggested: undefined as unknown as JobResources,
        allowColumnCombining: false, columnTypes: null, webhooks: [],
      };
      const chosen = await this.choosePipeline(base);
      record = {
        ...base, pipelineId: chosen.pipelineId, schema: chosen.schema,
        resources: structuredClone(chosen.suggestion.resources), suggested: chosen.suggestion.resources,
        columnTypes: chosen.suggestion.columnTypes,
      };
      await store.save(record);
    } catch (e) {
      await rm(store.jobDir(jobId), { recursive: true, force: true }).catch(() => {});
      throw asHttpError(scrubPaths(e, store.jobDir(jobId)), 'The job cannot start');
    }
    this.o.log(`job ${jobId} started: ${record.input.name} (${record.input.size} bytes), pipeline ${record.pipelineId ?? '(none)'}${record.schema ? '' : ' without a schema: identity suggestions'}`);
    if (record.form.webhookUrl) this.background(this.sendStartWebhook(record, record.form.webhookUrl));
    return { jobId };
  }

  /**
   * Downloads the workbook of a Google Sheets link into the job's input folder, under the upload limit:
   * it is then the job's input as an upload would be, keyed by the sheet name (engine.md). Google's
   * refusals are 422, the limit 413, an unreachable or failing Google 502.
   */
  private async fetchSheet(url: string, sheet: string, inputDir: string): Promise<JobRecord['input']> {
    const { downloadSheetsWorkbook, SheetsTooLargeError, DEFAULT_SHEETS_BASE_URL, DEFAULT_SHEETS_TIMEOUT_MS } = await import('../engine/read/google-sheet.js');
    try {
      const book = await downloadSheetsWorkbook(url, {
        baseUrl: this.o.sheets.baseUrl ?? DEFAULT_SHEETS_BASE_URL, timeoutMs: this.o.sheets.timeoutMs ?? DEFAULT_SHEETS_TIMEOUT_MS,
        maxBytes: this.o.maxUpload, path: join(inputDir, 'google-sheet.xlsx'),
        signal: this.stopController.signal, fallback: 'upload it as "files"',
      });
      return { path: relative(this.o.store.dataDir, book.path), name: sheet, kind: 'googleSheet', size: book.size, googleSheet: { url, sheet, display: book.display } };
    } catch (e) {
      if (e instanceof SheetsTooLargeError) throw tooLarge(`The Google Sheet's workbook is over this service's upload limit of ${this.o.maxUpload} bytes (--max-upload).`);
      if (e instanceof UsageError) throw new HttpError(422, 'invalid_input', e.message);
      if (e instanceof ImportError) throw new HttpError(502, 'bad_gateway', e.message);
      throw e;
    }
  }

  /** The pipeline among those given whose expected fields the input's columns cover best, and its suggestions. */
  private async choosePipeline(record: JobRecord): Promise<{ pipelineId: string | null; schema: PipelineSchema | null; suggestion: SuggestResult }> {
    const ids = record.form.pipelineIds;
    const known = ids.filter((id) => this.o.schemas.has(id));
    for (const id of ids) if (!this.o.schemas.has(id)) this.o.log(`job ${record.jobId}: pipeline ${id} has no schema here (--schema); ${known.length ? 'not a candidate' : 'identity suggestions'}`);
    if (known.length <= 1) {
      const pipelineId = known[0] ?? ids[0] ?? null;
      const schema = (known[0] && this.o.schemas.get(known[0])) || null;
      return { pipelineId, schema, suggestion: await this.suggest(this.setupOf(record, { schema })) };
    }
    const candidates = await Promise.all(known.map(async (id) => {
      const schema = this.o.schemas.get(id) as PipelineSchema;
      const suggestion = await this.suggest(this.setupOf(record, { schema }));
      return { pipelineId: id, schema, suggestion, score: coverage(suggestion.resources) };
    }));
    // Seed: with an array the service chooses one pipeline. Ours: the best share of expected
    // fields mapped, then the most fields mapped, then the surest mapping, then the first given.
    candidates.sort((a, b) => b.score.share - a.score.share || b.score.mapped - a.score.mapped || b.score.confidence - a.score.confidence);
    const best = candidates[0];
    this.o.log(`job ${record.jobId}: chose pipeline ${best.pipelineId} among ${known.join(', ')} (${best.score.mapped} expected fields mapped)`);
    return best;
  }

  private async suggest(setup: SetupSpec): Promise<SuggestResult> {
    const result = await this.o.executor.perform({ kind: 'suggest', setup });
    if (result.kind !== 'suggest') throw new Error('unexpected task result');
    return result;
  }

  /** The engine setup of a job (its current sheet unless another is given). */
  private setupOf(record: JobRecord, over: { schema?: PipelineSchema | null; sheet?: string | null } = {}): SetupSpec {
    return {
      input: {
        path: this.o.store.resolve(record.input.path), name: record.input.name,
        ...(record.input.googleSheet && { googleSheet: { sheet: record.input.googleSheet.sheet, display: record.input.googleSheet.display } }),
      },
      schema: over.schema !== undefined ? over.schema : record.schema,
      sheet: over.sheet !== undefined ? over.sheet : (record.resources?.sheet?.sheetSelection.selected ?? null),
      preScripts: record.form.scripts,
      localScripts: record.localScripts,
      useFullData: record.form.useFullData,
    };
  }

  // ---- reads and updates ----

  /** A GET body: the resource's current read body. */
  read(jobId: string, resource: ResourceName): unknown {
    const record = this.get(jobId);
    // Seed: getSelectedSheet is for workbook inputs; for other inputs we answer `sheetSelection: null`.
    if (resource === 'sheet') return { sheetSelection: record.resources.sheet?.sheetSelection ?? null };
    return record.resources[resource];
  }

  /** An update: checks the body, replaces the resource, answers its new read body. */
  async update(jobId: string, resource: UpdatableResource, body: unknown): Promise<unknown> {
    this.get(jobId);
    return this.lock(jobId, async () => {
      const record = this.get(jobId);
      if (record.state !== 'started') {
        throw conflict(`Job ${jobId} has ${record.state === 'running' ? 'begun running' : 'already run'}; its configuration can no longer change.`);
      }
      if (resource === 'sheet') await this.updateSheet(record, body);
      else {
        const [check, apply] = UPDATES[resource];
        const view: JobView = { resources: record.resources, allowColumnCombining: record.allowColumnCombining };
        const next = apply(configState(record), check(body, view));
        record.resources = next.resources;
        record.allowColumnCombining = next.allowColumnCombining;
      }
      await this.o.store.save(record);
      return this.read(jobId, resource);
    });
  }

  /** A new sheet gives new columns: every suggestion is derived again for that sheet. */
  private async updateSheet(record: JobRecord, body: unknown): Promise<void> {
    const selected = checkSheetUpdate(body, { resources: record.resources, allowColumnCombining: record.allowColumnCombining });
    const current = record.resources.sheet?.sheetSelection;
    const original = record.suggested.sheet?.sheetSelection;
    if (current && current.selected === selected) return;
    let suggestion: SuggestResult;
    try {
      suggestion = await this.suggest(this.setupOf(record, { sheet: selected }));
    } catch (e) {
      throw asHttpError(scrubPaths(e, this.o.store.jobDir(record.jobId)), `Sheet ${JSON.stringify(selected)} cannot be read`);
    }
    const confidence = original && original.selected === selected ? original.confidence : 1;
    const sheets = suggestion.resources.sheet?.sheetSelection.sheets ?? current?.sheets ?? [];
    record.suggested = { ...suggestion.resources, sheet: record.suggested.sheet };
    record.resources = { ...structuredClone(suggestion.resources), sheet: { sheetSelection: { selected, confidence, sheets } } };
    record.allowColumnCombining = false;
    record.columnTypes = suggestion.columnTypes;
  }

  // ---- run ----

  /** `run`: validates the configuration, begins processing; with returnWhenComplete, answers when the output is written. */
  async run(jobId: string, rawBody: unknown): Promise<RunAnswer> {
    const request: RunRequest = checkRunBody(rawBody);
    this.get(jobId);
    const record = await this.lock(jobId, async () => {
      const job = this.get(jobId);
      if (job.state !== 'started') {
        throw conflict(`Job ${jobId} ${job.state === 'running' ? 'is already running' : `has already run (${job.state})`}; a job runs once.`);
      }
      let warnings: string[];
      try {
        warnings = await checkConfiguration(job.resources, this.bodiesOf(job), job.schema);
      } catch (e) {
        throw asHttpError(e, 'The configuration is invalid');
      }
      for (const w of warnings) this.o.log(`job ${jobId}: ${w}`);
      job.state = 'running';
      job.run = { webhookUrl: request.webhookUrl, requestedAt: new Date().toISOString(), attempts: 0 };
      await this.o.store.save(job);
      return job;
    });
    const done = this.execute(record);
    if (!request.returnWhenComplete) return { status: 200, body: { jobId, status: 'running' } };
    await done;
    if (record.state === 'running') throw new HttpError(503, 'unavailable', `The service is stopping; job ${jobId} will run again when it restarts.`);
    return this.runAnswer(record);
  }

  /** The run answer of a job: its status, and for a finished job the rows, the output and the report. */
  runAnswer(record: JobRecord): RunAnswer {
    if (record.state === 'succeeded' && record.result) {
      const { rowsIn, rowsOut, output, report } = record.result;
      return { status: 200, body: { jobId: record.jobId, status: 'succeeded', rowsIn, rowsOut, output, report } };
    }
    if (record.state === 'failed') {
      const error = record.error ?? { code: 'internal', message: 'the job failed' };
      return { status: error.code === 'job_failed' ? 422 : 500, body: { error, jobId: record.jobId, status: 'failed' } };
    }
    return { status: 200, body: { jobId: record.jobId, status: record.state } };
  }

  /** A job's status for the local status endpoint (not in the seed). */
  status(jobId: string): Record<string, unknown> {
    const r = this.get(jobId);
    return {
      jobId: r.jobId, status: r.state, jobName: r.form.jobName ?? null, pipelineId: r.pipelineId, createdAt: r.createdAt, updatedAt: r.updatedAt,
      input: { name: r.input.name, size: r.input.size }, result: r.result ?? null, error: r.error ?? null, webhooks: r.webhooks,
    };
  }

  /** The update bodies a run applies: every resource's current value. */
  private bodiesOf(record: JobRecord): Required<JobConfig> {
    const bodies = currentBodies(record.resources);
    // allowColumnCombining is update-only (not in the read body), so it is kept beside the resources.
    if (record.allowColumnCombining) bodies.fields.allowColumnCombining = true;
    return bodies;
  }

  /** Processes a running job to its end; resolves when it is recorded (never rejects). */
  private execute(record: JobRecord): Promise<void> {
    return this.background((async () => {
      await this.acquireRun();
      try {
        await this.process(record);
      } finally {
        this.releaseRun();
      }
    })());
  }

  private async process(record: JobRecord): Promise<void> {
    const { store, executor, log } = this.o;
    if (this.isStopping || !record.run) return;
    const format = record.form.outputFileType;
    const fileName = record.form.destinationFileName ?? `${record.jobId}.${format === 'excel' ? 'xlsx' : 'csv'}`;
    // The engine writes beside the final name and renames when whole (write/atomic.ts): a crash
    // never leaves half an output under this name.
    const finalPath = join(store.outputDir(), fileName);
    record.run.attempts += 1;
    await store.save(record).catch(() => {});
    const started = Date.now();
    log(`job ${record.jobId}: running (attempt ${record.run.attempts})`);
    let result: RunTaskResult;
    try {
      const out = await executor.perform({
        kind: 'run', setup: this.setupOf(record), bodies: this.bodiesOf(record),
        output: { path: finalPath, format }, collectDataTable: Boolean(record.run.webhookUrl),
      });
      if (out.kind !== 'run') throw new Error('unexpected task result');
      result = out;
    } catch (e) {
      // Stopping: the job stays `running` and is run again when the service restarts.
      if (e instanceof StoppedError || this.isStopping) return;
      const isUsage = e instanceof TaskError && e.isUsage;
      record.state = 'failed';
      record.error = { code: isUsage ? 'job_failed' : 'internal', message: (scrubPaths(e, store.jobDir(record.jobId)) as Error).message };
      record.run.finishedAt = new Date().toISOString();
      log(`job ${record.jobId}: failed after ${Date.now() - started} ms: ${record.error.message}`);
      await store.save(record).catch((err) => log(`job ${record.jobId}: cannot store its state: ${(err as Error).message}`));
      return;
    }
    record.state = 'succeeded';
    record.run.finishedAt = new Date().toISOString();
    record.result = {
      rowsIn: result.report.rowsIn, rowsOut: result.report.rowsOut, columns: result.columns, report: result.report,
      output: { fileName, path: finalPath, format },
    };
    log(`job ${record.jobId}: succeeded in ${Date.now() - started} ms: ${result.report.rowsIn} row${result.report.rowsIn === 1 ? '' : 's'} in, ${result.report.rowsOut} out, written to ${finalPath}`);
    await store.save(record).catch((err) => log(`job ${record.jobId}: cannot store its state: ${(err as Error).message}`));
    if (record.run.webhookUrl && result.runWebhook) {
      this.background(this.sendWebhook(record, 'run', record.run.webhookUrl, { jobId: record.jobId, ...result.runWebhook }));
    }
  }

  private acquireRun(): Promise<void> {
    if (this.activeRuns < this.o.maxConcurrentRuns) { this.activeRuns++; return Promise.resolve(); }
    return new Promise((resolve) => this.waiting.push(() => { this.activeRuns++; resolve(); }));
  }

  private releaseRun(): void {
    this.activeRuns--;
    this.waiting.shift()?.();
  }

  /** Runs again every job a stop or crash interrupted (state `running` at start-up). */
  resumeInterrupted(): string[] {
    const ids: string[] = [];
    for (const record of this.o.store.all()) {
      if (record.state !== 'running') continue;
      ids.push(record.jobId);
      this.o.log(`job ${record.jobId}: was running when the service stopped; running it again`);
      void this.execute(record);
    }
    return ids;
  }

  // ---- webhooks ----

  private async sendStartWebhook(record: JobRecord, url: string): Promise<void> {
    let body: unknown;
    try {
      // Metadata (row counts, unique ratios, missing rows) needs a read of the whole input: done
      // here, after `start` has answered, so a large upload's start stays fast.
      const analysis = await this.o.executor.perform({ kind: 'analyze', setup: this.setupOf(record, { sheet: record.suggested.sheet?.sheetSelection.selected ?? null }) });
      if (analysis.kind !== 'analyze') throw new Error('unexpected task result');
      body = startWebhookBody(record.jobId, record.suggested, analysis.metadata);
    } catch (e) {
      if (e instanceof StoppedError) return;
      this.o.log(`job ${record.jobId}: start webhook not sent: ${(e as Error).message}`);
      record.webhooks.push({ event: 'start', url: redactUrl(url), status: 'failed', attempts: 0, lastError: (e as Error).message, at: new Date().toISOString() });
      await this.o.store.save(record).catch(() => {});
      return;
    }
    await this.sendWebhook(record, 'start', url, body);
  }

  private async sendWebhook(record: JobRecord, event: 'start' | 'run', url: string, body: unknown): Promise<void> {
    const entry: WebhookRecord = { event, url: redactUrl(url), status: 'pending', attempts: 0, at: new Date().toISOString() };
    record.webhooks.push(entry);
    const outcome = await deliverWebhook(
      { event, jobId: record.jobId, url, body }, this.o.webhookRetry, this.o.log, this.stopController.signal,
      (attempt, error) => { entry.attempts = attempt; entry.lastError = error; },
    );
    entry.status = outcome.delivered ? 'delivered' : this.isStopping ? 'pending' : 'failed';
    entry.at = new Date().toISOString();
    await this.o.store.save(record).catch(() => {});
  }

  // ---- plumbing ----

  private get(jobId: string): JobRecord {
    const record = this.o.store.get(jobId);
    if (!record) throw jobNotFound(jobId);
    return record;
  }

  /** Runs `fn` after every earlier call on the same job has finished. */
  private lock<T>(jobId: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(jobId) ?? Promise.resolve();
    const next = previous.then(fn);
    const settled = next.catch(() => {});
    this.locks.set(jobId, settled);
    void settled.then(() => { if (this.locks.get(jobId) === settled) this.locks.delete(jobId); });
    return next;
  }

  /** Tracks background work so `close` can wait for it; errors are logged, never thrown. */
  private background<T>(work: Promise<T>): Promise<void> {
    const tracked = work.then(() => {}, (e) => this.o.log(`internal error: ${(e as Error).stack ?? e}`));
    this.inFlight.add(tracked);
    void tracked.then(() => this.inFlight.delete(tracked));
    return tracked;
  }

  /** Stops: pending webhooks give up, running jobs are abandoned (run again on restart), state is flushed. */
  async close(): Promise<void> {
    this.isStopping = true;
    this.stopController.abort();
    await this.o.executor.close();
    for (const wake of this.waiting.splice(0)) wake();
    // Background work now ends promptly: tasks reject with StoppedError, webhooks stop retrying.
    await Promise.race([Promise.all(this.inFlight), new Promise((r) => setTimeout(r, 2000).unref())]);
    await this.o.store.close();
  }
}

/** The configuration state of a job, for updates.ts. */
function configState(record: JobRecord): ConfigState {
  return { resources: record.resources, suggested: record.suggested, allowColumnCombining: record.allowColumnCombining, columnTypes: record.columnTypes };
}

/** Seed rules: exactly one data input; gsSheetName whenever gsUrl is given. */
function checkDataInput(form: StartFields, hasFile: boolean): void {
  if (form.gsSheetName !== undefined && form.gsUrl === undefined) throw invalidBody('gsSheetName was given without gsUrl; send both, or neither.');
  if (form.gsUrl !== undefined && form.gsSheetName === undefined) throw invalidBody('gsUrl needs gsSheetName (the sheet to read within the spreadsheet).');
  const given = [hasFile && 'files', form.gsUrl !== undefined && 'gsUrl', form.jsonData !== undefined && 'jsonData'].filter(Boolean);
  if (given.length === 0) throw invalidBody('The start form has no data input; send exactly one of: a file part "files", gsUrl with gsSheetName, or jsonData.');
  if (given.length > 1) throw invalidBody(`The start form has ${given.length} data inputs (${given.join(', ')}); send exactly one.`);
}

/** How well a suggestion covers its pipeline's expected fields. */
function coverage(resources: JobResources): { share: number; mapped: number; confidence: number } {
  const expected = resources.fields.expectedFields;
  const mapped = new Map<string, number>();
  for (const columns of Object.values(resources.fields.columnFieldMapping)) {
    for (const m of Object.values(columns)) mapped.set(m.field, Math.max(mapped.get(m.field) ?? 0, m.confidence ?? 0));
  }
  const covered = expected.filter((f) => mapped.has(f));
  const confidence = covered.reduce((sum, f) => sum + (mapped.get(f) ?? 0), 0) / Math.max(1, covered.length);
  return { share: expected.length ? covered.length / expected.length : 0, mapped: covered.length, confidence };
}

/** The error with the job folder's paths in its message shortened to file names (the client knows its file by name). */
function scrubPaths(error: unknown, jobDir: string): unknown {
  if (!(error instanceof Error) || !error.message.includes(jobDir)) return error;
  error.message = error.message.split(`${jobDir}/input/`).join('').split(`${jobDir}/`).join('');
  return error;
}

/** An error as an HttpError: the engine's usage errors are 422 with its reason. */
function asHttpError(error: unknown, context: string): Error {
  if (error instanceof HttpError) return error;
  if (error instanceof StoppedError) return new HttpError(503, 'unavailable', 'The service is stopping; try again when it is back.');
  // The service has no --lenient: a reader's advice to pass it is the CLI's, not the service's.
  const reason = (message: string | undefined) => (message ?? '').replace(/ or pass --lenient to [^;.]*/, '');
  if (error instanceof TaskError) {
    return error.isUsage ? new HttpError(422, 'invalid_input', `${context}: ${reason(error.message)}`) : error;
  }
  const e = error as { exitCode?: number; message?: string };
  if (e && e.exitCode === 2) return new HttpError(422, 'invalid_value', `${context}: ${reason(e.message)}`);
  return error as Error;
}
