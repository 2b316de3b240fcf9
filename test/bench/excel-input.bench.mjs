// Benchmark: reading a workbook (issue 13, Excel input). The reference job at 200k rows with Excel
// output writes the workbook (188k rows x 9 columns: numbers, dates, text); then, in turn, a dry run
// of a job that reads it (identity mapping, CSV output) against Python's openpyxl in read-only mode
// iterating every cell (skipped with a message when Debian's python3-openpyxl is absent). Besides
// wall time, each side's user+sys CPU seconds (its own count, threads included), which the other
// load of a shared machine disturbs less.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, RSS_HOOK, line, median, referenceJob, run } from './lib.mjs';

const ROWS = Number(process.env.BENCH_ROWS ?? 200_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

/** A python3 that has openpyxl: Debian's first (a pyenv or venv python on PATH may lack it). */
function pythonWithOpenpyxl() {
  for (const python of ['/usr/bin/python3', 'python3']) {
    try {
      execFileSync(python, ['-c', 'import openpyxl'], { stdio: 'ignore' });
      return python;
    } catch {
      // not this one
    }
  }
  return undefined;
}

const importJs = join(ROOT, 'bin', 'import.js');
const env = { ...process.env, NO_COLOR: '1' };
const { dir, job } = await referenceJob(ROWS);

// The workbook: the reference job's output as Excel.
const writeJob = join(dir, 'job-write-xlsx.yaml');
writeFileSync(writeJob, readFileSync(job, 'utf8').replace(/^input:/m, 'options:\n  outputFileType: excel\ninput:'));
const workbook = join(dir, 'input.xlsx');
await run(process.execPath, [importJs, 'dry-run', writeJob, '--out', workbook], { env });

// The job that reads it: no schema, so each column maps to itself.
const readJob = join(dir, 'job-read-xlsx.yaml');
writeFileSync(readJob, `version: 1\ninput:\n  file: ${JSON.stringify(workbook)}\n`);
const readOut = join(dir, 'out-read-xlsx.csv');

// Each process's own user+sys CPU seconds, printed to stderr on exit.
const cpuHook = join(dir, 'cpu-hook.mjs');
writeFileSync(cpuHook, "process.on('exit', () => { const u = process.cpuUsage(); process.stderr.write(`\\n@@cpu ${(u.user + u.system) / 1e6}\\n`); });\n");
const cpuOf = (r) => Number(/@@cpu ([\d.]+)/.exec(r.stderr)?.[1]);

const python = pythonWithOpenpyxl();
const OPENPYXL = `
import resource, sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1], read_only=True, data_only=True)
n = 0
for row in wb.worksheets[0].iter_rows(values_only=True):
    n += 1
print(n - 1)
u = resource.getrusage(resource.RUSAGE_SELF)
print(f"@@cpu {u.ru_utime + u.ru_stime}", file=sys.stderr)
`;

const ours = [];
const theirs = [];
let rowsRead;
for (let i = 0; i < RUNS; i++) {
  const r = await run(process.execPath, ['--import', RSS_HOOK, '--import', cpuHook, importJs, 'dry-run', readJob, '--out', readOut], { env });
  rowsRead = Number(/Rows: (\d+) in/.exec(r.stderr)?.[1]);
  ours.push(r);
  if (python) theirs.push(await run(python, ['-c', OPENPYXL, workbook]));
}

console.log(`reading a workbook of ${rowsRead.toLocaleString('en-US')} rows (the reference job's Excel output at ${ROWS.toLocaleString('en-US')} rows in), median of ${RUNS}, in turn`);
const oursMedian = median(ours.map((r) => r.seconds));
const oursCpu = median(ours.map(cpuOf));
console.log(line('import dry-run of the workbook, wall time', `${oursMedian.toFixed(2)} s (runs ${ours.map((r) => r.seconds.toFixed(2)).join(', ')}), peak RSS ${Math.round(median(ours.map((r) => r.rssMiB)))} MiB`));
console.log(line('import dry-run, user+sys CPU', `${oursCpu.toFixed(2)} s (runs ${ours.map((r) => cpuOf(r).toFixed(2)).join(', ')})`));
if (!python) {
  console.log(line('openpyxl read-only (anchor)', 'skipped: no python3 with openpyxl (apt-get install python3-openpyxl)'));
} else {
  const theirsMedian = median(theirs.map((r) => r.seconds));
  const counted = Number(theirs.at(-1).stdout.trim());
  console.log(line('openpyxl read-only, every cell (anchor)', `${theirsMedian.toFixed(2)} s (runs ${theirs.map((r) => r.seconds.toFixed(2)).join(', ')}), ${counted.toLocaleString('en-US')} rows`));
  const theirsCpu = median(theirs.map(cpuOf));
  console.log(line('openpyxl, user+sys CPU', `${theirsCpu.toFixed(2)} s (runs ${theirs.map((r) => cpuOf(r).toFixed(2)).join(', ')})`));
  console.log(line('ratio import / openpyxl', `${(oursMedian / theirsMedian).toFixed(2)}x (target <= 0.25x); CPU ${(oursCpu / theirsCpu).toFixed(2)}x`));
  if (counted !== rowsRead) {
    console.log(line('rows read (import / openpyxl)', `${rowsRead} / ${counted}: DIFFERENT, the comparison is void`));
    process.exitCode = 1;
  }
}
