// `import start --file` of a 2 GiB file to a loopback server that discards the body, against
// `curl -F files=@FILE` to the same server: wall-time ratio (target <= 2x, aim 1.3x) and the
// CLI's peak RSS (target <= 150 MiB). The file is generated in the bench dir, never committed.
import { createServer } from 'node:http';
import { createWriteStream, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { BENCH_DIR, ROOT, RSS_HOOK, line, median, run } from './lib.mjs';

const SIZE = Number(process.env.IMPORT_BENCH_UPLOAD_BYTES ?? 2 * 1024 ** 3);
const RUNS = Number(process.env.IMPORT_BENCH_RUNS ?? 3);
const bin = join(ROOT, 'bin', 'import.js');

/** A CSV-looking file of SIZE bytes, written once. */
async function bigFile() {
  mkdirSync(BENCH_DIR, { recursive: true });
  const file = join(BENCH_DIR, `upload-${SIZE}.csv`);
  if (existsSync(file) && statSync(file).size === SIZE) return file;
  const row = 'id,name,email,amount,country,created_at\n';
  let block = row;
  let i = 0;
  while (block.length < 1024 * 1024) block += `${i},Name ${i % 977},user${i}@example.com,${(i * 7.31).toFixed(2)},US,2024-03-05T12:00:00\n`, i++;
  const chunk = Buffer.from(block.slice(0, 1024 * 1024));
  const out = createWriteStream(file);
  for (let written = 0; written < SIZE; written += chunk.length) {
    const piece = SIZE - written >= chunk.length ? chunk : chunk.subarray(0, SIZE - written);
    if (!out.write(piece)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return file;
}

/** A server that reads and discards every body and answers start with a job id. */
async function discardServer() {
  let received = 0;
  const server = createServer((req, res) => {
    let n = 0;
    req.on('data', (c) => { n += c.length; });
    req.on('end', () => {
      received = n;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"jobId":"bench"}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${server.address().port}`, received: () => received };
}

const file = await bigFile();
const { server, url, received } = await discardServer();
const curlTimes = [];
const cliTimes = [];
const rss = [];
try {
  for (let i = 0; i < RUNS; i++) {
    const c = await run('curl', ['-sS', '-o', '/dev/null', '-F', `files=@${file}`, `${url}/public/client-side/v1/start`]);
    curlTimes.push(c.seconds);
    const curlBytes = received();
    const r = await run(process.execPath, ['--import', RSS_HOOK, bin, 'start', '--file', file, '--base-url', url, '--api-key', 'bench-key'],
      { env: { ...process.env, NO_COLOR: '1', CI: '1' } });
    if (r.stdout.trim() !== 'bench') throw new Error(`unexpected output: ${r.stdout}`);
    cliTimes.push(r.seconds);
    rss.push(r.rssMiB);
    if (received() < SIZE || curlBytes < SIZE) throw new Error(`server received ${received()} / ${curlBytes} bytes, expected more than ${SIZE}`);
  }
} finally {
  server.close();
  // 2 GiB is too much to leave behind; IMPORT_BENCH_KEEP=1 keeps it for repeated runs.
  if (!process.env.IMPORT_BENCH_KEEP) rmSync(file, { force: true });
}
const curl = median(curlTimes);
const cli = median(cliTimes);
const peak = Math.max(...rss);
const gib = SIZE / 1024 ** 3;
console.log(line('file size', `${gib.toFixed(2)} GiB`));
console.log(line('curl -F files=@FILE (median)', `${curl.toFixed(2)} s (${(gib / curl).toFixed(2)} GiB/s)`));
console.log(line('import start --file (median)', `${cli.toFixed(2)} s (${(gib / cli).toFixed(2)} GiB/s)`));
console.log(line('ratio import / curl (target <= 2)', `${(cli / curl).toFixed(2)}x`));
console.log(line('import peak RSS (target <= 150 MiB)', `${peak.toFixed(1)} MiB`));
process.exitCode = cli / curl <= 2 && peak <= 150 ? 0 : 1;
