/**
 * A parallel run's worker thread: reads one part of a CSV file, runs the steps from mapping up to
 * row dropping, formats the rows as CSV lines or sheet rows and sends them, with each row-dropping rule's
 * per-row outcome, to the main thread, which applies the rules in order and writes (run.ts).
 */
import { writeSync } from 'node:fs';
import { serialize } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { openCsvPart } from '../read/csv.js';
import { activeRules, hasAll, tupleKey } from '../steps/drop-rows.js';
import { STEPS } from '../steps/index.js';
import { typesStep } from '../steps/types.js';
import { RejectOrderer, type Reject } from '../rejects.js';
import { emptyReport, type Batch, type StepContext, type Table } from '../types.js';
import { CsvEncoder, rowFormat } from '../write/csv.js';
import { encodeRowLines, newFixes, sheetFormat, sheetRowLines } from '../write/xlsx.js';
import type { BatchData, BatchMessage, CreditMessage, DoneMessage, RuleOutcome, SplitJob, SplitMessage, WorkerJob } from './protocol.js';
import { splitPoint } from './split.js';

const port = parentPort!;

let inFlight = 0;
let wake: (() => void) | undefined;
port.on('message', (message: WorkerJob | CreditMessage | SplitJob) => {
  if ('split' in message) {
    splitPoint(message.split.path, message.split.size).then((at) => {
      const answer: SplitMessage = { split: at ?? null };
      port.postMessage(answer);
    }, (error: unknown) => setImmediate(() => { throw error; }));
  } else if ('credit' in message) {
    inFlight -= message.credit;
    wake?.();
    wake = undefined;
  } else {
    run(message).catch((error: unknown) => {
      // Rethrown outside the promise chain: the main thread sees it as the worker's 'error' event.
      setImmediate(() => { throw error; });
    });
  }
});

/** Rejects held before the worker sends them without waiting for a batch that keeps rows. */
const MAX_HELD_REJECTS = 4096;

async function run(job: WorkerJob): Promise<void> {
  const report = emptyReport();
  let outbox: Reject[] = [];
  const rejects = job.rejects ? new RejectOrderer({ begin: () => {}, add: (r) => { outbox.push(r); } }) : undefined;
  const takeRejects = (): Reject[] | undefined => {
    if (!rejects) return undefined;
    rejects.release();
    const taken = outbox;
    outbox = [];
    return taken;
  };
  const ctx: StepContext = {
    schema: job.schema,
    report,
    strictScripts: false,
    loadScript: async () => undefined,
    // The main thread gives the warnings: it applies the same steps to the same columns.
    warn: () => {},
    rejects,
    slashEvidence: new Map(),
  };
  let bytes = 0;
  const raw = await openCsvPart(job.path, job.display, job.forced, { lenient: job.lenient, report, onProgress: (n) => { bytes = n; } }, job.part);
  let rowsRead = 0;
  let table: Table = {
    ...raw,
    batches: (async function* counted(): AsyncGenerator<Batch> {
      for await (const batch of raw.batches) { rowsRead += batch.rows.length; yield batch; }
    })(),
  };
  const from = STEPS.findIndex((s) => s.name === 'map');
  const to = STEPS.findIndex((s) => s.name === 'drop-rows');
  const spill = job.spill;
  /** Sends a batch: its output text and data, through the spill file. */
  const send = async (text: Uint8Array, data: BatchData) => {
    const length = text.length;
    writeAll(spill, text);
    const serialized = serialize(data);
    writeAll(spill, serialized);
    const message: BatchMessage = { type: 'batch', length, dataLength: serialized.length, bytes };
    port.postMessage(message);
    if (++inFlight >= job.maxInFlight) await new Promise<void>((resolve) => { wake = resolve; });
  };
  for (const step of STEPS.slice(from, to)) {
    const used = step.name === 'types' ? typesStep(job.orders) : step;
    table = await used.apply(table, job.config, ctx);
    if (step.name === 'types' && rejects) {
      // Rows the next steps drop whole send no batch: their rejects go on their own before they pile up.
      const typed = table;
      table = {
        ...typed,
        batches: (async function* releasing(): AsyncGenerator<Batch> {
          for await (const batch of typed.batches) {
            if (rejects.waiting >= MAX_HELD_REJECTS) await send(EMPTY, { ends: [], rowNumbers: [], outcomes: [], rejects: takeRejects() });
            yield batch;
          }
        })(),
      };
    }
  }
  const rules = activeRules(table.columns, job.config, ctx);
  const format = rowFormat(table.columns, table.types);
  // Excel: rows get their numbers on the main thread, which alone knows which rows stay.
  const sheet = job.output === 'excel' ? sheetFormat(table.columns, table.types, newFixes(true)) : undefined;
  for await (const batch of table.batches) {
    const n = batch.rows.length;
    if (n === 0) continue;
    const ends = new Array<number>(n);
    let text: Uint8Array;
    if (sheet) {
      encoded = encodeRowLines(sheetRowLines(batch.rows, sheet, undefined), encoded, ends);
      text = encoded.subarray(0, ends[n - 1]);
    } else {
      csv.length = 0;
      csv.addRows(batch.rows, format, ends);
      text = csv.buffer.subarray(0, csv.length);
    }
    const outcomes: RuleOutcome[] = rules.map((rule): RuleOutcome => {
      if (rule.method === 'missingValues') {
        return { kind: 'keeps', keeps: batch.rows.map((row) => hasAll(rule.indices, row)) };
      }
      if (rule.indices.length > 1) return { kind: 'keys', keys: batch.rows.map((row) => tupleKey(row, rule.indices)) };
      const at = rule.indices[0];
      return { kind: 'values', values: batch.rows.map((row) => row[at]) };
    });
    const data: BatchData = { ends, rowNumbers: batch.rowNumbers, outcomes, rows: job.collectRows ? batch.rows : undefined, rejects: takeRejects() };
    if (sheet?.fixes.rows?.length) {
      data.sheetFixes = sheet.fixes.rows;
      sheet.fixes.rows = [];
    }
    await send(text, data);
  }
  const last = takeRejects();
  if (last?.length) await send(EMPTY, { ends: [], rowNumbers: [], outcomes: [], rejects: last });
  port.postMessage({ type: 'done', rows: rowsRead, report, slashEvidence: [...ctx.slashEvidence!] } satisfies DoneMessage);
}

/** Appends all of `bytes` to a file (at its descriptor's offset, which only this thread moves: the main thread reads at positions). */
function writeAll(fd: number, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
}

/** The encoding buffers, reused for every batch (grown when a batch needs more): sheet rows, CSV lines. */
let encoded: Buffer = Buffer.allocUnsafeSlow(1 << 20);
const csv = new CsvEncoder();
const EMPTY = new Uint8Array(0);
