/**
 * `import run <job.yaml>`: start (unless --job), diff, the review gate, send only the updates
 * that differ in dependency order, then run (waiting by default). `--dry-run` runs offline.
 */
import type { RunRequest } from '../../contract/index.js';
import { UsageError } from '../../errors.js';
import type { Deps } from '../deps.js';
import { parseMinConfidence } from '../flags.js';
import type { RunJobFileOptions } from './run.js';

/** Runs a job file against the service (or offline with --dry-run). */
export async function runJobFile(opts: RunJobFileOptions, deps: Deps): Promise<void> {
  if (opts.dryRun) {
    if (opts.interactive) throw new UsageError('--interactive and --dry-run do not go together on run; use `import review job.yaml --dry-run` to review offline.');
    if (opts.job !== undefined) throw new UsageError('--job and --dry-run do not go together: --dry-run runs the job file offline, while --job names a job on the service; drop one of them.');
    if (opts.webhookUrl !== undefined) throw new UsageError('--webhook-url and --dry-run do not go together: a dry run sends nothing (-o json prints the run webhook\'s body instead); drop one of them.');
    // The flags' values are checked as a real run checks them, before anything is read.
    parseMinConfidence(opts.minConfidence);
    const [{ dryRun }, { parseDropLimit }] = await Promise.all([import('./dry-run.js'), import('../job-plan.js')]);
    // cli.md makes `run job.yaml --dry-run` and `dry-run job.yaml` one command: the gates apply
    // only when their flags are given, so CI can ask a dry run to stop where the run would.
    const gated = opts.minConfidence !== undefined || opts.maxDroppedRows !== undefined;
    const gate = gated ? { minConfidence: opts.minConfidence, yes: opts.yes, limit: parseDropLimit(opts.maxDroppedRows) } : undefined;
    return dryRun({ jobFile: opts.jobFile, out: opts.out, lenient: opts.lenient, gate }, deps);
  }
  if (opts.out !== undefined) throw new UsageError('--out applies only with --dry-run (the service writes the output to its destination); remove it or add --dry-run.');
  if (opts.interactive && !deps.io.canPrompt()) {
    throw new UsageError('--interactive needs a terminal; pin the choices in the job file (config.mapping, config.dataTypes) or pass --yes to accept the suggestions.');
  }
  const [session, jp, { sendRun }] = await Promise.all([import('../job-session.js'), import('../job-plan.js'), import('./run.js')]);
  const { job, minConfidence, limit, client, jobId, resources } = await jp.openPlanSession(opts, deps);

  if (opts.interactive) {
    const { reviewForRun } = await import('./review.js');
    const choices = await reviewForRun(job, resources, deps, { minConfidence, redact: false });
    job.config = { ...job.config, ...choices };
  }
  const plan = await jp.buildPlan(job, jobId, resources, minConfidence, deps, { lenient: opts.lenient });
  deps.io.status(jp.formatPlan(plan, job));
  if (!opts.yes && !opts.interactive) jp.checkReviewGate(plan, job);
  jp.checkDropLimit(limit, plan.dataEffect, job);

  const checks = await import('../job-checks.js');
  const { sent } = await session.applyJobFile(job, client, jobId, resources, (u) => deps.io.status(`Updated ${u.resource}.`), {
    io: deps.io,
    jobFile: checks.shownPath(job, deps),
    // The columns of a newly selected sheet are checked before anything else is sent.
    afterSheet: (now) => checks.checkAgainstService(job, now, jobId, deps, { columns: true, started: false }),
  });
  if (!sent.length) deps.io.status('Nothing to update.');

  // A job file always says whether to wait (run.wait, default true), so false is sent too.
  const body: RunRequest = { returnWhenComplete: opts.wait ?? job.run.wait };
  const webhookUrl = opts.webhookUrl ?? job.run.webhookUrl;
  if (webhookUrl !== undefined) body.webhookUrl = webhookUrl;
  await sendRun(jobId, body, deps);
}
