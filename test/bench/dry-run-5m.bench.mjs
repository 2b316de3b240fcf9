// Benchmark: does the dry run scale with the row count? The reference job (job-1m.yaml) at 5M rows
// against the same job at 1M rows, run in turn (default threads): the 5M time over 5x the 1M time,
// and the peak RSS, with DuckDB (2 threads) at 5M as the memory anchor. BENCH_BIG_ROWS changes 5M.
import { join } from 'node:path';
import { ROOT, RSS_HOOK, line, median, referenceJob, run } from './lib.mjs';

const SMALL = 1_000_000;
const BIG = Number(process.env.BENCH_BIG_ROWS ?? 5_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const small = await referenceJob(SMALL);
const big = await referenceJob(BIG);
const dryRun = (job, out) => run(process.execPath, ['--import', RSS_HOOK, join(ROOT, 'bin', 'import.js'), 'dry-run', job, '--out', out], { env: { ...process.env, NO_COLOR: '1' } });

const ours1m = [];
const ours5m = [];
const duck5m = [];
for (let i = 0; i < RUNS; i++) {
  ours1m.push(await dryRun(small.job, join(small.dir, 'out-scale.csv')));
  ours5m.push(await dryRun(big.job, join(big.dir, 'out-scale.csv')));
  duck5m.push(await run(process.execPath, ['--import', RSS_HOOK, join(ROOT, 'test', 'bench', 'duckdb-pipeline.mjs'), big.file, join(big.dir, 'out-duckdb.csv'), '2']));
}
const t1 = median(ours1m.map((r) => r.seconds));
const t5 = median(ours5m.map((r) => r.seconds));
const d5 = median(duck5m.map((r) => r.seconds));
const rss = (runs) => Math.max(...runs.map((r) => r.rssMiB ?? NaN));
const k = BIG / SMALL;
console.log(`dry run of the reference job at ${BIG.toLocaleString('en-US')} rows vs ${SMALL.toLocaleString('en-US')} (median of ${RUNS}, in turn)`);
console.log(line(`import dry-run, ${SMALL.toLocaleString('en-US')} rows`, `${t1.toFixed(2)} s, peak RSS ${rss(ours1m).toFixed(0)} MiB`));
console.log(line(`import dry-run, ${BIG.toLocaleString('en-US')} rows`, `${t5.toFixed(2)} s, peak RSS ${rss(ours5m).toFixed(0)} MiB (target <= 400 MiB)`));
console.log(line(`time / ${k}x the ${SMALL.toLocaleString('en-US')}-row time`, `${(t5 / (k * t1)).toFixed(2)} (target <= 1.1)`));
console.log(line(`DuckDB (2 threads), ${BIG.toLocaleString('en-US')} rows`, `${d5.toFixed(2)} s, peak RSS ${rss(duck5m).toFixed(0)} MiB`));
console.log(line('ratio import / DuckDB at the large size', `${(t5 / d5).toFixed(2)}x`));
