/**
 * A job file against the service: start the job it describes (or reuse one), read every
 * resource, and send the updates that differ. Shared by `plan`, `run <job.yaml>`, `review` and `pull`.
 */
import { basename, relative } from 'node:path';
import type { JobConfig, JobResources, StartForm } from '../contract/index.js';
import type { ImportClient } from '../client/client.js';
import { JobFileError, NotFoundError, UsageError } from '../errors.js';
import { changedResources, currentBodies, desiredBodies, type ResourceName } from '../jobfile/translate.js';
import type { JobFile } from '../jobfile/types.js';
import type { Deps } from './deps.js';
import { normalizeRead } from './resource-bodies.js';

/** The start form a job file describes (cli.md "start", jobfile.md "Translation to the service"). */
export function jobFileForm(job: JobFile, rows?: Record<string, unknown>[]): StartForm {
  const form: StartForm = {};
  if (job.pipeline !== undefined) form.pipelineId = job.pipeline;
  if (job.name !== undefined) form.jobName = job.name;
  if (job.input.googleSheet) { form.gsUrl = job.input.googleSheet.url; form.gsSheetName = job.input.googleSheet.sheet; }
  if (rows) form.jsonData = rows;
  const o = job.options;
  if (o.destinationFileName !== undefined) form.destinationFileName = o.destinationFileName;
  if (o.useFullData) form.useFullData = true;
  if (o.useVariableFields) form.useVariableFields = true;
  if (job.scripts?.preColumnMapping.length) form.scripts = { preColumnMapping: job.scripts.preColumnMapping };
  if (o.webhookUrl !== undefined) form.webhookUrl = o.webhookUrl;
  if (o.outputFileType === 'excel') form.outputFileType = 'excel';
  return form;
}

/** Starts the job a job file describes and returns its id; records what was sent for `import pull`. */
export async function startJobFile(job: JobFile, client: ImportClient, deps: Deps): Promise<string> {
  if (job.input.placeholder) {
    throw inputError(job, deps, 'file', (await import('./job-checks.js')).PLACEHOLDER_INPUT);
  }
  let rows: Record<string, unknown>[] | undefined;
  let file: { path: string; size: number } | undefined;
  if (job.input.file) file = { path: job.input.file, size: await inputSize(job, deps) };
  // Inline rows and rows files keep the written key order ("1962", __proto__): sent as written.
  if (job.input.rows) rows = job.input.rows;
  if (job.input.rowsFile) rows = await readRowsFile(job, deps);
  const form = jobFileForm(job, rows);
  const { startProgress } = await import('./progress.js');
  const progress = file ? startProgress(deps.io, `Uploading ${basename(file.path)}`, file.size) : undefined;
  const jobId = await client.start.send({ form, file, onProgress: progress ? (n) => progress.update(n) : undefined });
  progress?.finish();
  const { saveJobRecord } = await import('./job-record.js');
  await saveJobRecord(deps, jobId, form, file?.path);
  return jobId;
}

/** The input file's size (the offline check has found it readable; this names input.file if it went away since). */
async function inputSize(job: JobFile, deps: Deps): Promise<number> {
  const { stat } = await import('node:fs/promises');
  try {
    return (await stat(job.input.file!)).size;
  } catch (error) {
    throw inputError(job, deps, 'file', `input.file ${job.input.file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); fix the path.`);
  }
}

/** The rows of `input.rowsFile`: a non-empty JSON array of row objects, read keeping each row's key order. */
async function readRowsFile(job: JobFile, deps: Deps): Promise<Record<string, unknown>[]> {
  const [{ NestingError }, { parseJsonRows, readRowsText, tooDeepMessage }] = await Promise.all([
    import('../contract/json.js'), import('../engine/read/json.js'),
  ]);
  const path = job.input.rowsFile!;
  let value: unknown;
  let text = '';
  try {
    text = await readRowsText(path, `input.rowsFile ${basename(path)}`);
    // Read as the engine and `import serve` read rows: nesting the service refuses is refused before sending.
    value = parseJsonRows(text);
  } catch (error) {
    if (error instanceof NestingError) throw inputError(job, deps, 'rowsFile', tooDeepMessage(text, `input.rowsFile ${basename(path)}`, error));
    if (error instanceof UsageError) throw inputError(job, deps, 'rowsFile', error.message);
    const why = error instanceof SyntaxError ? `is not valid JSON (${error.message})` : `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
    throw inputError(job, deps, 'rowsFile', `input.rowsFile ${basename(path)} ${why}; give a JSON array of row objects.`);
  }
  if (!Array.isArray(value) || value.length === 0) {
    throw inputError(job, deps, 'rowsFile', `input.rowsFile ${basename(path)} must be a non-empty JSON array of row objects, such as [{"id": 1}].`);
  }
  const bad = value.findIndex((row) => row === null || typeof row !== 'object' || Array.isArray(row));
  if (bad >= 0) throw inputError(job, deps, 'rowsFile', `input.rowsFile ${basename(path)}: element [${bad}] is not a row object; every element must be an object such as {"id": 1}.`);
  return value as Record<string, unknown>[];
}

/** A JobFileError (exit 2) at `input.<key>` of the job file. */
function inputError(job: JobFile, deps: Deps, key: string, message: string): JobFileError {
  const pos = job.positionOf(['input', key]) ?? { line: 1, col: 1 };
  const rel = relative(deps.cwd, job.path);
  const file = rel && !rel.startsWith('..') ? rel : job.path;
  return new JobFileError(`${file}:${pos.line}:${pos.col}`, message, [{ file, line: pos.line, col: pos.col, message }]);
}

/** The job to work on: `reuse` when given, else a new job started from the job file; says which on stderr. */
export async function startOrReuse(job: JobFile, client: ImportClient, deps: Deps, reuse?: string): Promise<string> {
  const jobId = reuse ?? await startJobFile(job, client, deps);
  deps.io.status(reuse ? `Using job ${jobId}.` : `Started job ${jobId}.`);
  return jobId;
}

/** Reads every resource of a job. A service that has no sheet selection for a non-workbook input gives `sheet: null`. */
export async function fetchResources(client: ImportClient, jobId: string): Promise<JobResources> {
  const sheet = client.sheet.get(jobId).then(
    (read) => {
      const r = normalizeRead('sheet', read);
      return r.sheetSelection && Array.isArray(r.sheetSelection.sheets) && r.sheetSelection.sheets.length ? r : null;
    },
    (error) => {
      // A job that exists but has no workbook may answer 404 for its sheet; the fields read tells which.
      if (error instanceof NotFoundError) return null;
      throw error;
    },
  );
  const [fields, combining, dataTypes, units, impute, pivot, rowDropping, text, scripts] = await Promise.all([
    client.fields.get(jobId), client.combining.get(jobId), client.types.get(jobId), client.units.get(jobId),
    client.impute.get(jobId), client.pivot.get(jobId), client.rowDropping.get(jobId), client.text.get(jobId),
    client.scripts.get(jobId),
  ]);
  return {
    sheet: await sheet,
    fields: normalizeRead('fields', fields),
    combining: normalizeRead('combining', combining),
    dataTypes: normalizeRead('dataTypes', dataTypes),
    units: normalizeRead('units', units),
    impute: normalizeRead('impute', impute),
    pivot: normalizeRead('pivot', pivot),
    rowDropping: normalizeRead('rowDropping', rowDropping),
    text: normalizeRead('text', text),
    scripts: normalizeRead('scripts', scripts),
  };
}

/** What `applyJobFile` sent. */
export interface AppliedUpdate { resource: ResourceName; body: unknown }

/**
 * Sends an update for each resource whose desired body differs from the service's, in
 * dependency order; after a sheet change the resources are read again (the sheet changes the
 * columns) and checked with `afterSheet` before anything else is sent. When a call fails,
 * stderr says which resources were updated and which were not, and the error goes on: the
 * caller does not run the job, and `import run job.yaml --job ID` finishes it later, sending
 * only what still differs.
 */
export async function applyJobFile(
  job: JobFile, client: ImportClient, jobId: string, resources: JobResources, onUpdate: (u: AppliedUpdate) => void,
  opts: { io?: Deps['io']; jobFile?: string; afterSheet?: (resources: JobResources) => void } = {},
): Promise<{ sent: AppliedUpdate[]; resources: JobResources }> {
  const sent: AppliedUpdate[] = [];
  let current = resources;
  let planned: ResourceName[] = plannedUpdates(job, current);
  try {
    if (job.config.sheet !== undefined && current.sheet && current.sheet.sheetSelection.selected !== job.config.sheet) {
      const body = { sheetSelection: { selected: job.config.sheet } };
      await client.sheet.update(jobId, body);
      const u = { resource: 'sheet' as const, body };
      sent.push(u);
      onUpdate(u);
      current = await fetchResources(client, jobId);
      opts.afterSheet?.(current);
      planned = ['sheet', ...plannedUpdates(job, current).filter((name) => name !== 'sheet')];
    }
    const before = currentBodies(current);
    const desired = desiredBodies(job.config, current);
    for (const name of changedResources(before, desired)) {
      if (name === 'sheet') continue;
      const body = desired[name];
      await sendUpdate(client, jobId, name, body);
      const u = { resource: name, body };
      sent.push(u);
      onUpdate(u);
    }
  } catch (error) {
    if (opts.io) {
      const done = sent.map((u) => u.resource);
      const left = planned.filter((name) => !done.includes(name));
      const file = opts.jobFile ?? 'job.yaml';
      opts.io.status(`Job ${jobId} is half configured: ${done.length ? `updated ${done.join(', ')}` : 'nothing was updated'}; ${left.length ? `not updated: ${left.join(', ')}` : 'every update was sent'}. The job was not run. Fix the cause below, then \`import run ${file} --job ${jobId}\` sends only what still differs and runs it.`);
    }
    throw error;
  }
  return { sent, resources: current };
}

/** The resources a job file would change, in update order, given the service's current values. */
export function plannedUpdates(job: JobFile, resources: JobResources): ResourceName[] {
  const changed = changedResources(currentBodies(resources), desiredBodies(job.config, resources));
  return changed.filter((name) => name !== 'sheet' || (resources.sheet !== null && job.config.sheet !== undefined));
}

/** Sends one resource's complete update body through the client. */
export async function sendUpdate(client: ImportClient, jobId: string, name: ResourceName, body: Required<JobConfig>[ResourceName]): Promise<void> {
  switch (name) {
    case 'sheet': await client.sheet.update(jobId, { sheetSelection: { selected: body as string } }); break;
    case 'fields': await client.fields.update(jobId, body as Required<JobConfig>['fields']); break;
    case 'combining': await client.combining.update(jobId, body as Required<JobConfig>['combining']); break;
    case 'dataTypes': await client.types.update(jobId, body as Required<JobConfig>['dataTypes']); break;
    case 'units': await client.units.update(jobId, body as Required<JobConfig>['units']); break;
    case 'impute': await client.impute.update(jobId, body as Required<JobConfig>['impute']); break;
    case 'pivot': await client.pivot.update(jobId, body as Required<JobConfig>['pivot']); break;
    case 'rowDropping': await client.rowDropping.update(jobId, body as Required<JobConfig>['rowDropping']); break;
    case 'text': await client.text.update(jobId, body as Required<JobConfig>['text']); break;
  }
}


