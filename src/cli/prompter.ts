/**
 * Questions to a person at a terminal: a thin wrapper over @inquirer/prompts behind the
 * `Prompter` interface, so commands never import inquirer and tests script the answers.
 */
import { CancelledError } from '../errors.js';
import type { IO } from './io.js';

/** One answer offered by `select` or `search`: `name` is what the person sees. */
export interface PromptChoice<T> { value: T; name: string; description?: string }

/** The questions a command may ask; each rejects with CancelledError on Ctrl-C. */
export interface Prompter {
  /** One of a short list, chosen with the arrow keys and Enter; `default` is highlighted first. */
  select<T>(message: string, choices: PromptChoice<T>[], opts?: { default?: T }): Promise<T>;
  /** One of a long list, narrowed by typing (case-insensitive, on the name and the description). */
  search<T>(message: string, choices: PromptChoice<T>[]): Promise<T>;
  /** Yes or no. */
  confirm(message: string, opts?: { default?: boolean }): Promise<boolean>;
}

/** The message of the CancelledError thrown when a prompt is interrupted. */
export const CANCELLED_MESSAGE = 'Cancelled at a prompt; nothing was saved.';

const plain = (text: string) => text;

/** Inquirer's theme without colour (`--no-color`, NO_COLOR, or stdout not a terminal): the same text, no escape codes. */
const PLAIN_THEME = {
  prefix: { idle: '?', done: '✔' },
  spinner: { interval: 80, frames: ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'] },
  style: {
    answer: plain, message: plain, help: plain, highlight: plain, description: plain, searchTerm: plain,
    error: (text: string) => `> ${text}`,
    defaultAnswer: (text: string) => `(${text})`,
    key: (text: string) => `<${text}>`,
    disabled: (text: string) => `- ${text}`,
    keysHelpTip: (keys: [string, string][]) => keys.map(([key, action]) => `${key} ${action}`).join(' • '),
  },
};

/**
 * The real prompter: @inquirer/prompts, imported on the first question (so commands that never
 * ask never load it), reading `io.stdin` and rendering on `io.stderr` so stdout stays data only;
 * plain text unless `color` (the resolved `settings.color`).
 */
export function inquirerPrompter(io: IO, color = io.color): Prompter {
  const context = () => ({ input: io.stdin, output: io.stderr, clearPromptOnDone: false });
  const theme = color ? undefined : PLAIN_THEME;
  const load = () => import('@inquirer/prompts');
  return {
    async select(message, choices, opts = {}) {
      const { select } = await load();
      return cancellable(() => select({ message, choices, default: opts.default, pageSize: 12, loop: false, theme }, context()));
    },
    async search(message, choices) {
      const { search } = await load();
      return cancellable(() => search({ message, source: (term) => filterChoices(choices, term), pageSize: 12, theme }, context()));
    },
    async confirm(message, opts = {}) {
      const { confirm } = await load();
      return cancellable(() => confirm({ message, default: opts.default ?? true, theme }, context()));
    },
  };
}

/** The choices whose name or description contains every word of `term` (all of them for no term). */
export function filterChoices<T>(choices: PromptChoice<T>[], term: string | undefined): PromptChoice<T>[] {
  const words = (term ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return choices;
  return choices.filter((c) => {
    const text = `${c.name} ${c.description ?? ''}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/** Runs a prompt, turning inquirer's Ctrl-C / abort errors into our CancelledError (exit 130). */
async function cancellable<T>(ask: () => Promise<T>): Promise<T> {
  try {
    return await ask();
  } catch (error) {
    if (error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError')) {
      throw new CancelledError(CANCELLED_MESSAGE, { cause: error });
    }
    throw error;
  }
}
