/** `import validate <job.yaml>`: offline check of a job file. */
import { Command } from 'commander';
import type { Deps } from '../deps.js';
import { withExamples } from '../program.js';

/** Options of `import validate`. */
export interface ValidateOptions { jobFile: string }

/** Loads the job file; prints "valid" or throws the JobFileError listing every problem. */
export async function validate(opts: ValidateOptions, deps: Deps): Promise<void> {
  const { loadJobFileWithWarnings, formatProblems } = await import('../../jobfile/load.js');
  const { warnings } = await loadJobFileWithWarnings(opts.jobFile, deps.env);
  if (warnings.length) deps.io.stderr.write(formatProblems(warnings).replace(/^/gm, 'warning: ') + '\n');
  deps.io.out(`${opts.jobFile}: valid`);
}

/** The `validate` command. */
export function validateCommand(deps: Deps, run = validate): Command {
  const command = new Command('validate')
    .description('check a job file offline: every problem is listed as file:line:col with the fix')
    .argument('<job.yaml>', 'job file to check')
    .action(async (jobFile: string) => run({ jobFile }, deps));
  return withExamples(command, ['import validate examples/customers/job.yaml']);
}
