/**
 * The checks a job file passes before anything is sent: offline (its input is there and readable,
 * the columns and fields it names exist in the input's header and its `schema`), then, once a
 * job is started and read, against the service's own columns, fields and sheets. `validate` runs
 * the offline part; `run`, `plan` and `dry-run` run both parts that apply.
 */
import { access, constants, stat } from 'node:fs/promises';
import { basename, dirname, relative } from 'node:path';
import type { DataType, JobResources } from '../contract/index.js';
import { JobFileError, type JobFileProblem } from '../errors.js';
import { checkJobFile, jobFileWarnings, type KnownFacts } from '../jobfile/check.js';
import type { JobFile } from '../jobfile/types.js';
import type { Deps } from './deps.js';

/** The outcome of the offline part: problems, warnings (jobFileWarnings), and what was read to find them (said on stderr). */
export interface OfflineCheck { problems: JobFileProblem[]; warnings: JobFileProblem[]; notes: string[] }

/** How a job file is named in messages (as the user gave it, relative to the working folder when inside it). */
export function shownPath(job: JobFile, deps: Deps): string {
  const rel = relative(deps.cwd, job.path);
  return rel && !rel.startsWith('..') ? rel : job.path;
}

/**
 * What the offline part may let through: a placeholder input (`validate`, `--job`), an input file
 * this machine lacks (`--job`). `engine`: the embedded engine will process the file (a dry run),
 * so with no `schema` the fields are the input's columns (its identity suggestions); against a
 * service, a pipeline without a local `schema` may expect any field, so fields are checked once
 * the service has said which.
 */
export interface OfflineOptions { placeholderOk: boolean; missingOk: boolean; engine?: boolean }

/** The error for a placeholder input (`file:` as `pull` writes it) where a job is to be started from the file. */
export const PLACEHOLDER_INPUT = 'input.file is empty, a placeholder: set the path of the data file to start a job from this file, or pass --job <id> to reuse a started one.';
/** The same for a dry run, which has no started job to reuse. */
const PLACEHOLDER_DRY_RUN = 'input.file is empty, a placeholder: set the path of the data file to dry-run this file.';

/** Options for a command that starts a job from the file: the input must be there. */
export const NEEDS_INPUT: OfflineOptions = { placeholderOk: false, missingOk: false };
/** Options for a dry run: the input must be there, and the engine's suggestions are known. */
export const DRY_RUN: OfflineOptions = { placeholderOk: false, missingOk: false, engine: true };
/** Options for a command that reuses a started job (`--job`): the input is not needed. */
export const REUSES_JOB: OfflineOptions = { placeholderOk: true, missingOk: true };

/**
 * The offline part: the input exists and its header can be read; every column, field and sheet
 * the job file names is in that header, the workbook and the job file's `schema`.
 */
export async function checkOffline(job: JobFile, deps: Deps, opts: OfflineOptions): Promise<OfflineCheck> {
  const file = shownPath(job, deps);
  const problems: JobFileProblem[] = [];
  const notes: string[] = [];
  const at = (path: (string | number)[], message: string) => {
    const pos = job.positionOf(path) ?? { line: 1, col: 1 };
    problems.push({ file, line: pos.line, col: pos.col, message });
  };
  const facts: KnownFacts = {};
  if (job.schema && job.schema.expectedFields.length > 0) {
    facts.fields = { expected: job.schema.expectedFields, optional: job.schema.optionalFields, from: `the pipeline's schema in ${basename(job.path)}` };
  }

  const { input } = job;
  if (input.placeholder) {
    // One sentence either way: a warning where the placeholder may stay, else only the error.
    if (!opts.placeholderOk) at(['input', 'file'], opts.engine ? PLACEHOLDER_DRY_RUN : PLACEHOLDER_INPUT);
    else {
      const pos = job.positionOf(['input', 'file']) ?? { line: 1, col: 1 };
      deps.io.warn(`${file}:${pos.line}:${pos.col}: input.file is empty, a placeholder: set the path of the data file before a new job is started with this file (\`--job <id>\` reuses a started job and does not need it).`);
    }
  }
  for (const key of ['file', 'rowsFile'] as const) {
    const path = input[key];
    if (path === undefined) continue;
    const why = await unreadable(path);
    if (why && !(opts.missingOk && why === 'does not exist')) {
      const written = relative(dirname(job.path), path) || path;
      // A shell would have expanded these; a job file's path is taken as written.
      const fix = why !== 'does not exist' ? 'fix the path'
        : /^~(\/|$)/.test(written) ? 'a "~" is not expanded here: write the path relative to the job file\'s folder, or start it with ${HOME}/ instead'
        : /[*?[]/.test(written) ? 'wildcards are not expanded here: name one file' : 'fix the path';
      at(['input', key], `input.${key} ${written} ${why} (paths are relative to the job file's folder); ${fix}.`);
    }
  }
  for (const [id, path] of Object.entries(job.localScripts)) {
    const why = await unreadable(path, { allowEmpty: true });
    if (why) at(['localScripts', id], `localScripts.${id}: the module ${path} ${why}; fix the path (relative to the job file's folder).`);
  }

  const preScripts = job.scripts?.preColumnMapping.length ?? 0;
  if (problems.length === 0 && !input.googleSheet && !input.placeholder && (input.file || input.rows || input.rowsFile)) {
    if (input.file && !(await exists(input.file))) {
      // A reused job (--job) may come from a file this machine does not have: nothing to read.
      notes.push(`The input ${basename(input.file)} is not here, so its columns were not checked.`);
    } else {
      try {
        const header = await readHeader(job);
        // The seed keys the start webhook's columnFieldMapping by the input's name: the data source of
        // a job started from this input (a reused job's source is the service's to say).
        if (!opts.missingOk) facts.sources = { names: [header.name], from: 'the input' };
        if (header.sheets) facts.sheets = { names: header.sheets, from: header.name };
        else if (job.config.sheet !== undefined) {
          at(['config', 'sheet'], `config.sheet selects the sheet "${job.config.sheet}", but ${header.name} is not a workbook and has no sheets; remove config.sheet.`);
        }
        if (preScripts > 0) {
          notes.push(`The columns were not checked: scripts.preColumnMapping runs before the mapping and may change them.`);
        } else if (header.columns) {
          facts.columns = { names: header.columns, from: header.sheet ? `sheet "${header.sheet}" of ${header.name}` : header.name };
          if (opts.engine && !facts.fields) {
            facts.suggestedFields = { names: header.columns, from: `${facts.columns.from} (no schema: each column is its own field)`, byColumn: header.columns.map((c) => [c, c]) };
          }
          const fieldsToo = facts.fields ? ' and fields' : opts.engine ? ' and fields (no schema: the columns are the fields)' : '';
          notes.push(`Read the header of ${facts.columns.from} (${header.columns.length} column${header.columns.length === 1 ? '' : 's'}) to check the columns${fieldsToo} the job file names.`);
        }
      } catch (error) {
        const key = input.file ? 'file' : input.rowsFile ? 'rowsFile' : 'rows';
        at(['input', key], `input.${key} cannot be read: ${(error as Error).message.replace(/\.$/, '')}.`);
      }
    }
  } else if (input.googleSheet) {
    notes.push('The input is a Google Sheet, not read offline: its columns are checked when a dry run reads it, or against the service once a job is started.');
  }
  problems.push(...checkJobFile(job, facts, file));
  return { problems: sortProblems(problems), warnings: jobFileWarnings(job, facts, file, { engine: opts.engine }), notes };
}

/** Prints each warning as `warning: file:line:col: message` on stderr. */
export function printWarnings(warnings: JobFileProblem[], deps: Deps): void {
  for (const w of warnings) deps.io.warn(`${w.file}:${w.line}:${w.col}: ${w.message}`);
}

/** Throws a JobFileError (exit 2) listing every problem, when there are any. */
export function throwProblems(problems: JobFileProblem[]): void {
  const [first] = problems;
  if (!first) return;
  throw new JobFileError(`${first.file}:${first.line}:${first.col}`, first.message, problems);
}

/** Facts from the service's reads of a started job: its columns, sheets and the pipeline's fields. */
export function serviceFacts(resources: JobResources, jobId: string, opts: { columns: boolean }): KnownFacts {
  const facts: KnownFacts = {};
  const from = `the service's job ${jobId}`;
  const fields = resources.fields;
  if (opts.columns && (fields.inputColumns ?? []).length > 0) facts.columns = { names: fields.inputColumns, from: `the input of ${from}` };
  if ((fields.expectedFields ?? []).length > 0) {
    const expected = [...fields.expectedFields];
    for (const f of fields.optionalFields ?? []) if (!expected.includes(f)) expected.push(f);
    facts.fields = { expected, optional: fields.optionalFields ?? [], from: `the pipeline of ${from}` };
  }
  if (!facts.fields) {
    const suggested = new Set<string>();
    const byColumn: [string, string][] = [];
    for (const columns of Object.values(fields.columnFieldMapping ?? {})) {
      for (const [column, m] of Object.entries(columns)) { suggested.add(m.field); byColumn.push([column, m.field]); }
    }
    // A service that lists no fields and suggests no mapping tells nothing about fields: unchecked.
    if (suggested.size > 0) facts.suggestedFields = { names: [...suggested], from: `the suggestions of ${from}`, byColumn };
  }
  facts.sources = sourcesOf(resources, `the mapping of ${from}`);
  facts.suggestedTypes = suggestedTypes(resources, `the type the service suggested for job ${jobId}`);
  const sheets = resources.sheet?.sheetSelection.sheets;
  if (sheets && sheets.length) facts.sheets = { names: sheets, from: `the workbook of ${from}` };
  return facts;
}

/** The data sources a job's mapping is keyed by (`columnFieldMapping`'s keys), when it has any. */
function sourcesOf(resources: JobResources, from: string): KnownFacts['sources'] {
  const names = Object.keys(resources.fields.columnFieldMapping ?? {});
  return names.length ? { names, from } : undefined;
}

/** The data types suggested for a job's fields (each field's suggested type, else the pipeline's expected one). */
function suggestedTypes(resources: JobResources, from: string): NonNullable<KnownFacts['suggestedTypes']> {
  const types: Record<string, DataType> = Object.create(null);
  for (const [field, type] of Object.entries(resources.dataTypes.expectedFieldDataTypes ?? {})) if (type) types[field] = type;
  for (const [field, t] of Object.entries(resources.dataTypes.fieldDataTypes ?? {})) if (t?.dataType) types[field] = t.dataType;
  return { types, from };
}

/**
 * The job file against the suggestions a dry run's engine made from the data (the types it
 * inferred): what only the data tells, such as a fill value that does not fit an inferred type,
 * stops at the job file's line before any row is processed.
 */
export function checkAgainstSuggestions(job: JobFile, resources: JobResources, deps: Deps): void {
  const facts: KnownFacts = { suggestedTypes: suggestedTypes(resources, 'the type the dry run inferred from the data'), sources: sourcesOf(resources, 'the input') };
  throwProblems(checkJobFile(job, facts, shownPath(job, deps)));
}

/** The online part: the job file against the service's answers; throws (exit 2) naming the started job when it cannot apply. */
export function checkAgainstService(job: JobFile, resources: JobResources, jobId: string, deps: Deps, opts: { columns: boolean; started: boolean }): void {
  const problems = checkJobFile(job, serviceFacts(resources, jobId, opts), shownPath(job, deps));
  if (!problems.length) return;
  deps.io.status(opts.started
    ? `Job ${jobId} was started, but nothing was updated or run: the job file does not fit it. Fix the job file, then \`import run ${shownPath(job, deps)} --job ${jobId}\` reuses the job.`
    : `Nothing was updated or run on job ${jobId}: the job file does not fit it.`);
  throwProblems(sortProblems(problems));
}

interface Header { name: string; sheet?: string; sheets?: string[]; columns?: string[] }

/** The input's header: columns (of the sheet the job selects, for a workbook) and the workbook's sheets. */
async function readHeader(job: JobFile): Promise<Header> {
  const [{ openJobInput }, { suggestSheet }] = await Promise.all([import('./job-input.js'), import('../engine/suggest.js')]);
  const source = await openJobInput(job);
  const sheets = await source.sheets();
  if (sheets) {
    const names = sheets.map((s) => s.name);
    const sheet = job.config.sheet ?? suggestSheet(sheets, job.schema).selected;
    const chosen = sheets.find((s) => s.name === sheet);
    return { name: source.name, sheets: names, sheet: chosen?.name, columns: chosen?.columns };
  }
  const table = await source.open({ lenient: true });
  // Only the header is needed: let the reader close the file.
  const batches = table.batches[Symbol.asyncIterator]();
  try { await batches.next(); } finally { await batches.return?.(undefined); }
  return { name: source.name, columns: table.columns };
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

/** Why a data file cannot be used (does not exist, is a folder, is empty, cannot be read), or undefined. */
async function unreadable(path: string, opts: { allowEmpty?: boolean } = {}): Promise<string | undefined> {
  try {
    const info = await stat(path);
    if (info.isDirectory()) return 'is a folder, not a file';
    if (info.size === 0 && !opts.allowEmpty) return 'is empty';
    await access(path, constants.R_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'does not exist';
    if (code === 'EACCES' || code === 'EPERM') return 'cannot be read (permission denied)';
    return `cannot be read (${code ?? (error as Error).message})`;
  }
}

function sortProblems(problems: JobFileProblem[]): JobFileProblem[] {
  return [...problems].sort((a, b) => a.line - b.line || a.col - b.col);
}
