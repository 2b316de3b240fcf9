/** `import validate <job.yaml>`: offline check of a job file. */
import { basename } from 'node:path';
import { Command } from 'commander';
import type { Deps } from '../deps.js';
import { withExamples } from '../program.js';

/** Options of `import validate`. */
export interface ValidateOptions { jobFile: string }

/**
 * Loads the job file and checks it offline against its input's header and its `schema`; prints
 * what it read and "valid", or throws the JobFileError listing every problem.
 */
export async function validate(opts: ValidateOptions, deps: Deps): Promise<void> {
  const [{ loadJobForCommand }, checks] = await Promise.all([import('../job-file.js'), import('../job-checks.js')]);
  const job = await loadJobForCommand(opts.jobFile, deps);
  // A placeholder input (as `pull` writes) is valid: it is filled in before a job is started.
  const { problems, warnings, notes } = await checks.checkOffline(job, deps, { placeholderOk: true, missingOk: false });
  for (const note of notes) deps.io.status(note);
  checks.throwProblems(problems);
  checks.printWarnings(warnings, deps);
  // The dry run refuses to write its output over its own input: said here, before one is tried.
  const { defaultOutPath } = await import('./dry-run.js');
  const out = defaultOutPath(job.path, job.options.outputFileType === 'excel' ? 'excel' : 'csv');
  if (job.input.file === out) {
    const pos = job.positionOf(['input', 'file']) ?? { line: 1, col: 1 };
    deps.io.warn(`${opts.jobFile}:${pos.line}:${pos.col}: input.file ${basename(out)} is where \`import dry-run\` writes this job file's output by default, so a dry run of it needs --out with another path (or rename the input).`);
  }
  deps.io.out(`${opts.jobFile}: valid`);
}

/** The `validate` command. */
export function validateCommand(deps: Deps, run = validate): Command {
  const command = new Command('validate')
    .description("check a job file offline: syntax and values, and the columns, fields and sheet it names against its input's header and its schema; every problem as file:line:col with the fix")
    .argument('<job.yaml>', 'job file to check')
    .action(async (jobFile: string) => run({ jobFile }, deps));
  return withExamples(command, ['import validate examples/customers/job.yaml']);
}
