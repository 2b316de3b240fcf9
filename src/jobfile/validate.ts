/**
 * Validation of a job file's YAML text into a JobFile: every rule of jobfile.md is checked and
 * every problem is collected with its `file:line:col`, so one `import validate` shows them all.
 */
import { dirname, isAbsolute, resolve } from 'node:path';
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, Scalar, type Document } from 'yaml';
import {
  AGGREGATION_METHODS, CASINGS, COMBINING_METHODS, DATA_TYPES, IMPUTE_METHODS, OUTPUT_FILE_TYPES, READ_ONLY_CASINGS,
  ROW_DROPPING_METHODS, type Casing, type CombiningMethod, type DataType, type OutputFileType,
  type PipelineSchema, type RowDroppingMethod, type RowDroppingRule,
} from '../contract/index.js';
import type { JobFileProblem } from '../errors.js';
import { referenceOffsets, substituteEnv } from './env.js';
import { suggestKey } from './suggest-key.js';
import type { JobFile, JobFileConfig, JobFileInput, Position } from './types.js';
import { NOT_LINEAR, runsInLinearTime } from '../engine/regex.js';

/** Checks a `from`/`to` pair of unit strings (the engine's `checkUnit`); returns why it is invalid, or undefined. */
export type UnitChecker = (from: string, to: string) => string | undefined;

/** What `validateJobFileText` needs besides the text. */
export interface ValidateOptions {
  /** Absolute path of the job file; relative paths inside it resolve against its folder. */
  path: string;
  /** How the file is named in messages: the path as the user gave it. */
  displayPath: string;
  /** Variables for `${NAME}` substitution. */
  env: NodeJS.ProcessEnv;
  /** Validates unit strings other than UTC deltas (the engine's units step); without it any non-empty unit passes. */
  checkUnit?: UnitChecker;
}

/** The outcome of validation: a JobFile only when there are no problems; warnings either way. */
export interface ValidationResult {
  job?: JobFile;
  problems: JobFileProblem[];
  warnings: JobFileProblem[];
}

/** Keys of each fixed-shape object of the format, in the order jobfile.md lists them. */
export const JOB_FILE_KEYS = {
  top: ['version', 'pipeline', 'name', 'input', 'options', 'scripts', 'config', 'run', 'review', 'schema', 'localScripts'],
  input: ['file', 'googleSheet', 'rows', 'rowsFile'],
  googleSheet: ['url', 'sheet'],
  options: ['useFullData', 'useVariableFields', 'destinationFileName', 'outputFileType', 'webhookUrl'],
  scripts: ['preColumnMapping'],
  config: ['sheet', 'mapping', 'allowColumnCombining', 'combining', 'dataTypes', 'units', 'impute', 'pivot', 'rowDropping', 'text'],
  combining: ['method', 'separator', 'order'],
  units: ['from', 'to'],
  impute: ['method', 'value'],
  pivot: ['pivotColumns', 'valueColumns', 'indexColumns', 'aggregationMethod'],
  rowDropping: ['method', 'fields'],
  text: ['regexReplacement', 'casing'],
  run: ['wait', 'webhookUrl'],
  review: ['minConfidence'],
  schema: ['id', 'expectedFields', 'optionalFields', 'fieldDataTypes', 'fieldUnits', 'imputeMethods', 'rowDropping'],
} as const;

/** One line per problem: `file:line:col: message`. */
export function formatProblems(problems: JobFileProblem[]): string {
  return problems.map((p) => `${p.file}:${p.line}:${p.col}: ${p.message}`).join('\n');
}

/** Parses and validates a job file's text; never throws for a bad file (problems say what is wrong). */
export function validateJobFileText(text: string, opts: ValidateOptions): ValidationResult {
  const { doc, lineCounter, checker, fatal } = parse(text, opts);
  const body = fatal ? undefined : checker.jobFile();
  const problems = byPosition(checker.problems);
  const warnings = byPosition(checker.warnings);
  if (problems.length > 0 || body === undefined) return { problems, warnings };
  const positionOf = positionFinder(doc, lineCounter);
  return { job: { ...body, positionOf }, problems, warnings };
}

/** The result of validating a schema file: the schema only when there are no problems. */
export interface SchemaValidationResult {
  schema?: PipelineSchema;
  problems: JobFileProblem[];
  warnings: JobFileProblem[];
}

/** Parses and validates a schema file (a job file's `schema` block as the whole document) with the same rules. */
export function validateSchemaText(text: string, opts: ValidateOptions): SchemaValidationResult {
  const { checker, fatal } = parse(text, opts);
  const schema = fatal ? undefined : checker.schemaFile();
  const problems = byPosition(checker.problems);
  const warnings = byPosition(checker.warnings);
  return problems.length > 0 || schema === undefined ? { problems, warnings } : { schema, problems, warnings };
}

/** Parses with positions; YAML syntax errors become problems, `fatal` when the tree cannot be trusted. */
function parse(text: string, opts: ValidateOptions): { doc: Document; lineCounter: LineCounter; checker: Checker; fatal: boolean } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const checker = new Checker(doc, text, lineCounter, opts);
  let fatal = false;
  for (const error of doc.errors) {
    checker.errorAt(error.pos[0], yamlErrorMessage(error.code, error.message, text.slice(error.pos[0])));
    // A duplicate key leaves a sound tree behind; other syntax errors do not, so stop there.
    if (error.code !== 'DUPLICATE_KEY') fatal = true;
  }
  for (const warning of doc.warnings) checker.warnAt(warning.pos[0], `YAML: ${sentence(warning.message)}`);
  return { doc, lineCounter, checker, fatal };
}

/** Finds the position of a key path in the parsed document: a map key's own position, a list item's start. */
function positionFinder(doc: Document, lineCounter: LineCounter): (path: (string | number)[]) => Position | undefined {
  return (path) => {
    let node: unknown = doc.contents;
    let offset = rangeStart(node);
    for (const segment of path) {
      node = isAlias(node) ? node.resolve(doc) : node;
      if (isMap(node)) {
        const pair = node.items.find((p) => keyText(p.key) === String(segment));
        if (!pair) return undefined;
        offset = rangeStart(pair.key);
        node = pair.value;
      } else if (isSeq(node) && Number.isInteger(Number(segment))) {
        node = node.items[Number(segment)];
        if (node === undefined) return undefined;
        offset = rangeStart(node);
      } else {
        return undefined;
      }
    }
    return offset === undefined ? undefined : lineCounter.linePos(offset);
  };
}

/** A key and its value in a YAML mapping; `keyNode` gives the position (for list items, the item). */
interface Member { key: string; keyNode: unknown; value: unknown }

type JobFileBody = Omit<JobFile, 'positionOf'>;

const UTC_DELTA = /^UTC_[pm]\d+(\.\d+)?$/;

/** Walks the document, collecting problems and warnings while building the normalised job file. */
class Checker {
  readonly problems: JobFileProblem[] = [];
  readonly warnings: JobFileProblem[] = [];
  private readonly baseDir: string;
  /** Known keys already offered as "did you mean" in a map; saying they are missing too would repeat it. */
  private readonly suggested = new WeakMap<Map<string, Member>, Set<string>>();

  constructor(
    private readonly doc: Document,
    private readonly text: string,
    private readonly lineCounter: LineCounter,
    private readonly opts: ValidateOptions,
  ) {
    this.baseDir = dirname(opts.path);
  }

  // ---- reporting ----

  errorAt(offset: number, message: string): void {
    this.problems.push(this.problem(offset, message));
  }

  warnAt(offset: number, message: string): void {
    this.warnings.push(this.problem(offset, message));
  }

  private error(node: unknown, message: string): undefined {
    this.errorAt(rangeStart(node) ?? 0, message);
    return undefined;
  }

  private problem(offset: number, message: string): JobFileProblem {
    const { line, col } = this.lineCounter.linePos(offset);
    return { file: this.opts.displayPath, line, col, message };
  }

  // ---- the format ----

  jobFile(): JobFileBody | undefined {
    const root = this.deref(this.doc.contents);
    if (root === undefined || isNullNode(root)) {
      return this.error(root, 'the job file is empty; start it with "version: 1" and an "input".');
    }
    if (!isMap(root)) {
      return this.error(root, `a job file must be a mapping of keys such as version, pipeline and input; got ${this.describe(root)}.`);
    }
    const top = this.fixedMembers(root, 'the job file', JOB_FILE_KEYS.top);

    const version = top.get('version');
    if (version === undefined || isNullNode(this.deref(version.value))) {
      this.error(version?.keyNode ?? root, '"version" is missing; add "version: 1" at the top of the file.');
    } else {
      const v = this.deref(version.value);
      if (!(isScalar(v) && v.value === 1)) {
        this.error(v, `version ${this.describe(v)} is not supported; set "version: 1", the only version this tool reads.`);
      }
    }

    const body: JobFileBody = {
      path: this.opts.path,
      version: 1,
      input: {},
      options: {},
      config: {},
      run: { wait: true },
      review: {},
      localScripts: {},
    };
    const pipeline = present(top.get('pipeline'));
    if (pipeline) {
      const value = this.deref(pipeline.value);
      const ids = isSeq(value) ? this.stringList(pipeline, 'pipeline', { nonEmpty: true }) : this.string(value, 'pipeline');
      if (ids !== undefined) body.pipeline = ids;
    }
    const name = present(top.get('name'));
    if (name) assign(body, 'name', this.string(name.value, 'name'));

    body.input = this.input(top.get('input'), root) ?? {};
    body.options = this.options(present(top.get('options')));
    const scripts = present(top.get('scripts'));
    if (scripts) {
      const members = this.fixedMap(scripts, 'scripts', JOB_FILE_KEYS.scripts);
      const list = present(members?.get('preColumnMapping'));
      body.scripts = { preColumnMapping: (list && this.stringList(list, 'scripts.preColumnMapping')) ?? [] };
    }
    body.config = this.config(present(top.get('config')));
    body.run = this.run(present(top.get('run')));
    body.review = this.review(present(top.get('review')));
    const schema = present(top.get('schema'));
    if (schema) assign(body, 'schema', this.schema(schema));
    const localScripts = present(top.get('localScripts'));
    if (localScripts) {
      for (const m of this.freeMap(localScripts, 'localScripts') ?? []) {
        const path = this.path(m.value, join('localScripts', m.key));
        if (path !== undefined) body.localScripts[m.key] = path;
      }
    }
    return body;
  }

  private input(member: Member | undefined, root: unknown): JobFileInput | undefined {
    const ways = 'one of file, googleSheet, rows or rowsFile';
    if (member === undefined || isNullNode(this.deref(member.value))) {
      return this.error(member?.keyNode ?? root, `"input" is missing; add "input:" with ${ways}.`);
    }
    const members = this.fixedMap(member, 'input', JOB_FILE_KEYS.input);
    if (!members) return undefined;
    const given = [...members.values()];
    if (given.length === 0 && !this.suggested.get(members)?.size) this.error(member.keyNode, `input names no data; add ${ways}.`);
    for (const extra of given.slice(1)) {
      this.error(extra.keyNode, `input has both "${given[0].key}" and "${extra.key}"; keep exactly ${ways}.`);
    }
    const input: JobFileInput = {};
    for (const m of given) {
      if (m.key === 'file' || m.key === 'rowsFile') {
        assign(input, m.key, this.path(m.value, `input.${m.key}`));
      } else if (m.key === 'googleSheet') {
        const sheet = this.fixedMap(m, 'input.googleSheet', JOB_FILE_KEYS.googleSheet);
        if (!sheet) {
          if (isNullNode(this.deref(m.value))) this.error(m.keyNode, 'input.googleSheet is empty; give it "url" and "sheet".');
          continue;
        }
        const url = this.required(sheet, 'url', m, 'input.googleSheet', 'the spreadsheet URL');
        const name = this.required(sheet, 'sheet', m, 'input.googleSheet', 'the sheet name');
        const urlText = url && this.string(url.value, 'input.googleSheet.url');
        const nameText = name && this.string(name.value, 'input.googleSheet.sheet');
        if (urlText !== undefined && nameText !== undefined) input.googleSheet = { url: urlText, sheet: nameText };
      } else if (m.key === 'rows') {
        assign(input, 'rows', this.rows(m));
      }
    }
    return input;
  }

  private rows(member: Member): Record<string, unknown>[] | undefined {
    const list = this.deref(member.value);
    if (!isSeq(list)) return this.error(list ?? member.keyNode, `input.rows must be a list of rows (column: value mappings); got ${this.describe(list)}.`);
    const rows: Record<string, unknown>[] = [];
    list.items.forEach((item, i) => {
      const row = this.deref(item);
      if (!isMap(row)) {
        this.error(item, `input.rows[${i}] must be a mapping of column: value; got ${this.describe(row)}.`);
        return;
      }
      rows.push(this.plain(row) as Record<string, unknown>);
    });
    return rows;
  }

  private options(member: Member | undefined): JobFile['options'] {
    const options: JobFile['options'] = {};
    const members = member && this.fixedMap(member, 'options', JOB_FILE_KEYS.options);
    if (!members) return options;
    for (const m of members.values()) {
      if (isNullNode(this.deref(m.value))) continue;
      const where = `options.${m.key}`;
      if (m.key === 'useFullData' || m.key === 'useVariableFields') assign(options, m.key, this.boolean(m.value, where));
      else if (m.key === 'outputFileType') {
        assign(options, m.key, this.oneOf<OutputFileType>(m.value, where, OUTPUT_FILE_TYPES, 'output file type'));
      } else if (m.key === 'destinationFileName' || m.key === 'webhookUrl') assign(options, m.key, this.string(m.value, where));
    }
    return options;
  }

  private run(member: Member | undefined): JobFile['run'] {
    const run: JobFile['run'] = { wait: true };
    const members = member && this.fixedMap(member, 'run', JOB_FILE_KEYS.run);
    const wait = present(members?.get('wait'));
    if (wait) run.wait = this.boolean(wait.value, 'run.wait') ?? true;
    const webhookUrl = present(members?.get('webhookUrl'));
    if (webhookUrl) assign(run, 'webhookUrl', this.string(webhookUrl.value, 'run.webhookUrl'));
    return run;
  }

  private review(member: Member | undefined): JobFile['review'] {
    const review: JobFile['review'] = {};
    const members = member && this.fixedMap(member, 'review', JOB_FILE_KEYS.review);
    const min = present(members?.get('minConfidence'));
    if (min) {
      const node = this.deref(min.value);
      if (isScalar(node) && typeof node.value === 'number' && node.value >= 0 && node.value <= 1) review.minConfidence = node.value;
      else this.error(node, `review.minConfidence must be a number from 0 to 1, such as 0.8; got ${this.describe(node)}.`);
    }
    return review;
  }

  // ---- config ----

  private config(member: Member | undefined): JobFileConfig {
    const config: JobFileConfig = {};
    const members = member && this.fixedMap(member, 'config', JOB_FILE_KEYS.config);
    if (!members) return config;
    const get = (key: string) => present(members.get(key));

    const sheet = get('sheet');
    if (sheet) assign(config, 'sheet', this.string(sheet.value, 'config.sheet'));

    const mapping = get('mapping');
    if (mapping) {
      const out: Record<string, string | null> = {};
      for (const m of this.freeMap(mapping, 'config.mapping') ?? []) {
        const node = this.deref(m.value);
        if (isNullNode(node)) out[m.key] = null;
        else if (isMap(node) || isSeq(node)) {
          this.error(node, `${join('config.mapping', m.key)} must be a field name, or null to leave the column unmapped; got ${this.describe(node)}.`);
        } else assign(out, m.key, this.string(node, join('config.mapping', m.key)));
      }
      config.mapping = out;
    }

    const allow = get('allowColumnCombining');
    if (allow) assign(config, 'allowColumnCombining', this.boolean(allow.value, 'config.allowColumnCombining'));

    const combining = get('combining');
    if (combining) {
      if (config.allowColumnCombining !== true) {
        this.error(combining.keyNode, 'config.combining needs "allowColumnCombining: true" in config, since columns are combined only then; add it or remove combining.');
      }
      const out: NonNullable<JobFileConfig['combining']> = {};
      for (const m of this.freeMap(combining, 'config.combining') ?? []) {
        const where = join('config.combining', m.key);
        const entry: { method?: CombiningMethod; separator?: string; order?: string[] } = {};
        const members = this.fixedMap(m, where, JOB_FILE_KEYS.combining);
        const method = present(members?.get('method'));
        if (method) assign(entry, 'method', this.oneOf<CombiningMethod>(method.value, `${where}.method`, COMBINING_METHODS, 'combining method'));
        const separator = present(members?.get('separator'));
        if (separator) {
          assign(entry, 'separator', this.string(separator.value, `${where}.separator`, { allowEmpty: true }));
          if (entry.method === 'json') {
            this.warnAt(rangeStart(separator.keyNode) ?? 0, `${where}.separator is ignored with method "json"; remove it or use method "stringAppend".`);
          }
        }
        const order = present(members?.get('order'));
        if (order) assign(entry, 'order', this.stringList(order, `${where}.order`));
        out[m.key] = entry;
      }
      config.combining = out;
    }

    const dataTypes = get('dataTypes');
    if (dataTypes) config.dataTypes = this.dataTypeMap(dataTypes, 'config.dataTypes');

    const units = get('units');
    if (units) {
      const out: NonNullable<JobFileConfig['units']> = {};
      for (const m of this.freeMap(units, 'config.units') ?? []) assign(out, m.key, this.unitConversion(m));
      config.units = out;
    }

    const impute = get('impute');
    if (impute) {
      const out: NonNullable<JobFileConfig['impute']> = {};
      for (const m of this.freeMap(impute, 'config.impute') ?? []) assign(out, m.key, this.imputeEntry(m));
      config.impute = out;
    }

    const pivot = get('pivot');
    if (pivot) assign(config, 'pivot', this.pivot(pivot));

    const rowDropping = get('rowDropping');
    if (rowDropping) {
      const rules = this.rowDropping(rowDropping, 'config.rowDropping');
      if (rules) config.rowDropping = rules.map((r) => ({ method: r.method, fields: r.methodConfig.fields }));
    }

    const text = get('text');
    if (text) config.text = this.textProcessing(text);
    return config;
  }

  private unitConversion(m: Member): { from: string | null; to: string | null } | undefined {
    const where = join('config.units', m.key);
    const members = this.fixedMap(m, where, JOB_FILE_KEYS.units);
    if (!members) {
      if (isNullNode(this.deref(m.value))) this.error(m.keyNode, `${where} is empty; set both "from" and "to", or both to null for no conversion.`);
      return undefined;
    }
    const from = members.get('from');
    const to = members.get('to');
    if (from === undefined || to === undefined) {
      const missing = from === undefined ? 'from' : 'to';
      if (this.wasSuggested(members, missing)) return undefined;
      return this.error(m.keyNode, `${where} is missing "${missing}"; set both from and to, or both to null for no conversion.`);
    }
    const fromNull = isNullNode(this.deref(from.value));
    const toNull = isNullNode(this.deref(to.value));
    if (fromNull && toNull) return { from: null, to: null };
    if (fromNull || toNull) {
      const nullOne = fromNull ? from : to;
      return this.error(nullOne.value ?? nullOne.keyNode, `${where}.${nullOne.key} is null but the other is not; set both from and to, or both to null.`);
    }
    const fromUnit = this.unit(from.value, `${where}.from`);
    const toUnit = this.unit(to.value, `${where}.to`);
    if (fromUnit === undefined || toUnit === undefined) return undefined;
    const fromUtc = UTC_DELTA.test(fromUnit);
    const toUtc = UTC_DELTA.test(toUnit);
    if (this.opts.checkUnit) {
      const why = this.opts.checkUnit(fromUnit, toUnit);
      if (why !== undefined) return this.error(m.keyNode, `${where}: ${sentence(why)}`);
    } else if (fromUtc !== toUtc) {
      return this.error(m.keyNode, `${where} converts between a UTC delta and "${fromUtc ? toUnit : fromUnit}"; use UTC deltas for both from and to.`);
    }
    return { from: fromUnit, to: toUnit };
  }

  /** A unit string: a well-formed UTC delta, or a unit the engine knows (any non-empty text without a checker). */
  private unit(value: unknown, where: string): string | undefined {
    const node = this.deref(value);
    const unit = this.string(node, where);
    if (unit === undefined) return undefined;
    if (/^utc/i.test(unit) && !UTC_DELTA.test(unit)) {
      return this.error(node, `"${unit}" in ${where} is not a valid UTC delta; write UTC_p<n> for UTC+n hours or UTC_m<n> for UTC-n hours, such as UTC_p5.5.`);
    }
    const why = this.opts.checkUnit?.(unit, unit);
    if (why !== undefined) return this.error(node, `${where}: ${sentence(why)}`);
    return unit;
  }

  private imputeEntry(m: Member): { method: 'fill' | 'dropMissing' | null; value?: unknown } | undefined {
    const where = join('config.impute', m.key);
    const members = this.fixedMap(m, where, JOB_FILE_KEYS.impute);
    if (!members) {
      if (isNullNode(this.deref(m.value))) this.error(m.keyNode, `${where} is empty; set method: fill (with a value), dropMissing or null.`);
      return undefined;
    }
    const method = members.get('method');
    if (method === undefined) return this.wasSuggested(members, 'method') ? undefined : this.error(m.keyNode, `${where} is missing "method"; set method: fill (with a value), dropMissing or null.`);
    const chosen = isNullNode(this.deref(method.value))
      ? null
      : this.oneOf<'fill' | 'dropMissing'>(method.value, `${where}.method`, IMPUTE_METHODS, 'impute method (or null)');
    if (chosen === undefined) return undefined;
    const value = members.get('value');
    if (chosen !== 'fill') {
      if (value !== undefined) return this.error(value.keyNode, `${where}.value is used only with method fill; remove it or set method: fill.`);
      return { method: chosen };
    }
    const node = this.deref(value?.value);
    if (value === undefined || isNullNode(node)) {
      return this.error(value?.keyNode ?? m.keyNode, `${where} uses method fill but has no "value"; add the value that replaces missing ones.`);
    }
    if (!isScalar(node)) return this.error(node, `${where}.value must be a single value (text, number or boolean); got ${this.describe(node)}.`);
    const fill = typeof node.value === 'string' ? this.substitute(node, node.value) : node.value;
    return { method: 'fill', value: fill };
  }

  private pivot(member: Member): JobFileConfig['pivot'] {
    const members = this.fixedMap(member, 'config.pivot', JOB_FILE_KEYS.pivot);
    if (!members) return undefined;
    const list = (key: 'pivotColumns' | 'valueColumns' | 'indexColumns') => {
      const m = this.required(members, key, member, 'config.pivot', 'a list of column names');
      return m && this.stringList(m, `config.pivot.${key}`, { nonEmpty: true });
    };
    const pivotColumns = list('pivotColumns');
    const valueColumns = list('valueColumns');
    const indexColumns = list('indexColumns');
    const aggregation = present(members.get('aggregationMethod'));
    const aggregationMethod = aggregation
      ? this.oneOf<'first'>(aggregation.value, 'config.pivot.aggregationMethod', AGGREGATION_METHODS, 'aggregation method')
      : 'first';
    if (!pivotColumns || !valueColumns || !indexColumns || !aggregationMethod) return undefined;
    return { pivotColumns, valueColumns, indexColumns, aggregationMethod };
  }

  /** A list of `{method, fields}` rules, in the seed's wire shape. */
  private rowDropping(member: Member, where: string): RowDroppingRule[] | undefined {
    const list = this.deref(member.value);
    if (!isSeq(list)) return this.error(list, `${where} must be a list of {method, fields} rules; got ${this.describe(list)}.`);
    const rules: RowDroppingRule[] = [];
    list.items.forEach((item, i) => {
      const at = `${where}[${i}]`;
      const itemMember: Member = { key: String(i), keyNode: item, value: item };
      const members = this.fixedMap(itemMember, at, JOB_FILE_KEYS.rowDropping);
      if (!members) {
        if (isNullNode(this.deref(item))) this.error(item, `${at} is empty; give it a method and fields.`);
        return;
      }
      const method = this.required(members, 'method', itemMember, at, 'missingValues or duplicateValues');
      const fields = this.required(members, 'fields', itemMember, at, 'a list of field names');
      const chosen = method && this.oneOf<RowDroppingMethod>(method.value, `${at}.method`, ROW_DROPPING_METHODS, 'row dropping method');
      const names = fields && this.stringList(fields, `${at}.fields`, { nonEmpty: true });
      if (chosen && names) rules.push({ method: chosen, methodConfig: { fields: names } });
    });
    return rules;
  }

  private textProcessing(member: Member): JobFileConfig['text'] {
    const text: NonNullable<JobFileConfig['text']> = {};
    const members = this.fixedMap(member, 'config.text', JOB_FILE_KEYS.text);
    const regex = present(members?.get('regexReplacement'));
    if (regex) {
      const out: Record<string, Record<string, string>> = {};
      for (const field of this.freeMap(regex, 'config.text.regexReplacement') ?? []) {
        const where = join('config.text.regexReplacement', field.key);
        const rules: Record<string, string> = {};
        for (const rule of this.freeMap(field, where) ?? []) {
          try {
            // Engine: a global replace with ECMAScript regular expressions.
            new RegExp(rule.key, 'g');
          } catch (err) {
            this.error(rule.keyNode, `pattern "${rule.key}" in ${where} is not a valid JavaScript regular expression (${(err as Error).message}); fix or escape it.`);
            continue;
          }
          if (!runsInLinearTime(rule.key)) {
            this.error(rule.keyNode, `pattern "${rule.key}" in ${where} ${NOT_LINEAR}.`);
            continue;
          }
          const node = this.deref(rule.value);
          if (isNullNode(node)) {
            this.error(rule.keyNode, `replacement for "${rule.key}" in ${where} is missing; write "" to delete what matches.`);
            continue;
          }
          assign(rules, rule.key, this.string(node, `replacement for "${rule.key}" in ${where}`, { allowEmpty: true }));
        }
        out[field.key] = rules;
      }
      text.regexReplacement = out;
    }
    const casing = present(members?.get('casing'));
    if (casing) {
      const out: Record<string, Casing> = {};
      for (const m of this.freeMap(casing, 'config.text.casing') ?? []) {
        const where = join('config.text.casing', m.key);
        const chosen = this.oneOf<Casing>(m.value, where, [...CASINGS, ...READ_ONLY_CASINGS], 'casing', CASINGS);
        if (chosen === undefined) continue;
        if ((READ_ONLY_CASINGS as readonly string[]).includes(chosen)) {
          this.warnAt(rangeStart(this.deref(m.value)) ?? 0,
            `casing "${chosen}" in ${where} is not in the seed's supported list (${CASINGS.join(', ')}), so the service may reject it; use "title" or keep it knowingly.`);
        }
        out[m.key] = chosen;
      }
      text.casing = out;
    }
    return text;
  }

  // ---- schema ----

  private schema(member: Member): PipelineSchema | undefined {
    const members = this.fixedMap(member, 'schema', JOB_FILE_KEYS.schema);
    return members && this.schemaMembers(members, 'schema.');
  }

  /** A schema file: a job file's `schema` block on its own, as the whole document. */
  schemaFile(): PipelineSchema | undefined {
    const root = this.deref(this.doc.contents);
    if (!isMap(root)) {
      return this.error(root, `a schema file must be a mapping of keys such as id, expectedFields and fieldDataTypes; got ${this.describe(root)}.`);
    }
    return this.schemaMembers(this.fixedMembers(root, 'the schema file', JOB_FILE_KEYS.schema), '');
  }

  /** The schema's members, normalised with defaults; `prefix` is how messages name the block (`schema.` or nothing). */
  private schemaMembers(members: Map<string, Member>, prefix: string): PipelineSchema {
    const get = (key: string) => present(members.get(key));
    const schema: PipelineSchema = {
      expectedFields: [], optionalFields: [], fieldDataTypes: {}, fieldUnits: {}, imputeMethods: {}, rowDropping: [],
    };
    const id = get('id');
    if (id) assign(schema, 'id', this.string(id.value, `${prefix}id`));
    const expected = get('expectedFields');
    if (expected) schema.expectedFields = this.stringList(expected, `${prefix}expectedFields`) ?? [];
    const optional = get('optionalFields');
    if (optional) schema.optionalFields = this.stringList(optional, `${prefix}optionalFields`) ?? [];
    // Optional fields may or may not be repeated in expectedFields; expectedFields ends up listing all fields.
    for (const field of schema.optionalFields) if (!schema.expectedFields.includes(field)) schema.expectedFields.push(field);
    const known = expected || optional ? schema.expectedFields : undefined;

    const checkField = (m: Member, where: string) => {
      if (known && !known.includes(m.key)) {
        const hint = suggestKey(m.key, known);
        this.error(m.keyNode, `${where} names "${m.key}", which is not in expectedFields or optionalFields; ${hint ? `did you mean "${hint}"?` : 'add it there or fix the name.'}`);
      }
    };
    const dataTypes = get('fieldDataTypes');
    if (dataTypes) schema.fieldDataTypes = this.dataTypeMap(dataTypes, `${prefix}fieldDataTypes`, checkField);
    const units = get('fieldUnits');
    if (units) {
      for (const m of this.freeMap(units, `${prefix}fieldUnits`) ?? []) {
        const where = join(`${prefix}fieldUnits`, m.key);
        checkField(m, `${prefix}fieldUnits`);
        if (isNullNode(this.deref(m.value))) {
          schema.fieldUnits[m.key] = null;
          continue;
        }
        assign(schema.fieldUnits, m.key, this.unit(m.value, where));
      }
    }
    const impute = get('imputeMethods');
    if (impute) {
      for (const m of this.freeMap(impute, `${prefix}imputeMethods`) ?? []) {
        checkField(m, `${prefix}imputeMethods`);
        if (isNullNode(this.deref(m.value))) schema.imputeMethods[m.key] = null;
        else assign(schema.imputeMethods, m.key, this.oneOf<'fill' | 'dropMissing'>(m.value, join(`${prefix}imputeMethods`, m.key), IMPUTE_METHODS, 'impute method (or null)'));
      }
    }
    const rowDropping = get('rowDropping');
    if (rowDropping) schema.rowDropping = this.rowDropping(rowDropping, `${prefix}rowDropping`) ?? [];
    return schema;
  }

  private dataTypeMap(member: Member, where: string, check?: (m: Member, where: string) => void): Record<string, DataType> {
    const out: Record<string, DataType> = {};
    for (const m of this.freeMap(member, where) ?? []) {
      check?.(m, where);
      assign(out, m.key, this.oneOf<DataType>(m.value, join(where, m.key), DATA_TYPES, 'data type'));
    }
    return out;
  }

  // ---- building blocks ----

  private deref(node: unknown): unknown {
    return isAlias(node) ? node.resolve(this.doc) : node;
  }

  /** Members of an object with fixed keys; unknown keys are reported with a hint. Undefined when absent, null or not a mapping. */
  private fixedMap(member: Member, where: string, known: readonly string[]): Map<string, Member> | undefined {
    const node = this.deref(member.value);
    if (isNullNode(node)) return undefined;
    if (!isMap(node)) {
      return this.error(node ?? member.keyNode, `${where} must be a mapping with keys such as ${known.slice(0, 3).join(', ')}; got ${this.describe(node)}.`);
    }
    return this.fixedMembers(node, where, known);
  }

  private fixedMembers(node: unknown, where: string, known: readonly string[]): Map<string, Member> {
    const members = new Map<string, Member>();
    const suggested = new Set<string>();
    this.suggested.set(members, suggested);
    for (const m of this.members(node, where)) {
      if (known.includes(m.key)) {
        members.set(m.key, m);
        continue;
      }
      const hint = suggestKey(m.key, known);
      if (hint !== undefined) suggested.add(hint);
      this.error(m.keyNode, hint
        ? `unknown key "${m.key}" in ${where}; did you mean "${hint}"?`
        : `unknown key "${m.key}" in ${where}; remove it or use one of ${known.join(', ')}.`);
    }
    return members;
  }

  /** Members of an object whose keys are names (fields, columns, ids). Undefined when null or not a mapping. */
  private freeMap(member: Member, where: string): Member[] | undefined {
    const node = this.deref(member.value);
    if (isNullNode(node)) return undefined;
    if (!isMap(node)) return this.error(node, `${where} must be a mapping of name: value; got ${this.describe(node)}.`);
    return this.members(node, where);
  }

  private members(node: unknown, where: string): Member[] {
    if (!isMap(node)) return [];
    const out: Member[] = [];
    for (const pair of node.items) {
      const key = keyText(this.deref(pair.key));
      if (key === undefined) {
        this.error(pair.key, `keys in ${where} must be plain names; got ${this.describe(this.deref(pair.key))}.`);
        continue;
      }
      out.push({ key, keyNode: pair.key, value: pair.value });
    }
    return out;
  }

  private required(members: Map<string, Member>, key: string, owner: Member, where: string, what: string): Member | undefined {
    const m = present(members.get(key));
    if (!m && !this.wasSuggested(members, key)) this.error(members.get(key)?.keyNode ?? owner.keyNode, `${where} is missing "${key}"; add ${what}.`);
    return m;
  }

  private wasSuggested(members: Map<string, Member>, key: string): boolean {
    return this.suggested.get(members)?.has(key) ?? false;
  }

  /** Text; a plain number is taken as written (`sheet: 2024`), `${NAME}` is substituted. */
  private string(value: unknown, where: string, opts: { allowEmpty?: boolean } = {}): string | undefined {
    const node = this.deref(value);
    if (isScalar(node)) {
      if (typeof node.value === 'string') {
        const text = this.substitute(node, node.value);
        if (text === '' && !opts.allowEmpty) return this.error(node, `${where} is empty; give it a value or remove it.`);
        return text;
      }
      if (typeof node.value === 'number' && node.type === Scalar.PLAIN && node.range) return this.text.slice(node.range[0], node.range[1]);
      if (typeof node.value === 'boolean' || node.value === null) {
        return this.error(node, `${where} must be text; got ${this.describe(node)}, so quote it if you mean the text "${this.source(node)}".`);
      }
    }
    return this.error(node, `${where} must be text; got ${this.describe(node)}.`);
  }

  private path(value: unknown, where: string): string | undefined {
    const text = this.string(value, where);
    return text === undefined ? undefined : isAbsolute(text) ? text : resolve(this.baseDir, text);
  }

  private boolean(value: unknown, where: string): boolean | undefined {
    const node = this.deref(value);
    if (isScalar(node) && typeof node.value === 'boolean') return node.value;
    return this.error(node, `${where} must be true or false; got ${this.describe(node)}.`);
  }

  private stringList(member: Member, where: string, opts: { nonEmpty?: boolean } = {}): string[] | undefined {
    const node = this.deref(member.value);
    if (!isSeq(node)) return this.error(node ?? member.keyNode, `${where} must be a list of names, such as [a, b]; got ${this.describe(node)}.`);
    if (opts.nonEmpty && node.items.length === 0) return this.error(node, `${where} is an empty list; list at least one name.`);
    const out: string[] = [];
    let ok = true;
    node.items.forEach((item, i) => {
      const text = this.string(item, `${where}[${i}]`);
      if (text === undefined) ok = false;
      else out.push(text);
    });
    return ok ? out : undefined;
  }

  /**
   * One of `allowed`, matched case-insensitively and returned in the seed's spelling.
   * Seed leaves the case of method values open; we accept any case. `listed` is what the hint offers.
   */
  private oneOf<T extends string>(value: unknown, where: string, allowed: readonly string[], what: string, listed: readonly string[] = allowed): T | undefined {
    const node = this.deref(value);
    if (isScalar(node) && typeof node.value === 'string') {
      const text = this.substitute(node, node.value);
      const match = allowed.find((a) => a.toLowerCase() === text.toLowerCase());
      if (match !== undefined) return match as T;
      const hint = suggestKey(text, listed);
      return this.error(node, `"${text}" is not a valid ${what} in ${where}; ${hint ? `did you mean "${hint}"?` : `use one of ${listed.join(', ')}.`}`);
    }
    return this.error(node, `${where} must be one of ${listed.join(', ')}; got ${this.describe(node)}.`);
  }

  /** Plain JS value of a node, with `${NAME}` substituted in strings (inline rows). */
  private plain(value: unknown): unknown {
    const node = this.deref(value);
    if (isScalar(node)) return typeof node.value === 'string' ? this.substitute(node, node.value) : node.value;
    if (isSeq(node)) return node.items.map((item) => this.plain(item));
    if (isMap(node)) {
      const out: Record<string, unknown> = {};
      for (const pair of node.items) out[keyText(this.deref(pair.key)) ?? String(pair.key)] = this.plain(pair.value);
      return out;
    }
    return null;
  }

  /** `${NAME}` substitution; an unset variable is a problem placed at its reference. */
  private substitute(node: Scalar, value: string): string {
    const { value: out, missing } = substituteEnv(value, this.opts.env);
    if (missing.length === 0) return out;
    const start = node.range?.[0] ?? 0;
    const refs = referenceOffsets(this.text.slice(start, node.range?.[1] ?? start));
    for (const m of missing) {
      const ref = refs[m.ordinal];
      // Escapes inside quoted scalars can shift the source; fall back to the value's start.
      const offset = ref !== undefined && ref.name === m.name ? start + ref.index : start;
      this.errorAt(offset, `environment variable ${m.name} is not set; export it or remove \${${m.name}}.`);
    }
    return out;
  }

  private source(node: unknown): string {
    const range = (node as { range?: [number, number, number] } | null)?.range;
    return range ? this.text.slice(range[0], range[1]) : '';
  }

  private describe(node: unknown): string {
    if (node === undefined || node === null) return 'nothing';
    if (isMap(node)) return 'a mapping';
    if (isSeq(node)) return 'a list';
    if (isScalar(node)) {
      if (node.value === null) return this.source(node) === '' ? 'nothing' : 'null';
      if (typeof node.value === 'string') return JSON.stringify(node.value);
      return String(node.value);
    }
    return 'an unsupported value';
  }
}

// ---- helpers ----

function rangeStart(node: unknown): number | undefined {
  return (node as { range?: [number, number, number] } | null | undefined)?.range?.[0];
}

/** A key as written: strings as they are, numbers and booleans as their text. */
function keyText(node: unknown): string | undefined {
  if (!isScalar(node) || node.value === null || typeof node.value === 'object') return undefined;
  return typeof node.value === 'string' ? node.value : String(node.source ?? node.value);
}

function isNullNode(node: unknown): boolean {
  return node === undefined || node === null || (isScalar(node) && node.value === null);
}

/** The member when it is there and not null; a null optional member counts as absent (skeletons leave them empty). */
function present(member: Member | undefined): Member | undefined {
  return member && !isNullNode(member.value) ? member : undefined;
}

/** Sets `target[key]` only when `value` is defined, so absent members stay absent. */
function assign<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) target[key] = value;
}

/** `where.key`, or `where["key"]` when the key is not a plain name. */
function join(where: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? `${where}.${key}` : `${where}[${JSON.stringify(key)}]`;
}

/** Ends a message fragment with a period (unless it already ends a sentence). */
function sentence(message: string): string {
  const text = message.replace(/\s+/g, ' ').trim();
  return /[.?!]$/.test(text) ? text : `${text}.`;
}

/** Our sentence for a YAML error; `rest` is the source from the error's position on. */
function yamlErrorMessage(code: string, message: string, rest: string): string {
  if (code === 'DUPLICATE_KEY') {
    // The error points at the repeated key; show it as written, without quotes.
    const key = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\n]*?)\s*:(?:\s|$)/.exec(rest)?.[1] ?? rest.split('\n')[0];
    return `duplicate key "${key.replace(/^["']|["']$/g, '')}"; remove one of them.`;
  }
  if (code === 'MULTIPLE_DOCS') return 'the file holds more than one YAML document; keep one and remove the "---" separator.';
  return `invalid YAML: ${sentence(message).replace(/\.$/, '')}; fix the syntax here.`;
}

function byPosition(problems: JobFileProblem[]): JobFileProblem[] {
  return [...problems].sort((a, b) => a.line - b.line || a.col - b.col);
}
