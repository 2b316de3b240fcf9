/** `import dry-run <job.yaml>` (and `import run <job.yaml> --dry-run`): the job file through the embedded engine, offline. */
import { basename, dirname, extname, join, resolve } from 'node:path';
import { Command } from 'commander';
import type { Deps } from '../deps.js';
import { withExamples } from '../program.js';
import { UsageError } from '../../errors.js';
import type { JobFile } from '../../jobfile/types.js';
import type { Report } from '../../engine/types.js';
import { countOf } from '../io.js';
import { parseMinConfidence } from '../flags.js';
import type { DropLimit } from '../job-plan.js';
import type { NamedFile } from '../distinct-files.js';

/** Options of `import dry-run`. */
export interface DryRunOptions {
  jobFile: string; out?: string; lenient: boolean; rejects?: string; report?: string;
  /**
   * `import run <job.yaml> --dry-run`: a real run's gates on the dry run's own suggestions and
   * drops. The review gate (`--min-confidence` or `review.minConfidence`; `--yes` accepts) stops
   * before anything is written; `--max-dropped-rows` stops after the run, removing the output.
   */
  gate?: { minConfidence?: string; yes: boolean; limit?: DropLimit };
}

/**
 * Checks the job file offline, runs it through the engine and writes the output; prints the
 * report (with a warning for each required field that comes out empty), or the webhook bodies
 * and the report with -o json.
 */
export async function dryRun(opts: DryRunOptions, deps: Deps): Promise<void> {
  const [{ loadJobForCommand }, checks] = await Promise.all([import('../job-file.js'), import('../job-checks.js')]);
  const job = await loadJobForCommand(opts.jobFile, deps);
  // The bar the diff marks (and, with a gate, enforces): --min-confidence over review.minConfidence.
  const minConfidence = parseMinConfidence(opts.gate?.minConfidence, job);
  const offline = await checks.checkOffline(job, deps, checks.DRY_RUN);
  checks.throwProblems(offline.problems);
  checks.printWarnings(offline.warnings, deps);
  const [{ runJob }, { desiredBodies }, { diffConfig, formatDiff, needsReview }, { startWebhookBody }, { openJobInput }, { startProgress }, { requiredFieldsWithoutColumn, ruleLocator, combiningWithoutColumns, idleCombining }, { flatMapping }] = await Promise.all([
    import('../../engine/pipeline.js'), import('../../jobfile/translate.js'), import('../../jobfile/diff.js'),
    import('../../engine/metadata.js'), import('../job-input.js'), import('../progress.js'), import('../../jobfile/check.js'),
    import('../../contract/translate.js'),
  ]);
  const gates = opts.gate ? await import('../job-plan.js') : undefined;
  const rejectsAs = opts.rejects === undefined ? undefined : rejectsFormat(opts.rejects);
  const { path: out, format, name: outName } = outputTarget(job, opts.out, deps);
  const rejects = opts.rejects === undefined ? undefined : flagTarget(opts.rejects, deps);
  const htmlReport = opts.report === undefined ? undefined : flagTarget(opts.report, deps);
  await checkOutputs(job, opts, { path: out, format, rejects: rejects?.path, report: htmlReport?.path }, deps);
  const input = await openJobInput(job, deps);
  const { openExtras, printJsonWithRejects, writeHtmlReport } = await import('../dry-run-extras.js');
  const extras = await openExtras({ rejects: rejects?.path, rejectsFormat: rejectsAs, jsonRejects: deps.settings.output === 'json' });
  const progress = startProgress(deps.io, 'Reading', input.size);
  // What the job file changes and the required fields left without a column: worked out once, from the suggestions.
  let entries: ReturnType<typeof diffConfig> = [];
  let emptyFields: ReturnType<typeof requiredFieldsWithoutColumn> = [];
  const result = await runJob({
    input,
    schema: job.schema,
    sheet: job.config.sheet,
    preScripts: job.scripts?.preColumnMapping,
    localScripts: job.localScripts,
    useFullData: job.options.useFullData,
    lenient: opts.lenient,
    warn: (m) => deps.io.warn(m),
    // The engine's messages about a rule name the job file's line that configures it.
    locate: ruleLocator(job, checks.shownPath(job, deps)),
    onProgress: (n) => progress.update(n),
  }, {
    configure: (resources) => {
      // What only the data tells (a fill value or a conversion that does not fit an inferred type) stops at the job file's line.
      checks.checkAgainstSuggestions(job, resources, deps);
      const applied = desiredBodies(job.config, resources);
      entries = diffConfig(job.config, resources, minConfidence);
      emptyFields = requiredFieldsWithoutColumn(applied, resources.fields);
      // A combining entry the applied mapping gives fewer than two columns does nothing: said at the entry, unless validation said it.
      for (const { field, columns } of idleCombining(job, flatMapping(applied.fields.columnFieldMapping))) {
        const text = combiningWithoutColumns(field, columns);
        if (offline.warnings.some((w) => w.message === text)) continue;
        const pos = job.positionOf(['config', 'combining', field]) ?? { line: 1, col: 1 };
        deps.io.warn(`${checks.shownPath(job, deps)}:${pos.line}:${pos.col}: ${text}`);
      }
      // As `run` does before it updates or runs anything; here, before a row is written.
      if (gates && !opts.gate?.yes) gates.checkReviewGate({ needsReview: needsReview(entries), emptyFields, minConfidence }, job);
      return applied;
    },
    output: {
      path: out,
      format,
      // Checked once every row is read, before the output takes its place: a run that fails them
      // writes nothing (a file it would replace keeps its contents), as a failed run on the service.
      beforeCommit: (report) => {
        // After the reader, so its own errors (empty file, bad bytes) come first.
        if (report.rowsIn === 0) throw new UsageError(`${input.name} has a header but no data rows; add rows to the input and run again.`);
        if (gates && opts.gate?.limit) gates.checkDropLimit(opts.gate.limit, report, job);
      },
    },
    collectDataTable: deps.settings.output === 'json',
    rejects: extras.sink,
    profile: opts.report !== undefined,
  }).catch(async (error: unknown) => { await extras.abort(error); throw error; });
  progress.finish();
  await extras.finish();
  // Never an empty column in silence: a required field with no column is said, here and in the report.
  const warnings = [
    ...extras.warnings(),
    ...emptyFields.map((f) => `required field ${f.field} has no column, so it is empty in every row of the output; map a column to it under config.mapping (e.g. "${f.suggestion}").`),
  ];
  const report = { ...result.report, warnings: [...result.report.warnings, ...warnings] };
  const jobId = 'dry-run';
  if (deps.settings.output === 'json') {
    await printJsonWithRejects(deps, {
      startWebhook: startWebhookBody(jobId, result.resources, result.metadata),
      runWebhook: { jobId, ...result.runWebhook },
      report,
    }, extras.jsonRejectLines?.());
  }
  const diff = formatDiff(entries, { showAccepted: true });
  if (htmlReport) {
    await writeHtmlReport(htmlReport.path, {
      jobFile: displayPath(deps.cwd, job.path), input: input.name, output: outName, now: deps.now(),
      inputColumns: result.resources.fields.inputColumns, entries, report, profile: result.profile ?? [],
      rejectsFile: opts.rejects,
    });
  }
  if (deps.settings.output !== 'json' || deps.settings.verbose) {
    deps.io.status(`Configuration (suggestions, and what ${basename(job.path)} overrides):\n${diff}\n`);
  }
  deps.io.status(formatReport(result.report));
  for (const w of warnings) deps.io.warn(w);
  deps.io.status(`Wrote ${countOf(result.report.rowsOut, 'row')} to ${outName}${format === 'excel' ? ' (Excel)' : ''}`);
  if (rejects) deps.io.status(`Wrote ${extras.rejectCount()} rejected rows and emptied cells to ${rejects.name}`);
  if (htmlReport) deps.io.status(`Wrote the report to ${htmlReport.name}`);
}

/**
 * Refuses (exit 2), before anything is read or written, outputs that would destroy a file the run
 * needs or another output (the job file, its input, two outputs on one file), outputs that
 * cannot be written (a missing folder, a folder): the output's own check, for each of them; an
 * output on stdout with -o json, which prints there too, and an Excel workbook into a stdout or
 * stderr that is a pipe or a terminal.
 */
async function checkOutputs(
  job: JobFile, opts: DryRunOptions, output: { path: string; format: 'csv' | 'excel'; rejects?: string; report?: string }, deps: Deps,
): Promise<void> {
  const [{ checkDistinctFiles }, { checkWritable }, { resolveWriteTarget }, { fstatSync }] = await Promise.all([
    import('../distinct-files.js'), import('../../engine/write/index.js'), import('../../engine/write/atomic.js'), import('node:fs'),
  ]);
  const out = output.path;
  const jobName = basename(job.path);
  const files: NamedFile[] = [{ path: job.path, label: `the job file ${displayPath(deps.cwd, job.path)}` }];
  for (const key of ['file', 'rowsFile'] as const) {
    const path = job.input[key];
    if (path !== undefined) files.push({ path, label: `the input ${displayPath(deps.cwd, path)} (input.${key} of ${jobName})` });
  }
  for (const [id, path] of Object.entries(job.localScripts)) files.push({ path, label: `the script module ${displayPath(deps.cwd, path)} (localScripts.${id} of ${jobName})` });
  const writes: NamedFile[] = [opts.out === undefined
    ? { path: out, label: `the default output ${displayPath(deps.cwd, out)}`, fix: `pass --out with another path` }
    : { path: out, label: `--out ${opts.out}`, fix: 'choose another --out path' }];
  const extra = [['--rejects', opts.rejects, output.rejects], ['--report', opts.report, output.report]] as const;
  for (const [flag, value, path] of extra) {
    if (path !== undefined) writes.push({ path, label: `${flag} ${value}`, fix: `choose another ${flag} path` });
  }
  await checkDistinctFiles([...files, ...writes], deps.cwd);
  await checkWritable(out);
  for (const [flag, , path] of extra) if (path !== undefined) await checkWritable(path, flag);
  for (const file of writes) {
    const target = await resolveWriteTarget(file.path);
    if (target.kind !== 'descriptor') continue;
    if (target.fd === 1 && deps.settings.output === 'json') {
      throw new UsageError(`${file.label} writes to stdout, where -o json prints the run; ${file.fix}, or leave out -o json.`);
    }
    // The workbook is finished before it is copied in, but binary in a terminal or a pipe is never what was meant: name a file.
    // Another descriptor (/dev/fd/3) is what the user opened for this output, as a named pipe is.
    if (file.path === out && output.format === 'excel' && target.fd <= 2 && !fstatSync(target.fd).isFile()) {
      const stream = target.fd === 1 ? 'stdout' : 'stderr';
      throw new UsageError(`${file.label} would send an Excel workbook to ${stream}, which is a pipe or a terminal; give --out a file path such as out.xlsx, or redirect ${stream} to a file.`);
    }
  }
}

/**
 * Where the output goes, in which format, and its name in messages. The default is
 * `<job>.out.csv`, or `.xlsx` when `outputFileType: excel`. `--out -` is stdout (written as
 * /dev/stdout is: see write/atomic.ts), in the job file's format. An `--out` ending in `.csv` or
 * `.xlsx` gets that format, whatever the job file says (a note says so when they differ), so the
 * bytes always match the extension; any other extension gets the job file's format.
 */
export function outputTarget(job: JobFile, outFlag: string | undefined, deps: Deps): { path: string; format: 'csv' | 'excel'; name: string } {
  const configured = job.options.outputFileType === 'excel' ? 'excel' : 'csv';
  if (outFlag === undefined) {
    const path = defaultOutPath(job.path, configured);
    return { path, format: configured, name: displayPath(deps.cwd, path) };
  }
  if (outFlag === '-') return { ...flagTarget(outFlag, deps), format: configured };
  const { path, name } = flagTarget(outFlag, deps);
  const ext = extname(path).toLowerCase();
  const byExtension = ext === '.csv' ? 'csv' : ext === '.xlsx' ? 'excel' : undefined;
  if (ext === '.xls' || ext === '.xlsm') {
    throw new UsageError(`--out ${outFlag}: the engine writes CSV (.csv) or an Excel workbook (.xlsx), not ${ext}; change the extension.`);
  }
  if (byExtension && byExtension !== configured) {
    deps.io.status(`Writing ${byExtension === 'excel' ? 'an Excel workbook' : 'CSV'} because --out ends in ${ext} (the job file's outputFileType is ${configured}).`);
  }
  return { path, format: byExtension ?? configured, name };
}

/** Where a path flag (--out, --rejects, --report) writes, and its name in messages: `-` is stdout, as for csvkit, qsv and our own --json-data -. */
function flagTarget(flag: string, deps: Deps): { path: string; name: string } {
  if (flag === '-') return { path: '/dev/stdout', name: 'stdout' };
  const path = resolve(deps.cwd, flag);
  return { path, name: displayPath(deps.cwd, path) };
}

/**
 * The format of the rejects file, from its extension, so the bytes match the name: `.csv` CSV,
 * `.jsonl` or `.ndjson` JSON lines (the objects of `-o json`'s `report.rejects`); another data
 * format's extension (`.xlsx`, `.json`, `.tsv`...) is refused; any other name (none, `.txt`, a
 * device such as /dev/stdout) gets CSV.
 */
export function rejectsFormat(flag: string): 'csv' | 'jsonl' {
  const ext = extname(flag).toLowerCase();
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl';
  if (ext === '.csv' || !UNSUPPORTED_REJECTS.has(ext)) return 'csv';
  throw new UsageError(`--rejects ${flag}: rejected rows are written as CSV (.csv) or JSON lines (.jsonl), not ${ext}; change the extension.`);
}
/** Extensions of data formats the rejects file is not written in. */
const UNSUPPORTED_REJECTS = new Set(['.xlsx', '.xls', '.xlsm', '.xlsb', '.ods', '.json', '.tsv', '.tab', '.parquet', '.xml', '.html', '.htm', '.yaml', '.yml']);

/** `<jobfile-name>.out.csv` (or `.xlsx`) beside the job file. */
export function defaultOutPath(jobPath: string, format: 'csv' | 'excel'): string {
  const name = basename(jobPath, extname(jobPath));
  return join(dirname(jobPath), `${name}.out.${format === 'excel' ? 'xlsx' : 'csv'}`);
}

function displayPath(cwd: string, path: string): string {
  return path.startsWith(cwd + '/') ? path.slice(cwd.length + 1) : path;
}

/** The report as aligned text for stderr. */
export function formatReport(report: Report): string {
  const lines = [`Rows: ${report.rowsIn} in, ${report.rowsOut} out`];
  if (report.rowsRepaired) lines.push(`Rows padded or cut (--lenient): ${report.rowsRepaired}`);
  for (const d of report.dropped) {
    lines.push(`Dropped by ${d.rule}: ${d.count}${d.firstRows.length ? ` (rows ${d.firstRows.join(', ')}${d.count > d.firstRows.length ? ', ...' : ''})` : ''}`);
  }
  for (const [field, n] of Object.entries(report.filled)) lines.push(`Filled in ${field}: ${n}`);
  for (const [field, n] of Object.entries(report.coercionFailures)) lines.push(`Not a valid value for the type of ${field} (now missing): ${n}`);
  for (const c of report.converted) lines.push(`Converted ${c.rule} in ${c.field}: ${c.count}`);
  for (const t of report.textChanges) lines.push(`Changed by ${t.rule} in ${t.field}: ${t.count}`);
  return lines.join('\n');
}

/** The `dry-run` command. */
export function dryRunCommand(deps: Deps, run = dryRun): Command {
  const command = new Command('dry-run')
    .description('run a job file through the embedded engine offline and write the output file')
    .argument('<job.yaml>', 'job file')
    .option('--out <path>', 'output file (default: <job>.out.csv or .xlsx beside the job file), - for stdout; .csv writes CSV and .xlsx Excel, whatever outputFileType says')
    .option('--lenient', 'pad or cut rows with the wrong number of cells instead of failing', false)
    .option('--rejects <file.csv>', 'also write every dropped row and emptied cell: input row, rule, field(s), original text, the row\'s values (.jsonl: as JSON lines; - for stdout)')
    .option('--report <file.html>', 'also write a self-contained HTML report: mapping, a profile per field, drops, fills, text rules (- for stdout)')
    .action(async (jobFile: string, o: { out?: string; lenient: boolean; rejects?: string; report?: string }) => run({ jobFile, out: o.out, lenient: o.lenient, rejects: o.rejects, report: o.report }, deps));
  return withExamples(command, [
    'import dry-run examples/customers/job.yaml',
    'import dry-run job.yaml --out /tmp/out.csv -o json | jq .report',
    'import dry-run job.yaml --rejects rejects.csv --report report.html',
  ]);
}
