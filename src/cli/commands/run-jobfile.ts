/**
 * `import run <job.yaml>`: start (unless --job), diff, the review gate, send only the updates
 * that differ in dependency order, then run (waiting by default). `--dry-run` runs offline.
 */
import type { RunRequest } from '../../contract/index.js';
import { ApiError, UsageError } from '../../errors.js';
import type { Deps } from '../deps.js';
import { parseMinConfidence } from '../flags.js';
import type { RunJobFileOptions } from './run.js';

/** Runs a job file against the service (or offline with --dry-run). */
export async function runJobFile(opts: RunJobFileOptions, deps: Deps): Promise<void> {
  if (opts.dryRun) {
    if (opts.interactive) throw new UsageError('--interactive and --dry-run do not go together on run; use `import review job.yaml --dry-run` to review offline.');
    const { dryRun } = await import('./dry-run.js');
    return dryRun({ jobFile: opts.jobFile, out: opts.out, lenient: opts.lenient }, deps);
  }
  if (opts.out !== undefined) throw new UsageError('--out applies only with --dry-run (the service writes the output to its destination); remove it or add --dry-run.');
  if (opts.interactive && !deps.io.canPrompt()) {
    throw new UsageError('--interactive needs a terminal; pin the choices in the job file (config.mapping, config.dataTypes) or pass --yes to accept the suggestions.');
  }
  const [{ loadJobForCommand }, session, jp, { jobFailure, RUN_WAIT_TIMEOUT_MS }] = await Promise.all([
    import('../job-file.js'), import('../job-session.js'), import('../job-plan.js'), import('./run.js'),
  ]);
  const job = await loadJobForCommand(opts.jobFile, deps);
  const minConfidence = parseMinConfidence(opts.minConfidence, job);
  const limit = jp.parseDropLimit(opts.maxDroppedRows);

  const client = await deps.client();
  const jobId = await session.startOrReuse(job, client, deps, opts.job);
  const resources = await session.fetchResources(client, jobId);

  if (opts.interactive) {
    const { reviewForRun } = await import('./review.js');
    const choices = await reviewForRun(job, resources, deps, { minConfidence, redact: false });
    job.config = { ...job.config, ...choices };
  }
  const plan = await jp.buildPlan(job, jobId, resources, minConfidence, deps, { lenient: opts.lenient });
  deps.io.status(jp.formatPlan(plan, job));
  if (!opts.yes && !opts.interactive) jp.checkReviewGate(plan, job);
  jp.checkDropLimit(limit, plan.dataEffect, job);

  const { sent } = await session.applyJobFile(job, client, jobId, resources, (u) => deps.io.status(`Updated ${u.resource}.`));
  if (!sent.length) deps.io.status('Nothing to update.');

  const wait = opts.wait ?? job.run.wait;
  const body: RunRequest = { returnWhenComplete: wait };
  const webhookUrl = opts.webhookUrl ?? job.run.webhookUrl;
  if (webhookUrl !== undefined) body.webhookUrl = webhookUrl;
  if (wait) deps.io.status(`Running job ${jobId} and waiting for it to complete...`);
  const timeoutMs = wait && !deps.settings.timeoutExplicit ? Math.max(deps.settings.timeoutMs, RUN_WAIT_TIMEOUT_MS) : undefined;
  const answer = await client.run.send(jobId, body, { timeoutMs });
  const { printResource } = await import('../resource-command.js');
  if (answer !== undefined && answer !== null && answer !== '') await printResource(deps, answer, 'answerTable');
  const failure = jobFailure(answer);
  if (failure !== undefined) throw new ApiError(`Job ${jobId} failed${failure ? `: ${failure}` : ''}.`);
  deps.io.status(wait ? `Job ${jobId} completed.` : `Job ${jobId} is running.`);
}
