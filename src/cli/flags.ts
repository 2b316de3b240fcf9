/**
 * Pure parsers for the convenience flags of `start`, `run` and `<resource> update`. Each returns
 * a value or throws a UsageError whose one sentence names the flag, the bad value and the form
 * expected. No I/O here.
 */
import {
  AGGREGATION_METHODS, CASINGS, COMBINING_METHODS, DATA_TYPES, isHttpUrl, jobIdProblem, OUTPUT_FILE_TYPES, READ_ONLY_CASINGS, ROW_DROPPING_METHODS,
  type AggregationMethod, type Casing, type CombiningMethod, type DataType, type OutputFileType, type RowDroppingMethod,
} from '../contract/index.js';
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { compileRegex } from '../engine/regex.js';

/** `--map <column>=<field>`: split at the last `=`, since column names may contain `=` but field names do not. */
export function parseMap(value: string): { column: string; field: string } {
  const [column, field] = splitLast(value, '=');
  if (!column || !field) throw bad('--map', value, '<column>=<field>', '--map "First Name=firstName"');
  return { column, field };
}

/** `--unmap <column>`. */
export function parseUnmap(value: string): string {
  if (value === '') throw bad('--unmap', value, '<column>', '--unmap Notes');
  return value;
}

/** `--type <field>=<number|rich_text|category|date_time>` (the type in any case). */
export function parseType(value: string): { field: string; dataType: DataType } {
  const [field, type] = splitLast(value, '=');
  if (!field || !type) throw bad('--type', value, `<field>=<${DATA_TYPES.join('|')}>`, '--type amount=number');
  const dataType = oneOf(DATA_TYPES, type);
  if (!dataType) throw new UsageError(`--type "${value}": "${type}" is not a data type; use one of ${DATA_TYPES.join(', ')}.`);
  return { field, dataType };
}

/** `--unit <field>=<from>:<to>`: both units are needed (`--clear-unit` removes a conversion). */
export function parseUnit(value: string): { field: string; from: string; to: string } {
  const [field, units] = splitLast(value, '=');
  const colon = units?.indexOf(':') ?? -1;
  if (!field || !units || colon < 0) throw bad('--unit', value, '<field>=<from>:<to>', '--unit time=UTC_m5:UTC_p0');
  const from = units.slice(0, colon).trim();
  const to = units.slice(colon + 1).trim();
  if (!from || !to) {
    throw new UsageError(`--unit "${value}": a conversion needs both <from> and <to>; use --clear-unit ${field} for no conversion.`);
  }
  return { field, from, to };
}

/** `--clear-unit <field>`: from and to both null. */
export function parseClearUnit(value: string): string {
  if (value === '') throw bad('--clear-unit', value, '<field>', '--clear-unit time');
  return value;
}

/** What `--impute` asks for: a method (null = leave the data unchanged) and a fill value. */
export interface ImputeFlag { field: string; method: 'fill' | 'dropMissing' | null; value?: unknown }

/**
 * `--impute <field>=fill:<value>`, `<field>=dropMissing`, `<field>=none`. A fill value that is a
 * JSON number, `true`, `false` or a quoted JSON string is read as that value, like a YAML job file;
 * anything else is text.
 */
export function parseImpute(value: string): ImputeFlag {
  // The field is the longest prefix whose rest is a valid method, so fill values may contain `=`.
  const match = /^(.+)=(?:(fill):([\s\S]*)|(dropMissing|none|null))$/i.exec(value);
  if (!match) throw bad('--impute', value, '<field>=fill:<value>, <field>=dropMissing or <field>=none', '--impute country=fill:US');
  const [, field, fill, fillValue, other] = match;
  if (fill) return { field, method: 'fill', value: fillValueOf(fillValue) };
  return { field, method: other.toLowerCase() === 'dropmissing' ? 'dropMissing' : null };
}

/** A fill value typed as a job file would type it: JSON scalars become numbers, booleans or strings. */
export function fillValueOf(text: string): unknown {
  if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text) || text === 'true' || text === 'false' || /^".*"$/s.test(text)) {
    try { return JSON.parse(text); } catch { /* not JSON after all: text */ }
  }
  return text;
}

/** `--drop <missingValues|duplicateValues>:<f1,f2,...>`. */
export function parseDrop(value: string): { method: RowDroppingMethod; fields: string[] } {
  const colon = value.indexOf(':');
  if (colon < 0) throw bad('--drop', value, `<${ROW_DROPPING_METHODS.join('|')}>:<field,...>`, '--drop duplicateValues:email');
  const name = value.slice(0, colon).trim();
  const method = oneOf(ROW_DROPPING_METHODS, name);
  if (!method) throw new UsageError(`--drop "${value}": "${name}" is not a row dropping method; use ${ROW_DROPPING_METHODS.join(' or ')}.`);
  const fields = parseList('--drop', value.slice(colon + 1));
  if (fields.length === 0) throw new UsageError(`--drop "${value}": list the fields after the colon, e.g. --drop ${method}:email,id.`);
  return { method, fields };
}

/** `--case <field>=<upper|lower|title|swap>`; `capitalize` (seen in the seed's read example) is accepted with a warning. */
export function parseCase(value: string): { field: string; casing: Casing; warning?: string } {
  const [field, text] = splitLast(value, '=');
  if (!field || !text) throw bad('--case', value, `<field>=<${CASINGS.join('|')}>`, '--case name=title');
  const casing = oneOf(CASINGS, text);
  if (casing) return { field, casing };
  const readOnly = oneOf(READ_ONLY_CASINGS, text);
  if (readOnly) {
    return { field, casing: readOnly, warning: `--case ${value}: "${readOnly}" is not in the seed's list of supported casings (${CASINGS.join(', ')}); sending it anyway.` };
  }
  throw new UsageError(`--case "${value}": "${text}" is not a casing; use one of ${CASINGS.join(', ')}.`);
}

/**
 * `--replace <field>=/<regex>/<replacement>/`, as in sed (a leading `s` is allowed, and any
 * punctuation may stand for `/`: `phone=|[^0-9]||`). The field ends at the first `=` (field names
 * have none); `\/` puts the delimiter itself in the expression or the replacement, `\\` a
 * backslash in the replacement.
 */
export function parseReplace(value: string): { field: string; pattern: string; replacement: string } {
  const form = '<field>=/<regex>/<replacement>/';
  const example = "--replace 'phone=/[^0-9]//'";
  const eq = value.indexOf('=');
  if (eq <= 0) throw bad('--replace', value, form, example);
  const field = value.slice(0, eq);
  let rest = value.slice(eq + 1);
  if (rest.startsWith('s') && rest.length > 1 && isDelimiter(rest[1])) rest = rest.slice(1);
  const delimiter = rest[0];
  if (delimiter === undefined || !isDelimiter(delimiter)) throw bad('--replace', value, form, example);
  const parts: string[] = [];
  let part = '';
  for (let i = 1; i < rest.length; i++) {
    const c = rest[i];
    if (c === '\\' && i + 1 < rest.length) {
      // An escape pair is never a delimiter. The expression keeps it as written (`\/` matches
      // `/`); the replacement takes the escaped delimiter or backslash as itself.
      const next = rest[++i];
      part += parts.length === 1 && (next === delimiter || next === '\\') ? next : c + next;
    } else if (c === delimiter) {
      parts.push(part);
      part = '';
    } else {
      part += c;
    }
  }
  if (parts.length !== 2 || part !== '') throw bad('--replace', value, form, example);
  const [pattern, replacement] = parts;
  if (pattern === '') throw new UsageError(`--replace "${value}" has an empty regular expression; put one between the first two ${delimiter}.`);
  checkRegex(pattern, `--replace "${value}"`);
  return { field, pattern, replacement };
}

/** A delimiter of --replace: punctuation, not a letter, digit, space or backslash. */
function isDelimiter(c: string): boolean {
  return /^[!-/:-@[-`{-~]$/.test(c) && c !== '\\';
}

/** `--clear-replace <field>`. */
export function parseClearReplace(value: string): string {
  if (value === '') throw bad('--clear-replace', value, '<field>', '--clear-replace phone');
  return value;
}

/** A comma list (`--pivot-columns a,b`, `--order c1,c2`); empty items are refused, an empty value is an empty list. */
export function parseList(flag: string, value: string): string[] {
  if (value.trim() === '') return [];
  const items = value.split(',').map((item) => item.trim());
  if (items.some((item) => item === '')) throw new UsageError(`${flag} "${value}" has an empty name; separate names with single commas, e.g. ${flag} a,b.`);
  return items;
}

/** `--aggregation first` (the only method the seed supports). */
export function parseAggregation(value: string): AggregationMethod {
  const method = oneOf(AGGREGATION_METHODS, value);
  if (!method) throw new UsageError(`--aggregation "${value}" is not supported; the only aggregation method is ${AGGREGATION_METHODS.join(', ')}.`);
  return method;
}

/** `--method stringAppend|json`. Seed leaves the case of method values open (its example writes `JSON`); we accept any case. */
export function parseCombiningMethod(value: string, flag = '--method'): CombiningMethod {
  const method = oneOf(COMBINING_METHODS, value);
  if (!method) throw new UsageError(`${flag} "${value}" is not a combining method; use ${COMBINING_METHODS.join(' or ')}.`);
  return method;
}

/** `--output-file-type csv|excel`. */
export function parseOutputFileType(value: string): OutputFileType {
  const type = oneOf(OUTPUT_FILE_TYPES, value);
  if (!type) throw new UsageError(`--output-file-type "${value}" is not supported; use ${OUTPUT_FILE_TYPES.join(' or ')}.`);
  return type;
}

/** An http(s) URL flag such as `--webhook-url`. */
export function parseUrl(flag: string, value: string): string {
  if (!isHttpUrl(value)) {
    throw new UsageError(`${flag} "${value}" is not an http(s) URL; pass e.g. ${flag} https://example.com/hook.`);
  }
  return value;
}

/** A job id argument: any non-empty text (it is encoded in the path); `.` and `..` are refused. */
export function parseJobId(value: string): string {
  const problem = jobIdProblem(value);
  if (problem !== undefined) throw new UsageError(`The job id ${JSON.stringify(value)} ${problem}; pass the id printed by \`import start\`.`);
  return value;
}

/**
 * Checks that a regular expression compiles (JavaScript dialect; seed: the dialect is not shown)
 * and that the engine can run it in linear time (engine/regex.ts).
 */
export function checkRegex(pattern: string, where: string): void {
  compileRegex(pattern, where);
}

/** Commander helper: collects a repeatable option's values. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** The allowed value matching `text` case-insensitively, in its canonical spelling. */
export function oneOf<T extends string>(allowed: readonly T[], text: string): T | undefined {
  const wanted = text.trim().toLowerCase();
  return allowed.find((a) => a.toLowerCase() === wanted);
}

function splitLast(value: string, separator: string): [string | undefined, string | undefined] {
  const at = value.lastIndexOf(separator);
  if (at < 0) return [undefined, undefined];
  // Names are data (a CSV header may have a trailing space), so they are kept exactly.
  return [value.slice(0, at), value.slice(at + 1)];
}

function bad(flag: string, value: string, form: string, example: string): UsageError {
  return new UsageError(`${flag} "${value}" is not of the form ${form}; e.g. ${example}.`);
}

/** The confidence bar: `--min-confidence` (0 to 1) over the job file's `review.minConfidence`; none when neither is set. */
export function parseMinConfidence(flag: string | undefined, job?: { review: { minConfidence?: number } }): number | undefined {
  if (flag === undefined) return job?.review.minConfidence;
  const value = Number(flag);
  if (flag.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new UsageError(`--min-confidence "${flag}" is not a number from 0 to 1; pass e.g. --min-confidence 0.8.`);
  }
  return value;
}

/** Placeholders of options whose value is a path (`<path>`, `[path]`, `<file.csv>`, `<path|->`...). */
const PATH_VALUE = /^(path|file|dir|file-or-dir|schema\.yaml|file\.csv|file\.html|path\|-|json\|@file\|-)$/;
/** Placeholders of options whose value is a number, a size or a duration. */
const NUMBER_VALUE = /^(port|ms|n|x|size|duration|MiB)$/;

/**
 * Commander hook, applied to every command in one place: an empty value (`--out=`, `--port ""`)
 * for an option that takes a path or a number is refused with one sentence naming the option,
 * rather than read as the working folder, port 0 or "not given". Other parsers still run after.
 */
export function refuseEmptyValues(command: Command): void {
  for (const option of command.options) {
    const placeholder = /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1];
    const kind = placeholder === undefined ? undefined : PATH_VALUE.test(placeholder) ? 'path' : NUMBER_VALUE.test(placeholder) ? 'number' : undefined;
    if (!kind) continue;
    const parse = option.parseArg;
    const name = option.long ?? option.flags;
    option.argParser((value: string, previous: unknown) => {
      if (value.trim() === '') throw new UsageError(`${name} was given an empty value; give it a ${kind}${kind === 'path' ? ', or leave the option out' : ''}.`);
      return parse ? parse(value, previous) : value;
    });
  }
}
