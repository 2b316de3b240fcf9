// Benchmark: `import dry-run` of the reference job (../shared/bench/PIPELINE.md, job-1m.yaml) vs
// the same pipeline as one DuckDB SQL statement on 2 threads, the anchor. Both outputs must hold
// the same number of rows, or the comparison is void.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, RSS_HOOK, line, median, referenceJob, run } from './lib.mjs';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const { dir, file, job } = await referenceJob(ROWS);
const ourOut = join(dir, 'out-import.csv');
const duckOut = join(dir, 'out-duckdb.csv');

const ours = [];
const theirs = [];
for (let i = 0; i < RUNS; i++) {
  ours.push(await run(process.execPath, ['--import', RSS_HOOK, join(ROOT, 'bin', 'import.js'), 'dry-run', job, '--out', ourOut], { env: { ...process.env, NO_COLOR: '1' } }));
  theirs.push(await run(process.execPath, ['--import', RSS_HOOK, join(ROOT, 'test', 'bench', 'duckdb-pipeline.mjs'), file, duckOut, '2']));
}
const lines = (path) => readFileSync(path).reduce((n, byte) => (byte === 10 ? n + 1 : n), 0);
const rowsOut = lines(ourOut) - 1;
const sameRows = rowsOut === lines(duckOut) - 1;
const t = median(ours.map((r) => r.seconds));
const d = median(theirs.map((r) => r.seconds));
const rss = Math.max(...ours.map((r) => r.rssMiB ?? NaN));
const drss = Math.max(...theirs.map((r) => r.rssMiB ?? NaN));
console.log(`dry run of the reference job, ${ROWS.toLocaleString('en-US')} rows x 10 columns (median of ${RUNS})`);
console.log(line('import dry-run wall time', `${t.toFixed(2)} s (${Math.round(ROWS / t).toLocaleString('en-US')} rows/s)`));
console.log(line('import dry-run runs (s)', ours.map((r) => r.seconds.toFixed(2)).join(', ')));
console.log(line('import dry-run peak RSS', `${rss.toFixed(0)} MiB (target <= 250 MiB)`));
console.log(line('DuckDB (2 threads) wall time', `${d.toFixed(2)} s`));
console.log(line('DuckDB peak RSS', `${drss.toFixed(0)} MiB`));
console.log(line('ratio import / DuckDB', `${(t / d).toFixed(2)}x (target <= 1.5x, aim 1.0x)`));
console.log(line('rows out (import / DuckDB)', `${rowsOut.toLocaleString('en-US')} (${sameRows ? 'same' : 'DIFFERENT'})`));
process.exitCode = sameRows ? 0 : 1;
