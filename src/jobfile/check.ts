/**
 * The job file against what is known about its input and pipeline: every column it names must be
 * a column of the input, every field a field of the pipeline (or one the mapping creates), the
 * sheet one of the workbook's. The same checks run offline (the local input's header and the
 * job file's `schema`) and, after `start` and the reads, against the service's answers, so a
 * job file that cannot apply is stopped before anything is sent or updated.
 */
import { isHttpUrl, type DataType, type FieldsRead, type JobConfig } from '../contract/index.js';
import { entriesInOrder, getOwn } from '../contract/json.js';
import { combiningOrderProblems } from '../engine/steps/combine.js';
import { coerceFillValue, imputeRuleOf } from '../engine/steps/impute.js';
import { repeatedRule } from '../engine/steps/drop-rows.js';
import { pivotColumnNamedTwice } from '../engine/steps/pivot.js';
import { textRulesOnTypeWarning } from '../engine/steps/text.js';
import { checkUnit, unitTypeProblem, utcOffsetHours } from '../engine/steps/units.js';
import type { RuleSubject } from '../engine/types.js';
import { nameList, UsageError, type JobFileProblem } from '../errors.js';
import { invisibleDifference, suggestKey } from './suggest-key.js';
import type { JobFile } from './types.js';

/** What is known about the job's input and pipeline; each member is absent when unknown. */
export interface KnownFacts {
  /** The input's columns (as the mapping sees them) and where they come from ("customers.csv"). */
  columns?: { names: string[]; from: string };
  /** The workbook's sheets and where they come from. */
  sheets?: { names: string[]; from: string };
  /** The pipeline's fields (expected, optional ones included) and where they come from ("the job file's schema"). */
  fields?: { expected: string[]; optional: string[]; from: string };
  /**
   * With no pipeline fields known, the fields there will be anyway: those the service's
   * suggestions map to (online), or the input's columns (a dry run's identity suggestions).
   * Absent: fields cannot be checked (a real pipeline may expect any).
   */
  suggestedFields?: { names: string[]; from: string; byColumn?: [column: string, field: string][] };
  /**
   * The data types suggested for fields (by the service, or inferred from the data by a dry run),
   * for the fields whose type the job file does not say: a fill value or a conversion must fit them.
   */
  suggestedTypes?: { types: Record<string, DataType>; /** Where the types come from, as a clause: "the type the service suggested for job X". */ from: string };
  /** The data sources of the service's mapping (`columnFieldMapping`'s keys) and where they come from. */
  sources?: { names: string[]; from: string };
}

/** Calls `visit` for each field the configuration names after the mapping, with its key path and section. */
function eachFieldNamed(config: JobFile['config'], visit: (path: (string | number)[], name: string, section: string) => void): void {
  for (const [name] of entriesInOrder(config.combining ?? {})) visit(['config', 'combining', name], name, 'config.combining');
  for (const [name] of entriesInOrder(config.dataTypes ?? {})) visit(['config', 'dataTypes', name], name, 'config.dataTypes');
  for (const [name] of entriesInOrder(config.units ?? {})) visit(['config', 'units', name], name, 'config.units');
  for (const [name] of entriesInOrder(config.impute ?? {})) visit(['config', 'impute', name], name, 'config.impute');
  for (const [name] of entriesInOrder(config.text?.regexReplacement ?? {})) visit(['config', 'text', 'regexReplacement', name], name, 'config.text.regexReplacement');
  for (const [name] of entriesInOrder(config.text?.casing ?? {})) visit(['config', 'text', 'casing', name], name, 'config.text.casing');
  (config.rowDropping ?? []).forEach((rule, i) => rule.fields.forEach((name, j) => visit(['config', 'rowDropping', i, 'fields', j], name, `config.rowDropping[${i}].fields`)));
  // Pivot runs after mapping, on fields.
  for (const role of ['pivotColumns', 'valueColumns', 'indexColumns'] as const) {
    (config.pivot?.[role] ?? []).forEach((name, j) => visit(['config', 'pivot', role, j], name, `config.pivot.${role}`));
  }
}

/** A setting names a field whose column the mapping sends to `now` (another field, or null), and no column gives it. */
function noColumnGives(section: string, name: string, column: string, now: string | null): string {
  return `${section} names the field "${name}", but config.mapping maps the column "${column}" to ${now === null ? 'nothing' : `"${now}"`}, so no column gives "${name}"; ${now === null ? `map a column to "${name}" or remove this entry` : `name the field "${now}" here`}.`;
}

/** Every problem of the job file against the facts, located at the key that names the missing thing. */
export function checkJobFile(job: JobFile, facts: KnownFacts, displayPath: string): JobFileProblem[] {
  const problems: JobFileProblem[] = [];
  const at = (path: (string | number)[], message: string) => {
    const pos = job.positionOf(path) ?? job.positionOf(path.slice(0, -1)) ?? { line: 1, col: 1 };
    problems.push({ file: displayPath, line: pos.line, col: pos.col, message });
  };
  const config = job.config;
  const columns = facts.columns && new Set(facts.columns.names);
  const expected = facts.fields && new Set(facts.fields.expected);

  if (config.sheet !== undefined && facts.sheets && !facts.sheets.names.includes(config.sheet)) {
    at(['config', 'sheet'], `sheet "${config.sheet}" in config.sheet is not in ${facts.sheets.from}, whose sheets are ${nameList(facts.sheets.names)}; ${fix(config.sheet, facts.sheets.names, 'choose one of them', facts.sheets.from)}`);
  }

  const mapping = entriesInOrder(config.mapping ?? {});
  // jobfile.md: the flat mapping is placed under the one data source getFields returns; with several
  // it would silently apply to the first only, so it is refused instead of guessed.
  if (config.mapping !== undefined && facts.sources && facts.sources.names.length > 1) {
    at(['config', 'mapping'], `config.mapping is a flat mapping, which applies to a job with one data source, but ${facts.sources.from} has ${facts.sources.names.length} (${nameList(facts.sources.names)}), so which source's columns it means is not known; remove config.mapping and map each source's columns with \`import fields update <jobId> --data\` (columnFieldMapping keyed by source name), or start the job from one input.`);
  }
  // A mapping keyed by source name (jobfile.md) names the source it was written for: another one's
  // columns would be mapped by a guess.
  if (config.mappingSource !== undefined && facts.sources?.names.length === 1 && facts.sources.names[0] !== config.mappingSource) {
    const [actual] = facts.sources.names;
    at(['config', 'mapping'], `config.mapping is keyed by the data source "${config.mappingSource}", but the source of ${facts.sources.from} is "${actual}"; rename the key to "${actual}", or write the columns flat (column: field), which apply to the job's one source whatever its name.`);
  }
  for (const [column, field] of mapping) {
    if (columns && !columns.has(column)) {
      at(['config', 'mapping', column], `column "${column}" in config.mapping is not in ${facts.columns!.from}, whose columns are ${nameList(facts.columns!.names)}; ${fix(column, facts.columns!.names, 'rename it to one of them or remove it', facts.columns!.from)}`);
    }
    if (field !== null && expected && !expected.has(field)) {
      at(['config', 'mapping', column], `config.mapping maps "${column}" to "${field}", which is not a field of ${facts.fields!.from} (${nameList(facts.fields!.expected)}); ${fix(field, facts.fields!.expected, 'map it to one of them', facts.fields!.from)}`);
    }
  }

  for (const [path, url] of [[['options', 'webhookUrl'], job.options.webhookUrl], [['run', 'webhookUrl'], job.run.webhookUrl]] as const) {
    if (url !== undefined && !isHttpUrl(url)) at([...path], `${path.join('.')} "${url}" is not an http(s) URL; write it in full, such as https://example.com/hook.`);
  }

  // An output name whose extension says the other format: Excel bytes in a .csv, or the reverse.
  const destination = job.options.destinationFileName;
  const extension = destination !== undefined ? /\.(csv|xlsx)$/i.exec(destination)?.[1].toLowerCase() : undefined;
  const type = job.options.outputFileType ?? 'csv';
  if (extension && (extension === 'xlsx') !== (type === 'excel')) {
    at(['options', 'destinationFileName'], `options.destinationFileName "${destination}" ends in .${extension}, but the output is ${type === 'excel' ? 'Excel' : 'CSV'} (options.outputFileType: ${type}); name it .${type === 'excel' ? 'xlsx' : 'csv'} or set outputFileType: ${extension === 'xlsx' ? 'excel' : 'csv'}.`);
  }

  /** The field's type as the job file says it (config.dataTypes, else its schema), own keys only: a field may be named `__proto__`. */
  const typeOf = (field: string) => getOwn(config.dataTypes, field) ?? getOwn(job.schema?.fieldDataTypes, field) ?? suggestedType(field);
  /** The type suggested for a field whose type the job file does not say (undefined when none is known). */
  const suggestedType = (field: string) => getOwn(facts.suggestedTypes?.types, field);
  /** Where a type the job file does not say comes from, and how to pin another. */
  const typeSource = (field: string) => (getOwn(config.dataTypes, field) ?? getOwn(job.schema?.fieldDataTypes, field)) === undefined && suggestedType(field) !== undefined
    ? ` (${facts.suggestedTypes!.from}; pin the type under config.dataTypes if it is wrong)` : '';

  // A fill value must be a value of the field's type, when the job file says the type.
  for (const [field, rule] of entriesInOrder(config.impute ?? {})) {
    if (rule.method !== 'fill' || rule.value === undefined) continue;
    const type = typeOf(field);
    try {
      coerceFillValue(field, rule.value, type);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      const reason = error.message.replace(/\.$/, '');
      const fix = reason.includes('; ') ? '' : "; write a value of that type or change the field's type";
      at(['config', 'impute', field, 'value'], `config.impute.${field}.value: ${reason}${typeSource(field)}${fix}.`);
    }
  }

  // The schema's impute methods are the pipeline's suggestions: a field config.impute does not set
  // gets its method as the engine's impute step would apply it, so what the step refuses (a fill
  // with no value: the schema block has no place for one) stops here, at the schema's line.
  for (const [field, method] of entriesInOrder(job.schema?.imputeMethods ?? {})) {
    if (getOwn(config.impute, field) !== undefined) continue;
    try {
      imputeRuleOf(field, { imputeMethod: method }, typeOf(field));
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      const key = /^[A-Za-z_][\w-]*$/.test(field) ? field : JSON.stringify(field);
      at(['schema', 'imputeMethods', field], method === 'fill'
        ? `schema.imputeMethods.${field} is fill, which needs a value to fill with, and the schema block has no place for one (the dry run would stop on it); give the value under config.impute (${key}: {method: fill, value: ...}), or make the method dropMissing or null.`
        : `schema.imputeMethods.${field}: ${error.message.replace(/\.$/, '')}; make the method fill (with a value under config.impute), dropMissing or null.`);
    }
  }

  // A conversion must fit the field's type, when the job file says the type (the run would stop on it).
  for (const [field, { from, to }] of entriesInOrder(config.units ?? {})) {
    const type = typeOf(field);
    if (type === undefined || from === null || to === null || checkUnit(from, to) !== undefined) continue;
    const problem = unitTypeProblem(from, to, type);
    if (problem) at(['config', 'units', field], `config.units.${field} converts ${from} → ${to}, which ${problem.replace(/\.$/, '').replace(/(;|$)/, `${typeSource(field)}$1`)}.`);
  }

  // One column per field unless combining is allowed (engine.md, step 4): the dry run and the
  // service would stop on it, so it stops here, at the column that repeats the field.
  if (config.allowColumnCombining !== true) {
    const firstColumn = new Map<string, string>();
    for (const [column, field] of mapping) {
      if (field === null) continue;
      const first = firstColumn.get(field);
      if (first === undefined) firstColumn.set(field, column);
      else at(['config', 'mapping', column], `config.mapping maps both "${first}" and "${column}" to "${field}", but only one column may map to a field unless columns are combined; map one of them elsewhere (or to null), or add "allowColumnCombining: true" to config.`);
    }
  }

  // Fields the configuration may name: the pipeline's (or, with none known, the suggested ones)
  // and those the job file's mapping creates.
  const mappedFields = mapping.map(([, f]) => f).filter((f): f is string => f !== null);
  const knownFields = expected ? [...facts.fields!.expected, ...mappedFields]
    : facts.suggestedFields ? [...suggestedFieldsKept(facts.suggestedFields, config.mapping), ...mappedFields] : undefined;
  if (knownFields) {
    const known = new Set(knownFields);
    const whereKnown = expected
      ? `${facts.fields!.from} does not have it and config.mapping does not map a column to it`
      : `it is not a field of ${facts.suggestedFields!.from} and config.mapping does not map a column to it`;
    const field = (path: (string | number)[], name: string, section: string) => {
      if (known.has(name)) return;
      // A suggested field whose column the file maps elsewhere: say so, and name the field it became.
      const moved = expected ? undefined : facts.suggestedFields?.byColumn?.find(([column, f]) => f === name && Object.hasOwn(config.mapping ?? {}, column));
      if (moved) {
        at(path, noColumnGives(section, name, moved[0], config.mapping![moved[0]]));
        return;
      }
      at(path, `${section} names the field "${name}", but ${whereKnown}; ${fix(name, [...known], 'fix the name or map a column to it under config.mapping', facts.fields?.from ?? facts.suggestedFields?.from)}`);
    };
    eachFieldNamed(config, field);
  } else if (columns && config.mapping) {
    // No pipeline fields known (no schema, before the service answers): a real pipeline may
    // expect any field. One case is certain from the header alone: a field named like a column
    // that the mapping sends elsewhere, with no column mapped to it: nothing gives it any more.
    const given = new Set(mappedFields);
    eachFieldNamed(config, (path, name, section) => {
      if (given.has(name) || !columns.has(name) || !Object.hasOwn(config.mapping!, name)) return;
      at(path, noColumnGives(section, name, name, config.mapping![name]));
    });
  }

  // A combining order lists each column of the field once, and every column the mapping gives it
  // (combiningOrderProblems, the engine's rule): the run stops on any other order. A column that
  // is not the field's is named below, where the input's columns are known.
  for (const [name, c] of entriesInOrder(config.combining ?? {})) {
    if (!c.order) continue;
    const problems = combiningOrderProblems(c.order, mapping.filter(([, field]) => field === name).map(([column]) => column));
    if (problems?.repeated) {
      at(['config', 'combining', name, 'order', problems.repeated.at], `config.combining.${name}.order lists "${problems.repeated.column}" twice; list each column once.`);
    } else if (problems && problems.leftOut.length > 0) {
      at(['config', 'combining', name, 'order'], `config.combining.${name}.order leaves out ${problems.leftOut.map((l) => `"${l}"`).join(', ')}, which config.mapping maps to "${name}"; list every column mapped to it, each once.`);
    }
  }

  // Each pivot column has one role (the pivot step's rule): the run would stop on a second mention.
  const pivot = config.pivot;
  const twice = pivot && pivotColumnNamedTwice({ index: pivot.indexColumns, pivot: pivot.pivotColumns, values: pivot.valueColumns });
  if (twice) {
    const role = ({ index: 'indexColumns', pivot: 'pivotColumns', values: 'valueColumns' } as const)[twice.role];
    const roles = (['indexColumns', 'pivotColumns', 'valueColumns'] as const).filter((r) => pivot[r].includes(twice.column));
    const where = roles.length > 1 ? `both config.pivot.${roles[0]} and config.pivot.${roles[1]}` : `config.pivot.${role} twice`;
    at(['config', 'pivot', role, twice.at], `column "${twice.column}" is named in ${where}, but a pivot column has one role (index, pivot or value); remove it from one of them.`);
  }

  // A pivot on an optional field that no column gives stops the run (the field is not in the output).
  const without = optionalFieldsWithoutColumn(job, facts);
  if (without.size > 0) {
    eachFieldNamed(config, (path, name, section) => {
      if (section.startsWith('config.pivot') && without.has(name)) at(path, noColumnForOptional(section, name, 'the pivot cannot use it (the run would stop)'));
    });
  }

  // Each column of a combining order must be one the job file maps to the field: the engine refuses
  // an order naming another column, and a suggestion never decides which columns a field combines.
  for (const [name, c] of entriesInOrder(config.combining ?? {})) {
    (c.order ?? []).forEach((column, j) => {
      const path = ['config', 'combining', name, 'order', j];
      const isMapped = config.mapping !== undefined && Object.hasOwn(config.mapping, column);
      if (columns && !columns.has(column)) {
        at(path, `column "${column}" in config.combining.${name}.order is not in ${facts.columns!.from}, whose columns are ${nameList(facts.columns!.names)}; ${fix(column, facts.columns!.names, 'rename it to one of them or remove it', facts.columns!.from)}`);
      } else if (isMapped && config.mapping![column] !== name) {
        at(path, `column "${column}" in config.combining.${name}.order is mapped to ${config.mapping![column] === null ? 'nothing' : `"${config.mapping![column]}"`} in config.mapping, not to "${name}"; map it to "${name}" or remove it from the order.`);
      } else if (!isMapped) {
        at(path, `column "${column}" in config.combining.${name}.order is not mapped to "${name}" in config.mapping, so it is not one of the columns combined into it (the run would stop on the order); add "${yamlKey(column)}: ${yamlKey(name)}" under config.mapping, or remove it from the order.`);
      }
    });
  }
  return problems.sort((a, b) => a.line - b.line || a.col - b.col);
}

/**
 * The fields the output will have, when the job file alone decides it: the input's header is known
 * and config.mapping names every column of it, so no suggestion maps another; else undefined.
 */
function fieldsFromMapping(job: JobFile, facts: KnownFacts): Set<string> | undefined {
  const mapping = job.config.mapping;
  if (!facts.columns || !mapping || !facts.columns.names.every((c) => Object.hasOwn(mapping, c))) return undefined;
  return new Set(facts.columns.names.map((c) => mapping[c]).filter((f): f is string => f !== null));
}

/** The schema's optional fields that no column gives, when the job file alone decides which fields have columns. */
function optionalFieldsWithoutColumn(job: JobFile, facts: KnownFacts): Set<string> {
  const fields = fieldsFromMapping(job, facts);
  return new Set(fields ? (job.schema?.optionalFields ?? []).filter((f) => !fields.has(f)) : []);
}

/** Why a rule on an optional field that no column is mapped to does nothing (or, for a pivot, stops the run). */
function noColumnForOptional(section: string, name: string, outcome: string): string {
  return `${section} names the optional field "${name}", but config.mapping maps no column to it, so it is not in the output and ${outcome}; map a column to "${name}" under config.mapping, or remove it here.`;
}

/**
 * A combining entry whose field gets fewer than two columns: combining joins several columns, so
 * the entry does nothing. Said by `validate` (the job file's mapping) and the dry run (the mapping applied).
 */
export function combiningWithoutColumns(field: string, columns: readonly string[]): string {
  const given = columns.length === 0 ? 'maps no column' : `maps only the column "${columns[0]}"`;
  return `config.combining.${field} does nothing: the mapping ${given} to "${field}", and combining joins two or more columns; map the other columns to "${field}" under config.mapping, or remove this entry.`;
}

/**
 * The combining entries of the job file whose field `mapping` (input column -> field, in column
 * order) gives fewer than two columns, with the columns it does give: the job file's own mapping
 * for `validate`, the one applied (over the suggestions) for the dry run.
 */
export function idleCombining(job: JobFile, mapping: Record<string, string | null>): { field: string; columns: string[] }[] {
  const pairs = entriesInOrder(mapping);
  return entriesInOrder(job.config.combining ?? {})
    .map(([field]) => ({ field, columns: pairs.filter(([, f]) => f === field).map(([c]) => c) }))
    .filter(({ columns }) => columns.length < 2);
}

/** Whether two unit strings name the same unit (UTC_p0 and UTC_m0 are one zone). */
function isSameUnit(a: string, b: string): boolean {
  const ha = utcOffsetHours(a);
  return ha !== undefined ? ha === utcOffsetHours(b) : a === b;
}

/**
 * What in the job file is allowed but likely not meant, located at its key: text rules on a field
 * whose type makes them do nothing (or act on rewritten dates), a combining entry with one column,
 * a conversion to another unit than the schema's, a rule on an optional field no column is mapped
 * to. `engine`: a dry run follows, whose engine says the type and skipped-rule warnings itself
 * (at the same lines), so they are left to it.
 */
export function jobFileWarnings(job: JobFile, facts: KnownFacts, displayPath: string, opts: { engine?: boolean } = {}): JobFileProblem[] {
  const warnings: JobFileProblem[] = [];
  const at = (path: (string | number)[] | undefined, message: string) => {
    const pos = (path && job.positionOf(path)) ?? { line: 1, col: 1 };
    warnings.push({ file: displayPath, line: pos.line, col: pos.col, message });
  };
  const config = job.config;
  const mapping = entriesInOrder(config.mapping ?? {});

  if (!opts.engine) {
    const textFields = new Set([...Object.keys(config.text?.regexReplacement ?? {}), ...Object.keys(config.text?.casing ?? {})]);
    for (const field of textFields) {
      const note = textRulesOnTypeWarning(field, getOwn(config.dataTypes, field) ?? getOwn(job.schema?.fieldDataTypes, field));
      if (note) at(rulePath(job, { step: 'text', field }), note);
    }
  }

  // Combining joins the columns mapped to a field: with one, the entry does nothing. A suggestion
  // could add a column only where the job file leaves some unmapped, so no columns is said only
  // when the file maps every one.
  const everyColumnMapped = fieldsFromMapping(job, facts) !== undefined;
  for (const { field, columns } of idleCombining(job, config.mapping ?? {})) {
    if (columns.length === 1 || everyColumnMapped) at(['config', 'combining', field], combiningWithoutColumns(field, columns));
  }

  // The schema says which unit the pipeline expects a field in: a conversion to another gives it values in the wrong unit.
  for (const [field, { to }] of entriesInOrder(config.units ?? {})) {
    const expected = getOwn(job.schema?.fieldUnits, field);
    if (to === null || expected === undefined || expected === null || isSameUnit(to, expected)) continue;
    at(['config', 'units', field, 'to'], `config.units.${field}.to is ${to}, but the pipeline's schema expects "${field}" in ${expected} (schema.fieldUnits); convert to ${expected}, or fix schema.fieldUnits if the pipeline expects ${to}.`);
  }

  // A row-dropping rule that repeats an earlier one of its list drops nothing: likely meant for other fields.
  const lists = [['config', config.rowDropping ?? []], ['schema', (job.schema?.rowDropping ?? []).map((r) => ({ method: r.method, fields: r.methodConfig.fields }))]] as const;
  for (const [block, rules] of lists) {
    rules.forEach((rule, i) => {
      const earlier = repeatedRule(rules, i);
      if (earlier < 0) return;
      at([block, 'rowDropping', i], `${block}.rowDropping[${i}] repeats ${block}.rowDropping[${earlier}] (${rule.method} on ${rule.fields.join(', ')}), so it drops nothing; remove it, or name the fields it was meant for.`);
    });
  }

  // No schema and no service: validate cannot know the pipeline's fields, so a field that is no
  // column is not an error. One close to a column (a changed case, a trailing space, a typo) is
  // likely a slip, and a dry run, whose fields are the columns, would stop on it: said, not refused.
  if (!opts.engine && !facts.fields && !facts.suggestedFields && facts.columns) {
    const from = facts.columns.from;
    const known = [...suggestedFieldsKept({ names: facts.columns.names, from, byColumn: facts.columns.names.map((c) => [c, c]) }, config.mapping),
      ...mapping.map(([, f]) => f).filter((f): f is string => f !== null)];
    const knownSet = new Set(known);
    eachFieldNamed(config, (path, name, section) => {
      // A column the mapping sends elsewhere is checkJobFile's error (noColumnGives).
      if (knownSet.has(name) || Object.hasOwn(config.mapping ?? {}, name)) return;
      const near = suggestKey(name, known) ?? known.find((k) => invisibleDifference(name, k, from) !== undefined);
      if (near === undefined) return;
      const invisible = invisibleDifference(name, near, from);
      const meant = invisible ? `it looks like "${near}" there but ${invisible}: copy the name from ${from}` : `if "${near}" is meant, write that`;
      at(path, `${section} names the field "${name}", which is not a column of ${from} and no column is mapped to it in config.mapping, so a dry run would stop on it; ${meant}, or, if the pipeline's field really is "${name}", map the column to it under config.mapping (${yamlKey(near)}: ${yamlKey(name)}).`);
    });
  }

  if (!opts.engine) {
    const without = optionalFieldsWithoutColumn(job, facts);
    eachFieldNamed(config, (path, name, section) => {
      if (!without.has(name) || section === 'config.combining' || section === 'config.dataTypes' || section.startsWith('config.pivot')) return;
      // A conversion from null to null is no rule: the engine skips it without looking for the field.
      if (section === 'config.units' && getOwn(config.units, name)?.from === null) return;
      at(path, noColumnForOptional(section, name, 'the rule is skipped'));
    });
  }
  return warnings.sort((a, b) => a.line - b.line || a.col - b.col);
}

/**
 * The suggested fields that still have a column once the job file's mapping applies: a column the
 * file maps elsewhere (or to null) takes its suggested field with it (`Country: nation` leaves no
 * field `Country` under identity suggestions).
 */
function suggestedFieldsKept(suggested: NonNullable<KnownFacts['suggestedFields']>, mapping: JobFile['config']['mapping']): string[] {
  if (!suggested.byColumn || !mapping) return suggested.names;
  const kept = new Set<string>();
  for (const [column, field] of suggested.byColumn) {
    if (!Object.hasOwn(mapping, column) || mapping[column] === field) kept.add(field);
  }
  return suggested.names.filter((f) => kept.has(f));
}

/**
 * The key path, in the job file, of the rule an engine step's message is about (RuleSubject), when
 * the job file configures it: the engine knows rules by field, the job file by line.
 */
export function rulePath(job: JobFile, rule: RuleSubject): (string | number)[] | undefined {
  const { config, schema } = job;
  const f = rule.field;
  switch (rule.step) {
    case 'text':
      if (getOwn(config.text?.regexReplacement, f) !== undefined) return ['config', 'text', 'regexReplacement', f];
      return getOwn(config.text?.casing, f) !== undefined ? ['config', 'text', 'casing', f] : undefined;
    case 'impute':
      if (getOwn(config.impute, f) !== undefined) return ['config', 'impute', f];
      return getOwn(schema?.imputeMethods, f) !== undefined ? ['schema', 'imputeMethods', f] : undefined;
    case 'units':
      return getOwn(config.units, f) !== undefined ? ['config', 'units', f] : undefined;
    case 'drop-rows': {
      // Preset rules are the schema's, additional ones the job file's, each in written order.
      const fields = rule.isPreset ? schema?.rowDropping[rule.rule]?.methodConfig.fields : config.rowDropping?.[rule.rule]?.fields;
      return fields?.[rule.at] === f ? [rule.isPreset ? 'schema' : 'config', 'rowDropping', rule.rule, 'fields', rule.at] : undefined;
    }
    case 'pivot':
      return config.pivot?.[rule.role]?.[rule.at] === f ? ['config', 'pivot', rule.role, rule.at] : undefined;
  }
}

/** `file:line:col` of the rule a step's message is about, for the engine's `locate` (undefined when the job file does not configure it). */
export function ruleLocator(job: JobFile, displayPath: string): (rule: RuleSubject) => string | undefined {
  return (rule) => {
    const path = rulePath(job, rule);
    const pos = path && job.positionOf(path);
    return pos ? `${displayPath}:${pos.line}:${pos.col}` : undefined;
  };
}

/** A required field with no column after the job file's mapping, and a line that would give it one. */
export interface EmptyField { field: string; suggestion: string }

/**
 * Required fields (expected and not optional) that no column is mapped to in the configuration
 * about to be applied: the engine would write them as empty columns in every row.
 */
export function requiredFieldsWithoutColumn(desired: Required<JobConfig>, fields: FieldsRead): EmptyField[] {
  const mapped = new Set<string>();
  const mappedColumns = new Set<string>();
  for (const [, columns] of entriesInOrder(desired.fields.columnFieldMapping)) {
    for (const [column, m] of entriesInOrder(columns)) { mapped.add(m.field); mappedColumns.add(column); }
  }
  const optional = new Set(fields.optionalFields ?? []);
  const free = (fields.inputColumns ?? []).filter((c) => !mappedColumns.has(c));
  return (fields.expectedFields ?? []).filter((f) => !optional.has(f) && !mapped.has(f)).map((field) => {
    const column = (free.length <= 2000 ? suggestKey(field, free) : undefined) ?? free[0] ?? '<column>';
    return { field, suggestion: `${yamlKey(column)}: ${yamlKey(field)}` };
  });
}

/**
 * A name as YAML writes it (a key, or a text value), quoted when it needs to be: in single quotes,
 * so a hint that shows it inside double quotes (`e.g. "'Notes (internal)': notes"`) does not
 * double them; in double quotes only for what single quotes cannot hold (control characters).
 */
export function yamlKey(name: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_ -]*$/.test(name) && !/\s$/.test(name)) return name;
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f]/.test(name) ? JSON.stringify(name) : `'${name.replace(/'/g, "''")}'`;
}


/**
 * "did you mean X?" when a known name is close, else the fix given (no hint among very many names:
 * it would cost too much). A known name that looks the same (it differs in Unicode normalisation,
 * or has a non-breaking space) is named with what differs, since "did you mean" the same-looking
 * name would leave the user nothing to see.
 */
function fix(name: string, known: string[], otherwise: string, from?: string): string {
  if (known.length > 2000) return `${otherwise}.`;
  if (from !== undefined && /[^\x20-\x7e]/.test(name + known.join(''))) {
    for (const candidate of known) {
      const difference = invisibleDifference(name, candidate, from);
      if (difference) return `it looks like "${candidate}" there but ${difference}; copy the name from ${from}.`;
    }
  }
  const hint = suggestKey(name, known);
  return hint !== undefined ? `did you mean "${hint}"?` : `${otherwise}.`;
}
