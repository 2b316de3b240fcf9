// Benchmark: `import dry-run` of the reference job (../shared/bench/PIPELINE.md, job-1m.yaml) vs
// the same pipeline as one DuckDB SQL statement, the anchor: the default run (two worker threads
// for a large CSV) against DuckDB on 2 threads, and the one-thread engine (IMPORT_ENGINE_THREADS=1)
// against DuckDB with threads=1, all four run in turn in each round. Every output must hold the
// same number of rows, or the comparison is void.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, RSS_HOOK, line, median, referenceJob, run } from './lib.mjs';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const { dir, file, job } = await referenceJob(ROWS);
const lines = (path) => readFileSync(path).reduce((n, byte) => (byte === 10 ? n + 1 : n), 0);

/** The measured variants, in the order each round runs them. */
const variants = [
  { name: 'import dry-run (default: 2 threads)', threads: undefined },
  { name: 'DuckDB (2 threads)', duck: '2' },
  { name: 'import dry-run (1 thread)', threads: '1' },
  { name: 'DuckDB (threads=1)', duck: '1' },
].map((v, i) => ({ ...v, out: join(dir, `out-${i}.csv`), runs: [] }));

for (let i = 0; i < RUNS; i++) {
  for (const v of variants) {
    v.runs.push(v.duck
      ? await run(process.execPath, ['--import', RSS_HOOK, join(ROOT, 'test', 'bench', 'duckdb-pipeline.mjs'), file, v.out, v.duck])
      : await run(process.execPath, ['--import', RSS_HOOK, join(ROOT, 'bin', 'import.js'), 'dry-run', job, '--out', v.out], {
        env: { ...process.env, NO_COLOR: '1', ...(v.threads ? { IMPORT_ENGINE_THREADS: v.threads } : {}) },
      }));
  }
}
const rowsOut = variants.map((v) => lines(v.out) - 1);
const sameRows = rowsOut.every((n) => n === rowsOut[0]);
const time = (v) => median(v.runs.map((r) => r.seconds));
const rss = (v) => Math.max(...v.runs.map((r) => r.rssMiB ?? NaN));
console.log(`dry run of the reference job, ${ROWS.toLocaleString('en-US')} rows x 10 columns (median of ${RUNS}, in turn)`);
for (const v of variants) {
  console.log(line(`${v.name} wall time`, `${time(v).toFixed(2)} s (runs ${v.runs.map((r) => r.seconds.toFixed(2)).join(', ')}; ${Math.round(ROWS / time(v)).toLocaleString('en-US')} rows/s)`));
  console.log(line(`${v.name} peak RSS`, `${rss(v).toFixed(0)} MiB`));
}
const [ours2, duck2, ours1, duck1] = variants;
console.log(line('ratio import / DuckDB, default (2 threads)', `${(time(ours2) / time(duck2)).toFixed(2)}x (target <= 0.8x)`));
console.log(line('ratio import / DuckDB, 1 thread', `${(time(ours1) / time(duck1)).toFixed(2)}x (target <= 1.0x)`));
console.log(line('import peak RSS, default', `${rss(ours2).toFixed(0)} MiB (target <= 150 MiB)`));
console.log(line('rows out (each variant)', `${rowsOut.map((n) => n.toLocaleString('en-US')).join(' / ')} (${sameRows ? 'same' : 'DIFFERENT'})`));
process.exitCode = sameRows ? 0 : 1;
