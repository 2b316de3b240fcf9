/**
 * One part of a parallel run: reads a byte range of a CSV file, runs the steps from mapping up to
 * row dropping, and formats the rows as CSV lines or sheet rows, each batch with what the merge
 * needs (BatchData). The main thread runs the parts it takes itself and the worker the others
 * (worker.ts), so every part is made by this one function, in the same way.
 */
import { openCsvPart, type CsvPart } from '../read/csv.js';
import { RejectOrderer, type Reject } from '../rejects.js';
import { activeRules, hasAll, tupleKey } from '../steps/drop-rows.js';
import { STEPS } from '../steps/index.js';
import { typesStep } from '../steps/types.js';
import { eachBatch, emptyReport, emptyTypeEvidence, type StepContext, type Table } from '../types.js';
import { CsvEncoder, newFixes, rowFormat } from '../write/csv.js';
import { SheetEncoder, sheetFormat } from '../write/xlsx.js';
import type { BatchData, PartDone, PartSettings, RuleOutcome } from './protocol.js';

/** Rejects held before a part yields them without waiting for a batch that keeps rows. */
const MAX_HELD_REJECTS = 4096;

/**
 * This thread's encoders (each holds a buffer of 1 MiB or more), shared by its parts, which run one
 * after another: a part's batch text is read before the next batch is asked for.
 */
const encoders: { csv?: CsvEncoder; xml?: SheetEncoder } = {};

/** A part's batch: its output text (valid only until the next batch is asked for) and data. */
export interface PartBatch { text: Uint8Array; data: BatchData }

/** What a part needs: the run's settings and which bytes of the file it is. */
export interface PartJob extends PartSettings { part: CsvPart }

/**
 * Yields the part's batches; returns its row count, report and slash-date evidence.
 * `onBytes` hears the bytes of the part read so far.
 */
export async function* runPart(job: PartJob, onBytes: (bytes: number) => void): AsyncGenerator<PartBatch, PartDone> {
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
    // The run gives the warnings: it applies the same steps to the same columns.
    warn: () => {},
    rejects,
    typeEvidence: emptyTypeEvidence(),
  };
  const raw = await openCsvPart(job.path, job.display, job.forced, { lenient: job.lenient, report, onProgress: onBytes }, job.part);
  let rowsRead = 0;
  let table: Table = {
    ...raw,
    batches: eachBatch(raw.batches, (batch) => { rowsRead += batch.rows.length; return batch; }),
  };
  const from = STEPS.findIndex((s) => s.name === 'map');
  const to = STEPS.findIndex((s) => s.name === 'drop-rows');
  /** Rejects that piled up while the next steps dropped whole rows: sent on their own. */
  let heldRejects: Reject[] | undefined;
  for (const step of STEPS.slice(from, to)) {
    const used = step.name === 'types' ? typesStep(job.orders) : step;
    table = await used.apply(table, job.config, ctx);
    if (step.name === 'types' && rejects) {
      const typed = table;
      table = {
        ...typed,
        batches: eachBatch(typed.batches, (batch) => {
          if (rejects.waiting >= MAX_HELD_REJECTS) (heldRejects ??= []).push(...takeRejects()!);
          return batch;
        }),
      };
    }
  }
  const rules = activeRules(table.columns, job.config, ctx);
  // What the formatters change is recorded per row: the merge counts only the rows that stay.
  const format = rowFormat(table.columns, newFixes(true));
  // Excel: rows get their numbers in the merge, which alone knows which rows stay.
  const sheet = job.output === 'excel' ? sheetFormat(table.columns, table.types, newFixes(true)) : undefined;
  for await (const batch of table.batches) {
    if (heldRejects) {
      yield { text: EMPTY, data: noRows(heldRejects) };
      heldRejects = undefined;
    }
    const n = batch.rows.length;
    if (n === 0) continue;
    const ends = new Float64Array(n);
    let text: Uint8Array;
    if (sheet) {
      const xml = (encoders.xml ??= new SheetEncoder());
      xml.length = 0;
      xml.addRows(batch.rows, sheet, undefined, ends);
      text = xml.buffer.subarray(0, xml.length);
    } else {
      const csv = (encoders.csv ??= new CsvEncoder());
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
      const values = batch.rows.map((row) => row[at]);
      return { kind: 'values', values: values.every((v) => typeof v === 'number') ? Float64Array.from(values as number[]) : values };
    });
    const data: BatchData = { ends, rowNumbers: Int32Array.from(batch.rowNumbers), outcomes, rows: job.collectRows ? batch.rows : undefined, rejects: takeRejects() };
    const fixes = sheet ? sheet.fixes : format.fixes;
    if (fixes.rows?.length) {
      data.sheetFixes = fixes.rows;
      fixes.rows = [];
    }
    yield { text, data };
  }
  const last = [...(heldRejects ?? []), ...(takeRejects() ?? [])];
  if (last.length) yield { text: EMPTY, data: noRows(last) };
  return { rows: rowsRead, report, typeEvidence: ctx.typeEvidence! };
}

const EMPTY = new Uint8Array(0);

/** The data of a batch of no rows that carries only rejects. */
function noRows(rejects: Reject[]): BatchData {
  return { ends: new Float64Array(0), rowNumbers: new Int32Array(0), outcomes: [], rejects };
}
