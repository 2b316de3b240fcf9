/** Loading a job file from disk: read, parse with positions, validate, and throw every problem at once. */
import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import type { PipelineSchema } from '../contract/index.js';
import { checkUnit } from '../engine/steps/units.js';
import { JobFileError, UsageError, type JobFileProblem } from '../errors.js';
import { decodeJobFileText } from './text.js';
import type { JobFile } from './types.js';
import { validateJobFileText, validateSchemaText } from './validate.js';

/** One line per problem, `file:line:col: message` (re-exported so commands need only this module). */
export { formatProblems } from './validate.js';

/** Reads and validates a job file; throws UsageError when it cannot be read and JobFileError listing every problem. */
export async function loadJobFile(path: string, env: NodeJS.ProcessEnv): Promise<JobFile> {
  return (await loadJobFileWithWarnings(path, env)).job;
}

/** Like `loadJobFile`, also returning warnings (such as the read-only casing `capitalize`) for the caller to show. */
export async function loadJobFileWithWarnings(path: string, env: NodeJS.ProcessEnv): Promise<{ job: JobFile; warnings: JobFileProblem[] }> {
  const absolute = resolve(path);
  const shown = displayPath(path);
  if (DATA_FILE.test(path)) {
    throw new UsageError(`${shown} is a data file, not a job file; write a job file for it with \`import init ${shown} --write job.yaml\`, then pass job.yaml.`);
  }
  let bytes: Uint8Array;
  try {
    bytes = await readFile(absolute);
  } catch (err) {
    throw new UsageError(`cannot read job file ${shown}: ${readFailure(err)}; check the path and try again.`, { cause: err });
  }
  const decoded = decodeJobFileText(bytes, shown);
  if ('problem' in decoded) throw problemsError([decoded.problem], shown);
  const { text } = decoded;
  const result = validateJobFileText(text, { path: absolute, displayPath: shown, env, checkUnit });
  if (result.job === undefined) throw problemsError(result.problems, shown);
  return { job: result.job, warnings: result.warnings };
}

/** Validates a schema file (a job file's `schema` block as a whole file), as UTF-8 bytes or text; throws JobFileError listing every problem. */
export async function parseSchemaText(path: string, content: string | Uint8Array, env: NodeJS.ProcessEnv): Promise<PipelineSchema> {
  const shown = displayPath(path);
  let text: string;
  if (typeof content === 'string') text = content;
  else {
    const decoded = decodeJobFileText(content, shown, 'schema file');
    if ('problem' in decoded) throw problemsError([decoded.problem], shown);
    text = decoded.text;
  }
  const result = validateSchemaText(text, { path: resolve(path), displayPath: shown, env, checkUnit });
  if (result.schema === undefined) throw problemsError(result.problems, shown);
  return result.schema;
}

/** The error for a file with problems: located at the first, carrying all. */
function problemsError(problems: JobFileProblem[], shown: string): JobFileError {
  const [first] = problems;
  if (first === undefined) return new JobFileError(`${shown}:1:1`, 'the file is invalid.', problems);
  return new JobFileError(`${first.file}:${first.line}:${first.col}`, first.message, problems);
}

/** How a job-file path appears in messages: as the user gave it, or relative to the working folder when absolute inside it. */
export function displayPath(path: string, cwd = process.cwd()): string {
  if (!isAbsolute(path)) return path;
  const rel = relative(cwd, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/** Names of data files (not job files, which are YAML or JSON): a common slip on the command line. */
const DATA_FILE = /\.(csv|tsv|txt|xlsx|xlsm|xls)$/i;

function readFailure(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a folder, not a file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return (err as Error).message;
}
