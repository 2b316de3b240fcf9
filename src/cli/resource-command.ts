/**
 * The shared flow of `import <resource> get|update`: read, merge flags and `--data` through the
 * job-file translation, validate, send the complete resource, print it.
 */
import { isUtf8 } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Command } from 'commander';
import type { JobConfig, JobResources } from '../contract/index.js';
import type { ImportClient } from '../client/client.js';
import { UsageError } from '../errors.js';
import type { ResourceName } from '../jobfile/translate.js';
import type { JobFileConfig } from '../jobfile/types.js';
import type { Deps } from './deps.js';
import type { IO } from './io.js';
import { printData } from './output.js';
// Loaded inside actions: `--help` needs neither (start-up stays fast).
import type { DataBody } from './resource-bodies.js';
import type { TableKit } from './resource-table.js';
import { parseJobId } from './flags.js';
import { withExamples } from './program.js';

/** The name of a table function of resource-table.ts (loaded when a table is printed). */
export type TableName =
  | 'sheetTable' | 'fieldsTable' | 'combiningTable' | 'typesTable' | 'unitsTable' | 'imputeTable'
  | 'pivotTable' | 'rowDroppingTable' | 'textTable' | 'scriptsTable' | 'answerTable';

/** How one resource is read, written and shown. */
export interface ResourceSpec<K extends ResourceName | 'scripts' = ResourceName | 'scripts'> {
  /** The command's noun (`types`). */
  noun: string;
  /** The resource's key in JobResources / JobConfig (`dataTypes`). */
  key: K;
  /** Words for messages (`data types`). */
  label: string;
  /** The tolerant read, with the service's body as it was sent. */
  get(client: ImportClient, jobId: string): Promise<{ body: unknown; value: unknown }>;
  table: TableName;
}

/** A resource that can be updated. */
export interface UpdatableSpec<K extends ResourceName = ResourceName> extends ResourceSpec<K> {
  /** Sends the wire body. */
  update(client: ImportClient, jobId: string, body: any): Promise<unknown>;
  /** The wire body of an update body when they differ (the sheet is a name in JobConfig, an object on the wire). */
  toWire?(body: Required<JobConfig>[K]): unknown;
  /** The flags and --data to suggest when an update has nothing to change. */
  hint: string;
}

/** Options of every `get`. */
export interface GetOptions { jobId: string }

/** Options every `update` shares. */
export interface UpdateOptions { jobId: string; data?: string }

/** What a resource command adds to the shared update flow. */
export interface UpdateSteps<K extends ResourceName> {
  /**
   * The flags as a fragment, laid over `base`: the `--data` body when given, else the current
   * value. `current` is the service's read (for flags that depend on what is set now).
   */
  flags(base: NonNullable<JobResources[K]>, current: NonNullable<JobResources[K]>, data: DataBody<K> | undefined): JobFileConfig;
  /** Warnings found while parsing flags. */
  warnings?: string[];
  /** Whether any flag was given (so an update with neither flags nor --data is refused before sending). */
  hasFlags: boolean;
  /** Replaces the base the flags are laid over, for a flag that sets the whole resource (`pivot update --clear`). */
  base?(base: NonNullable<JobResources[K]>): NonNullable<JobResources[K]>;
  /** Checks the complete body against the current read (exit 2 before sending). */
  check?(body: Required<JobConfig>[K], context: UpdateContext<K>): void | Promise<void>;
}

/** What an update's check may look at besides the body. */
export interface UpdateContext<K extends ResourceName> {
  /** The service's current read. */
  current: NonNullable<JobResources[K]>;
  /** What the flags were laid over: the --data body (as a read) or the current read. */
  base: NonNullable<JobResources[K]>;
  fragment: JobFileConfig;
  data: DataBody<K> | undefined;
}

/** `<resource> get <jobId>`: a table of the tolerant read, or the service's body unchanged with -o json|yaml. */
export async function getResource(spec: ResourceSpec, opts: GetOptions, deps: Deps): Promise<void> {
  const client = await deps.client();
  const { body, value } = await spec.get(client, opts.jobId);
  // The table shows the read as understood (confidence as numbers, values in the seed's spelling);
  // -o json|yaml the service's body unchanged.
  await printResource(deps, deps.settings.output === 'table' ? value : body, spec.table, true);
}

/** Prints data in the chosen format (tables load resource-table.ts and cli-table3 on demand). */
export async function printResource(deps: Deps, data: unknown, table: TableName, isRead = false): Promise<void> {
  if (deps.settings.output !== 'table') return printData(deps.io, deps.settings.output, data, () => '');
  const tables = await import('./resource-table.js');
  const kit: TableKit = await tables.tableKit(deps.settings.color, isRead);
  await printData(deps.io, 'table', data, (d) => tables[table](d, kit));
}

/**
 * `<resource> update <jobId>`: `--data` is read and checked first (the seed's update body; it
 * replaces the resource), then the current value is read, the flags are laid over `--data` (or
 * over the current value), the complete body is checked and sent. Prints the body sent (so
 * `-o json` output can be replayed with `--data`).
 */
export async function updateResource<K extends ResourceName>(spec: UpdatableSpec<K>, opts: UpdateOptions, deps: Deps, steps: UpdateSteps<K>): Promise<void> {
  const { normalizeRead, overlay, updateBody } = await import('./resource-bodies.js');
  const data = opts.data !== undefined ? await readDataBody(spec.key, opts.data, deps) : undefined;
  if (!data && !steps.hasFlags) {
    throw new UsageError(`Nothing to update for job ${opts.jobId}: pass ${spec.hint}, or --data with the body; see \`import ${spec.noun} update --help\`.`);
  }
  for (const warning of [...(data?.warnings ?? []), ...(steps.warnings ?? [])]) deps.io.warn(warning);
  const client = await deps.client();
  const current = normalizeRead(spec.key, (await spec.get(client, opts.jobId)).value as JobResources[K]);
  let base = data ? overlay(spec.key, current, data.body) : current;
  if (steps.base) base = steps.base(base);
  const fragment = steps.flags(base, current, data);
  const body = updateBody(spec.key, fragment, base);
  await steps.check?.(body, { current, base, fragment, data });
  const wire = spec.toWire ? spec.toWire(body) : body;
  await spec.update(client, opts.jobId, wire);
  deps.io.status(`Updated the ${spec.label} of job ${opts.jobId}.`);
  await printResource(deps, wire, spec.table);
}

/** Reads `--data`: JSON text, `@file`, or `-` for stdin; invalid JSON → exit 2 naming where it came from. */
export async function readData(value: string, deps: Deps): Promise<{ value: unknown; where: string }> {
  let text: string;
  let where = '--data';
  if (value === '-') {
    where = '--data - (stdin)';
    text = await readStdin(deps.io, 'the request body');
  } else if (value.startsWith('@')) {
    const file = value.slice(1);
    where = `--data ${value}`;
    if (!file) throw new UsageError('--data @ needs a file name, e.g. --data @body.json.');
    try {
      text = await utf8Text(await readFile(resolve(deps.cwd, file)), file);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'does not exist' : code === 'EACCES' ? 'is not readable' : code === 'EISDIR' ? 'is a folder' : `cannot be read (${code})`;
      throw new UsageError(`${where}: the file ${file} ${why}; pass a JSON file with the request body.`);
    }
  } else {
    text = value;
  }
  // Keeps the written order of keys: regular-expression rules apply in the order they are written.
  const { parseJson } = await import('../contract/json.js');
  try {
    return { value: parseJson(text), where };
  } catch (error) {
    const reason = (error as Error).message;
    throw new UsageError(`${where} is not valid JSON (${reason}); pass the request body as in the seed, e.g. --data '{"fieldDataTypes":{"amount":{"dataType":"number"}}}'.`);
  }
}

async function readDataBody<K extends ResourceName>(key: K, value: string, deps: Deps): Promise<DataBody<K>> {
  const { value: json, where } = await readData(value, deps);
  const { dataBody } = await import('./resource-bodies.js');
  return dataBody(key, json, where);
}

/**
 * Reads all of stdin as UTF-8 text; on a terminal, first says what is expected (else it looks like a
 * hang). A byte that is not UTF-8 is refused at `stdin:line:col`, never decoded to U+FFFD.
 */
export async function readStdin(io: IO, what: string): Promise<string> {
  if (io.isStdinTTY) io.status(`Reading ${what} from stdin; end with Ctrl-D.`);
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return utf8Text(Buffer.concat(chunks), 'stdin');
}

/** `bytes` as UTF-8 text, or a UsageError naming the first byte that is not UTF-8 at `display:line:col`. */
async function utf8Text(bytes: Buffer, display: string): Promise<string> {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  const { invalidText } = await import('../engine/read/csv.js');
  throw await invalidText(bytes, display, 'utf-8', 'json');
}

/** Help text of `--data` on every update. */
export const DATA_HELP = 'the whole request body as in the seed (it replaces the current value): JSON text, @file, or - for stdin; a `get -o json` body works as is';

/** The `<noun>` command with its `get <jobId>` subcommand; updatable resources add `update`. */
export function resourceCommand(spec: ResourceSpec, description: string, get: (opts: GetOptions, deps: Deps) => Promise<void>, deps: Deps): Command {
  const command = new Command(spec.noun).description(description);
  command.addCommand(withExamples(
    new Command('get')
      .description(`show the job's ${spec.label}: a table, or the service's body with -o json|yaml`)
      .argument('<jobId>', 'job id printed by `import start`')
      .action(async (jobId: string) => get({ jobId: parseJobId(jobId) }, deps)),
    [`import ${spec.noun} get "$JOB"`, `import ${spec.noun} get "$JOB" -o json`],
  ));
  const examples = [`import ${spec.noun} get "$JOB"`];
  if (spec.key !== 'scripts') examples.push(`import ${spec.noun} update "$JOB" --help`, `import ${spec.noun} get "$JOB" -o json > body.json && import ${spec.noun} update "$JOB" --data @body.json`);
  return withExamples(command, examples);
}

/** The `update <jobId>` subcommand skeleton with `--data`; the caller adds its flags and action. */
export function updateSubcommand(spec: ResourceSpec, examples: string[]): Command {
  const command = new Command('update')
    .description(`change the job's ${spec.label}: reads the current value, merges the flags (or --data), checks it, sends all of it`)
    .argument('<jobId>', 'job id printed by `import start`')
    .option('--data <json|@file|->', DATA_HELP);
  return withExamples(command, examples);
}
