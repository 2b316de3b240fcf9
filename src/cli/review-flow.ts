/**
 * The interactive review (`import review`, `import run --interactive`): walks a person through
 * the mapping, column by column with the lowest confidence first, then the data types and the
 * other suggestions under the confidence bar, and returns the choices as a job-file `config`
 * fragment that `saveChoices` can write back and `run` can lay over the job file.
 */
import { basename } from 'node:path';
import { DATA_TYPES, isUnderBar, type DataType, type JobResources } from '../contract/index.js';
import { getOwn, setOwn } from '../contract/json.js';
import { isMissing } from '../engine/missing.js';
import type { InputMetadata } from '../engine/pipeline.js';
import { SAMPLE_ROWS, type InputSource } from '../engine/types.js';
import { ReviewRequiredError, UsageError } from '../errors.js';
import { effectivePins, sameValue } from '../jobfile/translate.js';
import type { JobFile, JobFileConfig } from '../jobfile/types.js';
import type { IO } from './io.js';
import type { JobInputDeps } from './job-input.js';
import type { PromptChoice, Prompter } from './prompter.js';

/** What the review shows about one input column. */
export interface ColumnStats {
  /** The first few distinct values that are not missing, as written in the input. */
  values: string[];
  /** Missing values among the rows considered. */
  missing: number;
  /** Distinct non-missing values / rows considered (the start-webhook metadata's `uniqueRatio`). */
  uniqueRatio: number;
}

/** Sample values and statistics per input column, read from the job's local input. */
export interface ColumnSamples {
  /** Rows the statistics cover. */
  rows: number;
  /** True when the input has more rows than were read (the statistics cover the first `rows`). */
  capped: boolean;
  columns: Record<string, ColumnStats>;
  /** Why there are no samples (e.g. a Google Sheets input), shown once. */
  note?: string;
}

/**
 * A setting of the job file the save removes because it names a field the analyst's mapping no
 * longer gives (and the pipeline does not list): kept, it would stop the next run.
 */
export interface RemovedSetting { path: string[]; before: unknown; /** Why, as a clause: `not a column of dec.csv`. */ why: string }

/** The review's answer: a job-file `config` fragment, plus the settings to remove. */
export type ReviewChoices = JobFileConfig & { removed?: RemovedSetting[] };

/** Options of the walk. */
export interface ReviewFlowOptions {
  /** The confidence bar (`--min-confidence` or `review.minConfidence`); none: only the mapping is walked. */
  minConfidence?: number;
  /** Mask sample values (`--redact`, see `redactValue`). */
  redact: boolean;
  /** Ask about every data type and every other suggestion, not only those under the bar (`--all`). */
  all?: boolean;
  /**
   * Suggestions and samples for another sheet, when the person picks one; without it, picking
   * another sheet stops with a UsageError asking to pin `config.sheet` and review again.
   */
  reload?: (sheet: string) => Promise<{ resources: JobResources; samples: ColumnSamples }>;
}

// A sample value longer than this is cut, so one long note cannot push the prompt off screen.
const SAMPLE_WIDTH = 32;

/**
 * Reads up to `perColumn` distinct sample values per column from the job's local input, with
 * the missing count and unique ratio over the first SAMPLE_ROWS rows (the engine's own sample,
 * with its definition of missing). A Google Sheet is read from its link (once per process); when that
 * fails, the samples are empty with a note saying why.
 */
export async function readColumnSamples(job: JobFile, sheet?: string, perColumn = 5, deps?: JobInputDeps): Promise<ColumnSamples> {
  const { openJobInput } = await import('./job-input.js');
  let source: InputSource;
  try {
    source = await openJobInput(job, deps);
  } catch (error) {
    // A Google Sheet the service can read but this machine cannot (network, sharing) still gets its review, without samples.
    if (!job.input.googleSheet) throw error;
    return { rows: 0, capped: false, columns: {}, note: `no sample values: ${(error as Error).message}` };
  }
  let chosen = sheet;
  if (chosen === undefined) chosen = (await source.sheets())?.[0]?.name;
  const table = await source.open({ sheet: chosen, lenient: true });
  const width = table.columns.length;
  const values = table.columns.map(() => new Set<string>());
  const missing = new Array<number>(width).fill(0);
  const distinct = table.columns.map(() => new Set<string>());
  let rows = 0;
  let capped = false;
  outer: for await (const batch of table.batches) {
    for (const row of batch.rows) {
      if (rows === SAMPLE_ROWS) { capped = true; break outer; }
      rows++;
      for (let c = 0; c < width; c++) {
        const value = row[c];
        if (isMissing(value)) { missing[c]++; continue; }
        const text = typeof value === 'string' ? value : String(value);
        distinct[c].add(text);
        if (values[c].size < perColumn) values[c].add(text);
      }
    }
  }
  const columns: Record<string, ColumnStats> = {};
  table.columns.forEach((column, c) => {
    if (Object.hasOwn(columns, column)) return;
    setOwn(columns, column, {
      values: [...values[c]],
      missing: missing[c],
      uniqueRatio: rows === 0 ? 0 : Math.round((distinct[c].size / rows) * 10_000) / 10_000,
    });
  });
  return { rows, capped, columns };
}

/**
 * Lays the engine's start metadata (dry run) over the samples: its missing counts and unique
 * ratios win, and columns made by preColumnMapping scripts get statistics without samples.
 * `full` is the job's useFullData: the metadata then covers every row, else the first SAMPLE_ROWS.
 */
export function withMetadata(samples: ColumnSamples, metadata: InputMetadata, full = false): ColumnSamples {
  const [source] = Object.keys(metadata.uniqueRatio);
  if (source === undefined) return samples;
  const ratios = metadata.uniqueRatio[source] ?? {};
  const missing = metadata.missingRowIndices[source] ?? {};
  const columns: Record<string, ColumnStats> = { ...samples.columns };
  for (const [column, uniqueRatio] of Object.entries(ratios)) {
    columns[column] = { values: samples.columns[column]?.values ?? [], missing: missing[column]?.length ?? 0, uniqueRatio };
  }
  const total = metadata.dataLength[source] ?? samples.rows;
  const rows = full ? total : Math.min(total, SAMPLE_ROWS);
  return { ...samples, rows, capped: rows < total, columns };
}

/**
 * A sample value as `--redact` shows it: the first character kept and the rest replaced by a
 * run of `*` that gives only the length class (4–8 characters: 3 stars, 9–16: 6, longer: 9).
 * Values of 3 characters or fewer are fully masked (`***`), since one character would be a third of them.
 */
export function redactValue(value: string): string {
  const chars = [...value];
  if (chars.length <= 3) return '***';
  const stars = chars.length <= 8 ? 3 : chars.length <= 16 ? 6 : 9;
  return chars[0] + '*'.repeat(stars);
}

/** How one sample value is shown: quoted, cut to a width, masked with `redact`. */
export function showSample(value: string, redact: boolean): string {
  const shown = redact ? redactValue(value) : value;
  const chars = [...shown];
  const cut = chars.length > SAMPLE_WIDTH ? chars.slice(0, SAMPLE_WIDTH - 1).join('') + '…' : shown;
  return JSON.stringify(cut);
}

/** One input column as the walk sees it: its suggestion and whether the job file pins it. */
export interface ColumnState {
  column: string;
  suggested?: { field: string; confidence?: number };
  pinned: boolean;
  /** The pinned field (null = pinned unmapped); only when `pinned`. */
  pinnedField?: string | null;
  /** Sort key: the suggestion's confidence, 0 for a column with no suggestion. */
  confidence: number;
}

/**
 * The columns in the order they are asked: lowest confidence first (no suggestion counts as 0),
 * columns the job file already pins after all the others; ties keep the input order.
 */
export function reviewOrder(job: JobFile, resources: JobResources): ColumnState[] {
  const suggested = suggestedMapping(resources);
  const pins = job.config.mapping ?? {};
  const columns = [...new Set(resources.fields.inputColumns ?? [])];
  const states = columns.map((column): ColumnState => {
    const s = suggested.get(column);
    const pinned = Object.hasOwn(pins, column);
    return {
      column, suggested: s, pinned, pinnedField: pinned ? pins[column] : undefined,
      confidence: s?.confidence ?? 0,
    };
  });
  // Array.prototype.sort is stable, so equal keys keep the input order.
  return states.sort((a, b) => Number(a.pinned) - Number(b.pinned) || a.confidence - b.confidence);
}

/**
 * Walks the review and returns the choices as a job-file `config` fragment: `mapping` for every
 * input column (a field, or null for unmapped), `dataTypes` for each mapped field that was asked
 * (not pinned and under the bar, or mapped by hand so no type was suggested for it; all with
 * `all`), and `sheet` / `impute` for suggestions under the bar. Ctrl-C rejects with CancelledError.
 */
export async function reviewChoices(
  job: JobFile, resources: JobResources, samples: ColumnSamples, prompter: Prompter, io: IO, opts: ReviewFlowOptions,
): Promise<ReviewChoices> {
  const choices: ReviewChoices = {};
  const under = (confidence: number | undefined) => isUnderBar(confidence, opts.minConfidence);
  const file = basename(job.path);

  // 1. The sheet first: it decides which columns there are.
  const selection = resources.sheet?.sheetSelection;
  if (selection && selection.sheets.length > 1 && job.config.sheet === undefined && (opts.all || under(selection.confidence))) {
    io.status(`\nSheet: suggested ${selection.selected} (confidence ${conf(selection.confidence)})`);
    const sheet = await prompter.select('Sheet to import', selection.sheets.map((name) => ({
      value: name, name: name === selection.selected ? `${name} (suggested, ${conf(selection.confidence)})` : name,
    })), { default: selection.selected });
    choices.sheet = sheet;
    if (sheet !== selection.selected) {
      if (!opts.reload) {
        throw new UsageError(`Sheet "${sheet}" needs its own review; set config.sheet: ${sheet} in ${file} and run the review again.`);
      }
      ({ resources, samples } = await opts.reload(sheet));
    }
  }

  // 2. Pins of columns the input no longer has (next month's export renamed one): validate and
  // run stop on them, so the analyst drops each here, then maps its field to a column below.
  const removed: RemovedSetting[] = [];
  const inputColumns = new Set(resources.fields.inputColumns ?? []);
  const inputName = job.input.file ? basename(job.input.file) : job.input.rowsFile ? basename(job.input.rowsFile) : 'the input';
  const stale = inputColumns.size ? Object.entries(job.config.mapping ?? {}).filter(([column]) => !inputColumns.has(column)) : [];
  for (const [column, field] of stale) {
    io.status(`\nPinned in ${file}: "${column}: ${field ?? 'null'}", but ${inputName} has no column "${column}".`);
    const answer = await prompter.select(`Pinned column "${column}"`, [
      { value: 'drop', name: field === null ? `Remove the line from ${file}` : `Remove the line from ${file} (and choose the column for ${field} below)` },
      { value: 'stop', name: `Stop the review, to fix ${file} by hand` },
    ], { default: 'drop' });
    if (answer === 'stop') throw new ReviewRequiredError(`Review stopped; nothing was saved. Rename or remove "${column}" under config.mapping in ${file}, then review again.`);
    removed.push({ path: ['config', 'mapping', column], before: field, why: `not a column of ${inputName}` });
  }
  if (stale.length) job = { ...job, config: { ...job.config, mapping: effectivePins(job.config, resources) } };

  // 3. The mapping: every input column, lowest confidence first.
  if (samples.note) io.status(`(${samples.note})`);
  const order = reviewOrder(job, resources);
  const fields = fieldList(resources);
  const mapping: Record<string, string | null> = {};
  // Fields the analyst agreed to fill from several columns in this review, with how to join them.
  const joined = new Map<string, Join>();
  const canCombine = job.config.allowColumnCombining === true;
  for (const [i, state] of order.entries()) {
    io.status(describeColumn(state, i, order.length, samples, opts.redact, file));
    for (;;) {
      const field = await askMapping(state, fields, mapping, prompter);
      const others = field === null ? [] : columnsOf(mapping, field);
      // Two columns for one field is column combining: validate and run refuse it unless the file
      // allows it, so it is a choice the analyst confirms here (and the save writes), never a side effect.
      if (field === null || others.length === 0 || canCombine || joined.has(field)) {
        setOwn(mapping, state.column, field);
        break;
      }
      const join = await askJoin(field, [...others, state.column], prompter, io);
      if (join) {
        joined.set(field, join);
        setOwn(mapping, state.column, field);
        break;
      }
      io.status(`"${field}" stays with ${others.join(', ')}; choose another field for "${state.column}", or leave it unmapped.`);
    }
  }
  if (order.length) choices.mapping = mapping;
  Object.assign(choices, combiningChoices(job.config, mapping, joined));
  removed.push(...orphanedSettings(job, resources, mapping, stale));
  if (removed.length) choices.removed = removed;

  // 4. Data types of the mapped fields.
  const dataTypes = await askDataTypes(job, resources, mapping, prompter, io, opts, under);
  if (Object.keys(dataTypes).length) choices.dataTypes = dataTypes;

  // 5. Other suggestions under the bar: impute methods of mapped fields.
  const impute = await askImpute(job, resources, mapping, prompter, io, opts, under);
  if (Object.keys(impute).length) choices.impute = impute;
  return choices;
}

/** The walk, a summary of what changes in the job file, and a final yes/no; declined → ReviewRequiredError (exit 5). */
export async function reviewAndConfirm(
  job: JobFile, resources: JobResources, samples: ColumnSamples, prompter: Prompter, io: IO,
  opts: ReviewFlowOptions & { question: string },
): Promise<ReviewChoices> {
  const choices = await reviewChoices(job, resources, samples, prompter, io, opts);
  io.status(`\n${formatChoices(job, choices)}`);
  if (!(await prompter.confirm(opts.question, { default: true }))) {
    throw new ReviewRequiredError('Review declined; nothing was saved or run.');
  }
  return choices;
}

/** The job file's config with the review's choices laid over it, removed settings gone (what `run --interactive` applies). */
export function mergeChoices(config: JobFileConfig, choices: ReviewChoices): JobFileConfig {
  const merged: JobFileConfig = { ...config };
  if (choices.sheet !== undefined) merged.sheet = choices.sheet;
  if (choices.mapping) merged.mapping = { ...config.mapping, ...choices.mapping };
  if (choices.allowColumnCombining !== undefined) merged.allowColumnCombining = choices.allowColumnCombining;
  if (choices.combining) merged.combining = { ...config.combining, ...choices.combining };
  if (choices.dataTypes) merged.dataTypes = { ...config.dataTypes, ...choices.dataTypes };
  if (choices.impute) merged.impute = { ...config.impute, ...choices.impute };
  const droppedRules = new Set<number>();
  for (const { path } of choices.removed ?? []) {
    // path is ['config', section, field], ['config', 'text', casing|regexReplacement, field],
    // ['config', 'pivot'] or ['config', 'rowDropping', index].
    if (path[1] === 'pivot') {
      delete merged.pivot;
    } else if (path[1] === 'rowDropping') {
      droppedRules.add(Number(path[2]));
    } else if (path[1] === 'text') {
      const sub = path[2] as 'casing' | 'regexReplacement';
      const rest: Record<string, unknown> = { ...merged.text?.[sub] };
      delete rest[path[3]];
      merged.text = { ...merged.text, [sub]: rest };
    } else {
      const section = path[1] as 'mapping' | 'dataTypes' | 'units' | 'impute' | 'combining';
      const rest: Record<string, unknown> = { ...merged[section] };
      delete rest[path[2]];
      Object.assign(merged, { [section]: rest });
    }
  }
  // The rules left, as a list: an empty one still says "no additional rules", as the save writes it.
  if (droppedRules.size) merged.rowDropping = (config.rowDropping ?? []).filter((_, i) => !droppedRules.has(i));
  return merged;
}

/** One choice compared with the job file: `+` newly pinned, `~` changed, `=` already so. */
export interface ChoiceChange { section: 'sheet' | 'mapping' | 'allowColumnCombining' | 'combining' | 'dataTypes' | 'impute'; key: string; marker: '+' | '~' | '='; before?: unknown; after: unknown }

/** Each choice compared with what the job file pins. */
export function choiceChanges(config: JobFileConfig, choices: JobFileConfig): ChoiceChange[] {
  const changes: ChoiceChange[] = [];
  const compare = (section: ChoiceChange['section'], key: string, has: boolean, before: unknown, after: unknown) => {
    changes.push({ section, key, marker: !has ? '+' : sameValue(before, after) ? '=' : '~', before: has ? before : undefined, after });
  };
  if (choices.sheet !== undefined) compare('sheet', 'sheet', config.sheet !== undefined, config.sheet, choices.sheet);
  if (choices.allowColumnCombining !== undefined) {
    compare('allowColumnCombining', 'allowColumnCombining', config.allowColumnCombining !== undefined, config.allowColumnCombining, choices.allowColumnCombining);
  }
  for (const section of ['mapping', 'combining', 'dataTypes', 'impute'] as const) {
    const pinned = (config[section] ?? {}) as Record<string, unknown>;
    for (const [key, value] of Object.entries(choices[section] ?? {})) compare(section, key, Object.hasOwn(pinned, key), pinned[key], value);
  }
  return changes;
}

/** The choices that differ from what the job file pins (`+` and `~` of `choiceChanges`): what a save writes. */
export function changedChoices(config: JobFileConfig, choices: ReviewChoices): ReviewChoices {
  const out: ReviewChoices = choices.removed ? { removed: choices.removed } : {};
  for (const c of choiceChanges(config, choices)) {
    if (c.marker === '=') continue;
    if (c.section === 'sheet') { out.sheet = c.after as string; continue; }
    if (c.section === 'allowColumnCombining') { out.allowColumnCombining = c.after as boolean; continue; }
    const section = (out[c.section] ??= {}) as Record<string, unknown>;
    setOwn(section, c.key, c.after);
  }
  return out;
}

/** The summary shown before the final confirmation: what the choices change in the job file. */
export function formatChoices(job: JobFile, choices: JobFileConfig): string {
  const file = basename(job.path);
  const changes = choiceChanges(job.config, choices);
  const changed = changes.filter((c) => c.marker !== '=');
  const same = changes.length - changed.length;
  const removed = (choices as ReviewChoices).removed ?? [];
  if (changed.length === 0 && removed.length === 0) return `Your choices match ${file}: nothing to change (${same} already pinned).`;
  const lines = [`Your choices (+ newly pinned, ~ changed) for ${file}:`];
  let section = '';
  for (const c of changed) {
    if (c.section !== section) { section = c.section; lines.push(`  ${section}:`); }
    const text = c.marker === '~' ? `${showChoice(c.before)} -> ${showChoice(c.after)}` : showChoice(c.after);
    lines.push(`    ${c.marker} ${c.key}: ${text}`);
  }
  if (removed.length) {
    lines.push('  removed (the next run would stop on each):');
    for (const r of removed) lines.push(`    - ${settingName(r.path)}: ${showChoice(r.before)} (${r.why})`);
  }
  if (same) lines.push(`  (${same} already pinned in ${file}, unchanged)`);
  return lines.join('\n');
}

// ---- the questions ----

type FieldEntry = { field: string; optional: boolean };

/** Expected fields, then optional fields not among them: the searchable list. */
function fieldList(resources: JobResources): FieldEntry[] {
  const optional = new Set(resources.fields.optionalFields ?? []);
  const names = [...new Set([...(resources.fields.expectedFields ?? []), ...optional])];
  return names.map((field) => ({ field, optional: optional.has(field) }));
}

function suggestedMapping(resources: JobResources): Map<string, { field: string; confidence?: number }> {
  const map = new Map<string, { field: string; confidence?: number }>();
  for (const columns of Object.values(resources.fields.columnFieldMapping ?? {})) {
    for (const [column, m] of Object.entries(columns ?? {})) if (m && typeof m.field === 'string') map.set(column, m);
  }
  return map;
}

function describeColumn(state: ColumnState, i: number, n: number, samples: ColumnSamples, redact: boolean, file: string): string {
  const stats = samples.columns[state.column];
  const lines = [`\nColumn ${i + 1} of ${n}: ${state.column}`];
  if (stats) {
    if (stats.values.length) lines.push(`  samples:    ${stats.values.map((v) => showSample(v, redact)).join(', ')}`);
    else if (!samples.note) lines.push('  samples:    (every value is missing)');
    const rows = samples.capped ? `the first ${samples.rows} rows` : `${samples.rows} row${samples.rows === 1 ? '' : 's'}`;
    lines.push(`  missing:    ${stats.missing} of ${rows}; unique ratio ${stats.uniqueRatio.toFixed(2)}`);
  }
  lines.push(`  suggested:  ${state.suggested ? `${state.suggested.field} (confidence ${conf(state.suggested.confidence)})` : '(no field)'}`);
  if (state.pinned) lines.push(`  pinned:     ${state.pinnedField ?? '(unmapped)'} in ${file}`);
  return lines.join('\n');
}

type MappingAnswer = 'keep' | 'accept' | 'other' | 'unmapped';

/**
 * The job file's settings (data types, units, impute, combining, text rules) that name a field
 * some column gave before the review (a pin, else the suggestion) and none gives after it, when
 * the pipeline does not list that field either: the run would stop on them ("no column gives").
 */
function orphanedSettings(job: JobFile, resources: JobResources, mapping: Record<string, string | null>, stalePins: [string, string | null][]): RemovedSetting[] {
  const pins = job.config.mapping ?? {};
  const suggested = suggestedMapping(resources);
  const before = new Set<string>(stalePins.map(([, f]) => f).filter((f): f is string => f !== null));
  for (const column of resources.fields.inputColumns ?? []) {
    const field = Object.hasOwn(pins, column) ? pins[column] : suggested.get(column)?.field;
    if (typeof field === 'string') before.add(field);
  }
  for (const field of Object.values(pins)) if (field !== null) before.add(field);
  const after = new Set(Object.values({ ...pins, ...mapping }).filter((f): f is string => f !== null));
  const listed = new Set(fieldList(resources).map((f) => f.field));
  const gone = (field: string) => before.has(field) && !after.has(field) && !listed.has(field);
  const out: RemovedSetting[] = [];
  const config = job.config;
  for (const section of ['combining', 'dataTypes', 'units', 'impute'] as const) {
    for (const [field, value] of Object.entries(config[section] ?? {})) if (gone(field)) out.push({ path: ['config', section, field], before: value, why: `no column gives "${field}" now` });
  }
  for (const sub of ['regexReplacement', 'casing'] as const) {
    for (const [field, value] of Object.entries(config.text?.[sub] ?? {})) {
      if (gone(field)) out.push({ path: ['config', 'text', sub, field], before: value instanceof Map ? Object.fromEntries(value) : value, why: `no column gives "${field}" now` });
    }
  }
  // A pivot or a row-dropping rule with one of its fields gone cannot run, and without that field
  // it would be another table or another rule: each goes whole, and the summary says so.
  const pivot = config.pivot;
  const pivotGone = pivot && [...pivot.indexColumns, ...pivot.pivotColumns, ...pivot.valueColumns].find(gone);
  if (pivot && pivotGone !== undefined) out.push({ path: ['config', 'pivot'], before: pivot, why: `no column gives "${pivotGone}" now` });
  (config.rowDropping ?? []).forEach((rule, i) => {
    const field = rule.fields.find(gone);
    if (field !== undefined) out.push({ path: ['config', 'rowDropping', String(i)], before: rule, why: `no column gives "${field}" now` });
  });
  return out;
}

/** A removed setting as the summary names it: `dataTypes.notes`, `text.casing.notes`, `rowDropping[1]`. */
function settingName(path: string[]): string {
  return path[1] === 'rowDropping' && path.length === 3 ? `rowDropping[${path[2]}]` : path.slice(1).join('.');
}

/** How the values of combined columns are joined: `stringAppend` with a separator, or `json`. */
type Join = { method: 'stringAppend'; separator: string } | { method: 'json' };

/** The columns the mapping so far gives `field`, in the order they were chosen. */
function columnsOf(mapping: Record<string, string | null>, field: string): string[] {
  return Object.entries(mapping).filter(([, f]) => f === field).map(([column]) => column);
}

/** Asks whether `columns` (all mapped to `field`) are to be combined, and how; undefined when not. */
async function askJoin(field: string, columns: string[], prompter: Prompter, io: IO): Promise<Join | undefined> {
  const last = columns[columns.length - 1];
  io.status(`"${field}" already comes from ${columns.slice(0, -1).join(', ')}: a second column for it means combining the columns' values.`);
  const answer = await prompter.select<Join | 'no'>(`Combine ${columns.join(' + ')} into ${field}?`, [
    { value: 'no', name: `No: choose another field for "${last}"` },
    { value: { method: 'stringAppend', separator: ' ' }, name: 'Yes, joined with a space ("a b")' },
    { value: { method: 'stringAppend', separator: '' }, name: 'Yes, joined with nothing between ("ab")' },
    { value: { method: 'stringAppend', separator: ', ' }, name: 'Yes, joined with a comma and a space ("a, b")' },
    { value: { method: 'json' }, name: 'Yes, as a JSON object of the columns ({"col": "a", ...})' },
  ], { default: 'no' });
  return answer === 'no' ? undefined : answer;
}

/**
 * `allowColumnCombining` and `combining` entries that the mapping needs so that the saved file runs
 * what the analyst confirmed: each field combined in this review gets its method and an order
 * listing its columns in the order they were chosen; a field the file already combines gets its
 * order brought in line with the columns the mapping now gives it (the engine refuses any other).
 */
function combiningChoices(config: JobFileConfig, mapping: Record<string, string | null>, joined: Map<string, Join>): JobFileConfig {
  const out: JobFileConfig = {};
  const combining: NonNullable<JobFileConfig['combining']> = {};
  const finalMapping = { ...config.mapping, ...mapping };
  const columnsFor = (field: string) => columnsOf(finalMapping, field);
  for (const [field, join] of joined) {
    setOwn(combining, field, join.method === 'json' ? { method: 'json', order: columnsFor(field) } : { method: 'stringAppend', separator: join.separator, order: columnsFor(field) });
  }
  for (const [field, pinned] of Object.entries(config.combining ?? {})) {
    if (joined.has(field) || !pinned.order) continue;
    const columns = columnsFor(field);
    const order = [...pinned.order.filter((c) => columns.includes(c)), ...columns.filter((c) => !pinned.order!.includes(c))];
    if (order.length && !sameValue(order, pinned.order)) setOwn(combining, field, { ...pinned, order });
  }
  if (joined.size) out.allowColumnCombining = true;
  if (Object.keys(combining).length) out.combining = combining;
  return out;
}

async function askMapping(state: ColumnState, fields: FieldEntry[], chosen: Record<string, string | null>, prompter: Prompter): Promise<string | null> {
  const s = state.suggested;
  const current = state.pinned ? state.pinnedField ?? null : s?.field ?? null;
  const choices: PromptChoice<MappingAnswer>[] = [];
  if (state.pinned) {
    choices.push({ value: 'keep', name: current === null ? 'Keep unmapped (pinned)' : `Keep ${current} (pinned)` });
    if (s && s.field !== current) choices.push({ value: 'accept', name: `Use the suggestion ${s.field} (${conf(s.confidence)})` });
  } else if (s) {
    choices.push({ value: 'accept', name: `Accept ${s.field} (${conf(s.confidence)})` });
  } else {
    // No suggestion and no pin: the column stays unmapped unless someone picks a field.
    choices.push({ value: 'unmapped', name: 'Leave unmapped (no suggestion)' });
  }
  if (fields.length) choices.push({ value: 'other', name: current === null ? 'Choose a field…' : 'Choose another field…' });
  if (current !== null) choices.push({ value: 'unmapped', name: 'Leave unmapped' });
  const answer = await prompter.select(`Map "${state.column}" to`, choices, { default: choices[0].value });
  switch (answer) {
    case 'keep': return current;
    case 'accept': return s!.field;
    case 'unmapped': return null;
    case 'other': {
      const taken = new Map<string, string[]>();
      for (const [column, field] of Object.entries(chosen)) if (field !== null) taken.set(field, [...(taken.get(field) ?? []), column]);
      const list = fields.map(({ field, optional }): PromptChoice<string> => {
        const notes = [optional ? 'optional' : '', taken.has(field) ? `also from ${taken.get(field)!.join(', ')}` : '', field === s?.field ? `suggested ${conf(s.confidence)}` : '']
          .filter(Boolean);
        return { value: field, name: notes.length ? `${field} (${notes.join('; ')})` : field };
      });
      return prompter.search(`Field for "${state.column}" (type to filter)`, list);
    }
  }
}

async function askDataTypes(
  job: JobFile, resources: JobResources, mapping: Record<string, string | null>, prompter: Prompter, io: IO,
  opts: ReviewFlowOptions, under: (c: number | undefined) => boolean,
): Promise<Record<string, DataType>> {
  const suggestedColumns = new Map<string, string[]>();
  for (const [column, m] of suggestedMapping(resources)) suggestedColumns.set(m.field, [...(suggestedColumns.get(m.field) ?? []), column]);
  const chosenColumns = new Map<string, string[]>();
  for (const [column, field] of Object.entries(mapping)) if (field !== null) chosenColumns.set(field, [...(chosenColumns.get(field) ?? []), column]);

  const asked = [...chosenColumns].flatMap(([field, columns]) => {
    const pinned = job.config.dataTypes?.[field];
    // A type suggested for other columns than the ones now mapped says nothing about these.
    const fits = sameValue([...(suggestedColumns.get(field) ?? [])].sort(), [...columns].sort());
    const s = fits ? resources.dataTypes.fieldDataTypes?.[field] : undefined;
    const ask = opts.all || (pinned === undefined && (s === undefined || under(s.confidence)));
    return ask ? [{ field, columns, pinned, s }] : [];
  });
  // Like the columns: lowest confidence first (no suggestion counts as 0), ties in column order.
  asked.sort((a, b) => (a.s?.confidence ?? 0) - (b.s?.confidence ?? 0));

  const out: Record<string, DataType> = {};
  if (asked.length) io.status('\nData types');
  for (const { field, columns, pinned, s } of asked) {
    const expected = getOwn(resources.dataTypes.expectedFieldDataTypes, field);
    const current = pinned ?? s?.dataType ?? expected ?? 'rich_text';
    const label = (t: DataType) => {
      const notes: string[] = [];
      if (t === pinned) notes.push('pinned');
      if (t === s?.dataType) notes.push(`suggested, ${conf(s.confidence)}`);
      if (t === expected) notes.push('expected by the pipeline');
      return notes.length ? `${t} (${notes.join('; ')})` : t;
    };
    setOwn(out, field, await prompter.select(`Data type of "${field}" (from ${columns.join(', ')})`,
      DATA_TYPES.map((t) => ({ value: t, name: label(t) })), { default: current }));
  }
  return out;
}

type ImputeChoice = NonNullable<JobFileConfig['impute']>[string];

async function askImpute(
  job: JobFile, resources: JobResources, mapping: Record<string, string | null>, prompter: Prompter, io: IO,
  opts: ReviewFlowOptions, under: (c: number | undefined) => boolean,
): Promise<Record<string, ImputeChoice>> {
  const mapped = new Set(Object.values(mapping).filter((f): f is string => f !== null));
  const out: Record<string, ImputeChoice> = {};
  let first = true;
  for (const [field, s] of Object.entries(resources.impute.imputeMethods ?? {})) {
    if (!mapped.has(field) || getOwn(job.config.impute, field) !== undefined || !(opts.all || under(s.confidence))) continue;
    if (first) { io.status('\nMissing values'); first = false; }
    const suggested: ImputeChoice = s.imputeMethod === 'fill'
      ? { method: 'fill', value: s.imputeMethodConfig?.fillValue }
      : { method: s.imputeMethod };
    const options: PromptChoice<ImputeChoice>[] = [{ value: suggested, name: `Accept: ${describeImpute(suggested)} (${conf(s.confidence)})` }];
    if (s.imputeMethod !== null) options.push({ value: { method: null }, name: describeImpute({ method: null }) });
    if (s.imputeMethod !== 'dropMissing') options.push({ value: { method: 'dropMissing' }, name: describeImpute({ method: 'dropMissing' }) });
    setOwn(out, field, await prompter.select(`Missing values of "${field}"`, options, { default: suggested }));
  }
  return out;
}

function describeImpute(m: ImputeChoice): string {
  if (m.method === 'fill') return `fill with ${JSON.stringify(m.value)}`;
  if (m.method === 'dropMissing') return 'drop the rows where it is missing';
  return 'leave missing values as they are';
}

function showChoice(value: unknown): string {
  if (value === null) return '(unmapped)';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

function conf(confidence: number | undefined): string {
  return confidence?.toFixed(2) ?? 'unknown';
}
