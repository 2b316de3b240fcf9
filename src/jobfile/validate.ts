/**
 * Validation of a job file's YAML text into a JobFile. The walk follows the format's one
 * declaration (format.ts): which keys exist, which are required, their types and allowed values
 * come from there; the rules between keys (exactly one input, fill needs a value, ...) are the
 * `rule`s below. Every problem is collected with its `file:line:col`, so one `import validate`
 * shows them all. The cost is linear in the file, aliases included: a YAML alias that expands
 * past a budget proportional to the file, or that contains itself, is an error, never a hang.
 */
import { dirname, isAbsolute, resolve } from 'node:path';
import * as v from 'valibot';
import { isAlias, isMap, isScalar, isSeq, Scalar } from 'yaml';
import type { PipelineSchema, RowDroppingRule } from '../contract/index.js';
import { exactNumber, NumberText, orderedObject } from '../contract/json.js';
import { parseSheetsLink, sheetsBaseUrl } from '../engine/read/sheets-link.js';
import { regexProblem, replacementProblem } from '../engine/regex.js';
import { UsageError, type JobFileProblem } from '../errors.js';
import { invalidReferenceFix, invalidReferences, referenceOffsets, substituteEnv } from './env.js';
import { JobFileDeclaration, SchemaDeclaration, type FormatMeta } from './format.js';
import { suggestKey } from './suggest-key.js';
import type { JobFile, Position } from './types.js';
import { parseYamlTree, sentence, type YamlTree } from './yaml-tree.js';

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

/** The result of validating a schema file: the schema only when there are no problems. */
export interface SchemaValidationResult {
  schema?: PipelineSchema;
  problems: JobFileProblem[];
  warnings: JobFileProblem[];
}

/** One line per problem: `file:line:col: message`. */
export function formatProblems(problems: JobFileProblem[]): string {
  return problems.map((p) => `${p.file}:${p.line}:${p.col}: ${p.message}`).join('\n');
}

/** Parses and validates a job file's text; never throws for a bad file (problems say what is wrong). */
export function validateJobFileText(text: string, opts: ValidateOptions): ValidationResult {
  const tree = parseYamlTree(text);
  const walker = new Walker(tree, opts);
  const keyed = tree.errors.length ? undefined : flattenKeyedMapping(tree, walker);
  const body = tree.errors.length ? undefined : walker.jobFile();
  const problems = byPosition(walker.problems);
  const warnings = byPosition(walker.warnings);
  if (problems.length > 0 || body === undefined) return { problems, warnings };
  if (keyed !== undefined) body.config.mappingSource = keyed;
  return { job: { ...body, positionOf: positionFinder(tree) }, problems, warnings };
}

/**
 * jobfile.md: `config.mapping` is flat (column: field), or keyed by the data source name getFields
 * returns (source: {column: field}). A mapping whose every value is a mapping is the keyed form: a
 * job file has one input, so one source, whose mapping takes the flat one's place in the tree (its
 * entries keep their positions) and whose name is returned, for the checks against the source the
 * job really has. Several sources are refused at the second.
 */
function flattenKeyedMapping(tree: YamlTree, walker: Walker): string | undefined {
  const config = deref(tree, (isMap(tree.doc.contents) ? tree.doc.contents.items : []).find((p) => keyText(p.key) === 'config')?.value);
  if (!isMap(config)) return undefined;
  const pair = config.items.find((p) => keyText(p.key) === 'mapping');
  const mapping = deref(tree, pair?.value);
  if (!pair || !isMap(mapping) || mapping.items.length === 0) return undefined;
  if (!mapping.items.every((p) => isMap(deref(tree, p.value)))) return undefined;
  if (mapping.items.length > 1) {
    const second = mapping.items[1];
    walker.errorAt(rangeStart(second.key) ?? 0, `config.mapping is keyed by ${mapping.items.length} data sources (${mapping.items.map((p) => JSON.stringify(keyText(p.key))).join(', ')}), but a job file has one input, so one source; keep the entry of this job's input, or write its columns flat (column: field).`);
    return undefined;
  }
  const [only] = mapping.items;
  pair.value = deref(tree, only.value) as typeof pair.value;
  return keyText(only.key);
}

/** Parses and validates a schema file (a job file's `schema` block as the whole document) with the same rules. */
export function validateSchemaText(text: string, opts: ValidateOptions): SchemaValidationResult {
  const tree = parseYamlTree(text);
  const walker = new Walker(tree, opts);
  const schema = tree.errors.length ? undefined : walker.schemaFile();
  const problems = byPosition(walker.problems);
  const warnings = byPosition(walker.warnings);
  return problems.length > 0 || schema === undefined ? { problems, warnings } : { schema, problems, warnings };
}

/** Finds the position of a key path in the parsed document: a map key's own position, a list item's start. */
function positionFinder(tree: YamlTree): (path: (string | number)[]) => Position | undefined {
  return (path) => {
    let node: unknown = tree.doc.contents;
    let offset = rangeStart(node);
    for (const segment of path) {
      node = deref(tree, node);
      if (isMap(node)) {
        const pair = node.items.find((p) => keyText(deref(tree, p.key)) === String(segment));
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
    return offset === undefined ? undefined : tree.lineCounter.linePos(offset);
  };
}

/** The node an alias stands for (an anchored node is never itself an alias, so one step is enough). */
function deref(tree: YamlTree, node: unknown): unknown {
  return isAlias(node) ? tree.resolve(node) : node;
}

// ---- the walk ----

/** A key and its value in a YAML mapping; `keyNode` gives the position (for list items, the item). */
interface Member { key: string; keyNode: unknown; value: unknown }

/** What a walk returns besides a value: invalid (a problem was reported), absent (optional, not given), or missing (required, not given). */
const INVALID: unique symbol = Symbol('invalid');
const ABSENT: unique symbol = Symbol('absent');
const MISSING: unique symbol = Symbol('missing');
type Walked = unknown;

/**
 * A declaration with its wrappers taken off: the core schema, whether null or absence is allowed,
 * whether written empty it means "not set" (`nullish`: a section), and the metadata of every layer.
 */
interface Unwrapped { core: AnySchema; meta: FormatMeta; nullable: boolean; optional: boolean; emptyIsUnset: boolean; fallback: unknown }
type AnySchema = v.GenericSchema & Record<string, any>;

/**
 * `nullish` (an optional section: absent, or written empty, means "not set"), `optional` (an
 * optional setting: absent means "not set", written empty is refused) and `nullable` (null is a
 * value: `from: null`, `Notes: null`) are told apart here.
 */
function unwrap(schema: AnySchema): Unwrapped {
  let core = schema;
  let meta: FormatMeta = { ...(v.getMetadata(schema) as FormatMeta) };
  let nullable = false;
  let optional = false;
  let emptyIsUnset = false;
  let fallback: unknown;
  while (core.type === 'optional' || core.type === 'nullish' || core.type === 'nullable') {
    if (core.type === 'nullable') nullable = true;
    else optional = true;
    if (core.type === 'nullish') emptyIsUnset = true;
    if (fallback === undefined && core.default !== undefined) fallback = core.default;
    core = core.wrapped as AnySchema;
    meta = { ...(v.getMetadata(core) as FormatMeta), ...meta };
  }
  return { core, meta, nullable, optional, emptyIsUnset, fallback };
}

/** Whether a declaration's pipe holds an action of this type (`non_empty`, `min_value`). */
function action(schema: AnySchema, type: string): { requirement?: unknown } | undefined {
  for (const item of (schema.pipe ?? []) as AnySchema[]) {
    // A pipe holds its base schema first, which may carry a pipe of its own.
    const found = item.kind === 'schema' ? (item !== schema && item.pipe ? action(item, type) : undefined) : item.type === type ? (item as { requirement?: unknown }) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** Fills `{where}`, `{got}` and the like in a message template. */
function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (m, name: string) => values[name] ?? m);
}

const UTC_DELTA = /^UTC_[pm]\d+(\.\d+)?$/;

/** Each walked value costs one unit; aliases may repeat values up to this many per byte of the file. */
const EXPANSION_PER_BYTE = 10;
/** Values nested deeper than this (inside inline rows) are refused. */
const MAX_DEPTH = 64;

/** Stops the walk when an alias expands past the budget (the problem is already reported). */
class BudgetExceeded extends Error {}

type JobFileBody = Omit<JobFile, 'positionOf'>;

/** Walks the document along the declaration, collecting problems and warnings while building the normalised job file. */
class Walker {
  readonly problems: JobFileProblem[] = [];
  readonly warnings: JobFileProblem[] = [];
  private readonly baseDir: string;
  /** Known keys already offered as "did you mean" in a mapping; saying they are missing too would repeat it. */
  private readonly suggested = new WeakMap<Map<string, Member>, Set<string>>();
  /** Collections being walked (to find an alias inside its own target) and the aliases being expanded. */
  private readonly ancestors = new Set<unknown>();
  private lastAlias: unknown;
  /** Scalars naming an unset `${NAME}`: reported at the reference, so no check of their value follows. */
  private readonly unresolved = new WeakSet<object>();
  private visits = 0;
  private readonly budget: number;

  constructor(private readonly tree: YamlTree, private readonly opts: ValidateOptions) {
    this.baseDir = dirname(opts.path);
    this.budget = EXPANSION_PER_BYTE * tree.text.length + 10_000;
    for (const e of tree.errors) this.errorAt(e.offset, e.message);
    for (const w of tree.warnings) this.warnAt(w.offset, w.message);
  }

  // ---- reporting ----

  errorAt(offset: number, message: string): void {
    this.problems.push(this.problem(offset, message));
  }

  warnAt(offset: number, message: string): void {
    this.warnings.push(this.problem(offset, message));
  }

  private error(node: unknown, message: string): typeof INVALID {
    this.errorAt(rangeStart(node) ?? 0, message);
    return INVALID;
  }

  private problem(offset: number, message: string): JobFileProblem {
    const { line, col } = this.tree.lineCounter.linePos(offset);
    return { file: this.opts.displayPath, line, col, message };
  }

  // ---- roots ----

  jobFile(): JobFileBody | undefined {
    const out = this.root(JobFileDeclaration as AnySchema, 'the job file', {
      empty: 'the job file is empty; start it with "version: 1" and an "input".',
      invalid: 'a job file must be a mapping of keys such as version, pipeline and input; got {got}.',
    }) as Record<string, any> | typeof INVALID;
    if (out === INVALID) return undefined;
    const body: JobFileBody = {
      path: this.opts.path,
      version: 1,
      input: out.input ?? {},
      options: out.options ?? {},
      config: out.config ?? {},
      run: out.run ?? { wait: true },
      review: out.review ?? {},
      localScripts: out.localScripts ?? {},
    };
    if (out.pipeline !== undefined) body.pipeline = out.pipeline;
    if (out.name !== undefined) body.name = out.name;
    if (out.scripts !== undefined) body.scripts = { preColumnMapping: out.scripts.preColumnMapping ?? [] };
    if (out.schema !== undefined) body.schema = out.schema;
    return body;
  }

  /** A schema file: a job file's `schema` block on its own, as the whole document. */
  schemaFile(): PipelineSchema | undefined {
    const invalid = 'a schema file must be a mapping of keys such as id, expectedFields and fieldDataTypes; got {got}.';
    const out = this.root(SchemaDeclaration as AnySchema, 'the schema file', { empty: fill(invalid, { got: 'nothing' }), invalid });
    return out === INVALID ? undefined : out as PipelineSchema;
  }

  /** The document as a whole: `label` names it in messages about its keys. */
  private root(schema: AnySchema, label: string, messages: { empty: string; invalid: string }): Walked {
    const { core, meta } = unwrap(schema);
    const root = this.deref(this.tree.doc.contents);
    try {
      if (root === undefined || isNullNode(root)) return this.error(root, messages.empty);
      if (!isMap(root)) return this.error(root, fill(messages.invalid, { got: this.describe(root) }));
      return this.object(core, meta, root, '', root, label);
    } catch (error) {
      if (error instanceof BudgetExceeded) return INVALID;
      throw error;
    }
  }

  // ---- one value along its declaration ----

  /** Walks `value` (written at `keyNode`) as `schema` says; `where` names it in messages. */
  private walk(schema: AnySchema, value: unknown, where: string, keyNode: unknown): Walked {
    const { core, meta, nullable, optional, emptyIsUnset, fallback } = unwrap(schema);
    const node = this.deref(value);
    if (node === INVALID) return INVALID;
    if (isNullNode(node)) {
      if (meta.whenEmpty) return this.error(keyNode, fill(meta.whenEmpty, { where }));
      if (nullable || meta.kind === 'cell') return null;
      // A setting written without a value is a slip (a forgotten value, an unquoted comma), never "the default".
      if (optional && !emptyIsUnset) return this.error(node ?? keyNode, this.emptySetting(node, where, keyNode, core, meta));
      if (optional) return fallback ?? ABSENT;
      // A fixed-shape mapping whose members are all optional may be written empty.
      if (core.type === 'strict_object' && Object.values(core.entries as Record<string, AnySchema>).every((e) => unwrap(e).optional)) {
        return this.object(core, meta, undefined, where, keyNode);
      }
      return MISSING;
    }
    this.visit(node);
    switch (meta.kind) {
      case 'text': return this.text(node, where, meta);
      // A single value (a fill value) is a data value: read as the inline rows' values are, so `0800123456` stays as written.
      case 'scalar':
        if (isScalar(node) && curlyQuoted(node)) return this.error(node, curlyQuotedMessage(where, node.value as string));
        return isScalar(node) && node.value !== null ? this.dataScalar(node) : this.error(node, fill(meta.invalid ?? '{where} must be a single value; got {got}.', { where, got: this.describe(node) }));
      case 'cell': return this.plain(node);
    }
    switch (core.type) {
      case 'strict_object': return this.object(core, meta, node, where, keyNode);
      case 'record': return this.record(core, meta, node, where);
      case 'array': return this.list(core, meta, node, where, keyNode);
      case 'picklist': return this.oneOf(core, meta, node, where);
      case 'union': return this.walk((isSeq(node) ? core.options.find((o: AnySchema) => unwrap(o).core.type === 'array') : core.options.find((o: AnySchema) => unwrap(o).core.type !== 'array')) as AnySchema, node, where, keyNode);
      case 'boolean':
        return isScalar(node) && typeof node.value === 'boolean' ? node.value : this.error(node, `${where} must be true or false; got ${this.describe(node)}.`);
      case 'number': {
        const min = action(core, 'min_value')?.requirement;
        const max = action(core, 'max_value')?.requirement;
        const n = isScalar(node) ? node.value : undefined;
        if (typeof n === 'number' && (min === undefined || n >= (min as number)) && (max === undefined || n <= (max as number))) return n;
        return this.error(node, `${where} must be ${meta.expect ?? 'a number'}; got ${this.describe(node)}.`);
      }
      case 'literal':
        return isScalar(node) && node.value === core.literal ? node.value : this.error(node, fill(meta.invalid ?? '{where} must be {literal}; got {got}.', { where, got: this.describe(node), literal: String(core.literal) }));
      default:
        throw new Error(`the job file declaration uses a ${String(core.type)} schema, which the validator does not read`);
    }
  }

  /** Why a setting written empty or null is refused, and how to write it. */
  private emptySetting(node: unknown, where: string, keyNode: unknown, core: AnySchema, meta: FormatMeta): string {
    const key = keyText(this.deref(keyNode)) ?? where;
    const keyEnd = (keyNode as { range?: [number, number, number] } | null)?.range?.[1];
    // Inside braces, `separator: ,}` is the key with no value, then the next member (or the end).
    if ((meta.kind === 'text' || meta.kind === 'scalar') && keyEnd !== undefined && /^[ \t]*:[ \t]*,/.test(this.tree.text.slice(keyEnd, keyEnd + 80))) {
      return `${where} is empty: inside braces YAML reads "${key}: ," as no value followed by a comma; quote the value, such as ${key}: ", ".`;
    }
    const written = this.describe(node) === 'null' ? `${this.source(node)}, which YAML reads as no value` : 'empty';
    const values = core.type === 'picklist' ? ` (${(meta.listed ?? core.options as string[]).join(', ')})` : core.type === 'boolean' ? ' (true or false)' : '';
    return `${where} is ${written}; write its value${values}, or remove the key to leave it unset.`;
  }

  /** A fixed-shape mapping: unknown keys get a hint, required members must be there, then the member's rule applies. */
  private object(core: AnySchema, meta: FormatMeta, node: unknown, where: string, keyNode: unknown, label = where): Walked {
    const entries = core.entries as Record<string, AnySchema>;
    const known = Object.keys(entries);
    if (node !== undefined && !isMap(node)) {
      return this.error(node ?? keyNode, fill(meta.invalid ?? `{where} must be a mapping with keys such as ${known.slice(0, 3).join(', ')}; got {got}.`, { where, got: this.describe(node) }));
    }
    const members = node === undefined ? new Map<string, Member>() : this.fixedMembers(node, label, known);
    const out: Record<string, unknown> = {};
    const invalid = new Set<string>();
    for (const name of known) {
      const entry = entries[name];
      const m = members.get(name);
      const at = where ? `${where}.${name}` : name;
      const result = m ? this.walk(entry, m.value, at, m.keyNode) : unwrap(entry).optional ? (unwrap(entry).fallback ?? ABSENT) : MISSING;
      if (result === MISSING) {
        if (!this.suggested.get(members)?.has(name)) {
          const whenMissing = unwrap(entry).meta.whenMissing ?? `{where} is missing "${name}"; add it.`;
          this.error(m?.keyNode ?? keyNode, fill(whenMissing, { where }));
        }
        invalid.add(name);
      } else if (result === INVALID) {
        invalid.add(name);
      } else if (result !== ABSENT) {
        out[name] = result;
      }
    }
    return meta.rule ? this.rules[meta.rule]({ out, members, invalid, where, keyNode }) : out;
  }

  /** A mapping keyed by names the user chooses, kept in written order (`__proto__` and "1962" are ordinary keys). */
  private record(core: AnySchema, meta: FormatMeta, node: unknown, where: string): Walked {
    if (!isMap(node)) return this.error(node, `${where} must be a mapping of ${meta.mappingOf ?? 'name: value'}; got ${this.describe(node)}.`);
    const pairs: [string, unknown][] = [];
    let ok = true;
    for (const m of this.members(node, where)) {
      if (meta.regexKeys) {
        // The engine's own check (regex.ts): an ECMAScript expression that runs in linear time.
        const problem = regexProblem(m.key);
        const written = problem ? undefined : this.patternAsWritten(m.keyNode, m.key, where);
        if (problem || written) {
          this.error(m.keyNode, written ?? `pattern "${m.key}" in ${where} ${problem}.`);
          ok = false;
          continue;
        }
      }
      const at = meta.entryWhere ? fill(meta.entryWhere, { key: m.key, where }) : join(where, m.key);
      const result = this.walk(core.value as AnySchema, m.value, at, m.keyNode);
      if (result === MISSING) {
        const value = unwrap(core.value as AnySchema);
        this.error(m.keyNode, value.meta.allowEmpty ? `${at} is missing; write "" to delete what matches.` : `${at} is empty; give it a value or remove it.`);
        ok = false;
      } else if (result === INVALID) {
        ok = false;
      } else if (result !== ABSENT) {
        // A replacement's references must name groups the pattern has (the engine would insert them as written).
        const problem = meta.regexKeys && typeof result === 'string' ? replacementProblem(m.key, result) : undefined;
        if (problem) {
          this.error(this.deref(m.value), `${at} ${problem}.`);
          ok = false;
          continue;
        }
        pairs.push([m.key, result]);
      }
    }
    if (!ok) return INVALID;
    return meta.ordered ? new Map(pairs) : orderedObject(pairs);
  }

  private list(core: AnySchema, meta: FormatMeta, node: unknown, where: string, keyNode: unknown): Walked {
    if (!isSeq(node)) return this.error(node ?? keyNode, `${where} must be a list of ${meta.listOf ?? 'names, such as [a, b]'}; got ${this.describe(node)}.`);
    if (action(core, 'non_empty') && node.items.length === 0) return this.error(node, fill(meta.whenEmptyList ?? '{where} is an empty list; list at least one name.', { where }));
    const out: unknown[] = [];
    let ok = true;
    node.items.forEach((item, i) => {
      const at = `${where}[${i}]`;
      const result = this.walk(core.item as AnySchema, item, at, item);
      if (result === MISSING) {
        this.error(item, `${at} is empty; give it a value or remove it.`);
        ok = false;
      } else if (result === INVALID) {
        ok = false;
      } else if (result !== ABSENT) {
        out.push(result);
      }
    });
    return ok ? out : INVALID;
  }

  /**
   * One of the declaration's values, matched case-insensitively and returned in the seed's spelling.
   * Seed leaves the case of method values open; we accept any case.
   */
  private oneOf(core: AnySchema, meta: FormatMeta, node: unknown, where: string): Walked {
    const allowed = core.options as string[];
    const listed = meta.listed ?? allowed;
    if (isScalar(node) && typeof node.value === 'string') {
      const text = this.substitute(node, node.value);
      const match = allowed.find((a) => a.toLowerCase() === text.toLowerCase());
      if (match !== undefined) {
        if (meta.readOnly?.values.includes(match)) {
          this.warnAt(rangeStart(node) ?? 0, fill(meta.readOnly.warning, { value: match, where, listed: listed.join(', ') }));
        }
        return match;
      }
      const hint = suggestKey(text, listed);
      return this.error(node, `"${text}" is not a valid ${meta.what ?? 'value'} in ${where}; ${hint ? `did you mean "${hint}"?` : `use one of ${listed.join(', ')}.`}`);
    }
    return this.error(node, `${where} must be one of ${listed.join(', ')}; got ${this.describe(node)}.`);
  }

  /** Text; a plain number is taken as written (`sheet: 2024`), `${NAME}` is substituted; paths resolved, units checked. */
  private text(node: unknown, where: string, meta: FormatMeta): Walked {
    if (!isScalar(node)) {
      return this.error(node, fill(meta.invalid ?? '{where} must be text; got {got}.', { where, got: this.describe(node) }));
    }
    let text: string;
    if (typeof node.value === 'string') {
      if (curlyQuoted(node)) return this.error(node, curlyQuotedMessage(where, node.value));
      text = this.substitute(node, node.value);
      if (text === '' && !meta.allowEmpty) {
        // Empty only once substituted: the variables it names are set to nothing.
        const names = [...new Set(referenceOffsets(node.value).map((r) => r.name))];
        if (names.length > 0) {
          const them = names.map((n) => `\${${n}}`).join(' and ');
          return this.error(node, `${where} is empty: ${them} ${names.length > 1 ? 'are' : 'is'} set to an empty value in the environment; set ${names.length > 1 ? 'them' : 'it'} to the value, or write the value in place of ${them}.`);
        }
        return this.error(node, `${where} is empty; give it a value or remove it.`);
      }
    } else if (typeof node.value === 'number' && node.type === Scalar.PLAIN && node.range) {
      text = this.tree.text.slice(node.range[0], node.range[1]);
    } else if (typeof node.value === 'boolean' || node.value === null) {
      return this.error(node, `${where} must be text; got ${this.describe(node)}, so quote it if you mean the text "${this.source(node)}".`);
    } else {
      return this.error(node, `${where} must be text; got ${this.describe(node)}.`);
    }
    if (meta.inserted && node.type !== Scalar.QUOTE_DOUBLE) {
      const why = literalEscape(text, meta.inserted);
      if (why) return this.error(node, `${where} ${why}.`);
    }
    if (meta.path) return isAbsolute(text) ? text : resolve(this.baseDir, text);
    if (meta.unit) return this.unit(node, text, where);
    return text;
  }

  /** A unit string: a well-formed UTC delta, or a unit the engine knows (any non-empty text without a checker). */
  private unit(node: unknown, unit: string, where: string): Walked {
    if (/^utc/i.test(unit) && !UTC_DELTA.test(unit)) {
      return this.error(node, `"${unit}" in ${where} is not a valid UTC delta; write UTC_p<n> for UTC+n hours or UTC_m<n> for UTC-n hours, such as UTC_p5.5.`);
    }
    const why = this.opts.checkUnit?.(unit, unit);
    if (why !== undefined) return this.error(node, `${where}: ${sentence(why)}`);
    return unit;
  }

  private scalarValue(node: Scalar): unknown {
    return typeof node.value === 'string' ? this.substitute(node, node.value) : node.value;
  }

  /**
   * A data value as written (inline rows, fill values): a number a double would change (an integer
   * it cannot hold, a leading zero, a value past its range) is kept exact or as its text (exactNumber,
   * as for JSON rows); `${NAME}` is substituted in strings.
   */
  private dataScalar(node: Scalar): unknown {
    return typeof node.value === 'number' ? exactNumber(this.source(node).trim(), node.value) : this.scalarValue(node);
  }

  /** Plain JS value of a node (inline rows): objects keep their written key order; `${NAME}` is substituted in strings. */
  private plain(value: unknown): unknown {
    const node = this.deref(value);
    if (node === INVALID) return INVALID;
    this.visit(node);
    if (isScalar(node)) {
      const v = this.dataScalar(node);
      // Inside a nested value, a number kept as its text stays a number in the value's JSON (as for JSON rows).
      return this.ancestors.size > 0 && typeof node.value === 'number' && typeof v === 'string' ? new NumberText(v) : v;
    }
    if (!isSeq(node) && !isMap(node)) return null;
    if (this.ancestors.size >= MAX_DEPTH) return this.error(node, `values nest more than ${MAX_DEPTH} levels deep here; write the value out flat.`);
    this.ancestors.add(node);
    try {
      if (isSeq(node)) {
        const out: unknown[] = [];
        for (const item of node.items) {
          const v = this.plain(item);
          if (v === INVALID) return INVALID;
          out.push(v);
        }
        return out;
      }
      const pairs: [string, unknown][] = [];
      for (const m of this.members(node, 'a row')) {
        const v = this.plain(m.value);
        if (v === INVALID) return INVALID;
        pairs.push([m.key, v]);
      }
      return orderedObject(pairs);
    } finally {
      this.ancestors.delete(node);
    }
  }

  // ---- the rules between keys ----

  private readonly rules: Record<NonNullable<FormatMeta['rule']>, (c: RuleContext) => Walked> = {
    job: ({ out, members }) => {
      // A Google Sheets input names its sheet (gsSheetName); the service has no sheet selection for it.
      const sheet = this.memberOf(members.get('config'), 'sheet');
      if ((out.input as { googleSheet?: unknown } | undefined)?.googleSheet !== undefined && sheet) {
        this.error(sheet.key, 'config.sheet does not apply to a Google Sheets input, whose sheet is input.googleSheet.sheet; remove config.sheet (or set the sheet there).');
      }
      // A script id spelt unlike its local module: the dry run would skip it (the service may know the id).
      const local = Object.keys((out.localScripts ?? {}) as Record<string, string>);
      const ids = this.deref(this.memberOf(members.get('scripts'), 'preColumnMapping')?.value);
      if (local.length > 0 && isSeq(ids)) {
        for (const item of ids.items) {
          const node = this.deref(item);
          const id = isScalar(node) ? keyText(node) : undefined;
          const hint = id === undefined || local.includes(id) ? undefined : suggestKey(id, local);
          if (hint) this.warnAt(rangeStart(item) ?? 0, `script "${id}" in scripts.preColumnMapping has no module under localScripts, so a dry run skips it; did you mean "${hint}"?`);
        }
      }
      return out;
    },
    input: ({ out, members, keyNode }) => {
      const ways = 'one of file, googleSheet, rows or rowsFile';
      const given = [...members.values()].filter((m) => !isNullNode(this.deref(m.value)));
      if (given.length === 0) {
        const file = members.get('file');
        if (file && members.size === 1) {
          // `file:` left empty: the placeholder `import pull` writes for the user to fill in. Each
          // command says what it means for it (checkOffline): a warning, or the error that stops it.
          return { placeholder: true };
        }
        if (!this.suggested.get(members)?.size) this.error(keyNode, `input names no data; add ${ways}.`);
        return INVALID;
      }
      for (const extra of given.slice(1)) {
        this.error(extra.keyNode, `input has both "${given[0].key}" and "${extra.key}"; keep exactly ${ways}.`);
      }
      const link = (out as { googleSheet?: { url?: unknown } }).googleSheet?.url;
      const sheet = this.deref(members.get('googleSheet')?.value);
      const url = isMap(sheet) ? sheet.items.find((p) => keyText(this.deref(p.key)) === 'url') : undefined;
      // A link with an unset variable is already reported at the variable; its form is unknown.
      if (typeof link === 'string' && !this.unresolved.has(this.deref(url?.value) as object)) {
        // The link's form is checked offline, as the dry run would, so CI stops at the line.
        try {
          parseSheetsLink(link, sheetsBaseUrl(this.opts.env));
        } catch (error) {
          if (!(error instanceof UsageError)) throw error;
          this.error(url?.value ?? url?.key ?? keyNode, `input.googleSheet.url: ${error.message}`);
          return INVALID;
        }
      }
      return out;
    },
    config: ({ out, members }) => {
      const combining = members.get('combining');
      if (combining && !isNullNode(this.deref(combining.value)) && out.allowColumnCombining !== true) {
        this.error(combining.keyNode, 'config.combining needs "allowColumnCombining: true" in config, since columns are combined only then; add it or remove combining.');
      }
      return out;
    },
    combining: ({ out, members, where }) => {
      const separator = members.get('separator');
      if (out.method === 'json' && separator && out.separator !== undefined) {
        this.warnAt(rangeStart(separator.keyNode) ?? 0, `${where}.separator is ignored with method "json"; remove it or use method "stringAppend".`);
      }
      return out;
    },
    units: ({ out, members, invalid, where, keyNode }) => {
      if (invalid.size) return INVALID;
      const { from, to } = out as { from: string | null; to: string | null };
      if (from === null && to === null) return { from: null, to: null };
      if (from === null || to === null) {
        const nullOne = members.get(from === null ? 'from' : 'to')!;
        return this.error(this.deref(nullOne.value) ?? nullOne.keyNode, `${where}.${nullOne.key} is null but the other is not; set both from and to, or both to null.`);
      }
      if (this.opts.checkUnit) {
        const why = this.opts.checkUnit(from, to);
        if (why !== undefined) return this.error(keyNode, `${where}: ${sentence(why)}`);
      } else if (UTC_DELTA.test(from) !== UTC_DELTA.test(to)) {
        return this.error(keyNode, `${where} converts between a UTC delta and "${UTC_DELTA.test(from) ? to : from}"; use UTC deltas for both from and to.`);
      }
      return { from, to };
    },
    impute: ({ out, members, invalid, where, keyNode }) => {
      if (invalid.has('method')) return INVALID;
      const method = out.method as 'fill' | 'dropMissing' | null;
      const value = members.get('value');
      if (method !== 'fill') {
        if (value !== undefined) return this.error(value.keyNode, `${where}.value is used only with method fill; remove it or set method: fill.`);
        return { method };
      }
      if (invalid.has('value')) return INVALID;
      if (out.value === undefined) {
        return this.error(value?.keyNode ?? keyNode, `${where} uses method fill but has no "value"; add the value that replaces missing ones.`);
      }
      return { method: 'fill', value: out.value };
    },
    pivot: ({ out, invalid }) => {
      if (invalid.size) return INVALID;
      return { pivotColumns: out.pivotColumns, valueColumns: out.valueColumns, indexColumns: out.indexColumns, aggregationMethod: out.aggregationMethod ?? 'first' };
    },
    schema: ({ out, members, where }) => {
      const prefix = where ? `${where}.` : '';
      const schema: PipelineSchema = {
        expectedFields: [...(out.expectedFields as string[] | undefined ?? [])],
        optionalFields: [...(out.optionalFields as string[] | undefined ?? [])],
        fieldDataTypes: (out.fieldDataTypes ?? orderedObject([])) as PipelineSchema['fieldDataTypes'],
        fieldUnits: (out.fieldUnits ?? orderedObject([])) as PipelineSchema['fieldUnits'],
        imputeMethods: (out.imputeMethods ?? orderedObject([])) as PipelineSchema['imputeMethods'],
        rowDropping: ((out.rowDropping ?? []) as { method: RowDroppingRule['method']; fields: string[] }[])
          .map((r) => ({ method: r.method, methodConfig: { fields: r.fields } })),
      };
      if (out.id !== undefined) schema.id = out.id as string;
      // Optional fields may or may not be repeated in expectedFields; expectedFields ends up listing all fields.
      // One that is not there but close to one that is (`"phone "`, `Phone`) adds a field and leaves that one required: likely a slip.
      if (out.expectedFields !== undefined) {
        const listed = new Set(schema.expectedFields);
        const items = this.deref(members.get('optionalFields')?.value);
        (isSeq(items) ? items.items : []).forEach((item) => {
          const node = this.deref(item);
          const field = isScalar(node) ? keyText(node) : undefined;
          const hint = field === undefined || listed.has(field) ? undefined : suggestKey(field, schema.expectedFields);
          if (hint !== undefined) this.warnAt(rangeStart(item) ?? 0, `${prefix}optionalFields lists "${field}", which is not in expectedFields, so it adds an optional field and leaves "${hint}" required; write "${hint}" if that field is the optional one, or add "${field}" to expectedFields to keep both.`);
        });
      }
      const expected = new Set(schema.expectedFields);
      for (const field of schema.optionalFields) if (!expected.has(field)) { expected.add(field); schema.expectedFields.push(field); }
      if (out.expectedFields !== undefined || out.optionalFields !== undefined) {
        for (const name of ['fieldDataTypes', 'fieldUnits', 'imputeMethods']) {
          for (const [field, keyNodeOf] of this.entryKeys(members.get(name))) {
            if (expected.has(field)) continue;
            const hint = suggestKey(field, schema.expectedFields);
            this.error(keyNodeOf, `${prefix}${name} names "${field}", which is not in expectedFields or optionalFields; ${hint ? `did you mean "${hint}"?` : 'add it there or fix the name.'}`);
          }
        }
        // A preset rule on a field the pipeline does not have would stop the dry run (the output has no such field).
        const rules = this.deref(members.get('rowDropping')?.value);
        (isSeq(rules) ? rules.items : []).forEach((rule, i) => {
          const fields = this.deref(this.memberOf({ key: 'rule', keyNode: rule, value: rule }, 'fields')?.value);
          (isSeq(fields) ? fields.items : []).forEach((item) => {
            const node = this.deref(item);
            const field = isScalar(node) ? keyText(node) : undefined;
            if (field === undefined || expected.has(field)) return;
            const hint = suggestKey(field, schema.expectedFields);
            this.error(item, `${prefix}rowDropping[${i}].fields names "${field}", which is not in expectedFields or optionalFields; ${hint ? `did you mean "${hint}"?` : 'add it there or fix the name.'}`);
          });
        });
      }
      return schema;
    },
  };

  // ---- building blocks ----

  /** The node an alias stands for, guarding against aliases that contain themselves or expand without end. */
  private deref(node: unknown): unknown {
    if (!isAlias(node)) return node;
    const target = deref(this.tree, node);
    if (target === undefined) return this.error(node, `the alias *${(node as { source: string }).source} has no anchor &${(node as { source: string }).source} before it; define the anchor first or write the value out.`);
    if (this.ancestors.has(target)) {
      return this.error(node, `the alias *${(node as { source: string }).source} stands for a value that contains it, so it never ends; write the value out instead.`);
    }
    this.lastAlias = node;
    return target;
  }

  /** Counts a visited value; past the budget, reports the alias that was being expanded and stops the walk. */
  private visit(node: unknown): void {
    if (++this.visits <= this.budget) return;
    const alias = this.lastAlias ?? node;
    this.error(alias, `YAML aliases expand here to more than ${this.budget.toLocaleString('en-US')} values, far more than the file's ${this.tree.text.length.toLocaleString('en-US')} bytes hold; write the values out instead of repeating them through aliases.`);
    throw new BudgetExceeded();
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

  /** The members of a mapping in written order; keys must be plain names and appear once. */
  private members(node: unknown, where: string): Member[] {
    if (!isMap(node)) return [];
    const out: Member[] = [];
    const seen = new Set<string>();
    for (const pair of node.items) {
      const keyNode = this.deref(pair.key);
      const key = keyText(keyNode);
      if (key === undefined) {
        this.error(pair.key, `keys in ${where} must be plain names; got ${this.describe(keyNode)}.`);
        continue;
      }
      if (isScalar(keyNode) && curlyQuoted(keyNode)) {
        this.error(pair.key, curlyQuotedMessage(`the key in ${where}`, key));
        continue;
      }
      // YAML 1.2 has no merge keys: `<<: *defaults` would be a key named "<<" (a column of inline rows).
      if (key === '<<' && isScalar(keyNode) && keyNode.type === Scalar.PLAIN) {
        this.error(pair.key, `"<<" in ${where} is a YAML merge key, which job files do not read (they are YAML 1.2, where it is an ordinary key named "<<"); write the keys out, or quote it ("<<") if it is a name.`);
        continue;
      }
      if (seen.has(key)) {
        this.error(pair.key, `duplicate key "${key}"; remove one of them.`);
        continue;
      }
      seen.add(key);
      out.push({ key, keyNode: pair.key, value: pair.value });
    }
    return out;
  }

  /**
   * Why a pattern, as the job file writes it, is not the expression it looks like, or undefined; a
   * pattern written between slashes that may be meant as text gets a warning instead. In double
   * quotes YAML reads `\b` as a backspace (not a word boundary) and `\e`, `\a`, `\N`, `\_`, `\L`, `\P`
   * as characters; a JavaScript literal's slashes and flags (`/[^0-9]/g`) would be matched as text.
   */
  private patternAsWritten(keyNode: unknown, pattern: string, where: string): string | undefined {
    const node = this.deref(keyNode);
    if (isScalar(node) && node.type === Scalar.QUOTE_DOUBLE) {
      const source = this.source(node);
      for (let i = 1; i < source.length - 1; i++) {
        if (source[i] !== '\\') continue;
        const letter = source[++i];
        const read = YAML_ESCAPES_UNLIKE_REGEX[letter];
        if (read) {
          return `pattern ${source} in ${where} is written in double quotes, where YAML reads "\\${letter}" as ${read}; write the pattern in single quotes (${singleQuoted(source.slice(1, -1))}) so the expression gets "\\${letter}".`;
        }
      }
    }
    const literal = /^\/(.+)\/([a-z]*)$/s.exec(pattern);
    if (literal && /^[dgimsuyv]+$/.test(literal[2])) {
      return `pattern "${pattern}" in ${where} is written as a JavaScript regex literal, whose slashes and flags would be matched as text; write the expression alone, "${literal[1]}" (every rule replaces all matches, and there are no flags).`;
    }
    if (literal && literal[2] === '') {
      this.warnAt(rangeStart(keyNode) ?? 0, `pattern "${pattern}" in ${where} starts and ends with "/", which are matched as text (the expression is written without slashes); remove them unless the values hold them.`);
    }
    return undefined;
  }

  /** The pair of `key` inside a mapping member, when the member is a mapping that has it. */
  private memberOf(member: Member | undefined, key: string): { key: unknown; value: unknown } | undefined {
    const node = member && this.deref(member.value);
    return isMap(node) ? node.items.find((pair) => keyText(this.deref(pair.key)) === key) : undefined;
  }

  /** The keys of a mapping member with their key nodes (for messages about entries). */
  private entryKeys(member: Member | undefined): [string, unknown][] {
    const node = member && this.deref(member.value);
    if (!isMap(node)) return [];
    return node.items.map((pair) => [keyText(this.deref(pair.key)) ?? '', pair.key] as [string, unknown]);
  }

  /**
   * `${NAME}` substitution; an unset variable is a problem placed at its reference, and so is a
   * `${...}` that is not a reference (`${PIPELINE:-pl_customers}`), which would stay in the value.
   * A set variable written the shell's way, `$NAME`, is kept as written, with a warning.
   */
  private substitute(node: Scalar, value: string): string {
    const { value: out, missing } = substituteEnv(value, this.opts.env);
    const start = node.range?.[0] ?? 0;
    const written = this.tree.text.slice(start, node.range?.[1] ?? start);
    const invalid = invalidReferences(value);
    for (const form of invalid) {
      const at = written.indexOf(form.text);
      this.errorAt(start + Math.max(at, 0), `"${form.text}" is not an environment variable reference: ${invalidReferenceFix(form.text)}.`);
    }
    for (const m of value.matchAll(/(?<![$\\])\$([A-Za-z_][A-Za-z0-9_]*)/g)) {
      if (this.opts.env[m[1]] === undefined) continue;
      const at = written.indexOf(m[0]);
      this.warnAt(start + Math.max(at, 0), `"${m[0]}" is kept as written, since job files read a variable only as \${NAME}; write \${${m[1]}} to use the environment variable ${m[1]}.`);
    }
    if (invalid.length) this.unresolved.add(node);
    if (missing.length === 0) return out;
    this.unresolved.add(node);
    const refs = referenceOffsets(written);
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
    return range ? this.tree.text.slice(range[0], range[1]) : '';
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

/** What a rule sees: the members read so far, the written members (for positions), and which were invalid. */
interface RuleContext {
  out: Record<string, unknown>;
  members: Map<string, Member>;
  invalid: Set<string>;
  where: string;
  keyNode: unknown;
}

// ---- helpers ----

/** The inner source of a double-quoted pattern written in single quotes: the same expression, backslashes kept. */
function singleQuoted(inner: string): string {
  return `'${inner.replace(/\\(["\\/])/g, '$1').replace(/'/g, "''")}'`;
}

/**
 * Whether a plain scalar is wrapped in typographic quotes (“pl_customers”, ‘US’), as text pasted
 * from a document or a chat is: YAML keeps them as part of the value, so a pipeline id or a fill
 * value would be sent with them. Written inside straight quotes they are meant, and kept.
 */
function curlyQuoted(node: Scalar): boolean {
  return node.type === Scalar.PLAIN && typeof node.value === 'string' && /^[\u201C\u2018\u201E\u201A].*[\u201D\u2019\u201C\u2018]$/s.test(node.value);
}

function curlyQuotedMessage(where: string, value: string): string {
  const inner = value.slice(1, -1);
  return `${where} is wrapped in typographic quotes (${value}), which YAML keeps as part of the text; write straight quotes ("${inner}") or none (typographic quotes inside straight ones are kept, if meant).`;
}

/** YAML double-quoted escapes that read as a character where a regular expression means something else. */
const YAML_ESCAPES_UNLIKE_REGEX: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, {
  b: 'a backspace character (U+0008), not a word boundary',
  a: 'the bell character (U+0007)',
  e: 'the escape character (U+001B)',
  N: 'a next-line character (U+0085)',
  _: 'a no-break space (U+00A0)',
  L: 'a line separator (U+2028)',
  P: 'a paragraph separator (U+2029), not a Unicode property',
});

/**
 * Why text written outside double quotes holds an escape that stays as written, or undefined: YAML
 * reads `\t` as a tab only in double quotes, so `separator: '\t'` joins values with a backslash
 * and a "t"; and a replacement inserts `\1` as written (ECMAScript refers to a group as `$1`).
 * A backslash meant as such is written in double quotes (`"\\t"`), which this does not look at.
 */
function literalEscape(text: string, inserted: 'separator' | 'replacement'): string | undefined {
  const escape = /\\([tnr])/.exec(text);
  if (escape) {
    const name = { t: 'a tab', n: 'a line break', r: 'a carriage return' }[escape[1] as 't' | 'n' | 'r'];
    return `holds "${escape[0]}" as two characters, a backslash and "${escape[1]}", since YAML reads escapes only in double quotes; write "${escape[0]}" in double quotes for ${name}, or "\\${escape[0]}" for the two characters`;
  }
  const group = inserted === 'replacement' ? /\\([1-9])/.exec(text) : null;
  if (group) {
    return `holds "${group[0]}", which is inserted as written, since a replacement refers to a group as $${group[1]}; write $${group[1]}, or "\\${group[0]}" in double quotes for the two characters`;
  }
  return undefined;
}

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

/** `where.key`, or `where["key"]` when the key is not a plain name. */
function join(where: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? `${where}.${key}` : `${where}[${JSON.stringify(key)}]`;
}

function byPosition(problems: JobFileProblem[]): JobFileProblem[] {
  return [...problems].sort((a, b) => a.line - b.line || a.col - b.col);
}
