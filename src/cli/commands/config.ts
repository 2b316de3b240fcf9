/**
 * `import config set|get|unset|list|use`: named profiles in `$XDG_CONFIG_HOME/import/config.yaml`
 * (else `~/.config/import/config.yaml`). The file is written with mode 600; the API key is never printed.
 */
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { Deps } from '../deps.js';
import { withExamples } from '../program.js';
import { parseFormat } from '../output.js';
import { readStdin } from '../resource-command.js';
import { configPath, serviceRoot, type Profile } from '../settings.js';

/** Keys of a profile as typed on the command line, and their name in the file. */
export const CONFIG_KEYS = { 'base-url': 'baseUrl', 'api-key': 'apiKey', timeout: 'timeout', output: 'output', insecure: 'insecure' } as const;
/** A key of `import config`. */
export type ConfigKey = keyof typeof CONFIG_KEYS;

/** Shown instead of the API key. */
export const KEY_IS_SET = '(set)';

/** The key named on the command line, or UsageError listing the keys. */
export function parseConfigKey(key: string): ConfigKey {
  if (key in CONFIG_KEYS) return key as ConfigKey;
  const camel = Object.entries(CONFIG_KEYS).find(([, name]) => name === key)?.[0] as ConfigKey | undefined;
  if (camel) return camel;
  throw new UsageError(`Unknown config key "${key}"; use one of ${Object.keys(CONFIG_KEYS).join(', ')}.`);
}

/** A value checked and typed for its key (timeout a number, insecure a boolean). */
export function parseConfigValue(key: ConfigKey, value: string): string | number | boolean {
  switch (key) {
    case 'base-url': {
      let url: URL | undefined;
      try { url = new URL(value); } catch { /* reported below */ }
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
        throw new UsageError(`base-url "${value}" is not an http(s) URL; pass the service root, e.g. https://import.example.com.`);
      }
      return value;
    }
    case 'timeout': {
      const ms = Number(value);
      if (!Number.isFinite(ms) || ms <= 0) throw new UsageError(`timeout "${value}" is not a positive number of milliseconds; e.g. 30000.`);
      return ms;
    }
    case 'output':
      return parseFormat(value);
    case 'insecure':
      if (value !== 'true' && value !== 'false') throw new UsageError(`insecure "${value}" must be true or false.`);
      return value === 'true';
    case 'api-key':
      if (value.trim() === '') throw new UsageError('api-key is empty; pass the key, or - to read it from stdin.');
      return value.trim();
  }
}

/** The profile a config command works on: --profile, IMPORT_PROFILE, the file's default, else `default`. */
function profileName(deps: Deps, defaultProfile: unknown): string {
  return deps.settings.profile ?? (typeof defaultProfile === 'string' ? defaultProfile : undefined) ?? 'default';
}

/** Loads the config file as a YAML document (comments kept); a missing file is an empty document. */
async function loadDocument(file: string) {
  const YAML = await import('yaml');
  let text = '';
  try { text = await readFile(file, 'utf8'); } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new UsageError(`The config file ${file} cannot be read (${(error as NodeJS.ErrnoException).code}).`);
  }
  const doc = YAML.parseDocument(text);
  if (doc.errors.length) throw new UsageError(`The config file ${file} is not valid YAML (${doc.errors[0].message.split('\n')[0]}); fix or delete it.`);
  return doc;
}

/** Writes the config file atomically with mode 600 (the folder 700): it holds API keys. */
async function saveDocument(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, text, { mode: 0o600 });
  await chmod(temp, 0o600);
  await rename(temp, file);
}

/** `config set <key> <value>`: value `-` reads it from stdin (keeps the key out of shell history). */
export async function configSet(opts: { key: string; value: string }, deps: Deps): Promise<void> {
  const key = parseConfigKey(opts.key);
  const text = opts.value === '-' ? (await readStdin(deps.io, `the ${key} value`)).trim() : opts.value;
  let value = parseConfigValue(key, text);
  if (key === 'base-url') {
    const root = await serviceRoot(String(value));
    if (root !== value) deps.io.status(`Saving the service root ${root}: the client appends /public/client-side/v1 itself.`);
    value = root as string;
  }
  const file = configPath(deps.env);
  const doc = await loadDocument(file);
  const profile = profileName(deps, doc.get('defaultProfile'));
  doc.setIn(['profiles', profile, CONFIG_KEYS[key]], value);
  await saveDocument(file, doc.toString());
  deps.io.status(`Saved ${key} for profile "${profile}" in ${file}.`);
  if (key === 'base-url' && String(value).startsWith('http://')) {
    const { isLoopback } = await import('../../client/client.js');
    // Loopback (localhost, 127.0.0.0/8, ::1) never leaves the machine: plain http is fine there.
    if (!isLoopback(new URL(String(value)).hostname)) {
      deps.io.warn(`plain http:// to ${new URL(String(value)).host} is refused unless insecure is set (the key would travel in clear); use https://, or \`import config set insecure true\` if you accept that.`);
    }
  }
}

/** `config unset <key>`. */
export async function configUnset(opts: { key: string }, deps: Deps): Promise<void> {
  const key = parseConfigKey(opts.key);
  const file = configPath(deps.env);
  const doc = await loadDocument(file);
  const profile = profileName(deps, doc.get('defaultProfile'));
  doc.deleteIn(['profiles', profile, CONFIG_KEYS[key]]);
  await saveDocument(file, doc.toString());
  deps.io.status(`Removed ${key} from profile "${profile}" in ${file}.`);
}

/** `config get <key>`: the value, or `(set)` for the API key; nothing (and a note on stderr) when unset. */
export async function configGet(opts: { key: string }, deps: Deps): Promise<void> {
  const key = parseConfigKey(opts.key);
  const file = configPath(deps.env);
  const doc = await loadDocument(file);
  const profile = profileName(deps, doc.get('defaultProfile'));
  const value = doc.getIn(['profiles', profile, CONFIG_KEYS[key]]);
  if (value === undefined || value === null) {
    deps.io.status(`${key} is not set in profile "${profile}".`);
    return;
  }
  deps.io.out(key === 'api-key' ? KEY_IS_SET : String(value));
}

/** `config use <profile>`: the profile used when neither --profile nor IMPORT_PROFILE names one. */
export async function configUse(opts: { profile: string }, deps: Deps): Promise<void> {
  const file = configPath(deps.env);
  const doc = await loadDocument(file);
  if (!doc.hasIn(['profiles', opts.profile])) {
    throw new UsageError(`Profile "${opts.profile}" is not in ${file}; create it with \`import config set --profile ${opts.profile} base-url <url>\`.`);
  }
  doc.set('defaultProfile', opts.profile);
  await saveDocument(file, doc.toString());
  deps.io.status(`Profile "${opts.profile}" is now the default.`);
}

/** `config list`: every profile and its keys (the API key shown as `(set)`); -o json|yaml for data. */
export async function configList(_opts: Record<string, never>, deps: Deps): Promise<void> {
  const file = configPath(deps.env);
  const doc = await loadDocument(file);
  const data = (doc.toJS() ?? {}) as { profiles?: Record<string, Profile>; defaultProfile?: string };
  const profiles: Record<string, Record<string, unknown>> = {};
  for (const [name, profile] of Object.entries(data.profiles ?? {})) {
    profiles[name] = {};
    for (const [cliKey, fileKey] of Object.entries(CONFIG_KEYS)) {
      const value = (profile as Record<string, unknown> | null)?.[fileKey];
      if (value !== undefined && value !== null) profiles[name][deps.settings.output === 'table' ? cliKey : fileKey] = fileKey === 'apiKey' ? KEY_IS_SET : value;
    }
  }
  const active = profileName(deps, data.defaultProfile);
  if (deps.settings.output !== 'table') {
    const { printData } = await import('../output.js');
    await printData(deps.io, deps.settings.output, { path: file, defaultProfile: data.defaultProfile ?? null, profiles }, () => '');
    return;
  }
  deps.io.status(`Config file: ${file}`);
  const names = Object.keys(profiles);
  if (!names.length) {
    deps.io.status('No profiles yet; create one with `import config set base-url <url>`.');
    return;
  }
  const lines: string[] = [];
  for (const name of names) {
    lines.push(`${name}${name === active ? ' (active)' : ''}`);
    for (const [key, value] of Object.entries(profiles[name])) lines.push(`  ${key}: ${String(value)}`);
  }
  deps.io.out(lines.join('\n'));
}

/** The `config` command. */
export function configCommand(deps: Deps): Command {
  const command = new Command('config').description(`manage profiles in the config file (${'$XDG_CONFIG_HOME/import/config.yaml'}); select one with --profile or IMPORT_PROFILE`);
  command.addCommand(withExamples(new Command('set')
    .description(`set a key of a profile: ${Object.keys(CONFIG_KEYS).join(', ')} (the file is written with mode 600)`)
    .argument('<key>', Object.keys(CONFIG_KEYS).join(', '))
    .argument('<value>', 'the value; - reads it from stdin (use it for api-key)')
    .action(async (key: string, value: string) => configSet({ key, value }, deps)), [
    'import config set base-url https://import.example.com',
    'printf %s "$KEY" | import config set api-key -',
    'import config set --profile staging base-url https://staging.import.example.com',
  ]));
  command.addCommand(withExamples(new Command('get')
    .description('print a key of a profile (the API key only as "(set)")')
    .argument('<key>', Object.keys(CONFIG_KEYS).join(', '))
    .action(async (key: string) => configGet({ key }, deps)), ['import config get base-url', 'import config get --profile staging timeout']));
  command.addCommand(withExamples(new Command('unset')
    .description('remove a key from a profile')
    .argument('<key>', Object.keys(CONFIG_KEYS).join(', '))
    .action(async (key: string) => configUnset({ key }, deps)), ['import config unset --profile staging api-key']));
  command.addCommand(withExamples(new Command('list')
    .description('list the profiles and their keys (the API key only as "(set)")')
    .action(async () => configList({}, deps)), ['import config list', 'import config list -o json']));
  command.addCommand(withExamples(new Command('use')
    .description('make a profile the default')
    .argument('<profile>', 'profile name')
    .action(async (profile: string) => configUse({ profile }, deps)), ['import config use staging']));
  return withExamples(command, ['import config set base-url https://import.example.com', 'import config list']);
}
