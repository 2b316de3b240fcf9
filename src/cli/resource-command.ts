/**
 * The shared flow of `import <resource> get|update`: read, merge flags and `--data` through the
 * job-file translation, validate, send the complete resource, print it.
 */
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
import type { DataFragment } from './resource-bodies.js';
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
  get(client: ImportClient, jobId: string): Promise<unknown>;
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
  /** The flags as a fragment; gets the current read for flags that complete a value from it (pivot). */
  flags(current: NonNullable<JobResources[K]>, data: DataFragment | undefined): JobFileConfig;
  /** Warnings found while parsing flags. */
  warnings?: string[];
  /** Whether any flag was given (so an update with neither flags nor --data is refused before sending). */
  hasFlags: boolean;
  /** Checks against the current read (exit 2 before sending). */
  check?(fragment: JobFileConfig, current: NonNullable<JobResources[K]>): void | Promise<void>;
  /** Replaces the body when `--data` asks for what a fragment cannot say (`{"pivot": null}`). */
  finish?(body: Required<JobConfig>[K], data: DataFragment | undefined, fragment: JobFileConfig): Required<JobConfig>[K];
}

/** `<resource> get <jobId>`: the service's body as a table, or unchanged with -o json|yaml. */
export async function getResource(spec: ResourceSpec, opts: GetOptions, deps: Deps): Promise<void> {
  const client = await deps.client();
  const data = await spec.get(client, opts.jobId);
  await printResource(deps, data, spec.table);
}

/** Prints data in the chosen format (tables load resource-table.ts and cli-table3 on demand). */
export async function printResource(deps: Deps, data: unknown, table: TableName): Promise<void> {
  if (deps.settings.output !== 'table') return printData(deps.io, deps.settings.output, data, () => '');
  const tables = await import('./resource-table.js');
  const kit: TableKit = await tables.tableKit(deps.settings.color);
  await printData(deps.io, 'table', data, (d) => tables[table](d, kit));
}

/**
 * `<resource> update <jobId>`: `--data` is read and validated first, then the current value is
 * read, flags and data are merged into it (`desiredBodies`), checked, and the complete body is
 * sent. Prints the body sent (so `-o json` output can be replayed with `--data`).
 */
export async function updateResource<K extends ResourceName>(spec: UpdatableSpec<K>, opts: UpdateOptions, deps: Deps, steps: UpdateSteps<K>): Promise<void> {
  const { mergeFragments, normalizeRead, updateBody } = await import('./resource-bodies.js');
  const data = opts.data !== undefined ? await readDataFragment(spec.key, opts.data, deps) : undefined;
  if (!data && !steps.hasFlags) {
    throw new UsageError(`Nothing to update for job ${opts.jobId}: pass ${spec.hint}, or --data with the body; see \`import ${spec.noun} update --help\`.`);
  }
  for (const warning of [...(data?.warnings ?? []), ...(steps.warnings ?? [])]) deps.io.warn(warning);
  const client = await deps.client();
  const current = normalizeRead(spec.key, await spec.get(client, opts.jobId)) as NonNullable<JobResources[K]>;
  const fragment = mergeFragments(data?.config ?? {}, steps.flags(current, data));
  await steps.check?.(fragment, current);
  let body = updateBody(spec.key, fragment, current);
  if (steps.finish) body = steps.finish(body, data, fragment);
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
      text = await readFile(resolve(deps.cwd, file), 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'does not exist' : code === 'EACCES' ? 'is not readable' : code === 'EISDIR' ? 'is a folder' : `cannot be read (${code})`;
      throw new UsageError(`${where}: the file ${file} ${why}; pass a JSON file with the request body.`);
    }
  } else {
    text = value;
  }
  try {
    return { value: JSON.parse(text), where };
  } catch (error) {
    const reason = (error as Error).message;
    throw new UsageError(`${where} is not valid JSON (${reason}); pass the request body as in the seed, e.g. --data '{"fieldDataTypes":{"amount":{"dataType":"number"}}}'.`);
  }
}

async function readDataFragment(key: ResourceName, value: string, deps: Deps): Promise<DataFragment> {
  const { value: json, where } = await readData(value, deps);
  const { dataToFragment } = await import('./resource-bodies.js');
  return dataToFragment(key, json, where);
}

/** Reads all of stdin as UTF-8 text; on a terminal, first says what is expected (else it looks like a hang). */
export async function readStdin(io: IO, what: string): Promise<string> {
  if (io.isStdinTTY) io.status(`Reading ${what} from stdin; end with Ctrl-D.`);
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** Help text of `--data` on every update. */
export const DATA_HELP = 'the request body as in the seed: JSON text, @file, or - for stdin (merged over the current value; a `get -o json` body works too)';

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
