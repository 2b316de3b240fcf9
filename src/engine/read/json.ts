/** JSON rows reader (engine.md "Reading input"): an array of objects, columns = union of keys in first-seen order. */
import { isUtf8 } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import { DuplicateKeyError, entriesInOrder, keysInOrder, NestingError, parseJson, stringifyJson } from '../../contract/json.js';
import { UsageError } from '../../errors.js';
import { isMissing } from '../missing.js';
import { BATCH_SIZE, type Batch, type InputSource, type Row, type Table } from '../types.js';
import { invalidText, unreadableFile } from './csv.js';

/**
 * Deepest nesting of arrays and objects in a JSON input (the rows array is level 1, a row 2): a
 * nested value becomes its cell as JSON text, and writing it recurses once a level, so a value
 * thousands of levels deep would exhaust the stack instead of being refused.
 */
export const MAX_JSON_DEPTH = 1000;

/**
 * Parses the text of JSON rows as every reader of rows does (a JSON input, `--json-data`,
 * `input.rowsFile`), so that what one takes the others take: each object's written key order and
 * exact numbers kept; a key named twice (DuplicateKeyError) and arrays and objects nested past
 * MAX_JSON_DEPTH (NestingError), which `import serve` refuses with a 400, throw.
 */
export function parseJsonRows(text: string): unknown {
  return parseJson(text, { exactNumbers: true, uniqueKeys: true, maxDepth: MAX_JSON_DEPTH });
}

/**
 * JSON rows' text without a leading byte-order mark (Windows editors and PowerShell write one;
 * JSON.parse refuses it), for every reader of rows alike: a JSON input, `--json-data`, `input.rowsFile`.
 */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * The text of a file of JSON rows (a JSON input, `input.rowsFile`, `--json-data`): UTF-8 without
 * its byte-order mark. A byte that is not UTF-8 is refused at its `display:line:col`, as in CSV:
 * decoding would put U+FFFD in its place and change the value in silence.
 */
export async function readRowsText(path: string, display: string): Promise<string> {
  const bytes = await readFile(path);
  if (!isUtf8(bytes)) throw await invalidText(bytes, display, 'utf-8', 'json');
  return withoutBom(bytes.toString('utf8'));
}

/** What is wrong with JSON rows nested past the limit (a NestingError from parseJsonRows), at `display:line:col`. */
export function tooDeepMessage(text: string, display: string, error: NestingError): string {
  return `${display}:${lineCol(text, error.offset)}: arrays and objects nest more than ${error.maxDepth} levels deep here; flatten the value.`;
}

/** Largest file whose error position we locate by re-parsing prefixes (the message lacks one). */
const LOCATE_LIMIT = 32 * 1024 * 1024;

/** A JSON value as a cell: strings unchanged, numbers `String(n)`, booleans `true`/`false`, objects as compact JSON. */
export function jsonCell(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  let text: string;
  switch (typeof value) {
    case 'string': text = value; break;
    case 'number': text = String(value); break;
    case 'boolean': text = value ? 'true' : 'false'; break;
    case 'bigint': text = value.toString(); break;
    case 'object': text = stringifyJson(value); break; // written order, as in the file
    default: return null; // functions and symbols have no JSON form
  }
  return isMissing(text) ? null : text;
}

/** Kind of a JSON value, as a user reads it ("a string", "null", "an array"). */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const t = typeof value;
  return t === 'object' || t === 'undefined' ? `an ${t}` : `a ${t}`;
}

/** Whether a JSON value is an object (not null, not an array). */
function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The pandas `to_json` call that writes a JSON value not holding rows, or undefined: pandas'
 * default for a DataFrame ("columns") and its other orients are each a common "wrong" JSON input,
 * and "records" is the one read, so the error names the orient to write instead of guessing at it.
 */
function pandasOrient(value: unknown): string | undefined {
  if (Array.isArray(value)) return value.length > 0 && Array.isArray(value[0]) ? 'to_json(orient="values")' : undefined;
  if (!isObject(value)) return undefined;
  if (isObject(value.schema) && Array.isArray(value.data)) return 'to_json(orient="table")';
  if (Array.isArray(value.columns) && Array.isArray(value.data)) return 'to_json(orient="split")';
  const members = Object.values(value);
  return members.length > 0 && members.every(isObject) ? 'to_json() (orient "columns", its default, or "index")' : undefined;
}

/** The end of a "not rows" message: pandas' orient to write instead when the value is in another, else the shape wanted. */
function rowsWanted(value: unknown, wanted: string): string {
  const written = pandasOrient(value);
  if (!written) return wanted;
  return `it looks like pandas' ${written}; write it with to_json(orient="records") (a JSON array of row objects) and retry.`;
}

/** Checks that every element is a plain object; throws naming the first one that is not (0-based index). */
function checkRows(value: unknown, display: string): Record<string, unknown>[] {
  if (!Array.isArray(value)) {
    throw new UsageError(`${display} holds ${kindOf(value)}, not an array of objects; ${rowsWanted(value, 'give rows as [{"column": "value"}, ...].')}`);
  }
  for (let i = 0; i < value.length; i++) {
    const element: unknown = value[i];
    if (element === null || typeof element !== 'object' || Array.isArray(element)) {
      throw new UsageError(`${display}: element ${i} (0-based) is ${kindOf(element)}, not an object; ${rowsWanted(i === 0 ? value : undefined, 'give every row as {"column": "value"}.')}`);
    }
  }
  // Rows without a key make a table without columns: nothing could be imported from them.
  if (value.length > 0 && !value.some((row) => Object.keys(row as object).length > 0)) {
    throw new UsageError(`${display}: every row is an empty object, so there are no columns; give rows as [{"column": "value"}, ...].`);
  }
  return value as Record<string, unknown>[];
}

/** The table of checked rows: union of keys as columns, values as text or null. */
function rowsTable(rows: Record<string, unknown>[]): Table {
  const index = new Map<string, number>();
  // Keys in written order: a plain object would move integer-like keys ("1962") first.
  for (const row of rows) for (const key of keysInOrder(row)) if (!index.has(key)) index.set(key, index.size);
  const columns = [...index.keys()];
  return {
    columns,
    types: columns.map(() => undefined),
    batches: {
      async *[Symbol.asyncIterator](): AsyncGenerator<Batch> {
        for (let start = 0; start < rows.length; start += BATCH_SIZE) {
          const end = Math.min(rows.length, start + BATCH_SIZE);
          const out: Row[] = [];
          const numbers: number[] = [];
          for (let i = start; i < end; i++) {
            const row: Row = new Array(columns.length).fill(null);
            for (const [key, value] of entriesInOrder(rows[i])) row[index.get(key)!] = jsonCell(value);
            out.push(row);
            numbers.push(i + 1);
          }
          yield { rows: out, rowNumbers: numbers };
        }
      },
    },
  };
}

/** Inline rows (`jsonData`) as an input source. */
export function jsonRowsSource(rows: Record<string, unknown>[], name = 'jsonData'): InputSource {
  const checked = checkRows(rows, name);
  return {
    name,
    kind: 'json',
    size: 0,
    async sheets() {
      return null;
    },
    async open() {
      return rowsTable(checked);
    },
  };
}

/** A JSON file holding an array of row objects as an input source (read whole: JSON has no row boundaries to stream on). */
export function jsonFileSource(path: string, display: string, name: string, size: number): InputSource {
  return {
    name,
    kind: 'json',
    size,
    async sheets() {
      return null;
    },
    async open(opts = {}) {
      let text: string;
      try {
        text = await readRowsText(path, display);
      } catch (error) {
        if (error instanceof UsageError) throw error;
        throw unreadableFile(display, error);
      }
      opts.onProgress?.(size);
      let value: unknown;
      try {
        value = parseJsonRows(text);
      } catch (error) {
        throw invalidJson(text, display, error as Error);
      }
      if (Array.isArray(value) && value.length === 0) throw new UsageError(`${display} is an empty array, so there are no rows; give rows as [{"column": "value"}, ...].`);
      return rowsTable(checkRows(value, display));
    },
  };
}

/** The UsageError for text that is not JSON, with the position as `file:line:col`. */
/** What JSON Lines are and the way out, for a message naming `file`. */
export function jsonLines(file: string): string {
  return `JSON Lines (one object per line), which cannot be read; make it one array of row objects (jq -s . ${file} > rows.json) and retry.`;
}

function invalidJson(text: string, display: string, error: Error): UsageError {
  if (text.trim() === '') return new UsageError(`${display} is empty; give a JSON array of row objects.`);
  if (error instanceof NestingError) {
    return new UsageError(tooDeepMessage(text, display, error));
  }
  if (error instanceof DuplicateKeyError) {
    return new UsageError(`${display}:${lineCol(text, error.offset)}: key ${JSON.stringify(error.key)} appears twice in one object, so one of its values would be lost; remove or rename one of them.`);
  }
  const offset = errorOffset(text, error.message);
  const reason = error.message.replace(/ in JSON at position \d+.*$/, '').replace(/, .*is not valid JSON$/s, '');
  const where = offset === undefined ? display : `${display}:${lineCol(text, offset)}`;
  if (offset !== undefined && /^\s*\{/.test(text) && /^\s*\{/.test(text.slice(offset)) && /\}\s*$/.test(text.slice(0, offset))) {
    return new UsageError(`${where}: a second JSON object follows the first: this is ${jsonLines(display)}`);
  }
  return new UsageError(`${where}: invalid JSON (${reason}); fix the file so it holds an array of row objects.`);
}

/** Character offset of a JSON.parse error: from the message, else by finding the shortest failing prefix. */
function errorOffset(text: string, message: string): number | undefined {
  const m = /at position (\d+)/.exec(message);
  if (m) return Number(m[1]);
  if (/Unexpected end of JSON input/.test(message)) return text.length;
  if (text.length > LOCATE_LIMIT) return undefined;
  // A prefix that ends before the bad character fails only "at its end"; one that includes it fails earlier.
  const failsInside = (length: number): boolean => {
    try {
      JSON.parse(text.slice(0, length));
      return false;
    } catch (e) {
      const msg = (e as Error).message;
      if (/Unexpected end of JSON input/.test(msg)) return false;
      const at = /at position (\d+)/.exec(msg);
      return !at || Number(at[1]) < length;
    }
  };
  let lo = 1;
  let hi = text.length;
  if (!failsInside(hi)) return undefined;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (failsInside(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo - 1;
}

/** `line:col` (1-based) of a character offset. */
function lineCol(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return `${line}:${offset - lineStart + 1}`;
}
