/**
 * What a dry run writes besides its output: the rejected rows (`--rejects <file.csv>`, and the
 * `rejects` list of the `-o json` report) and the HTML report (`--report <file.html>`). Opened
 * before the run, finished (renamed into place) after it, removed if it fails.
 */
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { randomBytes } from 'node:crypto';
import type { RejectSink, RejectsFile } from '../engine/rejects.js';
import type { ColumnProfile } from '../engine/profile.js';
import type { Report } from '../engine/types.js';
import type { DiffEntry } from '../jobfile/diff.js';
import type { Deps } from './deps.js';
import type { MappingRow } from './report-html.js';

/** The files a dry run was asked for. */
export interface ExtrasRequest {
  /** Absolute path of the rejects file. */
  rejects?: string;
  /** Its format (from its extension: see rejectsFormat); CSV when absent. */
  rejectsFormat?: 'csv' | 'jsonl';
  /** Whether the `-o json` report lists the rejects. */
  jsonRejects: boolean;
}

/** The open files: a sink for the engine, then finish or abort. */
export interface Extras {
  /** For runJob's `rejects`; undefined when nobody wants rejects. */
  sink?: RejectSink;
  /** Rejects written (the same count in every file). */
  rejectCount(): number;
  /** What the rejects file's format made its writer change, as report warnings. */
  warnings(): string[];
  /** Renames the files into place. */
  finish(): Promise<void>;
  /** Removes what was written; the targets are left as they were. */
  abort(error?: unknown): Promise<void>;
  /** The `-o json` rejects, one JSON object a line, read back after finish (then removed). */
  jsonRejectLines?: () => AsyncIterable<string>;
}

/** Opens the requested files (the output's rule: temp files beside the targets, renamed on success). */
export async function openExtras(request: ExtrasRequest): Promise<Extras> {
  const { openRejectsFile } = await import('../engine/rejects.js');
  const files: RejectsFile[] = [];
  let spoolPath: string | undefined;
  try {
    if (request.rejects) files.push(await openRejectsFile(request.rejects, request.rejectsFormat ?? 'csv'));
    if (request.jsonRejects) {
      // JSON lines in a temp file, streamed into stdout after the run: memory stays flat.
      spoolPath = join(tmpdir(), `.import-rejects-${process.pid}-${randomBytes(6).toString('hex')}.jsonl`);
      files.push(await openRejectsFile(spoolPath, 'jsonl'));
    }
  } catch (error) {
    await Promise.all(files.map((f) => f.abort(error)));
    throw error;
  }
  const sink: RejectSink | undefined = files.length === 0 ? undefined : {
    begin: (columns) => { for (const f of files) f.begin(columns); },
    add: (reject) => { for (const f of files) f.add(reject); },
  };
  const spool = spoolPath;
  return {
    sink,
    rejectCount: () => files[0]?.count ?? 0,
    // Only the --rejects file: the -o json spool is JSON lines, which hold every string as it is.
    warnings: () => (request.rejects ? files[0].warnings() : []),
    finish: async () => { for (const f of files) await f.commit(); },
    abort: async (error) => {
      await Promise.all(files.map((f) => f.abort(error)));
      if (spool) await rm(spool, { force: true });
    },
    jsonRejectLines: spool === undefined ? undefined : async function* lines() {
      try {
        for await (const line of createInterface({ input: createReadStream(spool, 'utf8'), crlfDelay: Infinity })) if (line) yield line;
      } finally {
        await rm(spool, { force: true });
      }
    },
  };
}

/** Marks where the streamed list goes in the JSON text. */
const PLACEHOLDER = '\u0000rejects\u0000';

/**
 * Prints `value` as indented JSON with `value.report.rejects` filled from the spool, one reject a
 * line, written as it is read so the list never sits in memory.
 */
export async function printJsonWithRejects<T extends { report: object }>(deps: Pick<Deps, 'io'>, value: T, lines: AsyncIterable<string> | undefined): Promise<void> {
  if (!lines) {
    deps.io.out(JSON.stringify(value, null, 2));
    return;
  }
  const text = JSON.stringify({ ...value, report: { ...value.report, rejects: PLACEHOLDER } }, null, 2);
  const marker = JSON.stringify(PLACEHOLDER);
  const at = text.indexOf(marker);
  const write = (chunk: string) => new Promise<void>((resolve, reject) => {
    deps.io.stdout.write(chunk, (error) => (error ? reject(error) : resolve()));
  });
  await write(text.slice(0, at) + '[');
  let first = true;
  let batch = '';
  for await (const line of lines) {
    batch += (first ? '\n      ' : ',\n      ') + line;
    first = false;
    if (batch.length >= 1 << 16) { await write(batch); batch = ''; }
  }
  await write(batch + (first ? ']' : '\n    ]') + text.slice(at + marker.length) + '\n');
}

/** What the HTML report needs from a dry run. */
export interface HtmlReportInput {
  jobFile: string;
  input: string;
  output: string;
  now: Date;
  inputColumns: string[];
  /** The diff of the job file against the suggestions (the mapping entries are used). */
  entries: DiffEntry[];
  report: Report;
  profile: ColumnProfile[];
  rejectsFile?: string;
}

/** Writes the HTML report to `path` atomically (temp file beside it, renamed). */
export async function writeHtmlReport(path: string, data: HtmlReportInput): Promise<void> {
  const [{ renderHtmlReport }, { writeAtomic }, { writeFile }] = await Promise.all([
    import('./report-html.js'), import('../engine/write/atomic.js'), import('node:fs/promises'),
  ]);
  const byColumn = new Map(data.entries.filter((e) => e.resource === 'mapping').map((e) => [e.key, e]));
  const mapping: MappingRow[] = [...new Set([...data.inputColumns, ...byColumn.keys()])].map((column) => {
    const e = byColumn.get(column);
    const pinned = e !== undefined && e.desired !== undefined && e.marker !== ' ' && e.marker !== '?';
    const suggested = e?.suggested === undefined ? undefined : (e.suggested as string | null);
    return { column, field: pinned ? (e.desired as string | null) : suggested ?? null, confidence: e?.confidence, suggested, pinned };
  });
  const html = renderHtmlReport({
    title: `Dry run of ${basename(data.jobFile)}`,
    jobFile: data.jobFile, input: data.input, output: data.output, generatedAt: data.now.toISOString().replace('T', ' ').slice(0, 19) + ' UTC',
    mapping, report: data.report, profile: data.profile, rejectsFile: data.rejectsFile,
  });
  await writeAtomic(path, (temp) => writeFile(temp, html));
}
