/** Finds a python3 that has the given modules (Debian's packages live under /usr/bin/python3), for tests that need one. */
import { spawnSync } from 'node:child_process';

const found = new Map<string, string | undefined>();

/** The first of `python3` and `/usr/bin/python3` that imports every module, or undefined (the caller skips, saying why). */
export function findPython(modules: string[]): string | undefined {
  const key = modules.join(',');
  if (!found.has(key)) {
    const check = `import ${modules.join(', ')}`;
    const python = ['python3', '/usr/bin/python3'].find((candidate) => spawnSync(candidate, ['-c', check], { stdio: 'ignore', timeout: 30_000 }).status === 0);
    found.set(key, python);
  }
  return found.get(key);
}

/** The reason a test is skipped when no python3 has the modules, printed so CI logs say it. */
export function noPythonReason(modules: string[], packages: string): string {
  return `skipped: no python3 with ${modules.join(', ')} (install the Debian packages ${packages})`;
}
