import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';
import { json, startRecordingServer, type RecordingServer } from '../support/recording-server.js';
import { SCRIPTS } from './reads.js';

let server: RecordingServer;
beforeAll(async () => { server = await startRecordingServer(); });
afterAll(async () => { await server.close(); });
beforeEach(() => { server.reset(); server.fallback(() => json(SCRIPTS)); });

/** A config home whose config.yaml holds `text`. */
function configHome(text?: string): string {
  const home = mkdtempSync(join(tmpdir(), 'import-xdg-'));
  if (text !== undefined) {
    mkdirSync(join(home, 'import'), { recursive: true });
    writeFileSync(join(home, 'import', 'config.yaml'), text);
  }
  return home;
}

/** Which base path and key reached the server. */
const seen = () => ({ base: server.requests[0].url.split('/public/')[0], key: server.requests[0].headers['x-api-key'] });

describe('precedence: flag > env > profile > default', () => {
  const profiles = () => configHome([
    'defaultProfile: main',
    'profiles:',
    '  main:',
    `    baseUrl: ${server.url}/profile-main`,
    '    apiKey: key-profile-main',
    '  staging:',
    `    baseUrl: ${server.url}/profile-staging`,
    '    apiKey: key-profile-staging',
    '    timeout: 5000',
  ].join('\n') + '\n');

  it('uses the default profile when nothing else is given', async () => {
    const res = await runCli(['scripts', 'get', 'J1'], { env: { XDG_CONFIG_HOME: profiles() } });
    expect(res.exitCode).toBe(0);
    expect(seen()).toEqual({ base: '/profile-main', key: 'key-profile-main' });
  });

  it('IMPORT_PROFILE picks another profile, --profile beats it', async () => {
    const home = profiles();
    await runCli(['scripts', 'get', 'J1'], { env: { XDG_CONFIG_HOME: home, IMPORT_PROFILE: 'staging' } });
    expect(seen()).toEqual({ base: '/profile-staging', key: 'key-profile-staging' });
    server.reset(); server.fallback(() => json(SCRIPTS));
    await runCli(['scripts', 'get', 'J1', '--profile', 'main'], { env: { XDG_CONFIG_HOME: home, IMPORT_PROFILE: 'staging' } });
    expect(seen()).toEqual({ base: '/profile-main', key: 'key-profile-main' });
  });

  it('env beats the profile', async () => {
    await runCli(['scripts', 'get', 'J1'], { env: { XDG_CONFIG_HOME: profiles(), IMPORT_BASE_URL: `${server.url}/env`, IMPORT_API_KEY: 'key-env' } });
    expect(seen()).toEqual({ base: '/env', key: 'key-env' });
  });

  it('flags beat env and the profile', async () => {
    await runCli(['scripts', 'get', 'J1', '--base-url', `${server.url}/flag`, '--api-key', 'key-flag'], {
      env: { XDG_CONFIG_HOME: profiles(), IMPORT_BASE_URL: `${server.url}/env`, IMPORT_API_KEY: 'key-env' },
    });
    expect(seen()).toEqual({ base: '/flag', key: 'key-flag' });
  });

  it('IMPORT_TIMEOUT and --timeout override the profile timeout', async () => {
    server.fallback(() => ({ hang: true }));
    const home = profiles();
    let res = await runCli(['scripts', 'get', 'J1', '--profile', 'staging'], { env: { XDG_CONFIG_HOME: home, IMPORT_TIMEOUT: '200' } });
    expect(res.stderr).toContain('timed out after 200 ms');
    res = await runCli(['scripts', 'get', 'J1', '--profile', 'staging', '--timeout', '150'], { env: { XDG_CONFIG_HOME: home, IMPORT_TIMEOUT: '200' } });
    expect(res.stderr).toContain('timed out after 150 ms');
  });

  it('an unknown --profile is exit 2 listing the known ones', async () => {
    const res = await runCli(['scripts', 'get', 'J1', '--profile', 'prod'], { env: { XDG_CONFIG_HOME: profiles() } });
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain('known profiles: main, staging');
  });
});

describe('import config', () => {
  it('set writes config.yaml with mode 600 and never prints the key', async () => {
    const home = configHome();
    let res = await runCli(['config', 'set', 'base-url', server.url], { env: { XDG_CONFIG_HOME: home } });
    expect(res.exitCode).toBe(0);
    res = await runCli(['config', 'set', 'api-key', '-'], { env: { XDG_CONFIG_HOME: home }, input: 'very-secret-key-42\n' });
    expect(res.exitCode).toBe(0);
    expect(res.stdout + res.stderr).not.toContain('very-secret-key-42');
    const file = join(home, 'import', 'config.yaml');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toBe(`profiles:\n  default:\n    baseUrl: ${server.url}\n    apiKey: very-secret-key-42\n`);
    res = await runCli(['config', 'get', 'api-key'], { env: { XDG_CONFIG_HOME: home } });
    expect(res.stdout).toBe('(set)\n');
    res = await runCli(['config', 'get', 'base-url'], { env: { XDG_CONFIG_HOME: home } });
    expect(res.stdout).toBe(`${server.url}\n`);
    res = await runCli(['config', 'list'], { env: { XDG_CONFIG_HOME: home } });
    expect(res.stdout).toBe(`default (active)\n  base-url: ${server.url}\n  api-key: (set)\n`);
    res = await runCli(['config', 'list', '-o', 'json'], { env: { XDG_CONFIG_HOME: home } });
    expect(JSON.parse(res.stdout).profiles.default).toEqual({ baseUrl: server.url, apiKey: '(set)' });
    expect(res.stdout).not.toContain('very-secret-key-42');
    res = await runCli(['scripts', 'get', 'J1'], { env: { XDG_CONFIG_HOME: home } });
    expect(res.exitCode).toBe(0);
    expect(server.requests[0].headers['x-api-key']).toBe('very-secret-key-42');
  });

  it('set --profile creates a new profile, use makes it the default, and comments are kept', async () => {
    const home = configHome('# my settings\nprofiles:\n  default:\n    timeout: 1000 # ms\n');
    let res = await runCli(['config', 'set', '--profile', 'staging', 'timeout', '2500'], { env: { XDG_CONFIG_HOME: home } });
    expect(res.exitCode).toBe(0);
    res = await runCli(['config', 'use', 'staging'], { env: { XDG_CONFIG_HOME: home } });
    expect(res.exitCode).toBe(0);
    const text = readFileSync(join(home, 'import', 'config.yaml'), 'utf8');
    expect(text).toContain('# my settings');
    expect(text).toContain('timeout: 1000 # ms');
    expect(text).toContain('staging:\n    timeout: 2500');
    expect(text).toContain('defaultProfile: staging');
    res = await runCli(['config', 'get', 'timeout'], { env: { XDG_CONFIG_HOME: home } });
    expect(res.stdout).toBe('2500\n');
    expect(statSync(join(home, 'import', 'config.yaml')).mode & 0o777).toBe(0o600);
  });

  it('uses ~/.config/import/config.yaml without XDG_CONFIG_HOME', async () => {
    const home = mkdtempSync(join(tmpdir(), 'import-home-'));
    const res = await runCli(['config', 'set', 'output', 'json'], { env: { XDG_CONFIG_HOME: undefined, HOME: home } });
    expect(res.exitCode).toBe(0);
    expect(readFileSync(join(home, '.config', 'import', 'config.yaml'), 'utf8')).toContain('output: json');
  });

  it('refuses unknown keys and bad values with exit 2', async () => {
    const home = configHome();
    let res = await runCli(['config', 'set', 'colour', 'red'], { env: { XDG_CONFIG_HOME: home } });
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain('use one of base-url, api-key, timeout, output, insecure');
    res = await runCli(['config', 'set', 'timeout', 'soon'], { env: { XDG_CONFIG_HOME: home } });
    expect(res.exitCode).toBe(2);
  });
});
