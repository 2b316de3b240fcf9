// Benchmark: `import serve`'s memory after many small jobs (issue 12: records on disk, a bounded
// cache in memory). 10,000 jobs (BENCH_JOBS), each start (jsonData, 20 rows) + a text update + run
// with returnWhenComplete, 8 clients at once; the server's RSS at every quarter, against the anchor,
// its RSS after the first 1,000 jobs (warm: engine threads up, heaps grown). Target: the RSS after all
// jobs at most 200 MiB and at most 1.25x the anchor, whatever the number of jobs (with every record
// kept in memory, ~29 KiB a job, 10,000 jobs would add some 280 MiB).
// Needs the build: `npm run build && node test/bench/serve-jobs.bench.mjs` (or `npm run bench serve-jobs`).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { line, startServe } from './lib.mjs';

const JOBS = Number(process.env.BENCH_JOBS ?? 10_000);
const CLIENTS = 8;
const BOUND_MIB = 200;
const BOUND_RATIO = 1.25;
const ANCHOR_JOBS = Math.min(1000, Math.ceil(JOBS / 10));
const PREFIX = '/public/client-side/v1';

const dataDir = mkdtempSync(join(tmpdir(), 'import-serve-jobs-bench-'));
const serve = await startServe(['--data-dir', dataDir]);
const { url } = serve;
const api = url + PREFIX;
const rows = JSON.stringify(Array.from({ length: 20 }, (_, i) => ({ id: i, name: `Customer ${i}`, email: `c${i}@example.com`, amount: `${i * 3}.50`, country: i % 2 ? 'us' : 'fr' })));

async function json(method, path, body) {
  const response = await fetch(api + path, { method, headers: { 'content-type': 'application/json', 'x-api-key': 'bench' }, body: JSON.stringify(body) });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

async function oneJob(i) {
  const form = new FormData();
  form.append('jsonData', rows);
  form.append('jobName', `small ${i}`);
  const response = await fetch(api + '/start', { method: 'POST', body: form, headers: { 'x-api-key': 'bench' } });
  const { jobId } = await response.json();
  if (!jobId) throw new Error(`start failed: ${response.status}`);
  await json('POST', `/text-processing-methods/${jobId}`, { textProcessingMethods: { casing: { country: 'upper' } } });
  const run = await json('POST', `/run/${jobId}`, { returnWhenComplete: true });
  if (run.status !== 'succeeded') throw new Error(`run: ${JSON.stringify(run)}`);
}

const health = async () => (await fetch(`${url}/healthz`)).json();
const samples = [];
let next = 0;
const started = Date.now();
async function client() {
  for (;;) {
    const i = next++;
    if (i >= JOBS) return;
    await oneJob(i);
    if (i + 1 === ANCHOR_JOBS || (i + 1) % Math.ceil(JOBS / 4) === 0) {
      const h = await health();
      samples.push({ jobs: i + 1, rss: h.memoryMiB.rss, records: h.recordsInMemory });
    }
  }
}
await Promise.all(Array.from({ length: CLIENTS }, client));
const seconds = (Date.now() - started) / 1000;
const end = await health();
const peak = await serve.stop();
rmSync(dataDir, { recursive: true, force: true });

samples.sort((a, b) => a.jobs - b.jobs);
const anchor = samples.find((s) => s.jobs === ANCHOR_JOBS) ?? samples[0];
console.log(`import serve: ${JOBS.toLocaleString('en-US')} small jobs (start + update + run), ${CLIENTS} clients, ${seconds.toFixed(0)} s (${Math.round(JOBS / seconds)} jobs/s)`);
for (const s of samples) console.log(line(`  RSS after ${s.jobs.toLocaleString('en-US')} jobs`, `${s.rss.toFixed(0)} MiB (${s.records} records in memory)`));
const ratio = end.memoryMiB.rss / anchor.rss;
console.log(line('server RSS after all jobs', `${end.memoryMiB.rss.toFixed(0)} MiB (target <= ${BOUND_MIB} MiB)`));
console.log(line(`ratio to the RSS after ${ANCHOR_JOBS.toLocaleString('en-US')} jobs (anchor)`, `${ratio.toFixed(2)}x (target <= ${BOUND_RATIO}x)`));
console.log(line('server peak RSS (whole bench)', `${peak.toFixed(0)} MiB`));
console.log(line('jobs known / records in memory at the end', `${end.jobs} / ${end.recordsInMemory}`));
process.exitCode = end.memoryMiB.rss <= BOUND_MIB && ratio <= BOUND_RATIO && end.jobs === JOBS ? 0 : 1;
