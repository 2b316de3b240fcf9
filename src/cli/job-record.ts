/**
 * What this machine sent when it started a job (pipeline, name, output type and the other start
 * options, the input's name and kind), kept so `import pull` can write them back: the seed has no read of a job's start form.
 * Records live in `$XDG_STATE_HOME/import/jobs/` (else `~/.local/state/import/jobs/`), one small
 * JSON file per job and service, mode 600; never the API key. Writing one never fails a command.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, extname, join } from 'node:path';
import type { OutputFileType, StartForm } from '../contract/index.js';
import type { Deps } from './deps.js';

/** One started job, as recorded. */
export interface JobRecord {
  jobId: string;
  /** The service root the job was started on (records of other services are ignored). */
  baseUrl?: string;
  pipeline?: string | string[];
  name?: string;
  outputFileType?: OutputFileType;
  /** The other start options sent (absent in records written before they were kept). */
  options?: StartOptions;
  /** The data input: a file (its name), a Google Sheet (its sheet name), or inline rows. */
  input: { kind: 'file' | 'googleSheet' | 'jsonData'; name?: string };
  startedAt: string;
  /** Whether the job was started with a start webhook URL (the URL itself is not kept). */
  webhook?: boolean;
}

/**
 * The start options a record keeps, as a job file's `options` holds them before outputFileType, in
 * the format's order. A webhook URL is not kept (it may hold a token): only that there was one.
 */
export const START_OPTIONS = ['useFullData', 'useVariableFields', 'destinationFileName'] as const;

/** The start options of a record. */
export type StartOptions = Partial<Pick<StartForm, (typeof START_OPTIONS)[number]>>;

/** The folder of job records. */
export function jobRecordDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_STATE_HOME && env.XDG_STATE_HOME !== '' ? env.XDG_STATE_HOME : join(env.HOME ?? homedir(), '.local', 'state');
  return join(base, 'import', 'jobs');
}

function recordPath(env: NodeJS.ProcessEnv, baseUrl: string | undefined, jobId: string): string {
  const key = createHash('sha256').update(`${baseUrl ?? ''}\n${jobId}`).digest('hex').slice(0, 32);
  return join(jobRecordDir(env), `${key}.json`);
}

/** Records a job just started from `form` (and the uploaded file's path, if any). Best effort. */
export async function saveJobRecord(deps: Deps, jobId: string, form: StartForm, file?: string): Promise<void> {
  const record: JobRecord = {
    jobId,
    baseUrl: deps.settings.baseUrl,
    input: file !== undefined ? { kind: 'file', name: basename(file) }
      : form.gsUrl !== undefined ? { kind: 'googleSheet', name: form.gsSheetName }
      : { kind: 'jsonData' },
    startedAt: deps.now().toISOString(),
  };
  if (form.pipelineId !== undefined) record.pipeline = form.pipelineId;
  if (form.jobName !== undefined) record.name = form.jobName;
  record.outputFileType = form.outputFileType ?? 'csv';
  const options: Record<string, unknown> = {};
  for (const key of START_OPTIONS) if (form[key] !== undefined) options[key] = form[key];
  record.options = options as StartOptions;
  if (form.webhookUrl !== undefined) record.webhook = true;
  try {
    await mkdir(jobRecordDir(deps.env), { recursive: true, mode: 0o700 });
    await writeFile(recordPath(deps.env, deps.settings.baseUrl, jobId), JSON.stringify(record, null, 2) + '\n', { mode: 0o600 });
  } catch {
    // A read-only or full home folder must not fail a job that started; `pull` then knows less.
  }
}

/** The record of a job started on this service from this machine, if there is one. */
export async function readJobRecord(deps: Deps, jobId: string): Promise<JobRecord | undefined> {
  try {
    const record = JSON.parse(await readFile(recordPath(deps.env, deps.settings.baseUrl, jobId), 'utf8')) as JobRecord;
    return record.jobId === jobId ? record : undefined;
  } catch {
    return undefined;
  }
}

/** A file's kind as people name it, from its extension ("a CSV file"). */
export function describeInput(input: JobRecord['input']): string {
  if (input.kind === 'jsonData') return 'inline JSON rows (jsonData)';
  if (input.kind === 'googleSheet') return `the Google Sheet tab ${input.name ?? '(unknown)'}`;
  const ext = extname(input.name ?? '').toLowerCase();
  const kind = ext === '.xlsx' || ext === '.xlsm' ? 'an Excel workbook' : ext === '.tsv' ? 'a TSV file' : ext === '.json' ? 'a JSON file' : ext === '.csv' ? 'a CSV file' : 'a file';
  return `${input.name ?? 'a file'} (${kind})`;
}
