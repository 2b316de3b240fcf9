// `import --help` wall time against `node -e 0` (target: at most 2x, aim 1.5x).
import { join } from 'node:path';
import { ROOT, line, median, run } from './lib.mjs';

const RUNS = Number(process.env.IMPORT_BENCH_RUNS ?? 21);
const bin = join(ROOT, 'bin', 'import.js');

async function timed(args) {
  const times = [];
  for (let i = 0; i < RUNS; i++) times.push((await run(process.execPath, args)).seconds);
  return median(times);
}

// Warm the file cache first so neither side pays for cold disk reads.
await timed(['-e', '0']);
await run(process.execPath, [bin, '--help']);
const base = [];
const help = [];
const sub = [];
// Interleaved so machine noise hits both sides alike.
for (let i = 0; i < 3; i++) {
  base.push(await timed(['-e', '0']));
  help.push(await timed([bin, '--help']));
  sub.push(await timed([bin, 'fields', 'update', '--help']));
}
const b = median(base);
const h = median(help);
const s = median(sub);
console.log(line('node -e 0 (median)', `${(b * 1000).toFixed(1)} ms`));
console.log(line('import --help (median)', `${(h * 1000).toFixed(1)} ms`));
console.log(line('import fields update --help (median)', `${(s * 1000).toFixed(1)} ms`));
console.log(line('ratio --help / node -e 0 (target <= 2)', `${(h / b).toFixed(2)}x`));
process.exitCode = h / b <= 2 ? 0 : 1;
