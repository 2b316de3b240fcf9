/**
 * Persistence of the local service under its data dir: one folder per job with `job.json`
 * (written atomically: a temporary file renamed over the old one) and the job's input, and the
 * outputs in `output/`. Records live on disk: memory holds a bounded cache of recently used ones
 * (CACHED_RECORDS) plus those in use (a running job, an update in progress), never one per job, so a
 * long-lived service's memory does not grow with the number of jobs.
 *
 *   <data-dir>/jobs/<jobId>/job.json          the job: form, state, configuration, result
 *   <data-dir>/jobs/<jobId>/input/<file name> the upload as received (jsonData as jsonData.json,
 *                                             a Google Sheets link's workbook as google-sheet.xlsx)
 *   <data-dir>/output/<destinationFileName or <jobId>.csv|.xlsx>
 */
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { JobResources, OutputFileType, PipelineSchema } from '../contract/index.js';
import { parseJson, stringifyJson } from '../contract/json.js';
import type { Report } from '../engine/types.js';
import { sweepTempFiles } from '../engine/write/atomic.js';
import type { ColumnTypes } from './updates.js';

/** A job's state: `started` (configurable), `running`, then `succeeded` or `failed`. */
export type JobState = 'started' | 'running' | 'succeeded' | 'failed';

/** One webhook delivery, as recorded on its job. */
export interface WebhookRecord {
  event: 'start' | 'run';
  url: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastError?: string;
  at: string;
}

/** What a finished run produced. */
export interface RunSummary {
  rowsIn: number;
  rowsOut: number;
  columns: string[];
  report: Report;
  output: { fileName: string; path: string; format: OutputFileType };
}

/** A job as stored in `job.json`. Paths are relative to the data dir, so the folder can move. */
export interface JobRecord {
  version: 1;
  jobId: string;
  createdAt: string;
  updatedAt: string;
  state: JobState;
  /** The start form, parsed (the file and jsonData are in `input`). */
  form: {
    jobName?: string;
    pipelineIds: string[];
    destinationFileName?: string;
    useFullData: boolean;
    useVariableFields: boolean;
    webhookUrl?: string;
    outputFileType: OutputFileType;
    scripts: string[];
  };
  /** The pipeline chosen among `form.pipelineIds` (null when none was given). */
  pipelineId: string | null;
  /** The chosen pipeline's schema as it was at start (null: unknown pipeline, identity suggestions). */
  schema: PipelineSchema | null;
  input: {
    path: string; name: string; kind: 'file' | 'jsonData' | 'googleSheet'; size: number;
    /** A Google Sheets input: the link and sheet given to start; `path` holds the workbook fetched then. */
    googleSheet?: { url: string; sheet: string; display: string };
  };
  /** preColumnMapping script id -> absolute module path, resolved at start. */
  localScripts: Record<string, string>;
  /** The read bodies: suggestions until updates replace them. */
  resources: JobResources;
  /** The suggestions, kept to give unchanged values their suggested confidence. */
  suggested: JobResources;
  allowColumnCombining: boolean;
  columnTypes: ColumnTypes | null;
  run?: { webhookUrl?: string; requestedAt: string; attempts: number; finishedAt?: string };
  result?: RunSummary;
  error?: { code: string; message: string };
  webhooks: WebhookRecord[];
}

/** Records kept in memory beyond those in use (reads mostly come back to recent jobs): about 30 KiB each, so ~2 MiB. */
export const CACHED_RECORDS = 64;

/** Job ids as newJobId makes them; anything else is never looked up on disk (no path from a URL). */
const JOB_ID = /^job_[A-Za-z0-9_-]{16}$/;

/** The data dir: job records on disk, a bounded cache of them in memory. */
export class JobStore {
  /** Most recently used last (Map order); records held or being written are never evicted. */
  private readonly cache = new Map<string, JobRecord>();
  private readonly held = new Map<string, number>();
  private readonly loading = new Map<string, Promise<JobRecord | undefined>>();
  private readonly writes = new Map<string, Promise<void>>();
  private total = 0;
  private closed = false;

  constructor(readonly dataDir: string) {}

  /** Folder of a job. */
  jobDir(jobId: string): string { return join(this.dataDir, 'jobs', jobId); }
  /** Folder of a job's input. */
  inputDir(jobId: string): string { return join(this.jobDir(jobId), 'input'); }
  /** Folder of the outputs. */
  outputDir(): string { return join(this.dataDir, 'output'); }
  /** A data-dir-relative path made absolute. */
  resolve(relative: string): string { return join(this.dataDir, relative); }

  /**
   * Creates the folders, counts the stored jobs and returns those that were running (to run again);
   * clears what a crash left half-made. Records are read one at a time and not kept.
   */
  async open(): Promise<{ loaded: number; running: JobRecord[]; skipped: string[] }> {
    await mkdir(join(this.dataDir, 'jobs'), { recursive: true });
    await mkdir(this.outputDir(), { recursive: true });
    const skipped: string[] = [];
    const running: JobRecord[] = [];
    for (const entry of await readdir(join(this.dataDir, 'jobs'), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const file = join(this.jobDir(entry.name), 'job.json');
      let text: string;
      try { text = await readFile(file, 'utf8'); } catch {
        // A start that never finished (no job.json yet): its job id was never answered.
        await rm(this.jobDir(entry.name), { recursive: true, force: true });
        continue;
      }
      await rm(`${file}.tmp`, { force: true });
      try {
        const record = parseJson(text) as JobRecord;
        if (record.version !== 1 || record.jobId !== entry.name || !JOB_ID.test(record.jobId)) throw new Error('not a job of this version');
        this.total++;
        if (record.state === 'running') running.push(record);
      } catch (e) {
        skipped.push(`jobs/${entry.name}/job.json: ${(e as Error).message}`);
      }
    }
    // Temporary outputs of runs a crash interrupted (those runs run again); engine/write/atomic.ts
    // knows their names, and removes only those of processes that are gone.
    await sweepTempFiles(this.outputDir());
    return { loaded: this.total, running, skipped };
  }

  /** Jobs stored. */
  count(): number {
    return this.total;
  }

  /** The job with this id, from memory or disk; undefined when there is none. */
  async get(jobId: string): Promise<JobRecord | undefined> {
    const cached = this.cache.get(jobId);
    if (cached) {
      this.cache.delete(jobId);
      this.cache.set(jobId, cached);
      return cached;
    }
    if (!JOB_ID.test(jobId)) return undefined;
    // Concurrent reads of one job share one load, so every caller holds the same record.
    let loading = this.loading.get(jobId);
    if (!loading) {
      loading = this.load(jobId);
      this.loading.set(jobId, loading);
      void loading.finally(() => this.loading.delete(jobId)).catch(() => {});
    }
    return loading;
  }

  private async load(jobId: string): Promise<JobRecord | undefined> {
    let text: string;
    try { text = await readFile(join(this.jobDir(jobId), 'job.json'), 'utf8'); } catch { return undefined; }
    const record = parseJson(text) as JobRecord;
    const raced = this.cache.get(jobId);
    if (raced) return raced;
    this.remember(record);
    return record;
  }

  /** Keeps the record in memory until `release` (a job running, an update in progress). */
  hold(record: JobRecord): void {
    this.held.set(record.jobId, (this.held.get(record.jobId) ?? 0) + 1);
    this.remember(record);
  }

  /** Ends one `hold`. */
  release(jobId: string): void {
    const n = (this.held.get(jobId) ?? 1) - 1;
    if (n > 0) this.held.set(jobId, n);
    else { this.held.delete(jobId); this.evict(); }
  }

  private remember(record: JobRecord): void {
    this.cache.delete(record.jobId);
    this.cache.set(record.jobId, record);
    this.evict();
  }

  private evict(): void {
    if (this.cache.size <= CACHED_RECORDS) return;
    for (const jobId of this.cache.keys()) {
      if (this.cache.size <= CACHED_RECORDS) break;
      if (this.held.has(jobId) || this.writes.has(jobId)) continue;
      this.cache.delete(jobId);
    }
  }

  /** Stores a job (new or changed): in the cache now, on disk atomically, writes of one job in order. */
  save(record: JobRecord, isNew = false): Promise<void> {
    record.updatedAt = new Date().toISOString();
    if (isNew) this.total++;
    this.remember(record);
    if (this.closed) return Promise.resolve();
    // Serialised now, so later changes to the record do not leak into this write.
    const text = stringifyJson(record, 2) + '\n';
    const file = join(this.jobDir(record.jobId), 'job.json');
    const previous = this.writes.get(record.jobId) ?? Promise.resolve();
    const write = previous.then(async () => {
      if (this.closed) return;
      const temp = `${file}.tmp`;
      await writeFile(temp, text);
      await rename(temp, file);
    });
    const settled = write.catch(() => {});
    this.writes.set(record.jobId, settled);
    void settled.then(() => {
      if (this.writes.get(record.jobId) !== settled) return;
      this.writes.delete(record.jobId);
      this.evict();
    });
    return write;
  }

  /** Records in memory now (for /healthz). */
  cached(): number {
    return this.cache.size;
  }

  /** Waits for pending writes, then ignores further saves. */
  async close(): Promise<void> {
    await Promise.all(this.writes.values());
    this.closed = true;
  }
}
