/** The commander root: global options and one addCommand() per command file. */
import { Command, Option } from 'commander';
import type { Deps } from './deps.js';
import { resolveSettings, type GlobalFlags } from './settings.js';
import { validateCommand } from './commands/validate.js';
import { dryRunCommand } from './commands/dry-run.js';
import { initCommand } from './commands/init.js';

/** The package version, printed by --version. */
export const VERSION = '0.1.0';

/** Builds the whole program; `deps.settings` is resolved before any action runs. */
export function buildProgram(deps: Deps): Command {
  const program = new Command('import')
    .description('Drive import jobs on the Data Import Job Service: start, configure, review and run them,\nfrom flags or a YAML job file, against the service or offline with the embedded engine.')
    .version(VERSION, '-V, --version')
    .option('--base-url <url>', 'service root; /public/client-side/v1 is appended (env IMPORT_BASE_URL)')
    .option('--api-key <key>', 'API key sent as x-api-key (env IMPORT_API_KEY); never printed')
    .option('--profile <name>', 'profile from the config file (env IMPORT_PROFILE)')
    .addOption(new Option('-o, --output <format>', 'output format for data: table, json or yaml'))
    .option('--no-color', 'plain output, no colour (also NO_COLOR, or when stdout is not a terminal)')
    .option('--verbose', 'log each HTTP request and response to stderr (API key redacted) and show stack traces')
    .option('--timeout <ms>', 'per-request timeout in milliseconds (env IMPORT_TIMEOUT)')
    .option('--insecure', 'allow a plain http:// base URL that is not loopback (the key would travel in clear)')
    .showHelpAfterError('(run with --help for usage)')
    .enablePositionalOptions(false)
    .configureHelp({ sortSubcommands: false, showGlobalOptions: true })
    .exitOverride()
    .configureOutput({
      writeOut: (s) => deps.io.stdout.write(s),
      writeErr: (s) => deps.io.stderr.write(s),
    });
  program.hook('preAction', async (_root, action) => {
    const flags = action.optsWithGlobals() as GlobalFlags;
    deps.settings = await resolveSettings(flags, deps.env, deps.io.color);
  });
  for (const make of [validateCommand, dryRunCommand, initCommand]) {
    program.addCommand(configure(make(deps), deps));
  }
  return program;
}

/** Gives a subcommand (and its own subcommands) the root's error handling and output. */
export function configure(command: Command, deps: Deps): Command {
  command.exitOverride().showHelpAfterError('(run with --help for usage)').configureOutput({
    writeOut: (s) => deps.io.stdout.write(s),
    writeErr: (s) => deps.io.stderr.write(s),
  });
  for (const sub of command.commands) configure(sub, deps);
  return command;
}

/** Appends an "Examples" block to a command's help. */
export function withExamples(command: Command, examples: string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n`);
}
