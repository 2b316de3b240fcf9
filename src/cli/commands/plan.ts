/** `import plan <job.yaml> [--job ID]`: the diff of a job file against the service's suggestions; changes nothing. */
import { Command } from 'commander';
import { stringifyJson } from '../../contract/json.js';
import { EXIT, SilentExit } from '../../errors.js';
import type { Deps } from '../deps.js';
import { withExamples } from '../program.js';

/** Options of `import plan`. */
export interface PlanOptions {
  jobFile: string;
  job?: string;
  minConfidence?: string;
  yes: boolean;
  detailedExitcode: boolean;
  maxDroppedRows?: string;
  lenient: boolean;
}

/** Starts the job (or reuses `--job`), reads every resource, prints the plan and the job id last. */
export async function plan(opts: PlanOptions, deps: Deps): Promise<void> {
  const jp = await import('../job-plan.js');
  const { job, minConfidence, limit, jobId, resources } = await jp.openPlanSession(opts, deps);
  const p = await jp.buildPlan(job, jobId, resources, minConfidence, deps, { lenient: opts.lenient });
  // stringifyJson: regular-expression rules are Maps, written as objects in their order.
  if (deps.settings.output === 'json') deps.io.out(stringifyJson(p, 2));
  else if (deps.settings.output === 'yaml') deps.io.out((await import('yaml')).stringify(p));
  else {
    deps.io.out(jp.formatPlan(p, job));
    deps.io.out(jobId);
  }
  jp.checkDropLimit(limit, p.dataEffect, job);
  if (!opts.yes) jp.checkReviewGate(p, job);
  if (opts.detailedExitcode && p.updates.length) throw new SilentExit(EXIT.planChanges);
}

/** The `plan` command. */
export function planCommand(deps: Deps, run = plan): Command {
  const command = new Command('plan')
    .description('start the job (or reuse --job), read the suggestions and show what the job file changes; sends no update and no run')
    .argument('<job.yaml>', 'job file')
    .option('--job <jobId>', 'reuse a started job instead of starting one')
    .option('--min-confidence <x>', 'confidence bar for unpinned suggestions (default: review.minConfidence)')
    .option('--yes', 'accept every suggestion below the bar (no exit 5)', false)
    .option('--detailed-exitcode', 'exit 6 when the job file changes something (0 when it changes nothing)', false)
    .option('--max-dropped-rows <n>', 'exit 5 when the engine predicts more dropped rows (a count, or a percentage like 2%)')
    .option('--lenient', 'engine prediction: pad or cut rows with the wrong number of cells', false)
    .action(async (jobFile: string, o: Omit<PlanOptions, 'jobFile'>) => run({ jobFile, ...o }, deps));
  return withExamples(command, [
    'import plan job.yaml',
    'import plan job.yaml --job "$JOB" -o json | jq .updates',
    'import plan job.yaml --detailed-exitcode || echo "changes or review needed"',
  ]);
}
