/**
 * Checks of request bodies against the seed: update and run bodies with the contract's strict
 * schemas (src/contract/schemas.ts, the same the client checks before sending), then against the
 * job. Shape problems are 400 (`invalid_body`), values the seed does not allow or that do not fit
 * the job are 422 (`invalid_value`). Every check returns the body in the seed's spelling
 * (`JSON` -> `json`), so what is stored and read back is always a valid configuration.
 */
import {
  OUTPUT_FILE_TYPES,
  type ColumnCombiningUpdate, type DataTypesUpdate, type FieldsUpdate, type ImputeUpdate, type JobResources,
  type OutputFileType, type PivotUpdate, type RowDroppingUpdate, type RunRequest, type StartForm, type TextProcessingUpdate,
  type UnitsUpdate,
} from '../contract/index.js';
import { check, checkUpdate, joinPath, type Problem, type UpdateName } from '../contract/check.js';
import { DuplicateKeyError, NestingError, parseJson as parseOrderedJson } from '../contract/json.js';
import { RunRequest as RunRequestSchema } from '../contract/schemas.js';
import { flatMapping } from '../contract/translate.js';
import { combinedFields, combiningNotAllowedMessage } from '../engine/steps/combine.js';
import { checkUnit } from '../engine/steps/units.js';
import { regexProblem } from '../engine/regex.js';
import { invalidBody, invalidValue } from './http-error.js';
import { nameList } from '../errors.js';

export { flatMapping };

type JsonObject = Record<string, unknown>;

/** What the checks need to know about the job a body is for. */
export interface JobView {
  resources: JobResources;
  allowColumnCombining: boolean;
}

// ---- small shape helpers (the start form): each names the member by its path in the body ----

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value)}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

function member(at: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${at}.${key}` : `${at}[${JSON.stringify(key)}]`;
}

function object(value: unknown, at: string): JsonObject {
  if (!isObject(value)) throw invalidBody(`${at} must be a JSON object, got ${describe(value)}.`);
  return value;
}

/** Refuses members other than `allowed`. */
function onlyMembers(value: JsonObject, at: string, allowed: string[]): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) throw invalidBody(`${at} has an unknown member ${JSON.stringify(key)}; it takes ${allowed.join(', ')}.`);
  }
}

function textList(value: unknown, at: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    throw invalidBody(`${at} must be an array of strings, got ${describe(value)}.`);
  }
  return [...value];
}

function notAllowed(at: string, value: unknown, allowed: readonly string[]): never {
  throw invalidValue(`${at} ${JSON.stringify(value)} is not allowed; use one of ${allowed.join(', ')}.`);
}

/**
 * Deepest nesting of arrays and objects in an update or run body. The seed's bodies need 5 levels
 * (a fillValue may add a few); a body thousands deep would exhaust the stack when it is copied or
 * stored (a 500 before this limit).
 */
export const MAX_BODY_DEPTH = 64;

/** Parses a request body as JSON, keeping the written order of keys (400 when it is not JSON). An empty body is `undefined`. */
export function parseJson(body: string): unknown {
  if (body.trim() === '') return undefined;
  try {
    // A key written twice would lose one of its values in silence (JSON.parse keeps the last).
    return parseOrderedJson(body, { maxDepth: MAX_BODY_DEPTH, uniqueKeys: true });
  } catch (e) {
    if (e instanceof DuplicateKeyError) {
      throw invalidBody(`The body names key ${JSON.stringify(e.key)} twice in one object (at character ${e.offset + 1}), so one of its values would be lost; give it once.`);
    }
    if (e instanceof NestingError) {
      throw invalidBody(`The body nests arrays and objects more than ${MAX_BODY_DEPTH} levels deep (at character ${e.offset + 1}); the seed's bodies need a handful.`);
    }
    throw invalidBody(`The body is not valid JSON (${(e as Error).message}); send a JSON object.`);
  }
}

/** A contract problem as the local service's error: 422 for a value the seed does not allow, else 400. */
function bodyError(p: Problem): Error {
  const message = `${p.path ? joinPath('body', p.path) : 'The body'} ${p.problem}.`;
  return p.isValue ? invalidValue(message) : invalidBody(message);
}

/** An update body checked with the contract's strict schema (the one the client checks before sending). */
function parseUpdate<K extends UpdateName>(name: K, body: unknown) {
  const result = checkUpdate(name, body);
  if (!result.ok) throw bodyError(result.problem);
  return result.value;
}

/** The fields a configuration may name: mapped fields, then the pipeline's expected and optional ones (a body may name every field of a 50,000-column job). */
export function knownFields(resources: JobResources): ReadonlySet<string> {
  const fields = new Set<string>();
  for (const columns of Object.values(resources.fields.columnFieldMapping)) {
    for (const m of Object.values(columns)) fields.add(m.field);
  }
  for (const f of resources.fields.expectedFields) fields.add(f);
  for (const f of resources.fields.optionalFields) fields.add(f);
  return fields;
}

function checkField(field: string, at: string, known: ReadonlySet<string>): void {
  if (!known.has(field)) {
    throw invalidValue(`${at} names field ${JSON.stringify(field)}, which this job does not have; its fields: ${nameList([...known])}.`);
  }
}

// ---- updates ----

/** `updateSelectedSheet` body -> the selected sheet name. */
export function checkSheetUpdate(body: unknown, job: JobView): string {
  const { selected } = parseUpdate('sheet', body).sheetSelection;
  const sheets = job.resources.sheet?.sheetSelection.sheets;
  if (!sheets) throw invalidValue('This job\'s input is not a workbook, so it has no sheet to select.');
  // Seed note 6: the selected name must be one of the names getSelectedSheet returns in `sheets`.
  if (!sheets.includes(selected)) {
    throw invalidValue(`Sheet ${JSON.stringify(selected)} is not in this workbook; choose one of: ${nameList(sheets)}.`);
  }
  return selected;
}

/** `updateFields` body, checked against the job's columns; several columns on one field need allowColumnCombining. */
export function checkFieldsUpdate(body: unknown, job: JobView): FieldsUpdate {
  const update = parseUpdate('fields', body);
  const sources = Object.keys(job.resources.fields.columnFieldMapping);
  const columns = job.resources.fields.inputColumns;
  const isColumn = new Set(columns);
  for (const [source, byColumn] of Object.entries(update.columnFieldMapping)) {
    const at = member('body.columnFieldMapping', source);
    if (!sources.includes(source)) {
      throw invalidValue(`${at}: data source ${JSON.stringify(source)} is not this job's; its data source is ${sources.map((s) => JSON.stringify(s)).join(', ')}.`);
    }
    for (const column of Object.keys(byColumn)) {
      if (!isColumn.has(column)) {
        throw invalidValue(`${member(at, column)}: column ${JSON.stringify(column)} is not in the input; input columns: ${nameList(columns)}.`);
      }
    }
  }
  const allow = update.allowColumnCombining === true;
  if (!allow) {
    const [first] = combinedFields(flatMapping(update.columnFieldMapping), columns);
    if (first) throw invalidValue(combiningNotAllowedMessage(first[0], first[1]));
  }
  return allow ? { columnFieldMapping: update.columnFieldMapping, allowColumnCombining: true } : { columnFieldMapping: update.columnFieldMapping };
}

/** `updateColumnCombiningMethods` body; each field must be one that several columns map to. */
export function checkCombiningUpdate(body: unknown, job: JobView): ColumnCombiningUpdate {
  const update = parseUpdate('combining', body);
  const combined = combinedFieldsOf(job);
  for (const [field, entry] of Object.entries(update.columnsBeingCombined)) {
    const at = member('body.columnsBeingCombined', field);
    const columns = combined.get(field);
    if (!columns) {
      const list = [...combined.keys()];
      throw invalidValue(`${at}: field ${JSON.stringify(field)} is not combined from several columns${list.length ? `; combined fields: ${nameList(list)}` : '; map several columns to it with allowColumnCombining: true first'}.`);
    }
    const order = entry.combiningOrder;
    if (order && !(order.length === columns.length && new Set(order).size === order.length && order.every((c) => columns.includes(c)))) {
      throw invalidValue(`${member(at, 'combiningOrder')} must list exactly the columns of ${field} (${columns.join(', ')}), each once.`);
    }
  }
  return update;
}

/** Fields that several columns map to (combining allowed), with their columns in input order. */
export function combinedFieldsOf(job: JobView): Map<string, string[]> {
  if (!job.allowColumnCombining) return new Map();
  return combinedFields(flatMapping(job.resources.fields.columnFieldMapping), job.resources.fields.inputColumns);
}

/** `updateDataTypes` body; data types in any case, stored in the seed's spelling. */
export function checkDataTypesUpdate(body: unknown, job: JobView): DataTypesUpdate {
  const update = parseUpdate('dataTypes', body);
  const known = knownFields(job.resources);
  for (const field of Object.keys(update.fieldDataTypes)) checkField(field, member('body.fieldDataTypes', field), known);
  return update;
}

/** `updateUnits` body: `from` and `to` both set (known units of one dimension) or both null. */
export function checkUnitsUpdate(body: unknown, job: JobView): UnitsUpdate {
  const update = parseUpdate('units', body);
  const known = knownFields(job.resources);
  for (const [field, { from, to }] of Object.entries(update.fieldUnitConversions)) {
    const at = member('body.fieldUnitConversions', field);
    const problem = checkUnit(from, to);
    if (problem) throw invalidValue(`${at}: ${problem}.`);
    checkField(field, at, known);
  }
  return update;
}

/** `updateImputeMethods` body: fill (with a fill value), dropMissing, or null. */
export function checkImputeUpdate(body: unknown, job: JobView): ImputeUpdate {
  const update = parseUpdate('impute', body);
  const known = knownFields(job.resources);
  for (const field of Object.keys(update.imputeMethods)) checkField(field, member('body.imputeMethods', field), known);
  return update;
}

/** `updatePivot` body: null, or the three members with aggregationMethod `first`. */
export function checkPivotUpdate(body: unknown, job: JobView): PivotUpdate {
  const update = parseUpdate('pivot', body);
  if (update.pivot === null) return update;
  const known = knownFields(job.resources);
  for (const key of ['pivotColumns', 'valueColumns', 'indexColumns'] as const) {
    for (const name of update.pivot[key].columnNames) checkField(name, `body.pivot.${key}.columnNames`, known);
  }
  return update;
}

/** `updateRowDroppingMethods` body: the additional methods, each with a non-empty field list. */
export function checkRowDroppingUpdate(body: unknown, job: JobView): RowDroppingUpdate {
  const update = parseUpdate('rowDropping', body);
  const known = knownFields(job.resources);
  update.additionalRowDroppingMethods.forEach((rule, i) => {
    for (const field of rule.methodConfig.fields) checkField(field, `body.additionalRowDroppingMethods[${i}].methodConfig.fields`, known);
  });
  return update;
}

/** `updateTextProcessingMethods` body: compilable regular expressions (kept in written order), allowed casings. */
export function checkTextUpdate(body: unknown, job: JobView): TextProcessingUpdate {
  const update = parseUpdate('text', body);
  const methods = update.textProcessingMethods;
  const known = knownFields(job.resources);
  for (const [field, rules] of Object.entries(methods.regexReplacement ?? {})) {
    const at = member('body.textProcessingMethods.regexReplacement', field);
    for (const pattern of rules.keys()) {
      // The engine's own check (regex.ts): it compiles, and runs in linear time.
      const problem = regexProblem(pattern);
      if (problem) throw invalidValue(`${at}: regular expression ${JSON.stringify(pattern)} ${problem}.`);
    }
    checkField(field, at, known);
  }
  for (const field of Object.keys(methods.casing ?? {})) checkField(field, member('body.textProcessingMethods.casing', field), known);
  return update;
}

// ---- start and run ----

/** The start form, parsed: `pipelineIds` holds every id given (string, JSON array or repeated parts). */
export interface StartFields extends Omit<StartForm, 'pipelineId'> {
  pipelineIds: string[];
  outputFileType: OutputFileType;
}

const START_FIELDS = [
  'pipelineId', 'jobName', 'gsUrl', 'gsSheetName', 'jsonData', 'destinationFileName', 'useFullData',
  'useVariableFields', 'scripts', 'webhookUrl', 'outputFileType',
];

/** Checks the start form's text parts (name -> values in order) and parses them into typed fields. */
export function checkStartFields(parts: Map<string, string[]>): StartFields {
  for (const [name, values] of parts) {
    if (name === 'files') throw invalidBody('The part "files" must be a file upload (in curl: -F files=@path).');
    if (!START_FIELDS.includes(name)) throw invalidBody(`The start form has an unknown field ${JSON.stringify(name)}; it takes files, ${START_FIELDS.join(', ')}.`);
    if (name !== 'pipelineId' && values.length > 1) throw invalidBody(`The start form field ${name} is given ${values.length} times; give it once.`);
  }
  const one = (name: string): string | undefined => parts.get(name)?.[0];
  const bool = (name: string): boolean | undefined => {
    const v = one(name);
    if (v === undefined) return undefined;
    const lower = v.trim().toLowerCase();
    if (lower === 'true') return true;
    if (lower === 'false') return false;
    throw invalidBody(`The start form field ${name} must be true or false, got ${JSON.stringify(v)}.`);
  };
  const json = (name: string): unknown => {
    const v = one(name);
    if (v === undefined) return undefined;
    try { return parseOrderedJson(v); } catch (e) {
      throw invalidBody(`The start form field ${name} is not valid JSON (${(e as Error).message}).`);
    }
  };

  const out: StartFields = { pipelineIds: [], outputFileType: 'csv' };
  for (const value of parts.get('pipelineId') ?? []) {
    // Seed: pipelineId is a string or an array; over multipart an array is JSON text or repeated parts.
    if (value.trim().startsWith('[')) {
      let list: unknown;
      try { list = JSON.parse(value); } catch (e) {
        throw invalidBody(`The start form field pipelineId looks like a JSON array but is not valid JSON (${(e as Error).message}).`);
      }
      for (const id of textList(list, 'The start form field pipelineId')) out.pipelineIds.push(id);
    } else {
      out.pipelineIds.push(value);
    }
  }
  out.pipelineIds = [...new Set(out.pipelineIds.map((id) => id.trim()).filter((id) => id !== ''))];

  const jobName = one('jobName');
  if (jobName !== undefined) out.jobName = jobName;
  const gsUrl = one('gsUrl');
  if (gsUrl !== undefined) out.gsUrl = gsUrl;
  const gsSheetName = one('gsSheetName');
  if (gsSheetName !== undefined) out.gsSheetName = gsSheetName;

  const rows = json('jsonData');
  if (rows !== undefined) {
    if (!Array.isArray(rows) || !rows.every(isObject)) {
      throw invalidBody('The start form field jsonData must be a JSON array of row objects, e.g. [{"id": 1, "name": "Ann"}].');
    }
    out.jsonData = rows as Record<string, unknown>[];
  }

  const destination = one('destinationFileName');
  if (destination !== undefined) {
    if (destination === '' || destination === '.' || destination === '..' || /[/\\\0]/.test(destination)) {
      throw invalidValue(`destinationFileName ${JSON.stringify(destination)} is not a plain file name; give a name such as customers.csv, without folders.`);
    }
    out.destinationFileName = destination;
  }
  const useFullData = bool('useFullData');
  if (useFullData !== undefined) out.useFullData = useFullData;
  const useVariableFields = bool('useVariableFields');
  if (useVariableFields !== undefined) out.useVariableFields = useVariableFields;

  const scripts = json('scripts');
  if (scripts !== undefined) {
    const s = object(scripts, 'The start form field scripts');
    if (Object.hasOwn(s, 'postClean')) throw invalidValue('Scripts can be attached at start only in the preColumnMapping position; remove postClean.');
    onlyMembers(s, 'The start form field scripts', ['preColumnMapping']);
    out.scripts = { preColumnMapping: textList(s.preColumnMapping ?? [], 'scripts.preColumnMapping') };
  }

  const webhookUrl = one('webhookUrl');
  if (webhookUrl !== undefined) out.webhookUrl = checkWebhookUrl(webhookUrl, 'The start form field webhookUrl');

  const type = one('outputFileType');
  if (type !== undefined) {
    out.outputFileType = OUTPUT_FILE_TYPES.find((t) => t === type.trim().toLowerCase()) ?? notAllowed('outputFileType', type, OUTPUT_FILE_TYPES);
  }
  return out;
}

/** A webhook URL must be absolute http(s). */
export function checkWebhookUrl(value: string, at: string): string {
  let url: URL;
  try { url = new URL(value); } catch {
    throw invalidValue(`${at} ${JSON.stringify(value)} is not an absolute URL; give e.g. https://hooks.example.com/import.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidValue(`${at} must be an http or https URL, got ${url.protocol}.`);
  return value;
}

/** The `run` body (contract RunRequest): optional webhookUrl and returnWhenComplete; an empty body is `{}`. */
export function checkRunBody(body: unknown): RunRequest {
  const result = check(RunRequestSchema, body);
  if (!result.ok) throw bodyError(result.problem);
  const request = result.value;
  if (request.webhookUrl !== undefined) checkWebhookUrl(request.webhookUrl, 'body.webhookUrl');
  return request;
}
