/**
 * The parallel path of runJob: a CSV file is split in parts of about 16 MiB (smaller toward its
 * end), each read and run through the steps up to row dropping (part.ts), by this thread and by a
 * worker thread (worker.ts, into a spill file), each taking the next part in file order
 * (claims.ts). This thread applies the row-dropping rules in row order (their state, the values
 * seen, is the only thing that needs the whole file), merging the worker's batches as they come
 * in between making its own (held while the worker's part before them is unfinished; a part of its
 * own finished before then waits held while it makes the next, rather than leave its core idle),
 * merges the reports and writes. (Measured: two workers and this thread only merging left it 65-72% idle;
 * this way was faster and smaller. One fixed split in two left one thread idle for up to a second
 * whenever the machine's other load slowed the other; the worker's parts merged after all of this
 * thread's, as before, left it alone for the last ~0.2 s.) Loaded only when a run may go
 * parallel, so other commands do not pay for it.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize } from 'node:v8';
import type { Worker } from 'node:worker_threads';
import type { DataType, RunWebhookBody } from '../../contract/index.js';
import { DataTableCollector, type MetadataCollector } from '../metadata.js';
import { Profiler, type ColumnProfile } from '../profile.js';
import { csvFileOf, sniffCsvFile, type CsvPart } from '../read/csv.js';
import { activeRules, droppingRule, dropRows, type ActiveRule } from '../steps/drop-rows.js';
import { STEPS } from '../steps/index.js';
import { dataTypeOf, typeWarnings, mergeTypeEvidence, scanSlashOrder, type SlashOrders } from '../steps/types.js';
import {
  emptyReport, REPORT_FIRST_ROWS, REPORT_TEXT_EXAMPLES, SAMPLE_ROWS,
  type Batch, type EngineConfig, type InputSource, type Report, type Row, type RunOutput, type StepContext, type Table,
} from '../types.js';
import { writeTable } from '../write/index.js';
import { writeAll } from '../write/fd.js';
import { engineWorker, leaveV8HelpersOutOnTwoCores } from '../worker-thread.js';
import { newFixes, PREFORMATTED, type OutputFixes, type PreformattedBatch, type PreformattedTable } from '../write/csv.js';
import { addRowFixes } from '../write/xlsx.js';
import { claimNext, newClaims } from './claims.js';
import type { BatchData, PartDone, SplitJob, SplitMessage, WorkerJob, WorkerMessage } from './protocol.js';
import { runPart, type PartBatch } from './part.js';
import { spillDir } from './spill.js';
import { isUtf16, looksLikeRecordStarts, splitPoints } from './split.js';

/** Says why the parallel path was not taken (IMPORT_ENGINE_TRACE=1), and gives runParallel's "not taken". */
function notTaken(reason: string): undefined {
  trace(`engine: 1 thread (${reason})`);
  return undefined;
}

/** With IMPORT_ENGINE_TRACE=1, says on stderr what the parallel path did (for tests and benchmarks). */
function trace(message: string): void {
  if (process.env.IMPORT_ENGINE_TRACE === '1') process.stderr.write(message + '\n');
}

/** Why a started parallel run gave up (a worker failed): the caller runs the job sequentially, which gives the exact result or error. */
export class ParallelFallback extends Error {}

/**
 * Semi-space of the worker's young generation (MiB). What survives each young-generation GC is
 * about the batches in flight (some 350 KB with 256-row batches), so a GC costs about the same at
 * any size and fewer of them cost less: measured (1M rows, CSV, --trace-gc, both threads) 380-400
 * ms of GC with 4, 270-300 with 6, 270-325 with 8; peak RSS medians 133, 141 and 145 MiB. Excel
 * output likewise: the worker's scavenges 265-316 (199-211 ms) with 4, 148 (118 ms) with 6, for
 * 4-7 MiB more peak RSS (155-159 MiB; its limit is 200). With 512-row batches, 4 promoted nearly
 * every row to the old generation, which then grew to 35 MiB.
 */
const WORKER_SEMI_SPACE_MB = 6;
/**
 * Bytes per part, about, away from the file's end: each part sets up its reader and steps anew.
 * Measured (1M rows, 166 MB): 40 parts of 4 MiB took 0.4 s more CPU and 20 MiB more peak RSS
 * than 2; 10 parts of 16 MiB as little as 2.
 */
const PART_BYTES = 16 << 20;
/** The smallest part the shrinking parts at the file's end get. */
const LAST_PART_BYTES = 2 << 20;

/**
 * Where the parts after the first aim to start in a file of `size` bytes: PART_BYTES apart, then,
 * in the last three such lengths, each part a third of what is left (no less than
 * LAST_PART_BYTES), so the threads run out of parts within a small part of each other.
 */
export function partAims(size: number): number[] {
  const aims: number[] = [];
  for (let at = 0; ;) {
    const left = size - at;
    const step = left > 3 * PART_BYTES ? PART_BYTES : Math.max(LAST_PART_BYTES, Math.ceil(left / 3));
    if (left - step < LAST_PART_BYTES) return aims.length > 0 ? aims : [Math.floor(size / 2)];
    at += step;
    aims.push(at);
  }
}

/**
 * The worker thread, started before the sample is read, so its start-up runs on the other core
 * meanwhile.
 */
export interface WorkerPool {
  worker: Worker;
  /**
   * Where the parts after the first start (split.ts): with `quotes`, found by the worker from the
   * quote parity, the second part's start first on its own (`second`); without, found here at once
   * (the first line break past each aim), unless a line there does not read as a whole record of
   * `line.width` cells, when the worker's scan finds them after all. Empty when the file cannot be
   * split or the worker failed.
   */
  split(quotes: boolean, line: { delimiter: string; width: number }): { second: Promise<number | undefined>; all: Promise<number[]> };
  /** Stops the workers (safe to call more than once). */
  terminate(): Promise<void>;
  /** Set when a worker failed or exited before runParallel listened. */
  failure?: string;
}

/** Starts the worker for a CSV source; undefined when the source is no CSV file or the built worker is missing (under vitest the engine runs from TypeScript sources). */
export function startWorkers(input: InputSource): WorkerPool | undefined {
  const file = csvFileOf(input);
  const workerUrl = new URL('./worker.js', import.meta.url);
  if (!file || !existsSync(fileURLToPath(workerUrl))) return undefined;
  leaveV8HelpersOutOnTwoCores();
  const worker = engineWorker(workerUrl, { semiSpaceMb: WORKER_SEMI_SPACE_MB });
  // An error must never go unhandled; one before runParallel listens is remembered, and the split then reads as "no split".
  let pool: WorkerPool;
  const failed = new Promise<number[]>((resolve) => {
    worker.on('error', (error) => { pool.failure ??= error.message; resolve([]); });
    worker.on('exit', (code) => { pool.failure ??= `exited (code ${code})`; resolve([]); });
  });
  const aims = partAims(input.size);
  pool = {
    worker,
    split(quotes, line) {
      if (!quotes) {
        const taken = splitPoints(file.path, input.size, aims, 0, false).then((points) => (
          looksLikeRecordStarts(file.path, points, line.delimiter, line.width)
            ? { second: Promise.resolve(points[0]), all: Promise.resolve(points) }
            : (trace('engine: parts found from the quote parity (a line at a part\'s start is no whole record)'), pool.split(true, line))
        ));
        return { second: taken.then((found) => found.second), all: taken.then((found) => found.all) };
      }
      let second!: (at: number | undefined) => void;
      const secondFound = new Promise<number | undefined>((resolve) => { second = resolve; });
      const all = new Promise<number[]>((resolve) => {
        const listen = (message: SplitMessage) => {
          second(message.points[0]);
          if (!message.complete) return;
          worker.off('message', listen);
          resolve(message.points);
        };
        worker.on('message', listen);
      });
      worker.postMessage({ split: { path: file.path, size: input.size, aims } } satisfies SplitJob);
      return { second: Promise.race([secondFound, failed.then(() => undefined)]), all: Promise.race([all, failed]) };
    },
    terminate: async () => { await worker.terminate(); },
  };
  return pool;
}

/** What runParallel needs from runJob. */
export interface ParallelRun {
  input: InputSource;
  /** Columns of the input as read (no preColumnMapping scripts on this path). */
  columns: string[];
  /** The sample's raw rows; emptied once the parallel path is certain to be tried. */
  sample: Row[];
  config: EngineConfig;
  ctx: StepContext;
  report: Report;
  metadata: MetadataCollector;
  lenient: boolean;
  onProgress?: (bytesRead: number) => void;
  output?: RunOutput;
  collectDataTable: boolean;
  /** Send the rows across (rejected rows need their values). */
  sendRows: boolean;
  /** Profile the output columns. */
  profile: boolean;
  /** Stops the sequential reader the sample came from. */
  closeInput: () => Promise<void>;
  pool: WorkerPool;
}

/** What a parallel run produced (the report is filled in place). */
export interface ParallelResult {
  columns: string[];
  types: (DataType | undefined)[];
  runWebhook?: Omit<RunWebhookBody, 'jobId'>;
  profile?: ColumnProfile[];
}

/**
 * Runs the rest of a job in parallel. Returns undefined, having done and reported nothing, when
 * the job is not one the parallel path can do exactly; throws ParallelFallback when it started and
 * a worker failed (then the report and output are to be discarded).
 */
export async function runParallel(run: ParallelRun): Promise<ParallelResult | undefined> {
  const { config, ctx, report } = run;
  const file = csvFileOf(run.input);
  if (!file) return notTaken('not a CSV file');
  if (config.pivot || (config.scripts?.postClean ?? []).length > 0) return notTaken('pivot or postClean scripts');
  if (run.sample.length < SAMPLE_ROWS) return notTaken('fewer rows than the sample');
  if (await isUtf16(file.path)) return notTaken('UTF-16 input');
  const sniffed = await sniffCsvFile(file.path, file.display, file.forced);
  if (!sniffed || sniffed.newline !== '\n') return notTaken('line ends are not LF or CRLF');
  const orders = await sampleOrders(run);
  if (!orders) return notTaken('a slash-date order the sample does not decide');
  // Parts start at record boundaries. When the sample's values hold no line break, the first line
  // break past each aimed byte is taken at once, if the line there reads as a whole record; the
  // worker's scan of the quote parity over the whole file (0.1-0.5 s before it could start a
  // part) is left to files that need it. Either way a part that ends inside a quoted field is an
  // unclosed quote to its reader, and the run then goes sequential (a line break in a quoted field
  // past the sample, at a part's start, followed by a line that reads as a record).
  const quotedBreaks = run.sample.some((row) => row.some((value) => typeof value === 'string' && value.includes('\n')));
  const split = run.pool.split(quotedBreaks, { delimiter: sniffed.delimiter, width: run.columns.length });
  // Used up: emptied (runJob's reference too) so its rows can go while the workers run.
  run.sample.length = 0;

  const worker = run.pool.worker;
  /** The worker's spill file and this thread's (HeldBatches). */
  const spills: { path: string; fd: number }[] = [];
  /** A new spill file, open for reading and writing. */
  const openSpill = (): number => {
    const spill = { path: join(spillDir(), `${randomBytes(6).toString('hex')}.spill`), fd: -1 };
    spills.push(spill);
    spill.fd = openSync(spill.path, 'w+');
    return spill.fd;
  };
  // The spill files go on any exit; the finally below removes them on every other way out.
  const removeSpill = () => { for (const spill of spills) rmSync(spill.path, { force: true }); };
  process.on('exit', removeSpill);
  try {
    const second = await split.second;
    if (second === undefined) return notTaken(`no split point${run.pool.failure ? ` (${run.pool.failure})` : ''}`);
    await run.closeInput();

    // The remaining steps applied here to no rows: the report lists their rules and the warnings
    // come, in the order the sequential run gives them; the columns and types are the output's.
    let table: Table = { columns: run.columns, types: run.columns.map(() => undefined), batches: noBatches() };
    let rules: ActiveRule[] = [];
    for (const step of STEPS.slice(STEPS.findIndex((s) => s.name === 'map'))) {
      if (step === dropRows) rules = activeRules(table.columns, config, ctx);
      else table = await step.apply(table, config, ctx);
    }

    ctx.rejects?.begin(table.columns);
    const output = run.output?.format ?? 'csv';
    const base = {
      path: file.path, display: file.display, forced: file.forced, lenient: run.lenient, config, schema: ctx.schema, orders, output,
      collectRows: run.collectDataTable || run.sendRows || run.profile, rejects: Boolean(ctx.rejects),
    };
    const spillFd = openSpill();
    const spilled = new SpillReader(spillFd, 1 << 20);
    /** A batch's text and data, read back from the worker's spill file. */
    const read = (message: SpilledBatch): PartBatch => {
      const bytes = spilled.read(message.at, message.length + message.dataLength);
      return { text: bytes.subarray(0, message.length), data: deserialize(bytes.subarray(message.length)) as BatchData };
    };
    const seen = [0, 0];
    let reported = 0;
    const progress = (part: number, bytes: number) => {
      seen[part] = bytes;
      const total = seen[0] + seen[1];
      if (total > reported) { reported = total; run.onProgress?.(total); }
    };
    const feed = new Feed(worker, (bytes) => progress(1, bytes));
    if (run.pool.failure) throw new ParallelFallback(`A worker failed: ${run.pool.failure}`);
    /** The first part (the header's): this thread's from the start, begun even while the worker still finds where the others start (split(true)). */
    const first: CsvPart = { start: 0, end: second };
    // The other parts, and the worker's job, once where they all start is known.
    const rest = split.all.then((points) => {
      if (points[0] !== second) throw new ParallelFallback(`A worker failed: ${run.pool.failure ?? 'the split points changed'}`);
      const starts = [0, ...points];
      const parts = starts.map((start, i): CsvPart => (i === 0 ? first : {
        start, end: starts[i + 1] ?? run.input.size, preset: { columns: run.columns, ...sniffed },
      }));
      const claims = newClaims(1);
      worker.postMessage({ ...base, parts, claims, spill: spillFd } satisfies WorkerJob);
      return { parts, claims };
    });
    // Awaited after the first part: a failure before then must not go unhandled.
    rest.catch(() => {});

    const collector = run.collectDataTable ? new DataTableCollector() : undefined;
    const sheetFixes = newFixes();
    const profiler = run.profile ? new Profiler(table.columns, table.types) : undefined;
    const done: PartDone[] = [];
    /** This thread's batches made while an earlier part (the worker's) is not merged yet. */
    const held = new HeldBatches(openSpill());
    async function* merged(): AsyncGenerator<Batch> {
      /** Data rows of the parts merged so far: the next part's row numbers start after them. */
      let offset = 0;
      /** The next part to merge, and how many of its batches are merged (a worker's part is merged as it comes). */
      let next = 0;
      let nextBatches = 0;
      /** Bytes of this thread's finished parts. */
      let before = 0;
      let parts = [first];
      let claims: SharedArrayBuffer | undefined;
      /** This thread's parts not merged yet: the one it is making and those finished (in `done`) while the worker's earlier part was not. */
      const mine = new Set<number>();
      const merge = (batch: PartBatch) => mergeBatch(batch.text, batch.data, offset, rules, report, collector, ctx, profiler, sheetFixes);
      /**
       * Merges the parts before `until` in order, as far as they are ready: this thread's held
       * batches (up to the part it is making), the worker's batches already in the spill file, or
       * with `wait` all of them, waiting for the worker to finish its parts.
       */
      async function* catchUp(until: number, wait: boolean): AsyncGenerator<Batch> {
        while (next < until) {
          if (mine.has(next)) {
            for (const batch of held.take(next)) yield merge(batch);
            if (!done[next]) return;
            mine.delete(next);
            offset += done[next].rows;
            next++;
            continue;
          }
          const part = feed.parts[next];
          const batches = part?.batches ?? [];
          while (nextBatches < batches.length) yield merge(read(batches[nextBatches++]));
          if (part?.done) {
            done[next] = part.done;
            offset += part.done.rows;
            part.batches = [];
            next++;
            nextBatches = 0;
          } else if (wait) await feed.change();
          else return;
        }
      }
      // This thread's parts, made here as the merge asks for them; any error in one makes the run fall back, as a worker's would.
      for (let index = 0; index >= 0;) {
        const range = parts[index];
        mine.add(index);
        const part = runPart({ ...base, part: range }, (bytes) => progress(0, before + bytes));
        for (;;) {
          let made: IteratorResult<PartBatch, PartDone>;
          try {
            made = await part.next();
          } catch (error) {
            throw new ParallelFallback(`A part failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
          }
          feed.check();
          if (made.done) {
            done[index] = made.value;
            break;
          }
          // Up to this part's held batches, once the parts before it are all merged.
          if (next < index) yield* catchUp(index + 1, false);
          if (next < index) held.add(index, made.value);
          else yield merge(made.value);
        }
        // Finished while the worker's part before it is not: this thread takes its next part at
        // once (its batches held) rather than wait, unless one of its finished parts already waits.
        const waiting = [...mine].filter((part) => done[part]).length;
        yield* catchUp(index + 1, waiting > 1);
        if (mine.has(index)) trace(`engine: part ${index} waits for part ${next} (the worker's); this thread takes its next part meanwhile`);
        before += range.end - range.start;
        if (!claims) ({ parts, claims } = await rest);
        index = claimNext(claims, parts.length);
      }
      yield* catchUp(parts.length, true);
    }
    const out: PreformattedTable = { columns: table.columns, types: table.types, batches: merged(), [PREFORMATTED]: true, sheetFixes };
    /** Once every part is merged: their reports and type evidence into the run's, before the output is committed. */
    const finish = () => {
      const sampled = report.rowsIn;
      mergeReports(report, done);
      if (ctx.typeEvidence) {
        let offset = 0;
        for (const part of done) {
          mergeTypeEvidence(ctx.typeEvidence, part.typeEvidence, offset);
          offset += part.rows;
        }
        for (const warning of typeWarnings(ctx.typeEvidence)) ctx.warn(warning);
      }
      // The collector has counted the sample's rows; past SAMPLE_ROWS it only counts, so the rest are
      // added as a count (an array of a million empty rows, as before, was 8 MB at the run's end).
      if (report.rowsIn > sampled && !run.metadata.countPastSample(report.rowsIn - sampled)) {
        throw new ParallelFallback('The start metadata had not read its whole sample.');
      }
    };
    const target = run.output;
    if (target) {
      await writeTable(out, target.path, output, ctx.warn, async () => {
        finish();
        await target.beforeCommit?.(report);
      });
    } else {
      for await (const _ of out.batches) { /* drain */ }
      finish();
    }
    ctx.rejects?.release();
    return { columns: table.columns, types: table.types, runWebhook: collector?.body('', table.columns, table.types), profile: profiler?.result() };
  } finally {
    await run.pool.terminate();
    for (const spill of spills) if (spill.fd >= 0) closeSync(spill.fd);
    removeSpill();
    process.off('exit', removeSpill);
  }
}

async function* noBatches(): AsyncGenerator<Batch> { /* no rows */ }

/**
 * Each date_time field's slash order from the sample: true when a value proves day-first, else
 * false (month-first assumed; a worker meeting a day-first value makes the run go sequential).
 */
async function sampleOrders(run: ParallelRun): Promise<SlashOrders | undefined> {
  const scratch: StepContext = { ...run.ctx, report: emptyReport(), warn: () => {} };
  let table: Table = {
    columns: run.columns,
    types: run.columns.map(() => undefined),
    batches: (async function* sample() { yield { rows: run.sample.map((row) => row.slice()), rowNumbers: run.sample.map((_, i) => i + 1) }; })(),
  };
  for (const step of STEPS.slice(STEPS.findIndex((s) => s.name === 'map'), STEPS.findIndex((s) => s.name === 'types'))) {
    table = await step.apply(table, run.config, scratch);
  }
  const dateColumns = table.columns
    .map((field, index) => ({ field, index, dayFirst: undefined as boolean | undefined, sawSlash: false }))
    .filter(({ field }) => Object.hasOwn(run.config.dataTypes ?? {}, field) && dataTypeOf(run.config.dataTypes[field]) === 'date_time');
  if (dateColumns.length === 0) return {};
  for await (const batch of table.batches) for (const column of dateColumns) scanSlashOrder(column, batch.rows);
  const orders: SlashOrders = {};
  for (const column of dateColumns) orders[column.field] = column.dayFirst === true;
  return orders;
}

/** Applies the row-dropping rules, in order, to a worker's batch and keeps the lines of the rows that stay. */
function mergeBatch(
  text: Uint8Array, data: BatchData, offset: number, rules: ActiveRule[], report: Report, collector: DataTableCollector | undefined, ctx: StepContext,
  profiler: Profiler | undefined, sheetFixes: OutputFixes,
): PreformattedBatch {
  const { ends, rowNumbers, outcomes, rows } = data;
  // The worker's rejects come before this batch's drops; the orderer puts each row's in step order.
  for (const reject of data.rejects ?? []) ctx.rejects?.add({ ...reject, row: reject.row + offset });
  let r = 0;
  let fixesAt = 0;
  const keeps = (i: number): boolean => {
    const outcome = outcomes[i];
    switch (outcome.kind) {
      case 'keeps': return outcome.keeps[r];
      case 'values': return !rules[i].seen.isRepeatValue(outcome.values[r]);
      case 'keys': return !rules[i].seen.isRepeatKey(outcome.keys[r]);
    }
  };
  const pieces: Uint8Array[] = [];
  const kept: number[] = [];
  const keptRows: Row[] = [];
  let runStart = 0;
  for (; r < ends.length; r++) {
    const dropper = rules.length === 0 ? -1 : droppingRule(rules.length, keeps);
    if (data.sheetFixes) fixesAt = addRowFixes(sheetFixes, data.sheetFixes, fixesAt, r, dropper < 0);
    if (dropper >= 0) {
      rules[dropper].count(rowNumbers[r] + offset, rows?.[r]);
      const lineStart = r === 0 ? 0 : ends[r - 1];
      if (lineStart > runStart) pieces.push(text.subarray(runStart, lineStart));
      runStart = ends[r];
    } else {
      kept.push(rowNumbers[r] + offset);
      if (rows && (collector || profiler)) keptRows.push(rows[r]);
    }
  }
  if (runStart < text.length) pieces.push(runStart === 0 ? text : text.subarray(runStart));
  report.rowsOut += kept.length;
  collector?.push({ rows: keptRows, rowNumbers: kept });
  profiler?.push({ rows: keptRows, rowNumbers: kept });
  ctx.rejects?.release();
  return { rows: [], rowNumbers: kept, [PREFORMATTED]: pieces };
}

/** Adds the parts' reports (in part order) to the main report, whose entries the main thread already listed in order. */
function mergeReports(report: Report, done: PartDone[]): void {
  report.rowsIn = 0;
  report.rowsRepaired = 0;
  let offset = 0;
  for (const { rows, report: part } of done) {
    report.rowsIn += rows;
    report.rowsRepaired += part.rowsRepaired;
    part.dropped.forEach((entry, j) => {
      const into = report.dropped[j];
      if (!into || into.rule !== entry.rule) throw new ParallelFallback(`Report entries differ: ${entry.rule}`);
      into.count += entry.count;
      for (const row of entry.firstRows) if (into.firstRows.length < REPORT_FIRST_ROWS) into.firstRows.push(row + offset);
    });
    // Keys in first-seen order: the first part's first, then any the second part adds, as in one pass.
    for (const [field, n] of Object.entries(part.filled)) report.filled[field] = (report.filled[field] ?? 0) + n;
    for (const [field, n] of Object.entries(part.coercionFailures)) report.coercionFailures[field] = (report.coercionFailures[field] ?? 0) + n;
    part.textChanges.forEach((entry, j) => {
      const into = report.textChanges[j];
      if (!into || into.rule !== entry.rule || into.field !== entry.field) throw new ParallelFallback(`Report entries differ: ${entry.rule}`);
      into.count += entry.count;
      for (const example of entry.examples) if (into.examples.length < REPORT_TEXT_EXAMPLES) into.examples.push(example);
    });
    part.converted.forEach((entry, j) => {
      const into = report.converted[j];
      if (!into || into.rule !== entry.rule || into.field !== entry.field) throw new ParallelFallback(`Report entries differ: ${entry.rule}`);
      into.count += entry.count;
    });
    offset += rows;
  }
}

/** Where a batch the worker spilled is in the spill file. */
interface SpilledBatch { at: number; length: number; dataLength: number }

/**
 * A worker's messages, gathered per part: its batches' places in the spill file (it appends them
 * in the order it sends their notices) and each part's end. A worker error or early exit makes
 * the run fall back.
 */
class Feed {
  readonly parts: { batches: SpilledBatch[]; done?: PartDone }[] = [];
  private failure: ParallelFallback | undefined;
  /** The worker sent its last message (it is then stopped). */
  private finished = false;
  /** Who waits for the worker's next message (change()). */
  private waiting: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  /** Where the worker's next batch starts in the spill file. */
  private at = 0;

  constructor(worker: Worker, onBytes: (bytes: number) => void) {
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'batch') {
        onBytes(message.bytes);
        (this.parts[message.part] ??= { batches: [] }).batches.push({ at: this.at, length: message.length, dataLength: message.dataLength });
        this.at += message.length + message.dataLength;
      } else if (message.type === 'done') {
        const { type: _, part, ...done } = message;
        (this.parts[part] ??= { batches: [] }).done = done;
      } else if (message.type === 'end') {
        this.finished = true;
        // Its parts are all in the spill file: the thread's heap (some 35 MiB) goes now, not after the merge.
        void worker.terminate();
      }
      this.wake();
    });
    // The worker failing stops the run: the sequential run then gives the exact error.
    worker.on('error', (error) => this.fail(new ParallelFallback(`A worker failed: ${error.message}`, { cause: error })));
    worker.on('exit', (code) => { if (!this.finished) this.fail(new ParallelFallback(`A worker exited early (code ${code})`)); });
  }

  /** Settles at the worker's next message; rejects when it has failed, or ended (so a part it never finished cannot be waited for). */
  change(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.finished) return Promise.reject(new ParallelFallback('The worker ended without finishing its parts.'));
    return new Promise((resolve, reject) => { this.waiting.push({ resolve, reject }); });
  }

  private wake(error?: ParallelFallback): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const waiter of waiting) {
      if (error) waiter.reject(error);
      else waiter.resolve();
    }
  }

  /** Makes the run fail with `error`. */
  private fail(error: ParallelFallback): void {
    this.failure ??= error;
    this.wake(this.failure);
  }

  /** Throws the worker's failure, if any, at once (this thread's parts need not be finished first). */
  check(): void {
    if (this.failure) throw this.failure;
  }
}

/**
 * Batches of this thread's parts made while the worker's earlier part is still being merged, kept
 * until the merge reaches their part: the data as it is, the text (valid only until the part's next
 * batch) in a spill file of this thread's, so it waits in the page cache, not in the process.
 * Measured (1M rows): held in memory, up to 12 MB of text took peak RSS from 137 to ~157 MiB.
 */
class HeldBatches {
  private end = 0;
  /** In the order they were made, so part by part. */
  private batches: { part: number; at: number; length: number; data: BatchData }[] = [];
  private readonly reader: SpillReader;

  constructor(private readonly fd: number) {
    this.reader = new SpillReader(fd, 1 << 16);
  }

  add(part: number, { text, data }: PartBatch): void {
    writeAll(this.fd, text, this.end);
    this.batches.push({ part, at: this.end, length: text.length, data });
    this.end += text.length;
  }

  /** The held batches of `part` in order, each valid until the next is asked for; the file is used again from its start once none is held. */
  *take(part: number): Generator<PartBatch> {
    while (this.batches.length > 0 && this.batches[0].part === part) {
      const { at, length, data } = this.batches.shift()!;
      yield { text: this.reader.read(at, length), data };
    }
    if (this.batches.length === 0) this.end = 0;
  }
}

/** Reads a spill file back into one reused buffer, grown as needed; a file that ends early makes the run fall back. */
class SpillReader {
  private buffer: Buffer;

  constructor(private readonly fd: number, size: number) {
    this.buffer = Buffer.allocUnsafeSlow(size);
  }

  /** `length` bytes at `at`: valid until the next read. */
  read(at: number, length: number): Buffer {
    if (this.buffer.length < length) this.buffer = Buffer.allocUnsafeSlow(length);
    for (let got = 0; got < length;) {
      const n = readSync(this.fd, this.buffer, got, length - got, at + got);
      if (n === 0) throw new ParallelFallback('A spill file ended early.');
      got += n;
    }
    return this.buffer.subarray(0, length);
  }
}
