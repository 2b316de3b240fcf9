#!/usr/bin/env node
// Writes the reference CSV workload of ../shared/bench/PIPELINE.md deterministically (a fixed seed):
// `node test/bench/generate.mjs <rows> <out.csv>`. Streams in large chunks with backpressure, so
// memory stays constant whatever the row count. 1M rows are about 166 MB (PIPELINE.md: 163 MB).
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

const SYLLABLES = ['an', 'na', 'lee', 'mar', 'jo', 'ki', 'sven', 'ol', 'ga', 'ri', 'son', 'ber', 'ta', 'mi', 'chel', 'dra', 'ko', 'wal', 'ski', 'ne'];
const DOMAINS = ['example.com', 'mail.test', 'corp.example', 'example.org'];
const COUNTRIES = ['us', 'gb', 'de', 'fr', 'es', 'it', 'nl', 'be', 'ch', 'at', 'se', 'no', 'dk', 'fi', 'pl', 'pt', 'ie', 'ca', 'au', 'jp'];
const STATUS = ['active', 'inactive', 'pending', 'closed', 'suspended'];
const WORDS = ['called', 'left message', 'prefers email', 'VIP', 'handle with care', 'moved', 'see ticket', 'no thanks', 'retry later', 'gold tier', 'paid late', 'asked for invoice'];

/** Letters in mixed case, as exports have them: `Anna`, `LEE`, `mar`, `aNN`. */
function name() {
  let s = pick(SYLLABLES) + pick(SYLLABLES);
  if (rand() < 0.5) s += pick(SYLLABLES);
  const style = int(4);
  if (style === 0) return s[0].toUpperCase() + s.slice(1);
  if (style === 1) return s.toUpperCase();
  if (style === 2) return s;
  return [...s].map((c) => (rand() < 0.5 ? c.toUpperCase() : c)).join('');
}

/** `(555) 123-4567` mostly, some `555-123-4567` or `+1 555 123 4567`. */
function phone() {
  const a = pad(int(1000), 3);
  const b = pad(int(10000), 4);
  const r = rand();
  if (r < 0.8) return `(555) ${a}-${b}`;
  return r < 0.9 ? `555-${a}-${b}` : `+1 555 ${a} ${b}`;
}

/** `1,234.56` style, log-uniform from 1 to 1,000,000, quoted when it has a comma. */
function amount() {
  const cents = Math.round(Math.exp(rand() * Math.log(1e6)) * 100);
  const whole = Math.floor(cents / 100).toLocaleString('en-US');
  const text = `${whole}.${pad(cents % 100, 2)}`;
  return whole.includes(',') ? `"${text}"` : text;
}

/** A two-letter code in mixed case. */
function country() {
  return [...pick(COUNTRIES)].map((c) => (rand() < 0.5 ? c.toUpperCase() : c)).join('');
}

/** Free text with commas and quotes, RFC 4180 quoted, no line breaks. */
function notes() {
  const text = `${pick(WORDS)}, ${pick(WORDS)}; said "${pick(WORDS)}", ${pick(WORDS)}`;
  return `"${text.replaceAll('"', '""')}"`;
}

const out = createWriteStream(outPath, { highWaterMark: 1 << 20 });
out.on('error', (err) => {
  process.stderr.write(`${outPath}: ${err.message}\n`);
  process.exit(1);
});

const CHUNK_ROWS = 8192;
let parts = ['id,first_name,last_name,email,phone,amount,country,created_at,notes,status'];
let lastId = 1000000;
for (let i = 0; i < rowCount; i++) {
  // About 1% of rows repeat an earlier id (one of the last 1,000).
  const id = i > 0 && rand() < 0.01 ? lastId - int(Math.min(lastId - 1000000, 1000)) : ++lastId;
  const first = name();
  const last = name();
  const email = rand() < 0.05 ? '' : `${first.toLowerCase()}.${last.toLowerCase()}${i}@${pick(DOMAINS)}`;
  const money = rand() < 0.03 ? '' : amount();
  const place = rand() < 0.04 ? '' : country();
  const created = `2024-${pad(1 + int(12), 2)}-${pad(1 + int(28), 2)} ${pad(int(24), 2)}:${pad(int(60), 2)}:${pad(int(60), 2)}`;
  parts.push(`${id},${first},${last},${email},${phone()},${money},${place},${created},${notes()},${pick(STATUS)}`);
  if (parts.length >= CHUNK_ROWS) {
    if (!out.write(parts.join('\n') + '\n')) await once(out, 'drain');
    parts = [];
  }
}
if (parts.length > 0) out.write(parts.join('\n') + '\n');
out.end();
await once(out, 'finish');
