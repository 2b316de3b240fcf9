// Benchmark: the text rule of the reference job (`[^0-9]` -> "" on phone numbers, 1M values as
// generate.mjs writes them) compiled by the engine (src/engine/regex.ts: V8 with its linear-time
// fallback on), against the anchor, a plain V8 RegExp in a process without the fallback; in turn,
// each in its own process, 5 rounds. Target: the same speed (ratio <= 1.1x). Also the hostile case:
// `(a+)+$` on forty `a` and a `!`, per value, which a plain backtracking engine never finishes.
// Needs the build: `npm run build && node test/bench/regex.bench.mjs` (or `npm run bench regex`).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, line, median } from './lib.mjs';

const VALUES = 1_000_000;
const ROUNDS = 5;
const regexModule = pathToFileURL(join(ROOT, 'dist', 'engine', 'regex.js')).href;

/** Code run in a child: builds the values, replaces over them 3 times, prints the best time in ms. */
function script(compile) {
  return `
    ${compile}
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const pad = (n, w) => String(Math.floor(n)).padStart(w, '0');
    const values = [];
    for (let i = 0; i < ${VALUES}; i++) {
      const a = pad(rand() * 1000, 3), b = pad(rand() * 10000, 4), r = rand();
      values.push(r < 0.8 ? '(555) ' + a + '-' + b : r < 0.9 ? '555-' + a + '-' + b : '+1 555 ' + a + ' ' + b);
    }
    let best = Infinity, sink = 0;
    for (let k = 0; k < 3; k++) {
      const t = process.hrtime.bigint();
      for (const v of values) sink += v.replace(re, '').length;
      best = Math.min(best, Number(process.hrtime.bigint() - t) / 1e6);
    }
    let hostile = NaN;
    if (${JSON.stringify(compile)}.includes('compileRegex')) {
      const bad = compileRegex('(a+)+$', 'bench'), value = 'a'.repeat(40) + '!';
      const t = process.hrtime.bigint();
      for (let i = 0; i < 2000; i++) sink += value.replace(bad, 'X').length;
      hostile = Number(process.hrtime.bigint() - t) / 1e6 / 2000;
    }
    console.log(JSON.stringify({ ms: best, hostile, sink }));
  `;
}

function measure(compile) {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script(compile)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

const plain = [];
const engine = [];
let hostile = NaN;
for (let i = 0; i < ROUNDS; i++) {
  plain.push(measure("const re = new RegExp('[^0-9]', 'g');").ms);
  const e = measure(`import { compileRegex } from ${JSON.stringify(regexModule)}; const re = compileRegex('[^0-9]', 'bench');`);
  engine.push(e.ms);
  hostile = e.hostile;
}
const p = median(plain);
const e = median(engine);
console.log(`text rule [^0-9] -> "" on ${VALUES.toLocaleString('en-US')} phone numbers, best of 3 passes, median of ${ROUNDS} rounds in turn`);
console.log(line('plain V8 RegExp (anchor)', `${p.toFixed(0)} ms`));
console.log(line('engine (V8 with linear-time fallback)', `${e.toFixed(0)} ms`));
console.log(line('ratio engine / anchor', `${(e / p).toFixed(2)}x (target <= 1.1x)`));
console.log(line('(a+)+$ on 40 a and !, per value', `${hostile.toFixed(3)} ms (a backtracking engine alone: never ends)`));
process.exitCode = e / p <= 1.1 ? 0 : 1;
