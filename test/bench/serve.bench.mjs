// Benchmark: the 1M-row reference job through `import serve` (start + the job file's updates + run
// with returnWhenComplete) vs `import dry-run` of the same job; the server's peak RSS; then a
// bounded loopback load on the GET endpoints while a large job runs, with the event loop's worst delay.
// Needs the build: `npm run build && node test/bench/serve.bench.mjs` (or `npm run bench serve`).
import { createHash } from 'node:crypto';
import { createReadStream, mkdtempSync, openAsBlob, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool, request } from 'undici';
import { ROOT, line, median, referenceJob, run, startServe } from './lib.mjs';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 30);
const PREFIX = '/public/client-side/v1';

const { loadJobFile } = await import(join(ROOT, 'dist', 'jobfile', 'load.js'));
const { desiredBodies, currentBodies, changedResources } = await import(join(ROOT, 'dist', 'jobfile', 'translate.js'));
// Update bodies hold ordered Maps (text rules): written as `import` writes them, not JSON.stringify's `{}`.
const { stringifyJson } = await import(join(ROOT, 'dist', 'contract', 'json.js'));
// The upload is the body `import run job.yaml` sends (the CLI's multipartBody: text parts first, the
// file streamed from disk in 256 KiB chunks), not fetch's FormData (file first, a Blob stream). Sent
// with undici as the CLI's client does, without importing client.js: its --liftoff-only flag would
// slow this process's load client below.
const { multipartBody, startFields } = await import(join(ROOT, 'dist', 'client', 'multipart.js'));

// ---- the workload: the reference file, its job file, and the job file's schema as a pipeline ----
const { dir, file, job } = await referenceJob(ROWS);
const jobFile = await loadJobFile(job, process.env);
const PIPELINE = jobFile.pipeline;
const schemaFile = join(dir, 'pipeline.yaml');
writeFileSync(schemaFile, `id: ${PIPELINE}\nexpectedFields: [${jobFile.schema.expectedFields.join(', ')}]\n`);
const dataDir = mkdtempSync(join(tmpdir(), 'import-serve-bench-'));

// ---- the server, with the peak-RSS hook ----
// SERVE_ARGS adds flags to the server (e.g. SERVE_ARGS='--worker-memory 384') to compare settings.
const serve = await startServe(['--data-dir', dataDir, '--schema', schemaFile, ...(process.env.SERVE_ARGS ? process.env.SERVE_ARGS.split(' ') : [])]);
const { url } = serve;
const api = url + PREFIX;
const upload = { path: file, size: statSync(file).size };

/** POST /start with the CLI's multipart body; the job id. */
async function startJob(form) {
  const raw = multipartBody(startFields(form), upload);
  const { statusCode, body } = await request(api + '/start', {
    method: 'POST', body: raw.data, headers: { 'x-api-key': 'bench', 'content-type': raw.contentType, 'content-length': String(raw.length) },
  });
  const answer = await body.json();
  if (statusCode !== 200 || !answer.jobId) throw new Error(`start failed: ${statusCode} ${JSON.stringify(answer)}`);
  return answer.jobId;
}

async function json(method, path, body) {
  const response = await fetch(api + path, {
    method, headers: { 'content-type': 'application/json', 'x-api-key': 'bench' }, body: body === undefined ? undefined : stringifyJson(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

const READS = {
  sheet: 'selected-sheet', fields: 'fields', combining: 'column-combining-methods', dataTypes: 'field-data-types', units: 'units',
  impute: 'impute-methods', pivot: 'pivot', rowDropping: 'row-dropping-methods', text: 'text-processing-methods', scripts: 'scripts',
};
const WRITES = { ...READS, sheet: 'fields' };

/** start + the job file's updates (as `import run job.yaml` sends them) + run with returnWhenComplete. */
async function serveJob() {
  const started = process.hrtime.bigint();
  const jobId = await startJob({ pipelineId: PIPELINE, jobName: 'bench' });
  const startSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const current = {};
  for (const [name, path] of Object.entries(READS)) {
    const body = await json('GET', `/${path}/${jobId}`);
    current[name] = name === 'sheet' ? (body.sheetSelection ? body : null) : body;
  }
  const desired = desiredBodies(jobFile.config, current);
  for (const name of changedResources(currentBodies(current), desired)) {
    await json('POST', `/${WRITES[name]}/${jobId}`, name === 'sheet' ? { sheetSelection: { selected: desired.sheet } } : desired[name]);
  }
  const runStarted = process.hrtime.bigint();
  const result = await json('POST', `/run/${jobId}`, { returnWhenComplete: true });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 'succeeded') throw new Error(`run: ${JSON.stringify(result)}`);
  return { seconds, startSeconds, runSeconds: Number(process.hrtime.bigint() - runStarted) / 1e9, jobId, output: result.output.path, rowsOut: result.rowsOut };
}

function sha256(path) {
  return new Promise((done, fail) => {
    const hash = createHash('sha256');
    createReadStream(path).on('data', (d) => hash.update(d)).on('end', () => done(hash.digest('hex'))).on('error', fail);
  });
}

/**
 * A bounded load: `connections` keep-alive connections, each sending GETs back to back (rotating
 * over `paths`) for `seconds`. undici's Pool, so the client costs little beside the server.
 */
async function loadTest(origin, paths, connections, seconds) {
  const pool = new Pool(origin, { connections, pipelining: 1 });
  const latencies = [];
  let errors = 0;
  let non2xx = 0;
  const end = Date.now() + seconds * 1000;
  await Promise.all(Array.from({ length: connections }, async (_, c) => {
    for (let i = c; Date.now() < end; i++) {
      const started = process.hrtime.bigint();
      try {
        const { statusCode, body } = await pool.request({ method: 'GET', path: paths[i % paths.length], headers: { 'x-api-key': 'bench' } });
        await body.dump();
        if (statusCode < 200 || statusCode >= 300) non2xx++;
      } catch {
        errors++;
      }
      latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  }));
  await pool.close();
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1);
  return { requests: latencies.length, perSecond: latencies.length / seconds, p50: at(0.5), p99: at(0.99), max: latencies.at(-1).toFixed(1), errors, non2xx };
}

// ---- 1. wall time: dry run vs serve, alternating ----
const dry = [];
const served = [];
const dryOut = join(dir, 'out-dry-run.csv');
for (let i = 0; i < RUNS; i++) {
  dry.push(await run(process.execPath, [join(ROOT, 'bin', 'import.js'), 'dry-run', job, '--out', dryOut], { env: { ...process.env, NO_COLOR: '1' } }));
  served.push(await serveJob());
}
const sameOutput = (await sha256(dryOut)) === (await sha256(served.at(-1).output));
const afterRuns = await (await fetch(`${url}/healthz`)).json();

// ---- 2. load: GET endpoints for LOAD_SECONDS over loopback, while large jobs run ----
function startBig() {
  return startJob({ pipelineId: PIPELINE });
}
const loadJob = await (async () => {
  const form = new FormData();
  form.append('files', await openAsBlob(join(ROOT, 'examples', 'customers', 'customers.csv')), 'customers.csv');
  const r = await fetch(api + '/start', { method: 'POST', body: form, headers: { 'x-api-key': 'bench' } });
  return (await r.json()).jobId;
})();
await json('POST', `/run/${loadJob}`, { returnWhenComplete: true });
// The event loop during an upload (busboy parsing, buffers), for the record: uploads are on the request thread.
await fetch(`${url}/healthz?reset`);
const pending = [];
for (let i = 0; i < Math.ceil(LOAD_SECONDS / 8) + 1; i++) pending.push(await startBig());
const duringUploads = (await (await fetch(`${url}/healthz`)).json()).eventLoopDelayMs;
// Jobs started beforehand, so the load window sees running jobs only (run back to back).
await fetch(`${url}/healthz?reset`);
let background = 0;
let stopBackground = false;
const busy = (async () => {
  while (!stopBackground && pending.length) { await json('POST', `/run/${pending.shift()}`, { returnWhenComplete: true }); background++; }
})();
const load = await loadTest(url, Object.values(READS).map((path) => `${PREFIX}/${path}/${loadJob}`), 10, LOAD_SECONDS);
stopBackground = true;
const health = await (await fetch(`${url}/healthz`)).json();
await busy;

const rss = await serve.stop();
rmSync(dataDir, { recursive: true, force: true });

// ---- figures ----
const d = median(dry.map((r) => r.seconds));
const s = median(served.map((r) => r.seconds));
console.log(`import serve: ${ROWS.toLocaleString('en-US')} rows x 10 columns, start + updates + run (returnWhenComplete), median of ${RUNS}`);
console.log(line('import dry-run wall time', `${d.toFixed(2)} s`));
console.log(line('import serve start+run wall time', `${s.toFixed(2)} s (${Math.round(ROWS / s).toLocaleString('en-US')} rows/s)`));
console.log(line('  of which start (upload + suggestions)', `${median(served.map((r) => r.startSeconds)).toFixed(2)} s`));
console.log(line('  of which run', `${median(served.map((r) => r.runSeconds)).toFixed(2)} s`));
console.log(line('dry runs / serve runs (s)', `${dry.map((r) => r.seconds.toFixed(2)).join(', ')} / ${served.map((r) => r.seconds.toFixed(2)).join(', ')}`));
console.log(line('ratio serve / dry run', `${(s / d).toFixed(2)}x (target <= 1.1x)`));
console.log(line('same output bytes as the dry run', sameOutput ? 'yes' : 'NO'));
console.log(line('server peak RSS after the timed jobs', `${afterRuns.memoryMiB.peakRss.toFixed(0)} MiB (target <= 300 MiB)`));
console.log(line('server peak RSS (whole bench, with load)', `${rss.toFixed(0)} MiB`));
console.log(`loopback load: ${LOAD_SECONDS} s, 10 connections, GET on the 10 read endpoints, while ${background} large job(s) ran back to back`);
console.log(line('requests/s (mean)', `${Math.round(load.perSecond).toLocaleString('en-US')} (${load.requests.toLocaleString('en-US')} requests)`));
console.log(line('latency p50 / p99 / max', `${load.p50} / ${load.p99} / ${load.max} ms`));
console.log(line('errors / non-2xx', `${load.errors} / ${load.non2xx}`));
console.log(line('server event loop delay max / p99', `${health.eventLoopDelayMs.max} / ${health.eventLoopDelayMs.p99} ms (target max <= ~50 ms)`));
console.log(line(`  (for the record) during ${Math.round(statSync(file).size / 1e6)} MB uploads`, `${duringUploads.max} / ${duringUploads.p99} ms`));
process.exitCode = sameOutput && load.errors === 0 && load.non2xx === 0 ? 0 : 1;
