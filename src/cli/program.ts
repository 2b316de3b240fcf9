/** The commander root: global options and one addCommand() per command file. */
import { Command, Option } from 'commander';
import type { Deps } from './deps.js';
import { resolveSettings, type GlobalFlags } from './settings.js';
import { validateCommand } from './commands/validate.js';
import { dryRunCommand } from './commands/dry-run.js';
import { initCommand } from './commands/init.js';
import { serveCommand } from './commands/serve.js';
import { startCommand } from './commands/start.js';
import { runCommand } from './commands/run.js';
import { sheetCommand } from './commands/sheet.js';
import { fieldsCommand } from './commands/fields.js';
import { combiningCommand } from './commands/combining.js';
import { typesCommand } from './commands/types.js';
import { unitsCommand } from './commands/units.js';
import { imputeCommand } from './commands/impute.js';
import { pivotCommand } from './commands/pivot.js';
import { rowDroppingCommand } from './commands/row-dropping.js';
import { textCommand } from './commands/text.js';
import { scriptsCommand } from './commands/scripts.js';
import { configCommand } from './commands/config.js';
import { planCommand } from './commands/plan.js';
import { pullCommand } from './commands/pull.js';
import { reviewCommand } from './commands/review.js';
import { schemaCommand } from './commands/schema.js';
import { completionCommand, completionServerCommands } from './commands/completion.js';
import { packageVersion } from './version.js';
import { refuseEmptyValues } from './flags.js';

/** Builds the whole program; `deps.settings` is resolved before any action runs. */
export function buildProgram(deps: Deps): Command {
  const program = new Command('import')
    .description('Drive import jobs on the Data Import Job Service: start, configure, review and run them from flags or a YAML job file, against the service or offline with the embedded engine.')
    .version(packageVersion(), '-V, --version')
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
  refuseEmptyValues(program);
  program.hook('preAction', async (_root, action) => {
    const flags = action.optsWithGlobals() as GlobalFlags;
    // `config set --profile new ...` creates the profile, so it need not exist yet.
    const isConfig = action.parent?.name() === 'config';
    deps.settings = await resolveSettings(flags, deps.env, deps.io.color, { allowUnknownProfile: isConfig });
  });
  // The API commands first (start, run, one per resource, config), then the job-file commands.
  for (const make of [
    startCommand, runCommand, sheetCommand, fieldsCommand, combiningCommand, typesCommand, unitsCommand,
    imputeCommand, pivotCommand, rowDroppingCommand, textCommand, scriptsCommand, configCommand,
  ]) {
    program.addCommand(configure(make(deps), deps));
  }
  for (const make of [planCommand, validateCommand, dryRunCommand, reviewCommand, initCommand, pullCommand, schemaCommand, serveCommand, completionCommand]) {
    program.addCommand(configure(make(deps), deps));
  }
  // Called by the completion scripts on every Tab; hidden from help.
  for (const command of completionServerCommands(deps)) program.addCommand(configure(command, deps), { hidden: true });
  return withExamples(program, [
    'JOB=$(import start --pipeline customers --file customers.csv) && import fields get "$JOB"',
    'import fields update "$JOB" --map "First Name=firstName" && import run "$JOB" --wait',
    'import dry-run examples/customers/job.yaml',
  ]);
}

/** Gives a subcommand (and its own subcommands) the root's error handling and output. */
export function configure(command: Command, deps: Deps): Command {
  refuseEmptyValues(command);
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
