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
import { mkdir, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { dirname, join, relative } from 'node:path';
import type { JobConfig, JobResources, PipelineSchema, RunRequest, StartResponse } from '../contract/index.js';
import { startWebhookBody } from '../engine/metadata.js';
import { setOwn } from '../contract/json.js';
import { currentBodies } from '../contract/translate.js';
import { checkConfiguration } from './check-config.js';
import { FRESH_THREAD_MIN_BYTES, StoppedError, type Executor } from './executor.js';
import { ImportError, UsageError } from '../errors.js';
import { conflict, HttpError, invalidBody, invalidValue, jobNotFound, tooLarge } from './http-error.js';
import { readStartForm } from './multipart.js';
import { checkDestinationFileName } from './names.js';
import type { JobRecord, JobStore, WebhookRecord } from './store.js';
import { TaskError, type RunTaskResult, type SetupSpec, type SuggestResult } from './task-protocol.js';
import {
  applyCombining, applyDataTypes, applyFields, applyImpute, applyPivot, applyRowDropping, applyText, applyUnits, type ConfigState,
} from './updates.js';
import {
  checkCombiningUpdate, checkDataTypesUpdate, checkFieldsUpdate, checkImputeUpdate, checkPivotUpdate, checkRowDroppingUpdate,
  checkRunBody, checkSheetUpdate, checkStartFields, checkTextUpdate, checkUnitsUpdate, type JobView, type StartFields,
} from './validate-bodies.js';
import { deliverWebhook, redactUrl, type RetryPolicy, type WebhookPolicy } from './webhooks.js';

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
  /** Largest jsonData form field, in bytes (413 beyond). */
  maxJsonData: number;
  /** Where Google Sheets links are exported from (IMPORT_SHEETS_BASE_URL; Google's by default) and the per-request timeout for it. */
  sheets: { baseUrl?: string; timeoutMs?: number };
  webhookRetry: RetryPolicy;
  /** Which webhook targets are allowed. */
  webhooks: WebhookPolicy;
  /** Longest a job's engine work may take (its run; reading its input at start); 0: no limit. */
  jobTimeoutMs: number;
  /** Most runs processed at once; more wait their turn (still `running`). */
  maxConcurrentRuns: number;
  log: (line: string) => void;
}

/** A `run` answer: HTTP status and body. */
export interface RunAnswer { status: number; body: Record<string, unknown> }

/**
 * Times a job may begin running: a run interrupted by a stop or a crash of the service runs again
 * at the next start, and a run whose engine thread was lost under it runs again at once, up to
 * this many attempts in all; then it is `failed`, so a job that crashes the service cannot do so forever.
 */
export const MAX_RUN_ATTEMPTS = 3;

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
  /** Jobs in state `running` (waiting for a turn included). */
  private readonly running = new Set<string>();
  /** Output file name -> the running job writing it: two runs never write one file at once. */
  private readonly outputs = new Map<string, string>();

  constructor(private readonly o: JobServiceOptions) {}

  /** Jobs known, jobs running now, and job records held in memory. */
  counts(): { jobs: number; running: number; recordsInMemory: number } {
    return { jobs: this.o.store.count(), running: this.running.size, recordsInMemory: this.o.store.cached() };
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
      const upload = await readStartForm(req, inputDir, { maxUpload: this.o.maxUpload, maxJsonData: this.o.maxJsonData });
      const form = checkStartFields(upload.fields);
      checkDataInput(form, Boolean(upload.file), Boolean(upload.jsonData));
      if (form.destinationFileName !== undefined) checkDestinationFileName(form.destinationFileName);
      if (form.webhookUrl !== undefined) this.checkWebhookTarget(form.webhookUrl, 'The start form field webhookUrl');
      let input: JobRecord['input'];
      if (upload.file) {
        input = { path: relative(store.dataDir, upload.file.path), name: upload.file.fileName, kind: 'file', size: upload.file.size };
        // Its run will want a fresh engine thread: it loads meanwhile.
        if (input.size >= FRESH_THREAD_MIN_BYTES) this.o.executor.prepareFreshThread();
      } else if (form.gsUrl !== undefined) {
        input = await this.fetchSheet(form.gsUrl, form.gsSheetName as string, inputDir);
      } else {
        // Inline rows, stored as sent (jsonData.json), are read like any JSON input; their metadata key is `jsonData`.
        const json = upload.jsonData as NonNullable<typeof upload.jsonData>;
        input = { path: relative(store.dataDir, json.path), name: 'jsonData', kind: 'jsonData', size: json.size };
      }
      const localScripts: Record<string, string> = {};
      for (const id of form.scripts?.preColumnMapping ?? []) {
        const path = this.o.scripts.get(id);
        if (!path) {
          const known = [...this.o.scripts.keys()];
          throw invalidValue(`Script ${JSON.stringify(id)} has no module on this service; ${known.length ? `known scripts: ${known.join(', ')}` : 'start the service with --scripts <dir> holding ' + id + '.mjs'}.`);
        }
        setOwn(localScripts, id, path);
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
      let chosen;
      try {
        chosen = await this.choosePipeline(base);
      } catch (e) {
        // Inline rows the reader refuses (not JSON, not an array of objects) are a malformed form field.
        if (input.kind === 'jsonData' && e instanceof TaskError && e.kind === 'usage') {
          throw invalidBody(`The start form field jsonData must be a JSON array of row objects, e.g. [{"id": 1, "name": "Ann"}]: ${scrubbed(e, store.jobDir(jobId))}`);
        }
        throw e;
      }
      record = {
        ...base, pipelineId: chosen.pipelineId, schema: chosen.schema,
        resources: structuredClone(chosen.suggestion.resources), suggested: chosen.suggestion.resources,
        columnTypes: chosen.suggestion.columnTypes,
      };
      await store.save(record, true);
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
    const result = await this.o.executor.perform({ kind: 'suggest', setup }, { timeoutMs: this.o.jobTimeoutMs });
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
  async read(jobId: string, resource: ResourceName): Promise<unknown> {
    return readBody(await this.get(jobId), resource);
  }

  /** An update: checks the body, replaces the resource, answers its new read body. */
  async update(jobId: string, resource: UpdatableResource, body: unknown): Promise<unknown> {
    await this.get(jobId);
    return this.lock(jobId, async (record) => {
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
      return readBody(record, resource);
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
    if (request.webhookUrl !== undefined) this.checkWebhookTarget(request.webhookUrl, 'body.webhookUrl');
    await this.get(jobId);
    const { job: record, done } = await this.lock(jobId, async (job) => {
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
      // Two runs never write one output: the second is refused while the first runs (a later run
      // replaces the file, as a named destination does).
      const output = outputFileName(job);
      const holder = this.outputs.get(output);
      if (holder !== undefined && holder !== jobId) {
        throw conflict(`Job ${holder} is writing ${output} now (destinationFileName); run this job when it has finished, or start it with another destinationFileName.`);
      }
      job.state = 'running';
      job.run = { webhookUrl: request.webhookUrl, requestedAt: new Date().toISOString(), attempts: 0 };
      await this.o.store.save(job);
      // Held from here on (before the lock lets go), so no other copy of the record is ever read.
      return { job, done: this.execute(job) };
    });
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
      return { status: error.code === 'job_failed' ? 422 : error.code === 'too_large' ? 413 : 500, body: { error, jobId: record.jobId, status: 'failed' } };
    }
    return { status: 200, body: { jobId: record.jobId, status: record.state } };
  }

  /** A job's status for the local status endpoint (not in the seed). */
  async status(jobId: string): Promise<Record<string, unknown>> {
    const r = await this.get(jobId);
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
    // Held in memory, and its output name claimed, from now until it has finished.
    this.o.store.hold(record);
    this.running.add(record.jobId);
    this.outputs.set(outputFileName(record), record.jobId);
    return this.background((async () => {
      try {
        for (;;) {
          await this.acquireRun();
          let again: boolean;
          try {
            again = await this.process(record);
          } finally {
            this.releaseRun();
          }
          if (!again) break;
        }
      } finally {
        if (record.state !== 'running') this.running.delete(record.jobId);
        if (this.outputs.get(outputFileName(record)) === record.jobId) this.outputs.delete(outputFileName(record));
        this.o.store.release(record.jobId);
      }
    })());
  }

  /** One attempt at a run; true when it is to be tried again (its engine thread was lost under it). */
  private async process(record: JobRecord): Promise<boolean> {
    const { store, executor, log } = this.o;
    if (this.isStopping || !record.run) return false;
    const format = record.form.outputFileType;
    // The engine writes beside the final name and renames when whole (write/atomic.ts): a crash
    // never leaves half an output under this name.
    const fileName = outputFileName(record);
    const finalPath = join(store.outputDir(), fileName);
    if (record.run.attempts >= MAX_RUN_ATTEMPTS) {
      await this.fail(record, 'job_failed', `The job was interrupted ${record.run.attempts} times while it ran (the service stopped or crashed, or its engine thread was lost); it is not run again. Start it again, with a smaller input or fewer rules if it is large.`, Date.now());
      return false;
    }
    record.run.attempts += 1;
    await store.save(record).catch(() => {});
    const started = Date.now();
    log(`job ${record.jobId}: running (attempt ${record.run.attempts} of at most ${MAX_RUN_ATTEMPTS})`);
    let result: RunTaskResult;
    try {
      const out = await executor.perform({
        kind: 'run', setup: this.setupOf(record), bodies: this.bodiesOf(record), suggestions: record.suggested,
        output: { path: finalPath, format }, collectDataTable: Boolean(record.run.webhookUrl),
      }, { timeoutMs: this.o.jobTimeoutMs, freshThread: record.input.size >= FRESH_THREAD_MIN_BYTES });
      if (out.kind !== 'run') throw new Error('unexpected task result');
      result = out;
    } catch (e) {
      // Stopping: the job stays `running` and is run again when the service restarts.
      if (e instanceof StoppedError || this.isStopping) return false;
      const kind = e instanceof TaskError ? e.kind : 'internal';
      const message = scrubbed(e, store.jobDir(record.jobId));
      if (kind === 'lost' && record.run.attempts < MAX_RUN_ATTEMPTS) {
        log(`job ${record.jobId}: attempt ${record.run.attempts} ended: ${message}; running it again`);
        return true;
      }
      const reason = kind === 'timeout' ? `The job ${message}; make it smaller, or start the service with a longer --job-timeout.` : message;
      await this.fail(record, kind === 'internal' || kind === 'lost' ? 'internal' : kind === 'too_large' ? 'too_large' : 'job_failed', reason, started);
      return false;
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
    return false;
  }

  /** Ends a run as `failed` with a reason, and stores it. */
  private async fail(record: JobRecord, code: string, message: string, started: number): Promise<void> {
    record.state = 'failed';
    record.error = { code, message };
    if (record.run) record.run.finishedAt = new Date().toISOString();
    this.o.log(`job ${record.jobId}: failed after ${Date.now() - started} ms: ${message}`);
    await this.o.store.save(record).catch((err) => this.o.log(`job ${record.jobId}: cannot store its state: ${(err as Error).message}`));
  }

  private acquireRun(): Promise<void> {
    if (this.activeRuns < this.o.maxConcurrentRuns) { this.activeRuns++; return Promise.resolve(); }
    return new Promise((resolve) => this.waiting.push(() => { this.activeRuns++; resolve(); }));
  }

  private releaseRun(): void {
    this.activeRuns--;
    this.waiting.shift()?.();
  }

  /**
   * Runs again every job a stop or crash interrupted (state `running` at start-up), each within
   * MAX_RUN_ATTEMPTS: one that has had them all is `failed` instead.
   */
  resumeInterrupted(records: JobRecord[]): string[] {
    const ids: string[] = [];
    for (const record of records) {
      ids.push(record.jobId);
      const attempts = record.run?.attempts ?? 0;
      this.o.log(`job ${record.jobId}: was running when the service stopped; ${attempts >= MAX_RUN_ATTEMPTS ? `not run again after ${attempts} attempts` : 'running it again'}`);
      void this.execute(record);
    }
    return ids;
  }

  /** Refuses (422) a webhook URL this service does not send to. */
  private checkWebhookTarget(url: string, at: string): void {
    const problem = this.o.webhooks.problem(url);
    if (problem) throw invalidValue(`${at} ${problem}.`);
  }

  // ---- webhooks ----

  private async sendStartWebhook(record: JobRecord, url: string): Promise<void> {
    // Held while the metadata is read, so updates meanwhile change this very record.
    this.o.store.hold(record);
    try {
      await this.deliverStartWebhook(record, url);
    } finally {
      this.o.store.release(record.jobId);
    }
  }

  private async deliverStartWebhook(record: JobRecord, url: string): Promise<void> {
    let body: unknown;
    try {
      // Metadata (row counts, unique ratios, missing rows) needs a read of the whole input: done
      // here, after `start` has answered, so a large upload's start stays fast.
      const analysis = await this.o.executor.perform(
        { kind: 'analyze', setup: this.setupOf(record, { sheet: record.suggested.sheet?.sheetSelection.selected ?? null }) },
        { timeoutMs: this.o.jobTimeoutMs },
      );
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
    // The record stays in memory while its delivery is recorded on it.
    this.o.store.hold(record);
    try {
      record.webhooks.push(entry);
      const outcome = await deliverWebhook(
        { event, jobId: record.jobId, url, body }, this.o.webhookRetry, this.o.log, this.stopController.signal,
        (attempt, error) => { entry.attempts = attempt; entry.lastError = error; },
      );
      entry.status = outcome.delivered ? 'delivered' : this.isStopping ? 'pending' : 'failed';
      entry.at = new Date().toISOString();
      await this.o.store.save(record).catch(() => {});
    } finally {
      this.o.store.release(record.jobId);
    }
  }

  // ---- plumbing ----

  private async get(jobId: string): Promise<JobRecord> {
    const record = await this.o.store.get(jobId);
    if (!record) throw jobNotFound(jobId);
    return record;
  }

  /** Runs `fn` on the job, held in memory, after every earlier call on the same job has finished. */
  private lock<T>(jobId: string, fn: (record: JobRecord) => Promise<T>): Promise<T> {
    const previous = this.locks.get(jobId) ?? Promise.resolve();
    const next = previous.then(async () => {
      const record = await this.get(jobId);
      this.o.store.hold(record);
      try {
        return await fn(record);
      } finally {
        this.o.store.release(jobId);
      }
    });
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

/** A GET body of a record. */
function readBody(record: JobRecord, resource: ResourceName): unknown {
  // Seed: getSelectedSheet is for workbook inputs; for other inputs we answer `sheetSelection: null`.
  if (resource === 'sheet') return { sheetSelection: record.resources.sheet?.sheetSelection ?? null };
  return record.resources[resource];
}

/** The file a job's run writes in the output folder: destinationFileName, else `<jobId>.csv|.xlsx`. */
function outputFileName(record: JobRecord): string {
  return record.form.destinationFileName ?? `${record.jobId}.${record.form.outputFileType === 'excel' ? 'xlsx' : 'csv'}`;
}

/** Seed rules: exactly one data input; gsSheetName whenever gsUrl is given. */
function checkDataInput(form: StartFields, hasFile: boolean, hasJsonData: boolean): void {
  if (form.gsSheetName !== undefined && form.gsUrl === undefined) throw invalidBody('gsSheetName was given without gsUrl; send both, or neither.');
  if (form.gsUrl !== undefined && form.gsSheetName === undefined) throw invalidBody('gsUrl needs gsSheetName (the sheet to read within the spreadsheet).');
  const given = [hasFile && 'files', form.gsUrl !== undefined && 'gsUrl', hasJsonData && 'jsonData'].filter(Boolean);
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

/** The error with the job folder's paths in its message shortened to file names (the client knows its file by name), other data-dir paths made relative. */
function scrubPaths(error: unknown, jobDir: string): unknown {
  const dataDir = dirname(dirname(jobDir));
  if (!(error instanceof Error) || !error.message.includes(dataDir)) return error;
  // The data dir's other paths (outputs) as data-dir-relative: a client never sees a server path.
  error.message = error.message.split(`${jobDir}/input/`).join('').split(`${jobDir}/`).join('').split(`${dataDir}/`).join('').split(dataDir).join('<data-dir>');
  return error;
}

/** The message of an error, with the job folder's paths shortened. */
function scrubbed(error: unknown, jobDir: string): string {
  return (scrubPaths(error, jobDir) as Error)?.message ?? String(error);
}

/** An error as an HttpError: the engine's usage errors are 422 with its reason, inputs over a limit 413. */
function asHttpError(error: unknown, context: string): Error {
  if (error instanceof HttpError) return error;
  if (error instanceof StoppedError) return new HttpError(503, 'unavailable', 'The service is stopping; try again when it is back.');
  // The service has no --lenient: a reader's advice to pass it is the CLI's, not the service's.
  const reason = (message: string | undefined) => (message ?? '').replace(/ or pass --lenient to [^;.]*/, '');
  if (error instanceof TaskError) {
    if (error.kind === 'too_large') return new HttpError(413, 'too_large', `${context}: ${reason(error.message)}`);
    if (error.kind === 'timeout') return new HttpError(422, 'invalid_input', `${context}: reading the input ${error.message}.`);
    if (error.kind === 'lost') return new HttpError(503, 'unavailable', `${context}: ${error.message}; try again.`);
    return error.isUsage ? new HttpError(422, 'invalid_input', `${context}: ${reason(error.message)}`) : error;
  }
  const e = error as { exitCode?: number; message?: string };
  if (e && e.exitCode === 2) return new HttpError(422, 'invalid_value', `${context}: ${reason(e.message)}`);
  return error as Error;
}
