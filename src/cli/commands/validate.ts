/** `import validate <job.yaml>`: offline check of a job file. */
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
  const { problems, notes } = await checks.checkOffline(job, deps, { placeholderOk: true, missingOk: false });
  for (const note of notes) deps.io.status(note);
  checks.throwProblems(problems);
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
