/**
 * `import completion bash|zsh|fish`: prints a shell completion script; and the hidden
 * `completion-server` command that script calls on every Tab. Both load their modules only when
 * run, so `import --help` pays nothing for them.
 */
import { basename, extname } from 'node:path';
import { Argument, Command } from 'commander';
import type { Deps } from '../deps.js';
import { withExamples } from '../program.js';

/** The shells we print scripts for. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
/** One of SHELLS. */
export type Shell = (typeof SHELLS)[number];

/** The name the program was invoked as (`import` or `import-jobs`), so the script completes that name. */
export function programName(argv: readonly string[]): string {
  const invoked = basename(argv[1] ?? '', extname(argv[1] ?? ''));
  return invoked === 'import-jobs' ? 'import-jobs' : 'import';
}

/**
 * Prints the completion script of `shell` for the program invoked as `name`. bash gets
 * @pnpm/tabtab's (npm's own script: works with or without the bash-completion package and falls
 * back to file names); zsh and fish get @bomb.sh/tab's (Cobra's scripts, which pass the word under
 * the cursor exactly and filter files by extension).
 */
export async function printCompletionScript(shell: Shell, name: string, deps: Deps): Promise<void> {
  let script: string;
  if (shell === 'bash') {
    const { default: tabtab } = await import('@pnpm/tabtab');
    // Calls `<name> completion-server -- <words>` with COMP_LINE and COMP_POINT set.
    script = await tabtab.getCompletionScript({ name, completer: name, shell });
  } else {
    const tab = await import('@bomb.sh/tab');
    // Calls `<name> complete -- <words> <current word>`. tab prints the script with console.log; keep it.
    const printed: string[] = [];
    const log = console.log;
    console.log = (text: string) => { printed.push(text); };
    try { tab.script(shell, name, name); } finally { console.log = log; }
    script = printed.join('\n');
  }
  deps.io.stdout.write(script.endsWith('\n') ? script : script + '\n');
}

/** The `completion` command. */
export function completionCommand(deps: Deps): Command {
  const command = new Command('completion')
    .description('print a shell completion script (commands, flags, flag values, files)')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS))
    .action(async (shell: Shell) => printCompletionScript(shell, programName(process.argv), deps));
  return withExamples(command, [
    'source <(import completion bash)                                  # this shell only; add the line to ~/.bashrc to keep it',
    'import completion zsh > "${fpath[1]}/_import"                    # zsh: a folder on $fpath, then start a new shell',
    'import completion fish > ~/.config/fish/completions/import.fish  # fish',
  ]);
}

/** The hidden commands the scripts call on every Tab: `completion-server` (bash) and `complete` (zsh, fish). */
export function completionServerCommands(deps: Deps): Command[] {
  const server = new Command('completion-server')
    .description('answer a completion request from the bash script (internal)')
    .argument('[words...]', 'the command line\'s words, after --')
    .allowUnknownOption()
    .helpOption(false)
    .action(async (_words: string[], _o: unknown, self: Command) => {
      const { answerBash } = await import('../complete.js');
      await answerBash(rootOf(self), deps);
    });
  const complete = new Command('complete')
    .description('answer a completion request from the zsh or fish script (internal)')
    .argument('[words...]', 'the words after the program name, the last one under the cursor')
    .allowUnknownOption()
    .helpOption(false)
    .action(async (words: string[], _o: unknown, self: Command) => {
      const { answerCobra } = await import('../complete.js');
      await answerCobra(rootOf(self), words, deps);
    });
  return [
    withExamples(server, ['COMP_LINE="import dr" COMP_POINT=9 SHELL=bash import completion-server -- import dr   # what the bash script runs']),
    withExamples(complete, ['import complete -- dry-run --out ""   # what the zsh and fish scripts run: candidates, then :<directive>']),
  ];
}

function rootOf(command: Command): Command {
  let root = command;
  while (root.parent) root = root.parent;
  return root;
}
