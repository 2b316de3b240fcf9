/** `import dry-run <job.yaml>` (and `import run <job.yaml> --dry-run`): the job file through the embedded engine, offline. */
import { basename, dirname, extname, join, resolve } from 'node:path';
import { Command } from 'commander';
import type { Deps } from '../deps.js';
import { withExamples } from '../program.js';
import { UsageError } from '../../errors.js';
import type { JobFile } from '../../jobfile/types.js';
import type { Report } from '../../engine/types.js';

/** Options of `import dry-run`. */
export interface DryRunOptions { jobFile: string; out?: string; lenient: boolean; rejects?: string; report?: string }

/** Runs the job file through the engine and writes the output; prints the report, or the webhook bodies with -o json. */
export async function dryRun(opts: DryRunOptions, deps: Deps): Promise<void> {
  const { loadJobForCommand } = await import('../job-file.js');
  const job = await loadJobForCommand(opts.jobFile, deps);
  const [{ runJob }, { desiredBodies }, { diffConfig, formatDiff }, { startWebhookBody }, { openJobInput }, { startProgress }] = await Promise.all([
    import('../../engine/pipeline.js'), import('../../jobfile/translate.js'), import('../../jobfile/diff.js'),
    import('../../engine/metadata.js'), import('../job-input.js'), import('../progress.js'),
  ]);
  const input = await openJobInput(job, deps);
  const format = job.options.outputFileType === 'excel' ? 'excel' : 'csv';
  const out = opts.out ? resolve(deps.cwd, opts.out) : defaultOutPath(job.path, format);
  const { openExtras, printJsonWithRejects, writeHtmlReport } = await import('../dry-run-extras.js');
  const extras = await openExtras({ rejects: opts.rejects ? resolve(deps.cwd, opts.rejects) : undefined, jsonRejects: deps.settings.output === 'json' });
  const progress = startProgress(deps.io, 'Reading', input.size);
  const result = await runJob({
    input,
    schema: job.schema,
    sheet: job.config.sheet,
    preScripts: job.scripts?.preColumnMapping,
    localScripts: job.localScripts,
    useFullData: job.options.useFullData,
    lenient: opts.lenient,
    warn: (m) => deps.io.warn(m),
    onProgress: (n) => progress.update(n),
  }, {
    configure: (resources) => desiredBodies(job.config, resources),
    output: { path: out, format },
    collectDataTable: deps.settings.output === 'json',
    rejects: extras.sink,
    profile: opts.report !== undefined,
  }).catch(async (error: unknown) => { await extras.abort(error); throw error; });
  progress.finish();
  if (result.report.rowsIn === 0) {
    // Checked after the run so the reader's own errors (empty file, bad bytes) come first.
    const { rm } = await import('node:fs/promises');
    await rm(out, { force: true });
    await extras.abort();
    throw new UsageError(`${input.name} has a header but no data rows; add rows to the input and run again.`);
  }
  await extras.finish();
  const jobId = 'dry-run';
  if (deps.settings.output === 'json') {
    await printJsonWithRejects(deps, {
      startWebhook: startWebhookBody(jobId, result.resources, result.metadata),
      runWebhook: { jobId, ...result.runWebhook },
      report: result.report,
    }, extras.jsonRejectLines?.());
  }
  const entries = diffConfig(job.config, result.resources, job.review.minConfidence);
  const diff = formatDiff(entries, { showAccepted: true });
  if (opts.report) {
    await writeHtmlReport(resolve(deps.cwd, opts.report), {
      jobFile: displayPath(deps.cwd, job.path), input: input.name, output: displayPath(deps.cwd, out), now: deps.now(),
      inputColumns: result.resources.fields.inputColumns, entries, report: result.report, profile: result.profile ?? [],
      rejectsFile: opts.rejects,
    });
  }
  if (deps.settings.output !== 'json' || deps.settings.verbose) {
    deps.io.status(`Configuration (suggestions, and what ${basename(job.path)} overrides):\n${diff}\n`);
  }
  deps.io.status(formatReport(result.report));
  deps.io.status(`Wrote ${result.report.rowsOut} rows to ${displayPath(deps.cwd, out)}`);
  if (opts.rejects) deps.io.status(`Wrote ${extras.rejectCount()} rejected rows and emptied cells to ${displayPath(deps.cwd, resolve(deps.cwd, opts.rejects))}`);
  if (opts.report) deps.io.status(`Wrote the report to ${displayPath(deps.cwd, resolve(deps.cwd, opts.report))}`);
}

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
  for (const t of report.textChanges) lines.push(`Changed by ${t.rule} in ${t.field}: ${t.count}`);
  return lines.join('\n');
}

/** The `dry-run` command. */
export function dryRunCommand(deps: Deps, run = dryRun): Command {
  const command = new Command('dry-run')
    .description('run a job file through the embedded engine offline and write the output file')
    .argument('<job.yaml>', 'job file')
    .option('--out <path>', 'output file (default: <job>.out.csv or .xlsx beside the job file)')
    .option('--lenient', 'pad or cut rows with the wrong number of cells instead of failing', false)
    .option('--rejects <file.csv>', 'also write every dropped row and emptied cell: input row, rule, field(s), original text, the row\'s values')
    .option('--report <file.html>', 'also write a self-contained HTML report: mapping, a profile per field, drops, fills, text rules')
    .action(async (jobFile: string, o: { out?: string; lenient: boolean; rejects?: string; report?: string }) => run({ jobFile, out: o.out, lenient: o.lenient, rejects: o.rejects, report: o.report }, deps));
  return withExamples(command, [
    'import dry-run examples/customers/job.yaml',
    'import dry-run job.yaml --out /tmp/out.csv -o json | jq .report',
    'import dry-run job.yaml --rejects rejects.csv --report report.html',
  ]);
}
