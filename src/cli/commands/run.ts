/**
 * `import run <jobId> [--wait] [--webhook-url URL]`: runs a started job. `import run <job.yaml>`
 * (an existing file, or a name ending in .yaml/.yml) runs a job file instead (run-jobfile.ts).
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command } from 'commander';
import type { RunRequest } from '../../contract/index.js';
import { ApiError, printable, UsageError } from '../../errors.js';
import type { Deps } from '../deps.js';
import { parseJobId, parseUrl } from '../flags.js';
import { withExamples } from '../program.js';
import { printResource } from '../resource-command.js';

/** Options of `import run <jobId>`. */
export interface RunOptions { jobId: string; wait: boolean; webhookUrl?: string }

/** Options handed to `runJobFile` for `import run <job.yaml>` (values as commander gives them). */
export interface RunJobFileOptions {
  jobFile: string;
  job?: string;
  yes: boolean;
  minConfidence?: string;
  /** undefined: the job file's `run.wait` (default true); false with --no-wait; true with --wait. */
  wait?: boolean;
  webhookUrl?: string;
  dryRun: boolean;
  out?: string;
  interactive: boolean;
  maxDroppedRows?: string;
  lenient: boolean;
}

/** Commander's raw values of `import run`. */
export interface RunFlags {
  wait?: boolean; webhookUrl?: string; job?: string; yes?: boolean; minConfidence?: string; dryRun?: boolean;
  out?: string; interactive?: boolean; maxDroppedRows?: string; lenient?: boolean;
}

/** With `--wait` and no timeout set by the user, the call may last as long as the job: allow 30 minutes. */
export const RUN_WAIT_TIMEOUT_MS = 30 * 60 * 1000;

/** POST /run/{jobId} with only the options given; prints the service's answer. A failed job → exit 1. */
export async function runJobId(opts: RunOptions, deps: Deps): Promise<void> {
  const body: RunRequest = {};
  if (opts.webhookUrl !== undefined) body.webhookUrl = opts.webhookUrl;
  if (opts.wait) body.returnWhenComplete = true;
  await sendRun(opts.jobId, body, deps);
}

/**
 * POST /run/{jobId} with `body` (for a job id or a job file), prints the service's answer and
 * says how it ended; a failed job → exit 1. Waiting allows 30 minutes unless --timeout was given.
 */
export async function sendRun(jobId: string, body: RunRequest, deps: Deps): Promise<void> {
  const wait = body.returnWhenComplete === true;
  const client = await deps.client();
  const timeoutMs = wait && !deps.settings.timeoutExplicit ? Math.max(deps.settings.timeoutMs, RUN_WAIT_TIMEOUT_MS) : undefined;
  if (wait && deps.io.isStderrTTY) deps.io.status(`Running job ${jobId} and waiting for it to complete...`);
  const { status, body: answer, url } = await client.run.send(jobId, body, { timeoutMs });
  // Seed: the answer of run is not shown; the contract's RunAnswer reads any answer (object, text,
  // nothing) with its status, and says whether it is a completion, an acceptance or neither.
  const [{ check }, { RunAnswer }] = await Promise.all([import('../../contract/check.js'), import('../../contract/schemas.js')]);
  const read = check(RunAnswer, { status, body: answer, waited: wait });
  if (!isEmptyAnswer(answer) || deps.settings.output !== 'table') await printResource(deps, answer ?? null, 'answerTable');
  if (read.ok && read.value.outcome === 'failed') {
    const { words, member } = read.value;
    throw new ApiError(`Job ${jobId} failed: ${words !== undefined ? printable(words) : `the service's answer to POST ${url} says so (${member === 'the body' ? 'its body' : `its member ${member}`})`}.`, status);
  }
  if (read.ok && read.value.outcome === 'incomplete') {
    const { member, value } = read.value;
    throw new ApiError(`The service's answer to POST ${url} says job ${jobId} has not completed: ${member} is ${printable(value)}, although returnWhenComplete: true asks for an answer once the whole job is complete; check the job on the service before running it again.`, status);
  }
  deps.io.status(wait ? `Job ${jobId} completed.` : `Job ${jobId} is running.`);
}

/** An answer with nothing to show in a table (no body, empty text or an empty object). */
function isEmptyAnswer(answer: unknown): boolean {
  return answer === undefined || answer === null || answer === '' || (typeof answer === 'object' && Object.keys(answer).length === 0);
}

/** Whether `run`'s argument is a job file: an existing file, or a name ending in .yaml/.yml. */
export function isJobFileArgument(arg: string, cwd: string): boolean {
  if (/\.ya?ml$/i.test(arg)) return true;
  try {
    return statSync(resolve(cwd, arg)).isFile();
  } catch {
    return false;
  }
}

/** Options only a job file takes; given with a job id they are an error. */
const JOB_FILE_ONLY: [keyof RunFlags, string][] = [
  ['job', '--job'], ['minConfidence', '--min-confidence'], ['dryRun', '--dry-run'], ['out', '--out'],
  ['interactive', '--interactive'], ['maxDroppedRows', '--max-dropped-rows'], ['lenient', '--lenient'],
];

/** Commander's values with a job id as options (throws UsageError on a bad flag). */
export function runOptions(jobId: string, raw: RunFlags): RunOptions {
  const misplaced = JOB_FILE_ONLY.filter(([key]) => raw[key] !== undefined && raw[key] !== false).map(([, flag]) => flag);
  if (misplaced.length) {
    throw new UsageError(`${misplaced.join(', ')} ${misplaced.length > 1 ? 'apply' : 'applies'} to a job file, but "${jobId}" is a job id (not a .yaml file); remove ${misplaced.length > 1 ? 'them' : 'it'}.`);
  }
  return {
    jobId: parseJobId(jobId),
    // --no-wait is the default for a job id: nothing is sent.
    wait: raw.wait === true,
    webhookUrl: raw.webhookUrl !== undefined ? parseUrl('--webhook-url', raw.webhookUrl) : undefined,
  };
}

/** Commander's values with a job file as options. */
export function runJobFileOptions(jobFile: string, raw: RunFlags): RunJobFileOptions {
  return {
    jobFile,
    job: raw.job,
    yes: Boolean(raw.yes),
    minConfidence: raw.minConfidence,
    wait: raw.wait,
    webhookUrl: raw.webhookUrl !== undefined ? parseUrl('--webhook-url', raw.webhookUrl) : undefined,
    dryRun: Boolean(raw.dryRun),
    out: raw.out,
    interactive: Boolean(raw.interactive),
    maxDroppedRows: raw.maxDroppedRows,
    lenient: Boolean(raw.lenient),
  };
}

/** Runs a job file through run-jobfile.ts, loaded only when a job file is given. */
export async function runJobFile(opts: RunJobFileOptions, deps: Deps): Promise<void> {
  const mod = await import('./run-jobfile.js');
  return mod.runJobFile(opts, deps);
}

/** The `run` command: a job id, or a job file. */
export function runCommand(deps: Deps, run = { jobId: runJobId, jobFile: runJobFile }): Command {
  const command = new Command('run')
    .description('run a started job (POST /run/<jobId>), or run a job file end to end')
    .argument('<jobId|job.yaml>', 'job id printed by `import start`, or a job file')
    .option('--wait', 'return when the job is complete (sends returnWhenComplete: true)')
    .option('--no-wait', 'job file: do not wait for the job to complete')
    .option('--webhook-url <url>', 'URL that receives the run webhook')
    .option('--job <jobId>', 'job file: reuse a started job instead of starting one')
    .option('--yes', 'job file: accept every suggestion below the confidence bar')
    .option('--min-confidence <x>', 'job file: confidence bar for unpinned suggestions (0 to 1)')
    .option('--dry-run', 'job file: run offline with the embedded engine (the same gates: --min-confidence, --yes, --max-dropped-rows)')
    .option('--out <path>', 'job file with --dry-run: output file, - for stdout')
    .option('--interactive', 'job file: review the suggestions before running')
    .option('--max-dropped-rows <n>', 'job file: fail (exit 5) when more rows are dropped')
    .option('--lenient', 'job file with --dry-run: pad or cut rows with the wrong number of cells')
    .action(async (target: string, raw: RunFlags) => {
      if (isJobFileArgument(target, deps.cwd)) return run.jobFile(runJobFileOptions(target, raw), deps);
      return run.jobId(runOptions(target, raw), deps);
    });
  return withExamples(command, [
    'import run "$JOB" --wait',
    'import run "$JOB" --webhook-url https://example.com/hooks/import -o json',
    'import run job.yaml --min-confidence 0.8',
  ]);
}
