// Benchmark: `import dry-run` of the 1M-row reference workload vs the same pipeline in DuckDB (2 threads).
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_DIR, ROOT, RSS_HOOK, line, median, referenceFile, run } from './lib.mjs';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const file = await referenceFile(ROWS);
const job = join(BENCH_DIR, 'job-1m.yaml');
copyFileSync(join(ROOT, 'test', 'bench', 'job-1m.yaml'), job);
if (!file.endsWith('bench-1m.csv')) copyFileSync(file, join(BENCH_DIR, 'bench-1m.csv'));

const ours = [];
const theirs = [];
for (let i = 0; i < RUNS; i++) {
  ours.push(await run(process.execPath, ['--import', RSS_HOOK, join(ROOT, 'bin', 'import.js'), 'dry-run', job, '--out', join(BENCH_DIR, 'out-import.csv')], { env: { ...process.env, NO_COLOR: '1' } }));
  theirs.push(await run(process.execPath, ['--import', RSS_HOOK, join(ROOT, 'test', 'bench', 'duckdb-pipeline.mjs'), file, join(BENCH_DIR, 'out-duckdb.csv')]));
}
const t = median(ours.map((r) => r.seconds));
const d = median(theirs.map((r) => r.seconds));
const rss = Math.max(...ours.map((r) => r.rssMiB ?? NaN));
const drss = Math.max(...theirs.map((r) => r.rssMiB ?? NaN));
console.log(`dry run of ${ROWS.toLocaleString('en-US')} rows x 10 columns (median of ${RUNS})`);
console.log(line('import dry-run wall time', `${t.toFixed(2)} s (${Math.round(ROWS / t).toLocaleString('en-US')} rows/s)`));
console.log(line('import dry-run peak RSS', `${rss.toFixed(0)} MiB (target <= 250 MiB)`));
console.log(line('DuckDB (2 threads) wall time', `${d.toFixed(2)} s`));
console.log(line('DuckDB peak RSS', `${drss.toFixed(0)} MiB`));
console.log(line('ratio import / DuckDB', `${(t / d).toFixed(2)}x (target <= 1.5x, aim 1.0x)`));
