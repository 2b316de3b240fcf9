/** Loading a job file for a command: the path taken from the working folder, warnings on stderr. */
import { resolve } from 'node:path';
import type { JobFile } from '../jobfile/types.js';
import type { Deps } from './deps.js';

/** Loads and validates the job file (UsageError with every problem when invalid); prints its warnings. */
export async function loadJobForCommand(jobFile: string, deps: Deps): Promise<JobFile> {
  const { loadJobFileWithWarnings, formatProblems } = await import('../jobfile/load.js');
  const { job, warnings } = await loadJobFileWithWarnings(resolve(deps.cwd, jobFile), deps.env);
  if (warnings.length) deps.io.stderr.write(formatProblems(warnings).replace(/^/gm, 'warning: ') + '\n');
  return job;
}
