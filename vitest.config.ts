import { configDefaults, defineConfig } from 'vitest/config';

/** Measures one process's memory over minutes: run after the rest, alone, so the suite's load does not move its figures. */
const ALONE = ['test/emulator/serve-memory.test.ts'];

export default defineConfig({
  test: {
    // Dates in fixtures are wall-clock values; pin the zone so results do not depend on the machine.
    env: { TZ: 'UTC' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'suite', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...ALONE], sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'alone', include: ALONE, sequence: { groupOrder: 1 } } },
    ],
  },
});
