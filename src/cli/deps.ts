/** What commands need from the outside world, built once in `main` and replaced in tests. */
import type { ClientOptions, ImportClient } from '../client/client.js';
import type { IO } from './io.js';
import type { Settings } from './settings.js';

/** Dependencies of every command. */
export interface Deps {
  io: IO;
  env: NodeJS.ProcessEnv;
  cwd: string;
  now: () => Date;
  /** Resolved global settings; filled in by the root command's pre-action hook. */
  settings: Settings;
  /** The API client, built on first use from `settings` (so `--help` and offline commands never need a URL or key). */
  client: () => Promise<ImportClient>;
}

/**
 * A lazy, memoised client factory over `deps.settings`: checks the base URL (missing → exit 2,
 * plain http to another machine → exit 2 unless --insecure) and loads undici only when called.
 */
export function lazyClient(deps: Pick<Deps, 'settings' | 'io'>, extra: Partial<ClientOptions> = {}): () => Promise<ImportClient> {
  let made: Promise<ImportClient> | undefined;
  return () => (made ??= (async () => {
    const s = deps.settings;
    const { ImportClient, checkBaseUrl } = await import('../client/client.js');
    const baseUrl = checkBaseUrl(s.baseUrl, s.insecure);
    return new ImportClient({
      baseUrl,
      apiKey: s.apiKey,
      timeoutMs: s.timeoutMs,
      log: s.verbose ? (line) => { deps.io.stderr.write(line + '\n'); } : undefined,
      notice: (line) => { deps.io.status(line); },
      ...extra,
    });
  })());
}
