/** `import start`: starts a job from a file, a Google Sheets link or inline JSON rows; prints only the job id. */
import { access, stat } from 'node:fs/promises';
import { constants } from 'node:fs';
import { basename, resolve } from 'node:path';
import { Command } from 'commander';
import type { OutputFileType, StartForm } from '../../contract/index.js';
import { NestingError } from '../../contract/json.js';
import { UsageError } from '../../errors.js';
import type { Deps } from '../deps.js';
import { collect, parseOutputFileType, parseUrl } from '../flags.js';
import { withExamples } from '../program.js';
import { readStdin } from '../resource-command.js';

/** Options of `import start`, parsed and checked (no I/O yet). */
export interface StartOptions {
  pipelines: string[];
  name?: string;
  file?: string;
  gsUrl?: string;
  gsSheet?: string;
  /** Path of a JSON file of rows, or `-` for stdin. */
  jsonData?: string;
  destinationFileName?: string;
  useFullData: boolean;
  useVariableFields: boolean;
  scripts: string[];
  webhookUrl?: string;
  outputFileType?: OutputFileType;
}

/** Commander's raw values of `import start`. */
export interface StartFlags {
  pipeline?: string[]; name?: string; file?: string; gsUrl?: string; gsSheet?: string; jsonData?: string;
  destinationFileName?: string; useFullData?: boolean; useVariableFields?: boolean; script?: string[];
  webhookUrl?: string; outputFileType?: string;
}

/** Checks the flags: exactly one data input, `--gs-url` with `--gs-sheet`, valid values. Throws UsageError. */
export function startOptions(raw: StartFlags): StartOptions {
  const inputs = [raw.file !== undefined && '--file', raw.gsUrl !== undefined && '--gs-url', raw.jsonData !== undefined && '--json-data'].filter(Boolean) as string[];
  if (inputs.length === 0) {
    if (raw.gsSheet !== undefined) throw new UsageError('--gs-sheet needs --gs-url <url> (the spreadsheet link).');
    throw new UsageError('No data input: pass one of --file <path>, --gs-url <url> with --gs-sheet <name>, or --json-data <path|->.');
  }
  if (inputs.length > 1) throw new UsageError(`A job takes exactly one data input, but ${inputs.join(' and ')} were given; keep one.`);
  if (raw.gsUrl !== undefined && (raw.gsSheet === undefined || raw.gsSheet === '')) {
    throw new UsageError('--gs-url needs --gs-sheet <name>: the sheet within the spreadsheet to import.');
  }
  if (raw.gsSheet !== undefined && raw.gsUrl === undefined) throw new UsageError('--gs-sheet only applies with --gs-url; remove it.');
  if (raw.gsUrl !== undefined) parseUrl('--gs-url', raw.gsUrl);
  for (const flag of ['file', 'jsonData'] as const) {
    if (raw[flag] === '') throw new UsageError(`--${flag === 'file' ? 'file' : 'json-data'} is empty; pass a path${flag === 'jsonData' ? ' or - for stdin' : ''}.`);
  }
  const pipelines = raw.pipeline ?? [];
  if (pipelines.some((p) => p.trim() === '')) throw new UsageError('--pipeline is empty; pass a pipeline id.');
  const scripts = raw.script ?? [];
  if (scripts.some((s) => s.trim() === '')) throw new UsageError('--script is empty; pass a script id.');
  return {
    pipelines,
    name: raw.name,
    file: raw.file,
    gsUrl: raw.gsUrl,
    gsSheet: raw.gsSheet,
    jsonData: raw.jsonData,
    destinationFileName: raw.destinationFileName,
    useFullData: Boolean(raw.useFullData),
    useVariableFields: Boolean(raw.useVariableFields),
    scripts,
    webhookUrl: raw.webhookUrl !== undefined ? parseUrl('--webhook-url', raw.webhookUrl) : undefined,
    outputFileType: raw.outputFileType !== undefined ? parseOutputFileType(raw.outputFileType) : undefined,
  };
}

/** The start form (without the file) from the options and the rows of `--json-data`. */
export function startForm(opts: StartOptions, rows?: Record<string, unknown>[]): StartForm {
  const form: StartForm = {};
  if (opts.pipelines.length) form.pipelineId = opts.pipelines.length === 1 ? opts.pipelines[0] : opts.pipelines;
  if (opts.name !== undefined) form.jobName = opts.name;
  if (opts.gsUrl !== undefined) { form.gsUrl = opts.gsUrl; form.gsSheetName = opts.gsSheet; }
  if (rows) form.jsonData = rows;
  if (opts.destinationFileName !== undefined) form.destinationFileName = opts.destinationFileName;
  if (opts.useFullData) form.useFullData = true;
  if (opts.useVariableFields) form.useVariableFields = true;
  if (opts.scripts.length) form.scripts = { preColumnMapping: opts.scripts };
  if (opts.webhookUrl !== undefined) form.webhookUrl = opts.webhookUrl;
  if (opts.outputFileType !== undefined) form.outputFileType = opts.outputFileType;
  return form;
}

/** Starts the job: inputs are checked before anything is sent; stdout gets only the id (or `{"jobId"}` with -o json). */
export async function start(opts: StartOptions, deps: Deps): Promise<void> {
  const file = opts.file !== undefined ? await checkFile(resolve(deps.cwd, opts.file), opts.file) : undefined;
  const rows = opts.jsonData !== undefined ? await readRows(opts.jsonData, deps) : undefined;
  const form = startForm(opts, rows);
  const client = await deps.client();
  const { startProgress } = await import('../progress.js');
  const progress = file ? startProgress(deps.io, `Uploading ${basename(file.path)}`, file.size) : undefined;
  const jobId = await client.start.send({ form, file, onProgress: progress ? (n) => progress.update(n) : undefined });
  progress?.finish();
  // What was sent, for `import pull` (the service cannot return the start form).
  await (await import('../job-record.js')).saveJobRecord(deps, jobId, form, file?.path);
  printJobId(deps, jobId);
}

/** Prints the id alone (so `JOB=$(import start ...)` works), or `{"jobId": "..."}` / YAML. */
export function printJobId(deps: Deps, jobId: string): void {
  if (deps.settings.output === 'json') deps.io.out(`{"jobId": ${JSON.stringify(jobId)}}`);
  else if (deps.settings.output === 'yaml') deps.io.out(`jobId: ${JSON.stringify(jobId)}`);
  else deps.io.out(jobId);
}

/** Checks `--file`: exists, is a file, is readable, is not empty, is no workbook under another name. Returns its path and size. */
export async function checkFile(path: string, shown: string): Promise<{ path: string; size: number }> {
  let size: number;
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw new UsageError(`--file ${shown} is a folder; pass the data file itself.`);
    size = info.size;
    await access(path, constants.R_OK);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`--file ${shown} does not exist; check the path.`);
    if (code === 'EACCES' || code === 'EPERM') throw new UsageError(`--file ${shown} is not readable (permission denied); check its permissions.`);
    throw new UsageError(`--file ${shown} cannot be read (${code ?? (error as Error).message}).`);
  }
  if (size === 0) throw new UsageError(`--file ${shown} is empty; pass a file with a header and rows.`);
  // The service reads the upload by its name: a workbook named data.csv is refused, as the dry run refuses it.
  const { checkUploadName } = await import('../../engine/read/index.js');
  await checkUploadName(path, `--file ${shown}`);
  return { path, size };
}

/** Reads `--json-data` (a path, or `-` for stdin): it must be a non-empty JSON array of row objects. */
export async function readRows(source: string, deps: Deps): Promise<Record<string, unknown>[]> {
  const shown = source === '-' ? '- (stdin)' : source;
  let text: string;
  if (source === '-') {
    text = await readStdin(deps.io, 'a JSON array of rows');
  } else {
    try {
      const { readRowsText } = await import('../../engine/read/json.js');
      text = await readRowsText(resolve(deps.cwd, source), `--json-data ${shown}`);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'does not exist' : code === 'EISDIR' ? 'is a folder' : code === 'EACCES' ? 'is not readable' : `cannot be read (${code})`;
      throw new UsageError(`--json-data ${shown} ${why}; pass a JSON file of rows, or - to read them from stdin.`);
    }
  }
  return parseRows(text, shown);
}

/**
 * Parses the text of `--json-data` as the engine and `import serve` read rows (parseJsonRows), so
 * that rows nested deeper than the service takes are refused here, before anything is sent;
 * `shown` names the source in messages.
 */
export async function parseRows(text: string, shown: string): Promise<Record<string, unknown>[]> {
  const { parseJsonRows, tooDeepMessage, withoutBom } = await import('../../engine/read/json.js');
  text = withoutBom(text);
  let value: unknown;
  try {
    // Keeps the written order of each row's keys: they become the columns (a "1962" column stays in place).
    value = parseJsonRows(text);
  } catch (error) {
    if (error instanceof NestingError) throw new UsageError(tooDeepMessage(text, `--json-data ${shown}`, error));
    throw new UsageError(`--json-data ${shown} is not valid JSON (${(error as Error).message}); pass a JSON array of row objects.`);
  }
  if (!Array.isArray(value)) {
    throw new UsageError(`--json-data ${shown} must be a JSON array of row objects, not ${value === null ? 'null' : typeof value === 'object' ? 'an object' : `a ${typeof value}`}.`);
  }
  if (value.length === 0) throw new UsageError(`--json-data ${shown} is an empty array; pass at least one row object.`);
  value.forEach((row, i) => {
    if (row === null || typeof row !== 'object' || Array.isArray(row)) {
      const kind = row === null ? 'null' : Array.isArray(row) ? 'an array' : `a ${typeof row}`;
      throw new UsageError(`--json-data ${shown}: element [${i}] is ${kind}, not a row object; every element must be an object such as {"name": "Ada"}.`);
    }
  });
  return value as Record<string, unknown>[];
}

/** The `start` command. */
export function startCommand(deps: Deps, run = start): Command {
  const command = new Command('start')
    .description('start a job from one data input (a file, a Google Sheets link, or JSON rows); prints only the job id')
    .option('--pipeline <id>', 'pipeline id (repeatable: several let the service choose one)', collect, [])
    .option('--name <jobName>', 'name of the job')
    .option('--file <path>', 'local CSV or Excel file, streamed from disk')
    .option('--gs-url <url>', 'Google Sheets link (needs --gs-sheet)')
    .option('--gs-sheet <name>', 'sheet within the Google spreadsheet')
    .option('--json-data <path|->', 'JSON array of row objects from a file, or - for stdin')
    .option('--destination-file-name <name>', 'name of the output file at the destination')
    .option('--use-full-data', 'derive suggestions from all the data, not a sample')
    .option('--use-variable-fields', 'send useVariableFields=true')
    .option('--script <id>', 'script to run before column mapping (repeatable)', collect, [])
    .option('--webhook-url <url>', 'URL that receives the start webhook')
    .option('--output-file-type <type>', 'csv (default) or excel')
    .action(async (raw: StartFlags) => run(startOptions(raw), deps));
  return withExamples(command, [
    'JOB=$(import start --pipeline customers --file customers.csv)',
    'import start --pipeline p1 --pipeline p2 --name "Q3 orders" --file orders.xlsx --output-file-type excel',
    'import start --pipeline customers --gs-url https://docs.google.com/spreadsheets/d/ID --gs-sheet Sheet1',
    'cat rows.json | import start --pipeline customers --json-data - -o json',
  ]);
}
