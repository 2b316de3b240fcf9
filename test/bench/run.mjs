// `npm run bench`: every benchmark in turn (or those named: node test/bench/run.mjs dry-run serve).
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const benches = readdirSync(here).filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => wanted.length === 0 || wanted.includes(f.replace('.bench.mjs', '')));
let failed = 0;
for (const bench of benches) {
  console.log(`\n== ${bench.replace('.bench.mjs', '')} ==`);
  const r = spawnSync(process.execPath, [join(here, bench)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
