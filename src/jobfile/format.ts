/**
 * The job file format (jobfile.md, version 1), declared once with valibot: every key, whether it
 * is required, its type, its allowed values (the contract's constants) and its description. The
 * validator (validate.ts) walks a YAML document along this declaration, and `import schema`
 * turns it into a JSON Schema (json-schema.ts), so the format is written here and nowhere else.
 * Declarations describe the file as written: values are matched and normalised by the validator.
 */
import * as v from 'valibot';
import {
  AGGREGATION_METHODS, CASINGS, COMBINING_METHODS, DATA_TYPES, IMPUTE_METHODS, OUTPUT_FILE_TYPES, READ_ONLY_CASINGS,
  ROW_DROPPING_METHODS,
} from '../contract/index.js';

/**
 * What the validator needs beyond the shape, attached to a declaration with `v.metadata`.
 * Message templates may use `{where}` (the key path) and `{got}` (what was written).
 */
export interface FormatMeta {
  /** A leaf the validator reads itself: `text` (a string; a plain number is taken as written), `cell` (any value), `scalar` (text, number or boolean). */
  kind?: 'text' | 'cell' | 'scalar';
  /** What one value is called in messages ("data type", "casing"). */
  what?: string;
  /** The allowed values a hint offers (default: all accepted ones). */
  listed?: readonly string[];
  /** Accepted values the seed does not list: accepted with this warning. */
  readOnly?: { values: readonly string[]; warning: string };
  /** How a list's items are described: `{where} must be a list of <listOf>`. */
  listOf?: string;
  /** How a mapping's entries are described: `{where} must be a mapping of <mappingOf>`. */
  mappingOf?: string;
  /** What a number must be: `{where} must be <expect>`. */
  expect?: string;
  /** The message when this required member is missing. */
  whenMissing?: string;
  /** The message when this member is written but empty (null). */
  whenEmpty?: string;
  /** The message when this list, which needs an item, is written empty (`[]`). */
  whenEmptyList?: string;
  /** The message when the value is of the wrong kind (a list where text is expected). */
  invalid?: string;
  /** How an entry of this mapping is named in messages (`replacement for "{key}" in {where}`). */
  entryWhere?: string;
  /** Text that may be empty (a separator, a replacement). */
  allowEmpty?: boolean;
  /** Text inserted into values (a separator, a replacement): `\t` or `\1` outside double quotes stay as written, and are refused. */
  inserted?: 'separator' | 'replacement';
  /** Text that is a path, resolved against the job file's folder. */
  path?: boolean;
  /** Text that is a unit (a UTC delta or a unit the engine converts). */
  unit?: boolean;
  /** Keys of this mapping are JavaScript regular expressions. */
  regexKeys?: boolean;
  /** Keep this mapping as a `Map` (its order is the order rules apply in). */
  ordered?: boolean;
  /** The rule of the format that applies once the shape is read (validate.ts). */
  rule?: 'job' | 'input' | 'config' | 'combining' | 'units' | 'impute' | 'pivot' | 'schema';
  /** JSON Schema keywords the shape alone does not give (exactly one input). */
  jsonSchema?: Record<string, unknown>;
}

/** Attaches a description (from jobfile.md) and the validator's metadata to a declaration. */
function key<S extends v.GenericSchema>(schema: S, description: string, meta: FormatMeta = {}) {
  return v.pipe(schema, v.description(description), v.metadata(meta as Record<string, unknown>));
}

/** An optional member: absent, or written empty (a skeleton leaves sections empty), means "not set". */
function optional<S extends v.GenericSchema>(schema: S, description: string, meta: FormatMeta = {}) {
  return key(v.nullish(schema), description, meta);
}

/**
 * An optional setting (a value, not a section): absent means "not set", but written empty or
 * `null` it is refused, since a user cannot mean "the default" by writing the key without a
 * value (`separator: ,` inside braces is YAML's null, not ", "). Where null means something, the
 * declaration says so with `v.nullable` (mapping `Notes: null`, units `from: null`).
 */
function setting<S extends v.GenericSchema>(schema: S, description: string, meta: FormatMeta = {}) {
  return key(v.optional(schema), description, meta);
}

/** Text: a string, or a plain number taken as written (`sheet: 2024`); `${NAME}` is substituted. */
function text(meta: FormatMeta = {}) {
  return v.pipe(v.union([v.string(), v.number()]), v.metadata({ kind: 'text', ...meta } as Record<string, unknown>));
}

/** A list of names (columns, fields, script ids); `nonEmpty` needs at least one. */
function names(nonEmpty = false) {
  const list = v.array(text());
  return nonEmpty ? v.pipe(list, v.nonEmpty()) : list;
}

/** One of the contract's values, matched in any case. */
function oneOf(values: readonly string[], what: string, meta: FormatMeta = {}) {
  return v.pipe(v.picklist(values as readonly [string, ...string[]]), v.metadata({ what, ...meta } as Record<string, unknown>));
}

/** A mapping keyed by names users choose (fields, columns, script ids). */
function named<S extends v.GenericSchema>(value: S, meta: FormatMeta = {}) {
  return v.pipe(v.record(v.string(), value), v.metadata(meta as Record<string, unknown>));
}

/** A row dropping rule: `{method, fields}` (config and schema alike). */
const RowDroppingRule = key(v.strictObject({
  method: key(oneOf(ROW_DROPPING_METHODS, 'row dropping method'), 'missingValues drops rows with a missing value in any listed field (NOT NULL); duplicateValues drops rows whose listed fields repeat an earlier row (UNIQUE).', { whenMissing: '{where} is missing "method"; add missingValues or duplicateValues.' }),
  fields: key(names(true), 'The fields the rule looks at.', { whenMissing: '{where} is missing "fields"; add a list of field names.' }),
}), 'A row dropping rule: {method, fields}.', { whenEmpty: '{where} is empty; give it a method and fields.' });

const rowDroppingList = (description: string) => optional(v.array(RowDroppingRule), description, { listOf: '{method, fields} rules' });

/** The `schema` block (and, with `id`, a schema file for `import serve --schema`). */
export const SchemaDeclaration = key(v.strictObject({
  id: setting(text(), 'The pipeline id (needed only in a schema file for `import serve`).'),
  expectedFields: setting(names(), 'Output fields the pipeline expects (expectedFields).'),
  optionalFields: setting(names(), 'Expected fields that may stay empty (optionalFields); they count as expected too.'),
  fieldDataTypes: optional(named(oneOf(DATA_TYPES, 'data type')), 'Field -> data type the pipeline expects (expectedFieldDataTypes): number, rich_text, category or date_time.'),
  fieldUnits: optional(named(v.nullable(text({ unit: true }))), 'Field -> unit the pipeline expects (expectedFieldUnits), such as UTC_p0; null for none.'),
  imputeMethods: optional(named(v.nullable(oneOf(IMPUTE_METHODS, 'impute method (or null)'))), 'Field -> impute method the pipeline applies (expectedImputeMethods): fill, dropMissing, or null.'),
  rowDropping: rowDroppingList('Row dropping rules the pipeline always applies (presetRowDroppingMethods).'),
}), 'What the pipeline expects; used by dry runs and `import serve`.', { rule: 'schema' });

/** A combining method for one field. */
const Combining = key(v.strictObject({
  method: setting(oneOf(COMBINING_METHODS, 'combining method'), 'stringAppend (default: values as text, joined with the separator) or json (one JSON object per row).'),
  separator: setting(text({ allowEmpty: true, inserted: 'separator' }), 'The stringAppend separator (default: the empty string).'),
  order: setting(names(), 'Input columns in the order they are combined (default: input column order).'),
}), 'How the columns mapped to this field are combined; every member optional.', { rule: 'combining' });

/** A unit conversion for one field. */
const UnitConversion = key(v.strictObject({
  from: key(v.nullable(text({ unit: true })), 'The unit the values are in, such as UTC_m5 (UTC-5 hours) or km; null together with "to" for no conversion.', {
    whenMissing: '{where} is missing "from"; set both from and to, or both to null for no conversion.',
  }),
  to: key(v.nullable(text({ unit: true })), 'The unit to convert to, such as UTC_p0 or mi; null together with "from" for no conversion.', {
    whenMissing: '{where} is missing "to"; set both from and to, or both to null for no conversion.',
  }),
}), 'A conversion: {from, to}; both null means no conversion.', {
  rule: 'units',
  whenEmpty: '{where} is empty; set both "from" and "to", or both to null for no conversion.',
});

/** An impute method for one field. */
const Impute = key(v.strictObject({
  method: key(v.nullable(oneOf(IMPUTE_METHODS, 'impute method (or null)')), 'fill (replace missing values with value), dropMissing (drop rows where the field is missing), or null (leave the field unchanged).', {
    whenMissing: '{where} is missing "method"; set method: fill (with a value), dropMissing or null.',
  }),
  value: setting(v.pipe(v.union([v.string(), v.number(), v.boolean()]), v.metadata({ kind: 'scalar' })), 'The value that replaces missing ones (method fill only), coerced to the field\'s type.', {
    invalid: '{where} must be a single value (text, number or boolean); got {got}.',
  }),
}), 'How missing values of the field are handled.', {
  rule: 'impute',
  whenEmpty: '{where} is empty; set method: fill (with a value), dropMissing or null.',
});

const Pivot = key(v.strictObject({
  pivotColumns: key(names(true), 'Columns whose values become the column headers after pivoting.', { whenMissing: '{where} is missing "pivotColumns"; add a list of column names.' }),
  valueColumns: key(names(true), 'Columns that populate the values of the pivoted data.', { whenMissing: '{where} is missing "valueColumns"; add a list of column names.' }),
  indexColumns: key(names(true), 'Columns that form the unique row index after pivoting.', { whenMissing: '{where} is missing "indexColumns"; add a list of column names.' }),
  aggregationMethod: key(v.optional(oneOf(AGGREGATION_METHODS, 'aggregation method'), 'first'), 'How rows with the same index are handled; the only method is first (keep the first row).'),
}), 'A pivot from long to wide format.', { rule: 'pivot' });

const Text = key(v.strictObject({
  regexReplacement: optional(named(named(text({ allowEmpty: true, inserted: 'replacement' }), {
    regexKeys: true,
    ordered: true,
    mappingOf: 'regular expression: replacement',
    entryWhere: 'replacement for "{key}" in {where}',
  })), 'Field -> {regular expression: replacement}: JavaScript regular expressions, each a global replace ($1 references the first group), applied in the order written.'),
  casing: optional(named(oneOf([...CASINGS, ...READ_ONLY_CASINGS], 'casing', {
    listed: CASINGS,
    readOnly: {
      values: READ_ONLY_CASINGS,
      warning: 'casing "{value}" in {where} is not in the seed\'s supported list ({listed}), so the service may reject it; use "title" or keep it knowingly.',
    },
  })), 'Field -> casing: upper, lower, title (as Python\'s str.title) or swap.'),
}), 'Text processing: regular-expression replacements, then casing.');

const Config = key(v.strictObject({
  sheet: setting(text(), 'The workbook sheet to import (sheetSelection.selected).'),
  mapping: optional(named(v.nullable(text({ invalid: '{where} must be a field name, or null to leave the column unmapped; got {got}.' }))), 'Input column -> output field; null leaves the column unmapped. Columns not listed keep the suggestion.'),
  allowColumnCombining: setting(v.boolean(), 'Allow several columns to map to one field; they are then combined (see combining).'),
  combining: optional(named(Combining), 'Field -> how its columns are combined (needs allowColumnCombining: true).'),
  dataTypes: optional(named(oneOf(DATA_TYPES, 'data type')), 'Field -> data type: number, rich_text, category or date_time.'),
  units: optional(named(UnitConversion), 'Field -> unit conversion {from, to}; both null means no conversion.'),
  impute: optional(named(Impute), 'Field -> {method: fill, value} | {method: dropMissing} | {method: null}.'),
  pivot: optional(Pivot, 'A pivot: pivotColumns, valueColumns and indexColumns, aggregationMethod first.'),
  rowDropping: rowDroppingList('Additional row dropping rules, applied in order after the pipeline\'s preset ones.'),
  text: optional(Text, 'Text processing: regexReplacement and casing per field.'),
}), 'The desired configuration; every member optional. What the file leaves out means "accept the suggestion".', { rule: 'config' });

const INPUT_WAYS = 'one of file, googleSheet, rows or rowsFile';

const Input = key(v.strictObject({
  file: optional(text({ path: true }), 'A CSV, TSV, XLSX or JSON (array of row objects) file, relative to the job file\'s folder; uploaded as the start form\'s file. Written empty (file:) by `import pull` as a placeholder to fill in.'),
  googleSheet: optional(v.strictObject({
    url: key(text(), 'The spreadsheet URL (gsUrl).', { whenMissing: '{where} is missing "url"; add the spreadsheet URL.' }),
    sheet: key(text(), 'The sheet within the spreadsheet (gsSheetName).', { whenMissing: '{where} is missing "sheet"; add the sheet name.' }),
  }), 'A Google Sheets link and the sheet to read.', { whenEmpty: '{where} is empty; give it "url" and "sheet".' }),
  rows: optional(v.pipe(v.array(named(v.pipe(v.unknown(), v.metadata({ kind: 'cell' })), { mappingOf: 'column: value' })), v.nonEmpty()), 'Inline rows (column: value mappings), sent as jsonData.', {
    listOf: 'rows (column: value mappings)',
    whenEmptyList: '{where} is an empty list, so the job would have no data; add at least one row, such as [{id: 1, name: Ann}].',
  }),
  rowsFile: optional(text({ path: true }), 'A JSON array of row objects, sent as jsonData; relative to the job file\'s folder.'),
}), `Where the data comes from: exactly ${INPUT_WAYS}.`, {
  rule: 'input',
  whenMissing: `"input" is missing; add "input:" with ${INPUT_WAYS}.`,
  jsonSchema: { minProperties: 1, maxProperties: 1 },
});

/** The whole job file. */
export const JobFileDeclaration = key(v.strictObject({
  version: key(v.literal(1), 'The format version; required. This tool reads version 1.', {
    whenMissing: '"version" is missing; add "version: 1" at the top of the file.',
    invalid: 'version {got} is not supported; set "version: 1", the only version this tool reads.',
  }),
  pipeline: setting(v.union([text(), v.pipe(names(true), v.metadata({ listOf: 'pipeline ids' }))]), 'The pipelineId; a list lets the service choose one.'),
  name: setting(text(), 'The jobName.'),
  input: Input,
  options: optional(v.strictObject({
    useFullData: setting(v.boolean(), 'Derive the metadata before the run from the full data instead of a sample.'),
    useVariableFields: setting(v.boolean(), 'Sent as useVariableFields (the seed does not say what it means).'),
    destinationFileName: setting(text(), 'Name of the output file, when the output is a named file (for example in a bucket).'),
    outputFileType: setting(oneOf(OUTPUT_FILE_TYPES, 'output file type'), 'csv (the default) or excel.'),
    webhookUrl: setting(text(), 'URL that receives the start webhook (the metadata).'),
  }), 'Sent with start; all optional.'),
  scripts: optional(v.strictObject({
    preColumnMapping: setting(names(), 'Script ids that run after import and before columns are mapped to fields.'),
  }), 'Scripts attached at start.'),
  config: optional(Config, 'The desired configuration instead of (or on top of) the suggestions; every member optional.'),
  run: optional(v.strictObject({
    wait: key(v.optional(v.boolean(), true), 'Wait until the data has been pushed (returnWhenComplete); default true for job files.'),
    webhookUrl: setting(text(), 'URL that receives the run webhook (the processed data).'),
  }), 'The run call.'),
  review: optional(v.strictObject({
    minConfidence: setting(v.pipe(v.number(), v.minValue(0), v.maxValue(1)), 'Unpinned suggestions below this confidence need review (exit 5 in CI).', {
      expect: 'a number from 0 to 1, such as 0.8',
    }),
  }), 'The review gate.'),
  schema: optional(SchemaDeclaration, 'What the pipeline expects; used by dry runs and `import serve`.'),
  localScripts: optional(named(text({ path: true })), 'Script id -> local ES module, for dry runs and `import serve`.'),
}), 'An import job: where the data comes from, which pipeline receives it, and the configuration to apply (jobfile.md, version 1).', { rule: 'job' });

/** The keys of the `config` block, in the order jobfile.md lists them (and `review --save` writes them). */
export const CONFIG_KEYS = Object.keys(Config.entries) as (keyof typeof Config.entries)[];
