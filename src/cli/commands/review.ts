/**
 * `import review <job.yaml> [--save] [--dry-run] [--job ID] [--redact] [--all] [--min-confidence X]`:
 * an analyst confirms the mapping, column by column, then the data types and the other
 * suggestions under the confidence bar; `--save` writes the choices into the job file.
 */
import { basename } from 'node:path';
import { Command } from 'commander';
import type { JobResources } from '../../contract/index.js';
import { UsageError } from '../../errors.js';
import type { JobFile, JobFileConfig } from '../../jobfile/types.js';
import type { Deps } from '../deps.js';
import { parseJobId, parseMinConfidence } from '../flags.js';
import { withExamples } from '../program.js';
import type { Prompter } from '../prompter.js';
import type { ColumnSamples, ReviewChoices, ReviewFlowOptions } from '../review-flow.js';

/** Options of `import review`. */
export interface ReviewOptions {
  jobFile: string;
  save: boolean;
  /** Offline: the embedded engine's suggestions instead of the service's. */
  dryRun: boolean;
  /** Review this started job instead of starting one. */
  job?: string;
  redact: boolean;
  all: boolean;
  /** The confidence bar as typed (`--min-confidence`); the job file's `review.minConfidence` otherwise. */
  minConfidence?: string;
  /** Offline: pad or cut rows with the wrong number of cells instead of failing. */
  lenient?: boolean;
}

/** Options of `reviewForRun` (`import run job.yaml --interactive`). */
export interface ReviewForRunOptions {
  minConfidence?: number;
  redact: boolean;
  all?: boolean;
  /** Also write the confirmed choices into the job file. */
  save?: boolean;
  /** Suggestions and samples for another sheet, when the person picks one. */
  reload?: ReviewFlowOptions['reload'];
  /** Scripted answers in tests; @inquirer/prompts on stderr otherwise. */
  prompter?: Prompter;
}

/**
 * Fails with exit 2 when no one can answer prompts (no TTY, or CI), naming the job-file key and
 * the flag that answer the questions instead; called before any file read or network call.
 */
export function requireTerminal(deps: Deps, jobFile: string, command = 'review'): void {
  if (deps.io.canPrompt()) return;
  throw new UsageError(
    `${command} needs a terminal; pin the mapping in ${jobFile} (config.mapping, config.dataTypes) or run \`import run ${jobFile} --yes\` in CI.`,
  );
}

/** The confidence bar: `--min-confidence` over `review.minConfidence`; none when neither is set. */

/**
 * The review against the service (start the job, or `--job`) or offline (`--dry-run`, engine
 * suggestions). Declined → ReviewRequiredError (5); Ctrl-C → CancelledError (130); the job file
 * is written only after the final yes and only with `--save`. Against the service the job id is
 * printed on stdout at the end, for `import run job.yaml --job ID`.
 */
export async function review(opts: ReviewOptions, deps: Deps, prompter?: Prompter): Promise<void> {
  if (opts.dryRun && opts.job !== undefined) throw new UsageError('--job and --dry-run do not go together: --dry-run reviews the engine\'s suggestions offline; drop one of them.');
  if (opts.job !== undefined) parseJobId(opts.job);
  parseMinConfidence(opts.minConfidence);
  requireTerminal(deps, opts.jobFile);
  const [{ loadJobForCommand }, flow] = await Promise.all([import('../job-file.js'), import('../review-flow.js')]);
  const job = await loadJobForCommand(opts.jobFile, deps);
  const minConfidence = parseMinConfidence(opts.minConfidence, job);
  // Before the job is started and before any question: a file the save would refuse is said now.
  if (opts.save) await (await import('../../jobfile/save.js')).checkSavableFile(job.path);
  const ask = prompter ?? (await import('../prompter.js')).inquirerPrompter(deps.io, deps.settings.color);

  let resources: JobResources;
  let samples: ColumnSamples;
  let reload: ReviewFlowOptions['reload'];
  let jobId: string | undefined;
  if (opts.dryRun) {
    const [{ analyzeJob }, { openJobInput }] = await Promise.all([import('../../engine/pipeline.js'), import('../job-input.js')]);
    const analyze = async (sheet: string | undefined) => {
      const analysis = await analyzeJob({
        input: await openJobInput(job, deps),
        schema: job.schema,
        sheet,
        preScripts: job.scripts?.preColumnMapping,
        localScripts: job.localScripts,
        useFullData: job.options.useFullData,
        lenient: opts.lenient,
        warn: (m) => deps.io.warn(m),
      });
      const read = await flow.readColumnSamples(job, analysis.resources.sheet?.sheetSelection.selected ?? sheet, undefined, deps);
      return { resources: analysis.resources, samples: flow.withMetadata(read, analysis.metadata, job.options.useFullData) };
    };
    const what = job.input.googleSheet ? `the Google Sheet "${job.input.googleSheet.sheet}"` : basename(job.input.file ?? job.input.rowsFile ?? 'the rows');
    deps.io.status(`Reading ${what} for the engine's suggestions...`);
    ({ resources, samples } = await analyze(job.config.sheet));
    reload = (sheet) => analyze(sheet);
  } else {
    const session = await import('../job-session.js');
    const client = await deps.client();
    jobId = await session.startOrReuse(job, client, deps, opts.job);
    resources = await session.fetchResources(client, jobId);
    const id = jobId;
    const useSheet = async (sheet: string) => {
      // The sheet decides the columns: select it on the job, then read the suggestions again.
      await client.sheet.update(id, { sheetSelection: { selected: sheet } });
      return session.fetchResources(client, id);
    };
    if (job.config.sheet !== undefined && resources.sheet && resources.sheet.sheetSelection.selected !== job.config.sheet) {
      resources = await useSheet(job.config.sheet);
    }
    samples = await flow.readColumnSamples(job, resources.sheet?.sheetSelection.selected ?? job.config.sheet, undefined, deps);
    reload = async (sheet) => ({ resources: await useSheet(sheet), samples: await flow.readColumnSamples(job, sheet, undefined, deps) });
  }

  const file = basename(job.path);
  const choices = await flow.reviewAndConfirm(job, resources, samples, ask, deps.io, {
    minConfidence, redact: opts.redact, all: opts.all, reload,
    question: opts.save ? `Save these choices to ${file}?` : 'Confirm these choices?',
  });
  if (opts.save) {
    await saveConfirmed(job, choices, deps);
  } else {
    deps.io.status(`Not saved: run again with --save to write these choices into ${file}.`);
  }
  if (jobId !== undefined) {
    const next = opts.save
      ? `import run ${opts.jobFile} --job ${jobId}`
      : `import run ${opts.jobFile} --job ${jobId} --interactive`;
    deps.io.status(`Job ${jobId} is started and not run; run it with \`${next}\`.`);
    deps.io.out(jobId);
  }
}

/**
 * The review inside `import run job.yaml --interactive`, after the job is started and its
 * resources read: the same walk, summary and final confirmation (declined → ReviewRequiredError,
 * exit 5, nothing saved or run). Returns the config sections the review decided, each complete
 * (the job file's pins with the choices laid over them), so `{ ...job.config, ...result }` is
 * the configuration to apply. With `save`, also writes the choices into the job file.
 */
export async function reviewForRun(job: JobFile, resources: JobResources, deps: Deps, opts: ReviewForRunOptions): Promise<JobFileConfig> {
  requireTerminal(deps, basename(job.path), 'run --interactive');
  if (opts.save) await (await import('../../jobfile/save.js')).checkSavableFile(job.path);
  const flow = await import('../review-flow.js');
  const ask = opts.prompter ?? (await import('../prompter.js')).inquirerPrompter(deps.io, deps.settings.color);
  const samples = await flow.readColumnSamples(job, resources.sheet?.sheetSelection.selected ?? job.config.sheet, undefined, deps);
  const choices = await flow.reviewAndConfirm(job, resources, samples, ask, deps.io, {
    minConfidence: opts.minConfidence, redact: opts.redact, all: opts.all, reload: opts.reload,
    question: opts.save ? `Save these choices to ${basename(job.path)} and run the job?` : 'Apply these choices and run the job?',
  });
  if (opts.save) await saveConfirmed(job, choices, deps);
  const merged = flow.mergeChoices(job.config, choices);
  const sections: JobFileConfig = {};
  const decided = new Set([...Object.keys(choices), ...(choices.removed ?? []).map((r) => r.path[1])]);
  decided.delete('removed');
  for (const key of decided as Set<keyof JobFileConfig>) Object.assign(sections, { [key]: merged[key] });
  return sections;
}

async function saveConfirmed(job: JobFile, choices: ReviewChoices, deps: Deps): Promise<void> {
  const [{ saveChoices }, { changedChoices, choiceChanges }] = await Promise.all([import('../../jobfile/save.js'), import('../review-flow.js')]);
  const changed = choiceChanges(job.config, choices).filter((c) => c.marker !== '=').length + (choices.removed?.length ?? 0);
  const file = basename(job.path);
  if (changed === 0) {
    deps.io.status(`${file} already holds these choices; nothing to save.`);
    return;
  }
  // Only what the summary called changed is written: an unchanged line keeps the user's text
  // (`${EMAIL_FIELD}`, an alias), compared with what it means, not with how it is written.
  await saveChoices(job.path, changedChoices(job.config, choices), deps.env, (choices.removed ?? []).map((r) => r.path));
  deps.io.status(`Saved ${changed} choice${changed === 1 ? '' : 's'} to ${file}.`);
}

/** The `review` command. */
export function reviewCommand(deps: Deps, run = review): Command {
  const command = new Command('review')
    .description('review the mapping, data types and low-confidence suggestions of a job file at a terminal; --save writes the choices back')
    .argument('<job.yaml>', 'job file')
    .option('--save', 'write the confirmed choices into the job file (comments and order kept)', false)
    .option('--dry-run', 'offline: review the embedded engine\'s suggestions for the local input', false)
    .option('--job <jobId>', 'review this started job instead of starting one')
    .option('--redact', 'mask sample values (first character kept, the rest starred by length class)', false)
    .option('--all', 'ask about every data type and suggestion, not only those under the confidence bar', false)
    .option('--min-confidence <x>', 'confidence bar from 0 to 1 (default: review.minConfidence of the job file)')
    .option('--lenient', 'with --dry-run: pad or cut rows with the wrong number of cells instead of failing', false)
    .action(async (jobFile: string, o: { save: boolean; dryRun: boolean; job?: string; redact: boolean; all: boolean; minConfidence?: string; lenient: boolean }) =>
      run({ jobFile, save: o.save, dryRun: o.dryRun, job: o.job, redact: o.redact, all: o.all, minConfidence: o.minConfidence, lenient: o.lenient }, deps));
  return withExamples(command, [
    'import review job.yaml --dry-run --save',
    'JOB=$(import review job.yaml --save) && import run job.yaml --job "$JOB"',
  ]);
}
