/** What commands need from the outside world, built once in `main` and replaced in tests. */
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
}
