/** `import pull <jobId> [--write PATH]`: a job file that reproduces a job's current configuration. */
import { relative } from 'node:path';
import { Command, Option } from 'commander';
import type { JobResources } from '../../contract/index.js';
import { UsageError } from '../../errors.js';
import type { Deps } from '../deps.js';
import { parseJobId } from '../flags.js';
import type { JobRecord } from '../job-record.js';
import { withExamples } from '../program.js';

/** Options of `import pull`. */
export interface PullOptions {
  jobId: string;
  write?: string;
  force: boolean;
  schemaFile?: string | boolean;
  /** The pipeline and name to write when this machine did not start the job (the service does not return them). */
  pipeline?: string;
  name?: string;
}

/** Reads every resource of the job and writes the job file to stdout or `--write`. */
export async function pull(opts: PullOptions, deps: Deps): Promise<void> {
  const [{ fetchResources }, { readJobRecord }, { checkJobWriteTargets, writeJobFile }] = await Promise.all([
    import('../job-session.js'), import('../job-record.js'), import('../job-write.js'),
  ]);
  const writeOptions = { write: opts.write, force: opts.force, schemaFile: opts.schemaFile };
  // Refuse before any request, so nothing is read for a file that will not be written.
  await checkJobWriteTargets(writeOptions, deps);
  const client = await deps.client();
  const resources = await fetchResources(client, opts.jobId);
  const record = await readJobRecord(deps, opts.jobId);
  const text = await renderPulled(opts.jobId, resources, deps.now().toISOString().slice(0, 10), { record, pipeline: opts.pipeline, name: opts.name });
  const target = await writeJobFile(text, writeOptions, deps);
  if (target) {
    const shown = relative(deps.cwd, target) || target;
    deps.io.status(`Wrote ${shown}; \`import run ${shown} --job ${opts.jobId}\` finds nothing to update and runs the job. Fill in input.file before starting a new job with it.`);
  }
}

/** What is known about how the job was started: this machine's record of it, and flags. */
export interface PullContext { record?: JobRecord; pipeline?: string; name?: string }

/**
 * The job file text (without the modeline): pipeline and name when known, the input as a
 * placeholder to fill in (with the uploaded file's name and kind when known), the output file
 * type, and every configured resource, confidence as comments.
 */
export async function renderPulled(jobId: string, resources: JobResources, today: string, context: PullContext = {}): Promise<string> {
  const [YAML, { configFromResources, schemaFromResources, schemaToJobFile }, { describeInput, START_OPTIONS }, { flowSchemaLists }, { asOrderedMaps, getOwn }] = await Promise.all([
    import('yaml'), import('../../jobfile/translate.js'), import('../job-record.js'), import('../job-write.js'), import('../../contract/json.js'),
  ]);
  const { record } = context;
  const config = configFromResources(resources);
  const job: Record<string, unknown> = { version: 1 };
  const pipeline = context.pipeline ?? record?.pipeline;
  if (pipeline !== undefined) job.pipeline = pipeline;
  // The data source name the service keys the mapping by: the uploaded file's name, `jsonData`, or the sheet.
  const source = Object.keys(resources.fields.columnFieldMapping ?? {})[0];
  // The service does not return the job name either: without a record, the job is named after its input.
  const derivedName = source && source !== 'default' ? source.replace(/\.[A-Za-z0-9]+$/, '') : undefined;
  const name = context.name ?? record?.name ?? derivedName;
  if (name !== undefined) job.name = name;
  // Seed: the start form cannot be read back, so the input is a placeholder (`file:` left empty).
  job.input = { file: null };
  const outputFileType = record?.outputFileType;
  // Seed: no read returns the start options; this machine's record of the start has them.
  const options: Record<string, unknown> = {};
  // In the format's order (jobfile.md). A webhook URL is said, not written: it may hold a token,
  // and a pulled file is one to commit.
  for (const key of [...START_OPTIONS, 'outputFileType'] as const) {
    const value = key === 'outputFileType' ? outputFileType : record?.options?.[key];
    if (value !== undefined) options[key] = value;
  }
  const hadWebhook = record?.webhook === true;
  if (Object.keys(options).length) job.options = options;
  // The scripts attached at start are the one start option a read returns (getScripts).
  const scripts = resources.scripts.preColumnMapping ?? [];
  if (scripts.length) job.scripts = { preColumnMapping: [...scripts] };
  // Maps in the service's order: a plain object would put a column named "1962" first.
  job.config = asOrderedMaps(config);
  const schema = schemaToJobFile(schemaFromResources(resources));
  if (schema.size) job.schema = schema;
  const doc = new YAML.Document(job);
  doc.commentBefore = ` Configuration of job ${jobId}, written by \`import pull\` on ${today}.\n`
    + ` \`import run <this file> --job ${jobId}\` reuses the job: it sends only what differs, then runs it.`;
  const inputNode = doc.get('input', true) as any;
  const startedFrom = record ? describeInput(record.input) : source && source !== 'default' ? `${source}${resources.sheet ? ' (an Excel workbook)' : source === 'jsonData' ? ' (inline JSON rows)' : ''}` : undefined;
  inputNode.commentBefore = ` Placeholder: the service does not return a job's input.${startedFrom ? ` This job was started from ${startedFrom}.` : ''}\n`
    + ' Set file: to the data file\'s path (or use googleSheet, rows or rowsFile) before starting a new job with this file.';
  if (pipeline === undefined) {
    doc.commentBefore += '\n The service does not return the pipeline: add "pipeline: <id>" (or pass --pipeline to pull) before starting a new job.';
  }
  // Said above `config:`, where `options:` would be.
  const configKey = (doc.contents as any).items.find((pair: any) => pair.key?.value === 'config')?.key ?? {};
  if (outputFileType === undefined) {
    configKey.commentBefore = ' The service does not return the start options: add under options those the job was started with\n'
      + ' (outputFileType: excel if it writes Excel; destinationFileName, useFullData, useVariableFields, webhookUrl).';
  } else if (record?.options === undefined) {
    configKey.commentBefore = ' The record of this job\'s start has no other start options: add destinationFileName, useFullData,\n'
      + ' useVariableFields or webhookUrl under options if the job was started with them.';
  } else if (hadWebhook) {
    configKey.commentBefore = ' The job was started with a start webhook URL, not written here (a URL may hold a token):\n'
      + ' add options.webhookUrl (${NAME} takes it from the environment) if new jobs should send it.';
  }
  const mappingNode = doc.getIn(['config', 'mapping'], true) as any;
  const mapped = Object.values(resources.fields.columnFieldMapping ?? {})[0] ?? {};
  for (const item of mappingNode?.items ?? []) {
    const m = getOwn(mapped as Record<string, { confidence?: unknown }>, String(item.key.value ?? item.key));
    if (m && typeof m.confidence === 'number') item.value.comment = ` confidence ${m.confidence.toFixed(2)}`;
  }
  const typesNode = doc.getIn(['config', 'dataTypes'], true) as any;
  for (const item of typesNode?.items ?? []) {
    const t = getOwn(resources.dataTypes.fieldDataTypes, String(item.key.value ?? item.key));
    if (t && typeof t.confidence === 'number') item.value.comment = ` confidence ${t.confidence.toFixed(2)}`;
  }
  const schemaNode = doc.get('schema', true) as any;
  if (schemaNode) {
    schemaNode.commentBefore = ' What the pipeline expects, as the service\'s reads give it: dry-run and plan apply its preset row dropping\n'
      + ' and expected types as the service does. Keep it in step with the pipeline; the service\'s own values count for plan and run.';
    flowSchemaLists(schemaNode);
  }
  return doc.toString({ lineWidth: 0 });
}

/** The `pull` command. */
export function pullCommand(deps: Deps, run = pull): Command {
  const command = new Command('pull')
    .description("write a job file that reproduces a job's current configuration (the input left as a placeholder to fill in)")
    .argument('<jobId>', 'job id')
    .option('--write <path>', 'write the job file there instead of stdout (never replaces a file without --force)')
    .option('--force', 'replace the file given to --write', false)
    .addOption(new Option('--schema-file [path]', 'also write the JSON Schema there (default: job-file.schema.json beside the job file) and point the editor modeline at it'))
    .option('--pipeline <id>', 'pipeline id to write, when this machine did not start the job')
    .option('--name <jobName>', 'job name to write, when this machine did not start the job')
    .action(async (jobId: string, o: { write?: string; force: boolean; schemaFile?: string | boolean; pipeline?: string; name?: string }) => {
      if (o.write === '') throw new UsageError('--write needs a path.');
      return run({ jobId: parseJobId(jobId), write: o.write, force: o.force, schemaFile: o.schemaFile, pipeline: o.pipeline, name: o.name }, deps);
    });
  return withExamples(command, ['import pull "$JOB" --write job.yaml', 'import pull "$JOB" > job.yaml', 'import pull "$JOB" --write job.yaml --schema-file']);
}
