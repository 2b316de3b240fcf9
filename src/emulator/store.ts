/**
 * Persistence of the local service under its data dir: one folder per job with `job.json`
 * (written atomically: a temporary file renamed over the old one) and the job's input, and the
 * outputs in `output/`. Jobs are held in memory; the files let them survive a restart.
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

/** The data dir: jobs in memory, mirrored to disk. */
export class JobStore {
  private readonly jobs = new Map<string, JobRecord>();
  private readonly writes = new Map<string, Promise<void>>();
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

  /** Creates the folders and loads every stored job; clears what a crash left half-made. */
  async open(): Promise<{ loaded: number; skipped: string[] }> {
    await mkdir(join(this.dataDir, 'jobs'), { recursive: true });
    await mkdir(this.outputDir(), { recursive: true });
    const skipped: string[] = [];
    for (const entry of await readdir(join(this.dataDir, 'jobs'), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const file = join(this.jobDir(entry.name), 'job.json');
      let text: string;
      try { text = await readFile(file, 'utf8'); } catch {
        // A start that never finished (no job.json yet): its job id was never answered.
        await rm(this.jobDir(entry.name), { recursive: true, force: true });
        continue;
      }
      try {
        const record = parseJson(text) as JobRecord;
        if (record.version !== 1 || record.jobId !== entry.name) throw new Error('not a job of this version');
        this.jobs.set(record.jobId, record);
      } catch (e) {
        skipped.push(`${file}: ${(e as Error).message}`);
      }
    }
    // Temporary outputs (`.<name>.<hex>.tmp`, engine/write/atomic.ts) of runs a crash interrupted; those runs run again.
    for (const name of await readdir(this.outputDir())) {
      if (/^\..+\.[0-9a-f]{12}\.tmp$/.test(name)) await rm(join(this.outputDir(), name), { force: true });
    }
    return { loaded: this.jobs.size, skipped };
  }

  /** The job with this id. */
  get(jobId: string): JobRecord | undefined {
    return this.jobs.get(jobId);
  }

  /** Every job. */
  all(): JobRecord[] {
    return [...this.jobs.values()];
  }

  /** Stores a job (new or changed): in memory now, on disk atomically, writes of one job in order. */
  save(record: JobRecord): Promise<void> {
    record.updatedAt = new Date().toISOString();
    this.jobs.set(record.jobId, record);
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
    void settled.then(() => { if (this.writes.get(record.jobId) === settled) this.writes.delete(record.jobId); });
    return write;
  }

  /** Waits for pending writes, then ignores further saves. */
  async close(): Promise<void> {
    await Promise.all(this.writes.values());
    this.closed = true;
  }
}
