/**
 * Checks of request bodies against the seed: shape problems are 400 (`invalid_body`), values the
 * seed does not allow or that do not fit the job are 422 (`invalid_value`). Every check returns
 * the body normalised to the seed's spelling (`JSON` -> `json`), so what is stored and read back
 * is always a valid configuration.
 */
import {
  AGGREGATION_METHODS, CASINGS, COMBINING_METHODS, DATA_TYPES, IMPUTE_METHODS, OUTPUT_FILE_TYPES, READ_ONLY_CASINGS,
  ROW_DROPPING_METHODS,
  type AggregationMethod, type ColumnCombiningUpdate, type CombiningConfig, type DataTypesUpdate, type FieldsUpdate,
  type ImputeUpdate, type JobResources, type OutputFileType, type PivotUpdate, type RowDroppingUpdate, type RunRequest,
  type StartForm, type TextProcessingUpdate, type UnitsUpdate,
} from '../contract/index.js';
import { combinedFields, combiningMethodOf, combiningNotAllowedMessage } from '../engine/steps/combine.js';
import { rowDroppingMethodOf } from '../engine/steps/drop-rows.js';
import { imputeMethodOf } from '../engine/steps/impute.js';
import { casingOf } from '../engine/steps/text.js';
import { dataTypeOf } from '../engine/steps/types.js';
import { checkUnit } from '../engine/steps/units.js';
import { NOT_LINEAR, runsInLinearTime } from '../engine/regex.js';
import { invalidBody, invalidValue } from './http-error.js';

type JsonObject = Record<string, unknown>;

/** What the checks need to know about the job a body is for. */
export interface JobView {
  resources: JobResources;
  allowColumnCombining: boolean;
}

// ---- small shape helpers: each names the member by its path in the body ----

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

/** Refuses members other than `allowed`; `ignored` are read-only members a client may echo back from a GET. */
function onlyMembers(value: JsonObject, at: string, allowed: string[], ignored: string[] = []): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key) && !ignored.includes(key)) {
      throw invalidBody(`${at} has an unknown member ${JSON.stringify(key)}; it takes ${allowed.join(', ')}.`);
    }
  }
}

function required(value: JsonObject, key: string, at: string): unknown {
  if (!Object.hasOwn(value, key)) throw invalidBody(`${member(at, key)} is required.`);
  return value[key];
}

function text(value: unknown, at: string): string {
  if (typeof value !== 'string') throw invalidBody(`${at} must be a string, got ${describe(value)}.`);
  return value;
}

function textList(value: unknown, at: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    throw invalidBody(`${at} must be an array of strings, got ${describe(value)}.`);
  }
  return [...value];
}

function flag(value: unknown, at: string): boolean {
  if (typeof value !== 'boolean') throw invalidBody(`${at} must be true or false, got ${describe(value)}.`);
  return value;
}

function notAllowed(at: string, value: unknown, allowed: readonly string[]): never {
  throw invalidValue(`${at} ${JSON.stringify(value)} is not allowed; use one of ${allowed.join(', ')}.`);
}

/** Parses a request body as JSON (400 when it is not). An empty body is `undefined`. */
export function parseJson(body: string): unknown {
  if (body.trim() === '') return undefined;
  try {
    return JSON.parse(body);
  } catch (e) {
    throw invalidBody(`The body is not valid JSON (${(e as Error).message}); send a JSON object.`);
  }
}

/** The fields a configuration may name: mapped fields, then the pipeline's expected and optional ones. */
export function knownFields(resources: JobResources): string[] {
  const fields = new Set<string>();
  for (const columns of Object.values(resources.fields.columnFieldMapping)) {
    for (const m of Object.values(columns)) fields.add(m.field);
  }
  for (const f of resources.fields.expectedFields) fields.add(f);
  for (const f of resources.fields.optionalFields) fields.add(f);
  return [...fields];
}

function checkField(field: string, at: string, known: string[]): void {
  if (!known.includes(field)) {
    throw invalidValue(`${at} names field ${JSON.stringify(field)}, which this job does not have; its fields: ${known.join(', ') || '(none)'}.`);
  }
}

/** input column -> field, from an update's (or a read's) nested mapping. */
export function flatMapping(mapping: Record<string, Record<string, { field: string }>>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const columns of Object.values(mapping)) for (const [column, m] of Object.entries(columns)) flat[column] = m.field;
  return flat;
}

// ---- updates ----

/** `updateSelectedSheet` body -> the selected sheet name. */
export function checkSheetUpdate(body: unknown, job: JobView): string {
  const root = object(body, 'The body');
  onlyMembers(root, 'The body', ['sheetSelection']);
  const selection = object(required(root, 'sheetSelection', 'body'), 'body.sheetSelection');
  onlyMembers(selection, 'body.sheetSelection', ['selected'], ['confidence', 'sheets']);
  const selected = text(required(selection, 'selected', 'body.sheetSelection'), 'body.sheetSelection.selected');
  const sheets = job.resources.sheet?.sheetSelection.sheets;
  if (!sheets) throw invalidValue('This job\'s input is not a workbook, so it has no sheet to select.');
  // Seed note 6: the selected name must be one of the names getSelectedSheet returns in `sheets`.
  if (!sheets.includes(selected)) {
    throw invalidValue(`Sheet ${JSON.stringify(selected)} is not in this workbook; choose one of: ${sheets.join(', ')}.`);
  }
  return selected;
}

/** `updateFields` body, checked against the job's columns; several columns on one field need allowColumnCombining. */
export function checkFieldsUpdate(body: unknown, job: JobView): FieldsUpdate {
  const root = object(body, 'The body');
  onlyMembers(root, 'The body', ['columnFieldMapping', 'allowColumnCombining'], ['expectedFields', 'optionalFields', 'inputColumns']);
  const mapping = object(required(root, 'columnFieldMapping', 'body'), 'body.columnFieldMapping');
  const allow = root.allowColumnCombining === undefined ? false : flag(root.allowColumnCombining, 'body.allowColumnCombining');
  const sources = Object.keys(job.resources.fields.columnFieldMapping);
  const columns = job.resources.fields.inputColumns;
  const out: FieldsUpdate['columnFieldMapping'] = {};
  for (const [source, value] of Object.entries(mapping)) {
    const at = member('body.columnFieldMapping', source);
    const byColumn = object(value, at);
    if (!sources.includes(source)) {
      throw invalidValue(`${at}: data source ${JSON.stringify(source)} is not this job's; its data source is ${sources.map((s) => JSON.stringify(s)).join(', ')}.`);
    }
    out[source] = {};
    for (const [column, m] of Object.entries(byColumn)) {
      const mAt = member(at, column);
      const entry = object(m, mAt);
      onlyMembers(entry, mAt, ['field'], ['confidence']);
      const field = text(required(entry, 'field', mAt), member(mAt, 'field'));
      if (field.trim() === '') throw invalidValue(`${member(mAt, 'field')} is empty; name a field, or leave the column out to unmap it.`);
      if (!columns.includes(column)) {
        throw invalidValue(`${mAt}: column ${JSON.stringify(column)} is not in the input; input columns: ${columns.join(', ')}.`);
      }
      out[source][column] = { field };
    }
  }
  if (!allow) {
    const [first] = combinedFields(flatMapping(out), columns);
    if (first) throw invalidValue(combiningNotAllowedMessage(first[0], first[1]));
  }
  return allow ? { columnFieldMapping: out, allowColumnCombining: true } : { columnFieldMapping: out };
}

/** `updateColumnCombiningMethods` body; each field must be one that several columns map to. */
export function checkCombiningUpdate(body: unknown, job: JobView): ColumnCombiningUpdate {
  const root = object(body, 'The body');
  onlyMembers(root, 'The body', ['columnsBeingCombined']);
  const byField = object(required(root, 'columnsBeingCombined', 'body'), 'body.columnsBeingCombined');
  const combined = combinedFieldsOf(job);
  const out: ColumnCombiningUpdate['columnsBeingCombined'] = {};
  for (const [field, value] of Object.entries(byField)) {
    const at = member('body.columnsBeingCombined', field);
    const entry = object(value, at);
    onlyMembers(entry, at, ['method', 'methodConfig', 'combiningOrder']);
    const next: CombiningConfig = {};
    if (entry.method !== undefined) {
      const raw = text(entry.method, member(at, 'method'));
      // Seed rule 4: the update example writes `JSON`; the allowed list says `json`. Any case is accepted.
      next.method = combiningMethodOf(raw) ?? notAllowed(member(at, 'method'), raw, COMBINING_METHODS);
    }
    if (entry.methodConfig !== undefined) {
      const config = object(entry.methodConfig, member(at, 'methodConfig'));
      onlyMembers(config, member(at, 'methodConfig'), ['separator']);
      next.methodConfig = config.separator === undefined ? {} : { separator: text(config.separator, member(member(at, 'methodConfig'), 'separator')) };
    }
    if (entry.combiningOrder !== undefined) next.combiningOrder = textList(entry.combiningOrder, member(at, 'combiningOrder'));
    const columns = combined.get(field);
    if (!columns) {
      const list = [...combined.keys()];
      throw invalidValue(`${at}: field ${JSON.stringify(field)} is not combined from several columns${list.length ? `; combined fields: ${list.join(', ')}` : '; map several columns to it with allowColumnCombining: true first'}.`);
    }
    const order = next.combiningOrder;
    if (order && !(order.length === columns.length && new Set(order).size === order.length && order.every((c) => columns.includes(c)))) {
      throw invalidValue(`${member(at, 'combiningOrder')} must list exactly the columns of ${field} (${columns.join(', ')}), each once.`);
    }
    out[field] = next;
  }
  return { columnsBeingCombined: out };
}

/** Fields that several columns map to (combining allowed), with their columns in input order. */
export function combinedFieldsOf(job: JobView): Map<string, string[]> {
  if (!job.allowColumnCombining) return new Map();
  return combinedFields(flatMapping(job.resources.fields.columnFieldMapping), job.resources.fields.inputColumns);
}

/** `updateDataTypes` body; data types in any case, stored in the seed's spelling. */
export function checkDataTypesUpdate(body: unknown, job: JobView): DataTypesUpdate {
  const root = object(body, 'The body');
  onlyMembers(root, 'The body', ['fieldDataTypes'], ['expectedFieldDataTypes']);
  const byField = object(required(root, 'fieldDataTypes', 'body'), 'body.fieldDataTypes');
  const known = knownFields(job.resources);
  const out: DataTypesUpdate['fieldDataTypes'] = {};
  for (const [field, value] of Object.entries(byField)) {
    const at = member('body.fieldDataTypes', field);
    const entry = object(value, at);
    onlyMembers(entry, at, ['dataType'], ['confidence']);
    const raw = text(required(entry, 'dataType', at), member(at, 'dataType'));
    const dataType = dataTypeOf(raw) ?? notAllowed(member(at, 'dataType'), raw, DATA_TYPES);
    checkField(field, at, known);
    out[field] = { dataType };
  }
  return { fieldDataTypes: out };
}

/** `updateUnits` body: `from` and `to` both set (known units of one dimension) or both null. */
export function checkUnitsUpdate(body: unknown, job: JobView): UnitsUpdate {
  const root = object(body, 'The body');
  onlyMembers(root, 'The body', ['fieldUnitConversions'], ['expectedFieldUnits']);
  const byField = object(required(root, 'fieldUnitConversions', 'body'), 'body.fieldUnitConversions');
  const known = knownFields(job.resources);
  const out: UnitsUpdate['fieldUnitConversions'] = {};
  for (const [field, value] of Object.entries(byField)) {
    const at = member('body.fieldUnitConversions', field);
    const entry = object(value, at);
    onlyMembers(entry, at, ['from', 'to'], ['columnName', 'confidence']);
    const unit = (key: 'from' | 'to'): string | null => {
      const v = required(entry, key, at);
      if (v !== null && typeof v !== 'string') throw invalidBody(`${member(at, key)} must be a unit string or null, got ${describe(v)}.`);
      return v;
    };
    const from = unit('from');
    const to = unit('to');
    // Seed rule 1: a conversion needs both; both null means no conversion.
    const problem = checkUnit(from, to);
    if (problem) throw invalidValue(`${at}: ${problem}.`);
    checkField(field, at, known);
    out[field] = { from, to };
  }
  return { fieldUnitConversions: out };
}

/** `updateImputeMethods` body: fill (with a fill value), dropMissing, or null. */
export function checkImputeUpdate(body: unknown, job: JobView): ImputeUpdate {
  const root = object(body, 'The body');
  onlyMembers(root, 'The body', ['imputeMethods'], ['expectedImputeMethods']);
  const byField = object(required(root, 'imputeMethods', 'body'), 'body.imputeMethods');
  const known = knownFields(job.resources);
  const out: ImputeUpdate['imputeMethods'] = {};
  for (const [field, value] of Object.entries(byField)) {
    const at = member('body.imputeMethods', field);
    const entry = object(value, at);
    onlyMembers(entry, at, ['imputeMethod', 'imputeMethodConfig'], ['confidence']);
    const raw = required(entry, 'imputeMethod', at);
    if (raw !== null && typeof raw !== 'string') throw invalidBody(`${member(at, 'imputeMethod')} must be a string or null, got ${describe(raw)}.`);
    const method = imputeMethodOf(raw);
    if (method === undefined) notAllowed(member(at, 'imputeMethod'), raw, [...IMPUTE_METHODS, 'null']);
    let config: { fillValue?: unknown } | undefined;
    if (entry.imputeMethodConfig !== undefined) {
      const c = object(entry.imputeMethodConfig, member(at, 'imputeMethodConfig'));
      onlyMembers(c, member(at, 'imputeMethodConfig'), ['fillValue']);
      config = structuredClone(c);
    }
    if (method === 'fill') {
      const fill = config?.fillValue;
      if (fill === undefined || fill === null || (typeof fill === 'string' && fill.trim() === '')) {
        throw invalidValue(`${at}: imputeMethod fill needs imputeMethodConfig.fillValue, a non-empty value.`);
      }
    }
    checkField(field, at, known);
    out[field] = config === undefined ? { imputeMethod: method ?? null } : { imputeMethod: method ?? null, imputeMethodConfig: config };
  }
  return { imputeMethods: out };
}

/** `updatePivot` body: null, or the three members with aggregationMethod `first`. */
export function checkPivotUpdate(body: unknown, job: JobView): PivotUpdate {
  const root = object(body, 'The body');
  onlyMembers(root, 'The body', ['pivot']);
  const value = required(root, 'pivot', 'body');
  if (value === null) return { pivot: null };
  const pivot = object(value, 'body.pivot');
  onlyMembers(pivot, 'body.pivot', ['pivotColumns', 'valueColumns', 'indexColumns']);
  const known = knownFields(job.resources);
  const names = (key: string, extra: string[] = []): { entry: JsonObject; names: string[] } => {
    const at = member('body.pivot', key);
    const entry = object(required(pivot, key, 'body.pivot'), at);
    onlyMembers(entry, at, ['columnNames', ...extra], ['confidence']);
    const list = textList(required(entry, 'columnNames', at), member(at, 'columnNames'));
    for (const name of list) checkField(name, member(at, 'columnNames'), known);
    return { entry, names: list };
  };
  const pivotColumns = names('pivotColumns');
  const valueColumns = names('valueColumns');
  const indexColumns = names('indexColumns', ['aggregationMethod']);
  let aggregationMethod: AggregationMethod = 'first';
  const raw = indexColumns.entry.aggregationMethod;
  if (raw !== undefined) {
    const at = 'body.pivot.indexColumns.aggregationMethod';
    const given = text(raw, at);
    // Seed: `first` is the only supported aggregation method.
    aggregationMethod = AGGREGATION_METHODS.find((m) => m === given.toLowerCase()) ?? notAllowed(at, given, AGGREGATION_METHODS);
  }
  if (pivotColumns.names.length === 0) throw invalidValue('body.pivot.pivotColumns.columnNames is empty; a pivot needs at least one pivot column.');
  if (valueColumns.names.length === 0) throw invalidValue('body.pivot.valueColumns.columnNames is empty; a pivot needs at least one value column.');
  const all = [...indexColumns.names, ...pivotColumns.names, ...valueColumns.names];
  const twice = all.find((c, i) => all.indexOf(c) !== i);
  if (twice !== undefined) throw invalidValue(`Pivot column ${JSON.stringify(twice)} is named twice; a column has one role (index, pivot or value).`);
  return {
    pivot: {
      pivotColumns: { columnNames: pivotColumns.names },
      valueColumns: { columnNames: valueColumns.names },
      indexColumns: { columnNames: indexColumns.names, aggregationMethod },
    },
  };
}

/** `updateRowDroppingMethods` body: the additional methods, each with a non-empty field list. */
export function checkRowDroppingUpdate(body: unknown, job: JobView): RowDroppingUpdate {
  const root = object(body, 'The body');
  onlyMembers(root, 'The body', ['additionalRowDroppingMethods'], ['presetRowDroppingMethods']);
  const list = required(root, 'additionalRowDroppingMethods', 'body');
  if (!Array.isArray(list)) throw invalidBody(`body.additionalRowDroppingMethods must be an array, got ${describe(list)}.`);
  const known = knownFields(job.resources);
  return {
    additionalRowDroppingMethods: list.map((value, i) => {
      const at = `body.additionalRowDroppingMethods[${i}]`;
      const entry = object(value, at);
      onlyMembers(entry, at, ['method', 'methodConfig'], ['confidence']);
      const raw = text(required(entry, 'method', at), `${at}.method`);
      const method = rowDroppingMethodOf(raw) ?? notAllowed(`${at}.method`, raw, ROW_DROPPING_METHODS);
      const config = object(required(entry, 'methodConfig', at), `${at}.methodConfig`);
      onlyMembers(config, `${at}.methodConfig`, ['fields']);
      const fields = textList(required(config, 'fields', `${at}.methodConfig`), `${at}.methodConfig.fields`);
      if (fields.length === 0) throw invalidValue(`${at}.methodConfig.fields is empty; list the fields the rule constrains.`);
      for (const field of fields) checkField(field, `${at}.methodConfig.fields`, known);
      return { method, methodConfig: { fields } };
    }),
  };
}

/** `updateTextProcessingMethods` body: compilable regular expressions, allowed casings. */
export function checkTextUpdate(body: unknown, job: JobView): TextProcessingUpdate {
  const root = object(body, 'The body');
  onlyMembers(root, 'The body', ['textProcessingMethods']);
  const methods = object(required(root, 'textProcessingMethods', 'body'), 'body.textProcessingMethods');
  onlyMembers(methods, 'body.textProcessingMethods', ['regexReplacement', 'casing']);
  const known = knownFields(job.resources);
  const out: TextProcessingUpdate['textProcessingMethods'] = {};
  if (methods.regexReplacement !== undefined) {
    const byField = object(methods.regexReplacement, 'body.textProcessingMethods.regexReplacement');
    out.regexReplacement = {};
    for (const [field, value] of Object.entries(byField)) {
      const at = member('body.textProcessingMethods.regexReplacement', field);
      const rules = object(value, at);
      out.regexReplacement[field] = {};
      for (const [pattern, replacement] of Object.entries(rules)) {
        const rAt = member(at, pattern);
        out.regexReplacement[field][pattern] = text(replacement, rAt);
        try {
          // Same compilation as the engine's text step (ECMAScript, global).
          new RegExp(pattern, 'g');
        } catch (e) {
          throw invalidValue(`${at}: regular expression ${JSON.stringify(pattern)} does not compile (${(e as Error).message}).`);
        }
        if (!runsInLinearTime(pattern)) throw invalidValue(`${at}: regular expression ${JSON.stringify(pattern)} ${NOT_LINEAR}.`);
      }
      checkField(field, at, known);
    }
  }
  if (methods.casing !== undefined) {
    const byField = object(methods.casing, 'body.textProcessingMethods.casing');
    out.casing = {};
    for (const [field, value] of Object.entries(byField)) {
      const at = member('body.textProcessingMethods.casing', field);
      const raw = text(value, at);
      // `capitalize` appears in the seed's read example only; accepted, as engine.md defines it.
      out.casing[field] = casingOf(raw) ?? notAllowed(at, raw, [...CASINGS, ...READ_ONLY_CASINGS]);
      checkField(field, at, known);
    }
  }
  return { textProcessingMethods: out };
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
    try { return JSON.parse(v); } catch (e) {
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

/** The `run` body: optional webhookUrl and returnWhenComplete; an empty body is `{}`. */
export function checkRunBody(body: unknown): RunRequest {
  if (body === undefined) return {};
  const root = object(body, 'The body');
  onlyMembers(root, 'The body', ['webhookUrl', 'returnWhenComplete']);
  const out: RunRequest = {};
  if (root.webhookUrl !== undefined && root.webhookUrl !== null) out.webhookUrl = checkWebhookUrl(text(root.webhookUrl, 'body.webhookUrl'), 'body.webhookUrl');
  if (root.returnWhenComplete !== undefined) out.returnWhenComplete = flag(root.returnWhenComplete, 'body.returnWhenComplete');
  return out;
}
