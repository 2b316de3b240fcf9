/** `import scripts get <jobId>`: the scripts attached to a job (attached by `start --script`). */
import type { Command } from 'commander';
import type { Deps } from '../deps.js';
import { getResource, resourceCommand, type GetOptions, type ResourceSpec } from '../resource-command.js';

/** How the scripts resource is read and shown (it cannot be updated). */
export const scriptsSpec: ResourceSpec<'scripts'> = {
  noun: 'scripts', key: 'scripts', label: 'scripts',
  get: (client, jobId) => client.scripts.getWithBody(jobId),
  table: 'scriptsTable',
};

/** `scripts get`. */
export function scriptsGet(opts: GetOptions, deps: Deps): Promise<void> {
  return getResource(scriptsSpec, opts, deps);
}

/** The `scripts` command. */
export function scriptsCommand(deps: Deps, run = { get: scriptsGet }): Command {
  return resourceCommand(scriptsSpec, 'show the scripts attached to a job (attach them with `import start --script <id>`)', run.get, deps);
}
