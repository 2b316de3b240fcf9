/** Global settings: flag > env > profile > default, resolved in one place. */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { parseFormat, type Format } from './output.js';

/** The global options as commander hands them over (all optional). */
export interface GlobalFlags {
  baseUrl?: string;
  apiKey?: string;
  profile?: string;
  output?: string;
  color?: boolean;
  verbose?: boolean;
  timeout?: string;
  insecure?: boolean;
}

/** Resolved settings every command may use. */
export interface Settings {
  baseUrl?: string;
  apiKey?: string;
  profile?: string;
  output: Format;
  color: boolean;
  verbose: boolean;
  timeoutMs: number;
  /** The timeout came from a flag, env or profile (not the default), so commands must not lengthen it. */
  timeoutExplicit?: boolean;
  insecure: boolean;
}

/** Default per-request timeout. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** One profile in the config file. */
export interface Profile { baseUrl?: string; apiKey?: string; timeout?: number; output?: string; insecure?: boolean }

/** Path of the config file: `$XDG_CONFIG_HOME/import/config.yaml`, else `~/.config/import/config.yaml`. */
export function configPath(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : join(env.HOME ?? homedir(), '.config');
  return join(base, 'import', 'config.yaml');
}

/** Reads the profiles of the config file; a missing file has none. */
export async function readProfiles(env: NodeJS.ProcessEnv): Promise<{ profiles: Record<string, Profile>; defaultProfile?: string }> {
  const file = configPath(env);
  let text: string;
  try { text = readFileSync(file, 'utf8'); } catch { return { profiles: {} }; }
  const { parse } = await import('yaml');
  let doc: any;
  try { doc = parse(text) ?? {}; } catch (e) {
    throw new UsageError(`The config file ${file} is not valid YAML (${(e as Error).message.split('\n')[0]}); fix or delete it.`);
  }
  return { profiles: doc.profiles ?? {}, defaultProfile: doc.defaultProfile };
}

/** Resolves flag > env > profile > default. */
export async function resolveSettings(
  flags: GlobalFlags, env: NodeJS.ProcessEnv, ioColor: boolean, options: { allowUnknownProfile?: boolean } = {},
): Promise<Settings> {
  const profileName = flags.profile ?? env.IMPORT_PROFILE;
  const needsProfile = profileName !== undefined || flags.baseUrl === undefined || flags.apiKey === undefined;
  let profile: Profile = {};
  if (needsProfile) {
    const { profiles, defaultProfile } = await readProfiles(env);
    const name = profileName ?? defaultProfile ?? 'default';
    // `import config set --profile new ...` creates the profile, so it may not exist yet.
    if (profileName !== undefined && !profiles[name] && !options.allowUnknownProfile) {
      const known = Object.keys(profiles);
      throw new UsageError(`Profile "${name}" is not in ${configPath(env)}; ${known.length ? `known profiles: ${known.join(', ')}` : 'create it with `import config set --profile ' + name + ' base-url <url>`'}.`);
    }
    profile = profiles[name] ?? {};
  }
  const timeoutText = flags.timeout ?? env.IMPORT_TIMEOUT ?? (profile.timeout !== undefined ? String(profile.timeout) : undefined);
  let timeoutMs = DEFAULT_TIMEOUT_MS;
  if (timeoutText !== undefined) {
    timeoutMs = Number(timeoutText);
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new UsageError(`Timeout "${timeoutText}" is not a positive number of milliseconds; pass e.g. --timeout 30000.`);
  }
  return {
    baseUrl: await serviceRoot(flags.baseUrl ?? env.IMPORT_BASE_URL ?? profile.baseUrl),
    apiKey: flags.apiKey ?? env.IMPORT_API_KEY ?? profile.apiKey,
    profile: profileName,
    output: parseFormat(flags.output ?? profile.output ?? 'table'),
    color: flags.color !== false && ioColor,
    verbose: Boolean(flags.verbose),
    timeoutMs,
    timeoutExplicit: timeoutText !== undefined,
    insecure: Boolean(flags.insecure ?? profile.insecure),
  };
}

/**
 * The service root from a base URL as users paste it: a URL that already ends in the API prefix
 * (`.../public/client-side/v1`, copied from the service's docs) is the same service, so the
 * prefix is taken off instead of being appended twice (which would 404 on every call).
 */
export async function serviceRoot(baseUrl: string | undefined): Promise<string | undefined> {
  if (baseUrl === undefined || !/\/v1\/*$/.test(baseUrl.trim())) return baseUrl;
  // Loaded only for such a URL: start-up stays free of the contract module.
  const { API_PREFIX } = await import('../contract/index.js');
  const trimmed = baseUrl.trim().replace(/\/+$/, '');
  return trimmed.endsWith(API_PREFIX) ? trimmed.slice(0, -API_PREFIX.length) : baseUrl;
}
