// Inputs whose cost once grew faster than their size (issue 11): a CSV whose header line has no line
// break (was 1.3 s at 16 MB, 14.5 s at 64 MB, 59 s / 2.3 GB at 128 MB: a rescan per chunk) and
// 80,000 columns (was 15 s in combinedFields). Each is timed beside the same input 4x smaller, so
// the ratio shows how the cost grows (linear: ~4x; the header line is refused past 4 MiB, so its
// time stays flat), plus peak RSS.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_DIR, RSS_HOOK, ROOT, line, median, run } from './lib.mjs';

const RUNS = Number(process.env.IMPORT_BENCH_RUNS ?? 3);
const bin = join(ROOT, 'bin', 'import.js');
const dir = join(BENCH_DIR, 'wide');
mkdirSync(dir, { recursive: true });

/** A file of `mb` MB whose first line never ends: comma-separated names. */
function headerLine(mb) {
  const file = join(dir, `header-${mb}mb.csv`);
  if (!existsSync(file)) {
    const piece = Array.from({ length: 1000 }, (_, i) => `column_${i}`).join(',') + ',';
    writeFileSync(file, piece.repeat(Math.ceil((mb * 1e6) / piece.length)));
  }
  return file;
}

/** A CSV of `columns` columns and 10 rows, and a job file (identity mapping, no schema). */
function wide(columns) {
  const file = join(dir, `wide-${columns}.csv`);
  const job = join(dir, `wide-${columns}.yaml`);
  if (!existsSync(file)) {
    const header = Array.from({ length: columns }, (_, i) => `c${i}`).join(',');
    const row = Array.from({ length: columns }, (_, i) => String(i % 97)).join(',');
    writeFileSync(file, [header, ...Array(10).fill(row)].join('\n') + '\n');
    writeFileSync(job, `version: 1\ninput:\n  file: ./wide-${columns}.csv\n`);
  }
  return job;
}

/** Median wall time and peak RSS of a dry run. */
async function dryRun(args) {
  const times = [];
  let rss = 0;
  for (let i = 0; i < RUNS; i++) {
    const r = await run(process.execPath, ['--import', RSS_HOOK, bin, ...args]);
    times.push(r.seconds);
    rss = Math.max(rss, r.rssMiB ?? 0);
  }
  return { seconds: median(times), rss };
}

const results = [];
const out = join(dir, 'out.csv');
for (const [small, large] of [[16, 64]]) {
  const a = await timeRefusal(headerLine(small));
  const b = await timeRefusal(headerLine(large));
  results.push(line(`header line, no break: ${small} MB (exit 2)`, `${a.toFixed(2)} s`));
  results.push(line(`header line, no break: ${large} MB (exit 2)`, `${b.toFixed(2)} s (was 14.5 s)`));
  results.push(line(`  ratio ${large} MB / ${small} MB (flat: refused at 4 MiB)`, `${(b / a).toFixed(2)}x`));
}
{
  const small = await dryRun(['dry-run', wide(20_000), '--out', out]);
  const large = await dryRun(['dry-run', wide(80_000), '--out', out]);
  results.push(line('20,000 columns x 10 rows: dry run', `${small.seconds.toFixed(2)} s, ${small.rss.toFixed(0)} MiB`));
  results.push(line('80,000 columns x 10 rows: dry run', `${large.seconds.toFixed(2)} s, ${large.rss.toFixed(0)} MiB (was 15 s in combinedFields)`));
  results.push(line('  ratio 80,000 / 20,000 columns (linear: ~4x)', `${(large.seconds / small.seconds).toFixed(2)}x`));
}
for (const r of results) console.log(r);

/** Median time of a dry run of `file` as the input (a job file naming it), which must be refused with exit 2. */
async function timeRefusal(file) {
  const job = `${file}.yaml`;
  writeFileSync(job, `version: 1\ninput:\n  file: ${JSON.stringify(file)}\n`);
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const started = process.hrtime.bigint();
    const { code, stderr } = await new Promise((resolve) => {
      const child = spawn(process.execPath, [bin, 'dry-run', job, '--out', out], { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.on('data', (d) => { err += d; });
      child.on('close', (c) => resolve({ code: c, stderr: err }));
    });
    if (code !== 2 || !/header line is longer than/.test(stderr)) throw new Error(`expected a refusal (exit 2), got ${code}: ${stderr}`);
    times.push(Number(process.hrtime.bigint() - started) / 1e9);
  }
  return median(times);
}
