#!/usr/bin/env node
// Writes the reference CSV workload deterministically: `node test/bench/generate.mjs <rows> <out.csv>`.
// Streams in large chunks with backpressure, so memory stays constant whatever the row count.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

const [rowsArg, outPath] = process.argv.slice(2);
const rowCount = Number(rowsArg);
if (!outPath || !Number.isInteger(rowCount) || rowCount < 0) {
  process.stderr.write('usage: node test/bench/generate.mjs <rows> <out.csv>\n');
  process.exit(2);
}

/** mulberry32: a small, fast, seeded PRNG, so every run writes the same bytes. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = prng(20240305);
const int = (n) => Math.floor(rand() * n);
const pick = (list) => list[int(list.length)];
const pad = (n, w) => String(n).padStart(w, '0');

const FIRST = ['Mary', 'john', 'ALICE', 'Bob', 'mary-jane', 'José', 'Li', 'Fatima', 'olga', 'Pierre', 'Anne', 'KENJI', 'Sven', 'Chloé', 'ahmed', 'Zoë'];
const LAST = ['mcDONALD', "o'NEIL", 'Smith', 'garcía', 'MÜLLER', 'van der Berg', 'Nguyen', 'de la Cruz', 'Kowalski', 'SILVA', 'Okafor', 'Rossi', 'lee', 'Andersson'];
const DOMAINS = ['example.com', 'mail.test', 'corp.example', 'EXAMPLE.ORG'];
const COUNTRIES = ['US', 'gb', 'De', 'FR', 'es', 'IT', 'nl', 'Be', 'CH', 'at', 'SE', 'no', 'DK', 'fi', 'PL', 'pt', 'IE', 'ca', 'AU', 'jp'];
const STATUS = ['active', 'inactive', 'pending', 'Active', 'closed'];
const NOTES = [
  'Called, left message',
  'Prefers "email" contact',
  'VIP, handle with care, "gold" tier',
  'Moved to new address, see ticket',
  'Said "no thanks", retry later',
  'n/a',
];

const out = createWriteStream(outPath, { highWaterMark: 1 << 20 });
out.on('error', (err) => {
  process.stderr.write(`${outPath}: ${err.message}\n`);
  process.exit(1);
});

const CHUNK_ROWS = 8192;
let parts = ['id,first_name,last_name,email,phone,amount,country,created_at,notes,status'];
let lastId = 100000;
for (let i = 0; i < rowCount; i++) {
  // ~1% of rows repeat an earlier id.
  const id = i > 0 && rand() < 0.01 ? lastId - int(Math.min(lastId - 100000, 50)) : ++lastId;
  const first = pick(FIRST);
  const last = pick(LAST);
  const email = rand() < 0.05 ? '' : `${first.toLowerCase().replace(/[^a-z]/g, '')}.${i}@${pick(DOMAINS)}`;
  const phone = `(555) ${pad(int(1000), 3)}-${pad(int(10000), 4)}`;
  let amount = '';
  if (rand() >= 0.03) {
    const cents = int(500000);
    const whole = Math.floor(cents / 100);
    amount = whole >= 1000 ? `"${Math.floor(whole / 1000)},${pad(whole % 1000, 3)}.${pad(cents % 100, 2)}"` : `${whole}.${pad(cents % 100, 2)}`;
  }
  const country = rand() < 0.04 ? '' : pick(COUNTRIES);
  const created = `2024-${pad(1 + int(12), 2)}-${pad(1 + int(28), 2)} ${pad(int(24), 2)}:${pad(int(60), 2)}:${pad(int(60), 2)}`;
  const notes = `"${pick(NOTES).replace(/"/g, '""')}"`;
  const last_ = /[,"]/.test(last) ? `"${last}"` : last;
  parts.push(`${id},${first},${last_},${email},${phone},${amount},${country},${created},${notes},${pick(STATUS)}`);
  if (parts.length >= CHUNK_ROWS) {
    if (!out.write(parts.join('\n') + '\n')) await once(out, 'drain');
    parts = [];
  }
}
if (parts.length > 0) out.write(parts.join('\n') + '\n');
out.end();
await once(out, 'finish');
