/**
 * The plan of a job file against the service: the diff per resource and key, the updates it
 * would send, the review gate, and (for a local input) the data effect predicted by the engine.
 * `import plan` prints it; `import run <job.yaml>` prints it and then acts on it.
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import type { JobConfig, JobResources } from '../contract/index.js';
import { ApiError, NetworkError, printable, ReviewRequiredError, UsageError } from '../errors.js';
import type { EmptyField } from '../jobfile/check.js';
import { diffConfig, formatDiff, needsReview, showValue, type DiffEntry } from '../jobfile/diff.js';
import type { ResourceName } from '../jobfile/translate.js';
import type { JobFile } from '../jobfile/types.js';
import type { Report } from '../engine/types.js';
import type { RejectView } from '../engine/rejects.js';
import { formatReject } from './format-reject.js';
import type { Deps } from './deps.js';
import type { ImportClient } from '../client/client.js';
import { parseMinConfidence } from './flags.js';
import { countOf } from './io.js';
import { fetchResources, plannedUpdates, startOrReuse } from './job-session.js';

/** The plan of one job file against one job. */
export interface Plan {
  version: 1;
  jobId: string;
  jobFile: string;
  minConfidence?: number;
  entries: DiffEntry[];
  updates: ResourceName[];
  needsReview: DiffEntry[];
  /** Required fields that no column is mapped to after the job file's mapping: each would be empty in every row. */
  emptyFields: EmptyField[];
  /** The engine's prediction of what the run does to the data (local inputs only). */
  dataEffect?: Report;
  /** The first rows the run would drop or cells it would empty (local inputs only). */
  firstRejects?: RejectView[];
}


/** A `--max-dropped-rows` limit: a row count (`500`) or a share of the input rows (`2%`). */
export interface DropLimit { rows?: number; percent?: number; text: string }

/** Parses `--max-dropped-rows N|P%`. */
export function parseDropLimit(text: string | undefined): DropLimit | undefined {
  if (text === undefined) return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(%?)\s*$/.exec(text);
  if (!m || (m[2] === '' && !Number.isInteger(Number(m[1])))) {
    throw new UsageError(`--max-dropped-rows "${text}" is not a row count or a percentage; pass e.g. --max-dropped-rows 100 or --max-dropped-rows 2%.`);
  }
  return m[2] ? { percent: Number(m[1]), text } : { rows: Number(m[1]), text };
}

/** What `plan` and `run <job.yaml>` start from: the job file, its bar and drop limit, and the job's resources. */
export interface PlanSession {
  job: JobFile;
  minConfidence?: number;
  limit?: DropLimit;
  client: ImportClient;
  jobId: string;
  resources: JobResources;
}

/**
 * Loads the job file, checks --min-confidence and --max-dropped-rows, checks the job file
 * offline (exit 2 before any request when it names a column, field or sheet that is not there),
 * starts the job (or reuses --job), reads every resource and checks the job file against them
 * (exit 2 before any update).
 */
export async function openPlanSession(
  opts: { jobFile: string; job?: string; minConfidence?: string; maxDroppedRows?: string }, deps: Deps,
): Promise<PlanSession> {
  const [{ loadJobForCommand }, checks] = await Promise.all([import('./job-file.js'), import('./job-checks.js')]);
  const job = await loadJobForCommand(opts.jobFile, deps);
  const minConfidence = parseMinConfidence(opts.minConfidence, job);
  const limit = parseDropLimit(opts.maxDroppedRows);
  const offline = await checks.checkOffline(job, deps, opts.job ? checks.REUSES_JOB : checks.NEEDS_INPUT);
  for (const note of offline.notes) deps.io.status(note);
  checks.throwProblems(offline.problems);
  // What validate warns about (a rule that does nothing, a repeated one, a unit other than the schema's) is said here too, before any job starts.
  checks.printWarnings(offline.warnings, deps);
  const client = await deps.client();
  const jobId = await startOrReuse(job, client, deps, opts.job);
  const resources = await fetchResources(client, jobId);
  // A sheet the job file changes brings other columns: those are checked once it is selected.
  const sheetChanges = job.config.sheet !== undefined && resources.sheet !== null && resources.sheet.sheetSelection.selected !== job.config.sheet;
  checks.checkAgainstService(job, resources, jobId, deps, { columns: !sheetChanges, started: !opts.job });
  return { job, minConfidence, limit, client, jobId, resources };
}

/** Builds the plan: the diff, the updates it implies, and the data effect when the input is local. */
export async function buildPlan(job: JobFile, jobId: string, resources: JobResources, minConfidence: number | undefined, deps: Deps, opts: { lenient?: boolean } = {}): Promise<Plan> {
  const [{ desiredBodies }, { requiredFieldsWithoutColumn }] = await Promise.all([import('../jobfile/translate.js'), import('../jobfile/check.js')]);
  const entries = diffConfig(job.config, resources, minConfidence);
  const bodies = desiredBodies(job.config, resources);
  const plan: Plan = {
    version: 1,
    jobId,
    jobFile: job.path,
    minConfidence,
    entries,
    updates: plannedUpdates(job, resources),
    needsReview: needsReview(entries),
    emptyFields: requiredFieldsWithoutColumn(bodies, resources.fields),
  };
  if (hasLocalInput(job)) Object.assign(plan, await predictEffect(job, resources, bodies, deps, opts.lenient));
  return plan;
}

/** Whether the engine can read the job's input here (a reused job's file may live elsewhere, as after `pull`; a Google Sheet is downloaded). */
function hasLocalInput(job: JobFile): boolean {
  if (job.input.rows || job.input.googleSheet) return true;
  const path = job.input.file ?? job.input.rowsFile;
  return path !== undefined && existsSync(path);
}

/** Runs the job file's configuration over the service's suggestions through the engine, writing nothing. */
async function predictEffect(job: JobFile, resources: JobResources, bodies: Required<JobConfig>, deps: Deps, lenient = false): Promise<Pick<Plan, 'dataEffect' | 'firstRejects'>> {
  const [{ runJob }, { desiredBodies, schemaFromResources }, { openJobInput }, { firstRejects }, { checkUnit }] = await Promise.all([
    import('../engine/pipeline.js'), import('../jobfile/translate.js'), import('./job-input.js'), import('../engine/rejects.js'),
    import('../engine/steps/units.js'),
  ]);
  // The service's current values with the job file over them: what the service will apply. A unit
  // conversion the service suggests and the job file does not touch is the service's own (seed:
  // "unit strings other than UTC deltas: not shown"): one the engine does not know is left out of
  // the prediction, said so, rather than refused as if the user had written it.
  const leftOut = new Set<string>();
  for (const [field, u] of Object.entries(bodies.units.fieldUnitConversions)) {
    if (Object.hasOwn(job.config.units ?? {}, field) || checkUnit(u.from, u.to) === undefined) continue;
    leftOut.add(field);
    deps.io.status(`The data effect leaves out the service's suggested unit conversion of ${printable(field)} (${printable(String(u.from))} to ${printable(String(u.to))}), which the embedded engine cannot apply; the service applies it.`);
  }
  const predicted = () => {
    const bodies = desiredBodies(job.config, resources);
    if (leftOut.size) bodies.units = { fieldUnitConversions: Object.fromEntries(Object.entries(bodies.units.fieldUnitConversions).filter(([f]) => !leftOut.has(f))) };
    return bodies;
  };
  const rejects = firstRejects(FIRST_REJECTS);
  let input;
  try {
    input = await openJobInput(job, deps);
  } catch (error) {
    // The service reads the sheet itself: a download that fails here costs only the prediction.
    if (!job.input.googleSheet || !(error instanceof UsageError || error instanceof ApiError || error instanceof NetworkError)) throw error;
    deps.io.status(`The data effect is not shown: ${error.message}`);
    return {};
  }
  const result = await runJob({
    // The pipeline as the service's reads describe it (its preset row dropping above all), not the
    // job file's schema: the prediction and the --max-dropped-rows gate count what the service drops.
    input, schema: schemaFromResources(resources), sheet: job.config.sheet ?? resources.sheet?.sheetSelection.selected,
    preScripts: job.scripts?.preColumnMapping, localScripts: job.localScripts, useFullData: job.options.useFullData,
    lenient, warn: (m) => deps.io.warn(m),
  }, {
    configure: predicted,
    rejects,
  });
  return { dataEffect: result.report, firstRejects: rejects.list() };
}

/** Rejected rows `plan` shows. */
const FIRST_REJECTS = 5;

/** Total rows the engine predicts will be dropped (rows in minus rows out, pivots aside). */
export function droppedRows(report: Report): number {
  return report.dropped.reduce((n, d) => n + d.count, 0);
}

/** Throws ReviewRequiredError (exit 5) when the predicted drops pass the limit. */
export function checkDropLimit(limit: DropLimit | undefined, report: Report | undefined, job: JobFile): void {
  if (!limit) return;
  if (!report) {
    throw new UsageError(`--max-dropped-rows needs to read the job's input to predict drops, and ${basename(job.path)}'s input could not be read here; run where the input is, or remove the flag.`);
  }
  const dropped = droppedRows(report);
  const max = limit.rows ?? Math.floor((report.rowsIn * (limit.percent ?? 0)) / 100);
  if (dropped > max) {
    const rules = report.dropped.filter((d) => d.count > 0).map((d) => `${d.rule}: ${d.count}`).join(', ');
    throw new ReviewRequiredError(`The run would drop ${dropped} of ${countOf(report.rowsIn, 'row')} (${rules}), more than --max-dropped-rows ${limit.text}; check the data or raise the limit.`);
  }
}

/** What the review gate looks at: a plan against a job, or a dry run's own suggestions (no `jobId`). */
export type GateInput = Pick<Plan, 'needsReview' | 'emptyFields' | 'minConfidence'> & { jobId?: string };

/**
 * The review gate: exit 5 naming each unpinned suggestion under the bar and how to pin it, and
 * each required field that would be an empty column and the line that maps a column to it.
 * Without a job (`run --dry-run`) the same items are named, and the hints stay offline.
 */
export function checkReviewGate(plan: GateInput, job: JobFile): void {
  if (!plan.needsReview.length && !plan.emptyFields.length) return;
  const file = basename(job.path);
  const lines = plan.needsReview.map((e) => e.missingColumn
    ? `  column "${e.key}" is pinned in ${file} but the input has no such column; remove or rename it under config.mapping`
    : `  ${describeEntry(e)} (confidence ${e.confidence?.toFixed(2) ?? 'unknown'}); pin it in ${file}: ${pinHint(e)}`);
  const mappingAt = job.positionOf(['config', 'mapping']);
  const where = mappingAt ? `under config.mapping (${file}:${mappingAt.line})` : 'in a config.mapping section';
  for (const f of plan.emptyFields) {
    lines.push(`  required field ${f.field} has no column, so it would be empty in every row; map one to it ${where}, e.g. "${f.suggestion}"`);
  }
  const count = plan.needsReview.length + plan.emptyFields.length;
  const what = [
    plan.needsReview.length ? `unpinned suggestions below the confidence bar ${plan.minConfidence ?? '(none)'}, or pins the input no longer matches` : '',
    plan.emptyFields.length ? 'required fields without a column' : '',
  ].filter(Boolean).join('; ');
  const offline = plan.jobId === undefined;
  throw new ReviewRequiredError(
    `${count} item${count > 1 ? 's need' : ' needs'} review (${what}); ${offline ? 'nothing was written' : 'nothing was updated or run'}:\n${lines.join('\n')}\n` +
    `Pin ${count > 1 ? 'them' : 'it'}, review with \`import review ${file} --save${offline ? ' --dry-run' : ''}\`, or accept all with --yes` +
    `${offline ? '' : ` (job ${plan.jobId}; reuse it with --job ${plan.jobId})`}.`,
  );
}

function describeEntry(e: DiffEntry): string {
  switch (e.resource) {
    case 'mapping': return `column "${e.key}" -> field ${showValue(e.suggested)}`;
    case 'dataTypes': return `field ${e.key} as ${showValue(e.suggested)}`;
    case 'sheet': return `sheet ${showValue(e.suggested)}`;
    default: return `${e.resource} ${e.key}: ${showValue(e.suggested)}`;
  }
}

function pinHint(e: DiffEntry): string {
  const key = /^[A-Za-z_][\w-]*$/.test(e.key) ? e.key : JSON.stringify(e.key);
  switch (e.resource) {
    case 'mapping': return `config.mapping: {${key}: ${showValue(e.suggested)}}`;
    case 'dataTypes': return `config.dataTypes: {${key}: ${showValue(e.suggested)}}`;
    case 'sheet': return `config.sheet: ${showValue(e.suggested)}`;
    default: return `config.${e.resource}`;
  }
}

/** The plan as text (stdout for `plan`, stderr for `run`). */
export function formatPlan(plan: Plan, job: JobFile): string {
  const lines = [`Plan for ${basename(job.path)} on job ${plan.jobId}${plan.minConfidence !== undefined ? ` (confidence bar ${plan.minConfidence})` : ''}:`];
  const diff = formatDiff(plan.entries, { showAccepted: true });
  lines.push(diff || '  (no suggestions and no configuration)');
  lines.push('');
  lines.push(plan.updates.length ? `Updates to send: ${plan.updates.join(', ')}` : 'Nothing to update: the service already has this configuration.');
  if (plan.needsReview.length) lines.push(`Needs review: ${plan.needsReview.length} (marked ?)`);
  for (const f of plan.emptyFields) lines.push(`Required field without a column (would be empty in every row): ${f.field}`);
  if (plan.dataEffect) {
    const r = plan.dataEffect;
    lines.push(`Data effect (embedded engine): ${countOf(r.rowsIn, 'row')} in, ${r.rowsOut} out`);
    for (const d of r.dropped) if (d.count) lines.push(`  dropped by ${d.rule}: ${d.count}`);
    for (const [field, n] of Object.entries(r.filled)) if (n) lines.push(`  filled in ${field}: ${n}`);
    for (const [field, n] of Object.entries(r.coercionFailures)) if (n) lines.push(`  not a valid ${field} (now missing): ${n}`);
    for (const c of r.converted) if (c.count) lines.push(`  converted ${c.rule} in ${c.field}: ${c.count}`);
    if (plan.firstRejects?.length) {
      lines.push(`  first rejected (all with \`import dry-run ${basename(job.path)} --rejects rejects.csv\`):`);
      for (const x of plan.firstRejects) lines.push(`    ${formatReject(x)}`);
    }
  }
  return lines.join('\n');
}
