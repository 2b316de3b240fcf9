/** The package's version, for --version: read from package.json, so it never drifts from the release. */
import { readFileSync } from 'node:fs';

/** The `version` of the package this file ships in (src/ and dist/ both sit one folder below it). */
export function packageVersion(): string {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}
