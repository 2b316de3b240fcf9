/** Entry point: builds the program, runs it, maps errors to exit codes. The only place that exits. */
import { CommanderError } from 'commander';
import { lazyClient, type Deps } from './cli/deps.js';
import { systemIO } from './cli/io.js';
import { DEFAULT_TIMEOUT_MS } from './cli/settings.js';
import { buildProgram } from './cli/program.js';
import { EXIT, ImportError, JobFileError } from './errors.js';

/** The real process's dependencies. */
export function systemDeps(): Deps {
  quietOnClosedStdout();
  const io = systemIO(process.env);
  const deps: Deps = {
    io,
    env: process.env,
    cwd: process.cwd(),
    now: () => new Date(),
    settings: { output: 'table', color: io.color, verbose: false, timeoutMs: DEFAULT_TIMEOUT_MS, insecure: false },
    client: () => lazy(),
  };
  // Built on first use from the settings the root command resolves; --help never loads undici.
  const lazy = lazyClient(deps);
  return deps;
}

/**
 * A reader that stops early (`import fields get J -o json | head`) closes our stdout: the next
 * write fails with EPIPE. Like other Unix tools, stop at once, without a message or a stack
 * trace, with 141 (128 + SIGPIPE); temp files are removed by their exit handlers.
 */
function quietOnClosedStdout(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') process.exit(EXIT.stdoutClosed);
    process.stderr.write(`error: cannot write to stdout (${error.code ?? error.message}).\n`);
    process.exit(EXIT.failure);
  });
}

/** Runs the CLI with `argv` (as process.argv) and returns the exit code. */
export async function main(argv: string[], deps: Deps): Promise<number> {
  const onSigint = () => {
    deps.io.stderr.write('\nInterrupted.\n');
    // Temp files register their own cleanup on exit; nothing is left half-written.
    process.exit(EXIT.interrupted);
  };
  process.once('SIGINT', onSigint);
  try {
    await buildProgram(deps).parseAsync(argv);
    return EXIT.ok;
  } catch (error) {
    return reportError(error, deps);
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}

/** Prints an error as one sentence (stack only with --verbose) and returns its exit code. */
export function reportError(error: unknown, deps: Deps): number {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return EXIT.ok;
    // commander already printed its message.
    return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  if (error instanceof JobFileError && error.problems.length > 1) {
    // A job file gets every problem at once, so one edit fixes them all.
    for (const p of error.problems) deps.io.stderr.write(`error: ${p.file}:${p.line}:${p.col}: ${p.message}\n`);
    deps.io.stderr.write(`${error.problems.length} problems found.\n`);
    return error.exitCode;
  }
  if (error instanceof ImportError) {
    if (error.message) deps.io.stderr.write(`error: ${error.message}\n`);
    if (deps.settings.verbose && error.stack) deps.io.stderr.write(error.stack + '\n');
    return error.exitCode;
  }
  if (isPromptCancel(error)) {
    deps.io.stderr.write('\nCancelled.\n');
    return EXIT.interrupted;
  }
  const message = error instanceof Error ? error.message : String(error);
  deps.io.stderr.write(`error: ${message}\n`);
  if (deps.settings.verbose && error instanceof Error && error.stack) deps.io.stderr.write(error.stack + '\n');
  else deps.io.stderr.write('(this is a bug in import; run with --verbose for details and report it)\n');
  return EXIT.failure;
}

function isPromptCancel(error: unknown): boolean {
  return error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError');
}
