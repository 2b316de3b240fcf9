/** Opens a job file's input for the embedded engine. */
import { UsageError } from '../errors.js';
import type { JobFile } from '../jobfile/types.js';
import { openInput } from '../engine/read/index.js';
import type { SheetsWorkbook } from '../engine/read/google-sheet.js';
import type { InputSource } from '../engine/types.js';
import { DEFAULT_TIMEOUT_MS } from './settings.js';

/** What reading a Google Sheets link takes from the command: IMPORT_SHEETS_BASE_URL and the global --timeout. */
export interface JobInputDeps {
  env: NodeJS.ProcessEnv;
  settings: { timeoutMs: number; verbose?: boolean };
  io?: { stderr: { write(text: string): unknown } };
}

/** The job file's input as an engine source: a local file, rows, or a Google Sheets link (fetched once per process). */
export async function openJobInput(job: JobFile, deps?: JobInputDeps): Promise<InputSource> {
  const { input } = job;
  if (input.placeholder) {
    throw new UsageError(`input.file in ${job.path} is empty, a placeholder: set the path of the data file to read it offline.`);
  }
  if (input.file) return openInput({ file: input.file });
  if (input.rows) return openInput({ rows: input.rows });
  if (input.rowsFile) {
    // Seed: rows from a file travel as jsonData, so their metadata key is `jsonData` too.
    const source = await openInput({ file: input.rowsFile });
    return { ...source, name: 'jsonData', sheets: source.sheets.bind(source), open: source.open.bind(source) };
  }
  // config.sheet beside a Google Sheets link is refused when the job file is loaded (validate.ts).
  if (input.googleSheet) {
    return openGoogleSheet(input.googleSheet.url, input.googleSheet.sheet, deps);
  }
  throw new UsageError(`${job.path}: input names no data; add one of file, googleSheet, rows or rowsFile.`);
}

/** Workbooks of the links read by this process, so a review reads its sheet once; their temp files go when the process ends. */
const workbooks = new Map<string, Promise<SheetsWorkbook>>();

/**
 * The workbook of a Google Sheets link, downloaded as XLSX from IMPORT_SHEETS_BASE_URL (default
 * Google) within the global timeout and the dry-run size limit, once per process. `fallback`
 * ends the error sentences (what to do instead: "use input.file" unless given).
 */
export async function downloadGoogleSheet(link: string, deps?: JobInputDeps, fallback?: string): Promise<SheetsWorkbook> {
  const { downloadSheetsWorkbook, parseSheetsLink, sheetsBaseUrl, DEFAULT_SHEETS_MAX_BYTES } = await import('../engine/read/google-sheet.js');
  const baseUrl = sheetsBaseUrl(deps?.env ?? process.env);
  const key = `${baseUrl} ${parseSheetsLink(link, baseUrl).id}`;
  let book = workbooks.get(key);
  if (!book) {
    const io = deps?.io;
    const log = deps?.settings.verbose && io ? (line: string) => { io.stderr.write(`${line}\n`); } : undefined;
    book = downloadSheetsWorkbook(link, { baseUrl, timeoutMs: deps?.settings.timeoutMs ?? DEFAULT_TIMEOUT_MS, maxBytes: DEFAULT_SHEETS_MAX_BYTES, fallback, log });
    workbooks.set(key, book);
    book.catch(() => workbooks.delete(key));
  }
  return book;
}

/** The sheet `sheet` of a Google Sheets link as an engine source, keyed by the sheet name. */
async function openGoogleSheet(link: string, sheet: string, deps?: JobInputDeps): Promise<InputSource> {
  const [book, { googleSheetSource }] = await Promise.all([downloadGoogleSheet(link, deps), import('../engine/read/google-sheet.js')]);
  return googleSheetSource(book, sheet);
}
