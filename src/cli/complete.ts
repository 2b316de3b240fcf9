/**
 * Answers a completion request from the scripts `import completion <shell>` prints (@pnpm/tabtab's,
 * which call `import completion-server -- <words>` with COMP_LINE, COMP_POINT and SHELL set). The
 * candidates come from walking commander's own command tree, so a new command or flag completes
 * with no change here; this file only adds what commander cannot know: the values a flag takes
 * (`--type amount=<number|...>`, `--output json`), profile names and where files are wanted.
 */
import type { Command, Option } from 'commander';
import { parse as parseShellWords } from 'shell-quote';
import {
  AGGREGATION_METHODS, CASINGS, COMBINING_METHODS, DATA_TYPES, OUTPUT_FILE_TYPES, ROW_DROPPING_METHODS,
} from '../contract/index.js';
import { CONFIG_KEYS } from './commands/config.js';
import type { Deps } from './deps.js';
import { readProfiles } from './settings.js';

/** One completion candidate: the whole word, and a description zsh and fish show beside it. */
export interface Candidate { value: string; description?: string }

/** What to offer for the word under the cursor: candidates, or the shell's own file completion (of these extensions, where the shell can filter). */
export type Completion = { candidates: Candidate[] } | { files: true; extensions?: string[] };

/** Characters at which bash's readline starts a new word to replace (COMP_WORDBREAKS' default). */
const BASH_WORD_BREAKS = new Set([' ', '\t', '\n', '"', "'", '@', '>', '<', '=', ';', '|', '&', '(', ':']);

/** Cobra's directives (@bomb.sh/tab's scripts read them from the last line): no file completion; only these extensions. */
const DIRECTIVE = { default: 0, noFileComp: 4, filterFileExt: 8 } as const;

/**
 * Answers the bash script (@pnpm/tabtab's): the line up to the cursor is in COMP_LINE and
 * COMP_POINT; prints one candidate a line, as the text replacing readline's current word.
 * Nothing printed makes bash (`complete -o default`) list file names.
 */
export async function answerBash(root: Command, deps: Pick<Deps, 'env' | 'cwd' | 'io'>): Promise<void> {
  const line = deps.env.COMP_LINE ?? '';
  const point = Number(deps.env.COMP_POINT);
  const partial = line.slice(0, Number.isInteger(point) && deps.env.COMP_POINT !== '' ? Math.max(0, point) : line.length);
  const { before, current } = splitLine(partial);
  const result = await completeWords(root, before, current, deps);
  if ('files' in result) return;
  // Readline replaces only the text after the last `=` or `:` (COMP_WORDBREAKS), so that is what it gets.
  let start = partial.length;
  while (start > 0 && !BASH_WORD_BREAKS.has(partial[start - 1])) start--;
  const cut = current.length - (partial.length - start);
  const lines = result.candidates
    .filter((c) => c.value.startsWith(current))
    .map((c) => (cut > 0 ? c.value.slice(cut) : c.value));
  if (lines.length) deps.io.stdout.write(lines.join('\n') + '\n');
}

/**
 * Answers the zsh and fish scripts (@bomb.sh/tab's, Cobra's protocol): `words` are the words after
 * the program name, the last one the word under the cursor (empty after a space); prints
 * `value<TAB>description` lines, then `:<directive>`.
 */
export async function answerCobra(root: Command, words: string[], deps: Pick<Deps, 'env' | 'cwd' | 'io'>): Promise<void> {
  const before = words.slice(0, -1);
  const current = words.at(-1) ?? '';
  const result = await completeWords(root, before, current, deps);
  // For `--flag=value` the scripts put the `--flag=` back themselves (Cobra's protocol).
  const flagPrefix = /^-[^=]*=/.exec(current)?.[0] ?? '';
  if ('files' in result) {
    const extensions = result.extensions ?? [];
    deps.io.stdout.write(extensions.map((e) => e + '\n').join('') + `:${extensions.length ? DIRECTIVE.filterFileExt : DIRECTIVE.default}\n`);
    return;
  }
  const lines = result.candidates
    .filter((c) => c.value.startsWith(current))
    .map((c) => {
      const value = c.value.slice(flagPrefix.length);
      return c.description ? `${value}\t${c.description.replace(/\s+/g, ' ')}` : value;
    });
  deps.io.stdout.write(lines.map((l) => l + '\n').join('') + `:${DIRECTIVE.noFileComp}\n`);
}

/** The complete words before the cursor (program name dropped) and the partial word under it, by shell quoting rules. */
export function splitLine(partial: string): { before: string[]; current: string } {
  const tokens = parseShellWords(partial, (name) => `$${name}`).filter((t): t is string => typeof t === 'string');
  const isNewWord = partial === '' || /\s$/.test(partial);
  const current = isNewWord ? '' : tokens.pop() ?? '';
  return { before: tokens.slice(1), current };
}

/** Where the words lead in the command tree: the command reached, its positional arguments so far, and an option waiting for its value. */
interface Position { command: Command; positionals: string[]; pendingOption?: Option; afterDoubleDash: boolean }

/** Walks `before` through the command tree the way commander parses it. */
export function walk(root: Command, before: string[]): Position {
  const position: Position = { command: root, positionals: [], afterDoubleDash: false };
  for (const word of before) {
    if (position.pendingOption) { position.pendingOption = undefined; continue; }
    if (!position.afterDoubleDash && word === '--') { position.afterDoubleDash = true; continue; }
    if (!position.afterDoubleDash && word.startsWith('-') && word !== '-') {
      const option = findOption(position.command, word.split('=')[0]);
      // `--flag value` takes the next word; `--flag=value` and boolean flags do not.
      if (option?.required && !word.includes('=') && !isShortWithValue(option, word)) position.pendingOption = option;
      continue;
    }
    const sub = position.positionals.length === 0 ? findCommand(position.command, word) : undefined;
    if (sub) position.command = sub;
    else position.positionals.push(word);
  }
  return position;
}

/** `-ojson`: a short flag with its value attached. */
function isShortWithValue(option: Option, word: string): boolean {
  return option.short !== undefined && word.startsWith(option.short) && word.length > option.short.length && !word.startsWith('--');
}

/** The candidates for `current`, the word under the cursor, after the words `before`. */
export async function completeWords(root: Command, before: string[], current: string, deps: Pick<Deps, 'env' | 'cwd'>): Promise<Completion> {
  const position = walk(root, before);
  if (position.pendingOption) return optionValues(position.pendingOption, current, deps);
  if (!position.afterDoubleDash && current.startsWith('-')) {
    const eq = current.indexOf('=');
    if (eq > 0) {
      const option = findOption(position.command, current.slice(0, eq));
      if (!option || !(option.required || option.optional)) return { candidates: [] };
      const values = await optionValues(option, current.slice(eq + 1), deps);
      if ('files' in values) return values;
      return { candidates: values.candidates.map((c) => ({ ...c, value: `${current.slice(0, eq + 1)}${c.value}` })) };
    }
    return { candidates: optionsOf(position.command) };
  }
  const candidates: Candidate[] = [];
  const { command, positionals } = position;
  if (positionals.length === 0) {
    for (const sub of command.commands) {
      if (isHidden(sub)) continue;
      candidates.push({ value: sub.name(), description: sub.description() });
    }
  }
  const argument = command.registeredArguments[positionals.length]
    ?? (command.registeredArguments.at(-1)?.variadic ? command.registeredArguments.at(-1) : undefined);
  if (argument) {
    const values = argumentValues(command, argument.name(), argument.argChoices);
    if (!Array.isArray(values)) return candidates.length ? { candidates } : values;
    candidates.push(...values);
  }
  return { candidates };
}

/** Visible options of a command and of its ancestors (the root's global options apply everywhere), long forms first. */
function optionsOf(command: Command): Candidate[] {
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  for (let c: Command | null = command; c; c = c.parent) {
    const options: readonly Option[] = c.createHelp().visibleOptions(c);
    for (const option of options) {
      for (const flag of [option.long, option.short]) {
        if (!flag || seen.has(flag)) continue;
        seen.add(flag);
        candidates.push({ value: flag, description: option.description });
      }
    }
  }
  return candidates.filter((c) => c.value.startsWith('--')).concat(candidates.filter((c) => !c.value.startsWith('--')));
}

function findOption(command: Command, flag: string): Option | undefined {
  for (let c: Command | null = command; c; c = c.parent) {
    const option = c.options.find((o) => o.long === flag || o.short === flag || (flag.startsWith('-') && !flag.startsWith('--') && o.short !== undefined && flag.startsWith(o.short)));
    if (option) return option;
  }
  return undefined;
}

function findCommand(command: Command, name: string): Command | undefined {
  return command.commands.find((c) => c.name() === name || c.aliases().includes(name));
}

function isHidden(command: Command): boolean {
  return (command as unknown as { _hidden?: boolean })._hidden === true;
}

/** `field=value` flags: the field is the user's, the value one of a fixed list. */
const FIELD_VALUE_FLAGS: Record<string, { values: readonly string[]; description: string }> = {
  '--type': { values: DATA_TYPES, description: 'data type' },
  '--case': { values: CASINGS, description: 'casing' },
  '--impute': { values: ['fill:', 'dropMissing', 'none'], description: 'impute method' },
};

/** Flags whose whole value is one of a fixed list. */
const FIXED_VALUE_FLAGS: Record<string, readonly string[]> = {
  '--output': ['table', 'json', 'yaml'],
  '--output-file-type': OUTPUT_FILE_TYPES,
  '--method': COMBINING_METHODS,
  '--aggregation': AGGREGATION_METHODS,
  '--drop': ROW_DROPPING_METHODS.map((m) => `${m}:`),
};

const YAML = ['yaml', 'yml'];

/** Value names (`<path>`, `<file.csv>`) of flags that take a file or folder: the shell completes those. */
const FILE_VALUE = /^(path|file|dir|file-or-dir|file\.[a-z]+|schema\.yaml|job\.yaml)$/;

async function optionValues(option: Option, current: string, deps: Pick<Deps, 'env' | 'cwd'>): Promise<Completion> {
  const long = option.long ?? '';
  if (option.argChoices) return { candidates: option.argChoices.map((value) => ({ value })) };
  const fieldValue = FIELD_VALUE_FLAGS[long];
  if (fieldValue) {
    const eq = current.lastIndexOf('=');
    // The field name is the user's to type; the value after `=` comes from the list.
    if (eq < 0) return { candidates: [] };
    return { candidates: fieldValue.values.map((v) => ({ value: `${current.slice(0, eq + 1)}${v}`, description: fieldValue.description })) };
  }
  const fixed = FIXED_VALUE_FLAGS[long];
  if (fixed) return { candidates: fixed.map((value) => ({ value })) };
  if (long === '--profile') {
    const { profiles } = await readProfiles(deps.env).catch(() => ({ profiles: {} }));
    return { candidates: Object.keys(profiles).map((value) => ({ value, description: 'profile' })) };
  }
  const valueName = /<([^>]+)>|\[([^\]]+)\]/.exec(option.flags)?.slice(1).find(Boolean);
  if (valueName && FILE_VALUE.test(valueName)) {
    const extension = /\.([a-z]+)$/.exec(valueName)?.[1];
    return { files: true, extensions: extension === 'yaml' ? YAML : extension ? [extension] : undefined };
  }
  return { candidates: [] };
}

/** Values of a positional argument, by its name; the shell's file completion where a path is wanted. */
function argumentValues(command: Command, name: string, choices: readonly string[] | undefined): Candidate[] | Completion {
  if (choices) return choices.map((value) => ({ value }));
  if (name === 'key' && command.parent?.name() === 'config') {
    return Object.keys(CONFIG_KEYS).map((value) => ({ value, description: 'setting' }));
  }
  // The shell's own file completion, which descends into folders and quotes names as the shell needs.
  if (name === 'job.yaml') return { files: true, extensions: YAML };
  if (/(^|\|)(job\.yaml|input-file|file)$/.test(name)) return { files: true };
  return [];
}
