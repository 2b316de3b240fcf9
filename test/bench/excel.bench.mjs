// Benchmark: Excel output of the reference job (../shared/bench/PIPELINE.md, job-1m.yaml with
// `outputFileType: excel`) against the CSV dry run of the same job, the anchor, run in turn; and
// Python's xlsxwriter (constant_memory) writing the same rows (skipped with a message when
// python3-xlsxwriter is absent). A smaller run shows whether memory is flat in the row count.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, RSS_HOOK, line, median, referenceJob, run } from './lib.mjs';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SMALL = Math.round(ROWS / 5);

/** The reference job with Excel output, beside the shared job file. */
function excelJob(job) {
  const path = job.replace(/\.yaml$/, '.excel.yaml');
  writeFileSync(path, readFileSync(job, 'utf8').replace(/^input:/m, 'options:\n  outputFileType: excel\ninput:'));
  return path;
}

/** A python3 that has xlsxwriter: Debian's first (a pyenv or venv python on PATH may lack it). */
function pythonWithXlsxwriter() {
  for (const python of ['/usr/bin/python3', 'python3']) {
    try {
      execFileSync(python, ['-c', 'import xlsxwriter'], { stdio: 'ignore' });
      return python;
    } catch {
      // not this one
    }
  }
  return undefined;
}

const dryRun = (job, out) => run(process.execPath, ['--import', RSS_HOOK, join(ROOT, 'bin', 'import.js'), 'dry-run', job, '--out', out], { env: { ...process.env, NO_COLOR: '1' } });
const rowsWritten = (r) => Number(/Wrote (\d+) rows/.exec(r.stderr)?.[1]);

const { dir, job } = await referenceJob(ROWS);
const xlsxJob = excelJob(job);
const csvOut = join(dir, 'out-excel-bench.csv');
const xlsxOut = join(dir, 'out-excel-bench.xlsx');
const pyOut = join(dir, 'out-xlsxwriter.xlsx');
// BENCH_XLSXWRITER=0 leaves out the xlsxwriter reference (slow on a busy machine: it is not an in-turn anchor).
const python = process.env.BENCH_XLSXWRITER === '0' ? undefined : pythonWithXlsxwriter();

const excel = [];
const csv = [];
const py = [];
for (let i = 0; i < RUNS; i++) {
  excel.push(await dryRun(xlsxJob, xlsxOut));
  csv.push(await dryRun(job, csvOut));
}
// A reference, not the anchor: run once, after the pairs. The CSV output holds the same rows.
if (python) py.push(await run(python, [join(ROOT, 'test', 'bench', 'xlsxwriter-write.py'), csvOut, pyOut, 'n,s,s,s,n,s,d,s,s']));
const small = await referenceJob(SMALL);
const smallRun = await dryRun(excelJob(small.job), join(small.dir, 'out-excel-bench.xlsx'));

const sameRows = excel.every((r) => rowsWritten(r) === rowsWritten(csv[0]));
const t = median(excel.map((r) => r.seconds));
const c = median(csv.map((r) => r.seconds));
const rss = Math.max(...excel.map((r) => r.rssMiB ?? NaN));
const crss = Math.max(...csv.map((r) => r.rssMiB ?? NaN));
const rowsOut = rowsWritten(excel[0]);
console.log(`Excel output of the reference job, ${ROWS.toLocaleString('en-US')} rows in, ${rowsOut.toLocaleString('en-US')} out (median of ${RUNS})`);
console.log(line('Excel dry run wall time', `${t.toFixed(2)} s (${Math.round(rowsOut / t).toLocaleString('en-US')} rows/s written)`));
console.log(line('Excel dry run runs (s)', excel.map((r) => r.seconds.toFixed(2)).join(', ')));
console.log(line('Excel dry run peak RSS', `${rss.toFixed(0)} MiB (target <= 200 MiB)`));
console.log(line(`Excel dry run peak RSS at ${SMALL.toLocaleString('en-US')} rows`, `${(smallRun.rssMiB ?? NaN).toFixed(0)} MiB (flat: same as above)`));
console.log(line('workbook size', `${(statSync(xlsxOut).size / 1e6).toFixed(1)} MB`));
console.log(line('CSV dry run wall time (anchor)', `${c.toFixed(2)} s, peak RSS ${crss.toFixed(0)} MiB`));
// Pair by pair (each Excel run with the CSV run right after it): steadier on a busy machine.
const paired = median(excel.map((r, i) => r.seconds / csv[i].seconds));
console.log(line('ratio Excel / CSV dry run', `${paired.toFixed(2)}x, median of in-turn pairs (of medians: ${(t / c).toFixed(2)}x; target <= 1.5x)`));
if (python) {
  const p = median(py.map((r) => r.seconds));
  const prss = Math.max(...py.map((r) => r.rssMiB ?? NaN));
  console.log(line('xlsxwriter constant_memory, same rows (once)', `${p.toFixed(2)} s, peak RSS ${prss.toFixed(0)} MiB, ${(statSync(pyOut).size / 1e6).toFixed(1)} MB`));
  console.log(line('ratio Excel dry run / xlsxwriter', `${(t / p).toFixed(2)}x (the dry run also reads and transforms)`));
} else {
  console.log(`xlsxwriter: skipped (${process.env.BENCH_XLSXWRITER === '0' ? 'BENCH_XLSXWRITER=0' : 'python3-xlsxwriter is not installed: apt-get install -y python3-xlsxwriter'})`);
}
console.log(line('rows out (Excel / CSV)', `${rowsOut.toLocaleString('en-US')} (${sameRows ? 'same' : 'DIFFERENT'})`));
process.exitCode = sameRows ? 0 : 1;
