/**
 * The diff between a job file's `config` and the suggestions (cli.md "Commands on a job file"):
 * one entry per resource and key with a marker. Used by `plan`, `run`, `dry-run` and `review`.
 */
import { isUnderBar, type JobResources } from '../contract/index.js';
import { entriesInOrder, getOwn, keysInOrder, stringifyJson } from '../contract/json.js';
import type { JobFileConfig } from './types.js';
import { combiningFromWire, currentBodies, desiredBodies, effectivePins, pivotFromWire, sameValue } from './translate.js';

/**
 * `=` the job file agrees with the suggestion; `~` it overrides it; `+` it adds what was not
 * suggested; `?` not pinned and under the confidence bar (needs review); ` ` not pinned, the
 * suggestion is accepted.
 */
export type DiffMarker = '=' | '~' | '+' | '?' | ' ';

/** One key of one resource. */
export interface DiffEntry {
  resource: 'sheet' | 'mapping' | 'combining' | 'dataTypes' | 'units' | 'impute' | 'pivot' | 'rowDropping' | 'text';
  key: string;
  marker: DiffMarker;
  suggested?: unknown;
  confidence?: number;
  desired?: unknown;
  /** A column the job file pins that the input does not have. */
  missingColumn?: boolean;
}

/** Compares the job file's config with the suggestions; `minConfidence` is the review bar, if any. */
export function diffConfig(config: JobFileConfig, resources: JobResources, minConfidence?: number): DiffEntry[] {
  const entries: DiffEntry[] = [];
  // A suggestion with no confidence is unknown: under any bar (contract `isUnderBar`).
  const unpinned = (confidence: number | undefined): DiffMarker => (isUnderBar(confidence, minConfidence) ? '?' : ' ');
  const pinned = (suggested: unknown, desired: unknown): DiffMarker =>
    suggested === undefined ? '+' : sameValue(suggested, desired) ? '=' : '~';

  if (resources.sheet) {
    const s = resources.sheet.sheetSelection;
    entries.push(config.sheet === undefined
      ? { resource: 'sheet', key: 'sheet', marker: unpinned(s.confidence), suggested: s.selected, confidence: s.confidence }
      : { resource: 'sheet', key: 'sheet', marker: pinned(s.selected, config.sheet), suggested: s.selected, confidence: s.confidence, desired: config.sheet });
  } else if (config.sheet !== undefined) {
    entries.push({ resource: 'sheet', key: 'sheet', marker: '+', desired: config.sheet });
  }

  const suggestedMapping = new Map<string, { field: string; confidence?: number }>();
  for (const columns of Object.values(resources.fields.columnFieldMapping ?? {})) {
    for (const [column, m] of entriesInOrder(columns)) suggestedMapping.set(column, m);
  }
  const inputColumns = new Set(resources.fields.inputColumns);
  // The pins that apply to this input, as the request bodies see them.
  const pinnedFields = new Set(Object.values(effectivePins(config, resources)).filter((f) => f !== null));
  const columns = [...new Set([...resources.fields.inputColumns, ...keysInOrder(config.mapping ?? {})])];
  for (const column of columns) {
    const s = suggestedMapping.get(column);
    const has = config.mapping !== undefined && Object.hasOwn(config.mapping, column);
    if (!has) {
      if (!s) continue;
      entries.push(pinnedFields.has(s.field) && !config.allowColumnCombining
        // The job file gives this field to another column: the suggestion gives way.
        ? { resource: 'mapping', key: column, marker: '~', suggested: s.field, confidence: s.confidence, desired: null }
        : { resource: 'mapping', key: column, marker: unpinned(s.confidence), suggested: s.field, confidence: s.confidence });
      continue;
    }
    if (inputColumns.size > 0 && !inputColumns.has(column)) {
      // The data changed under the job file: a pinned column is gone. Always a review, never guessed.
      entries.push({ resource: 'mapping', key: column, marker: '?', desired: config.mapping![column], missingColumn: true });
      continue;
    }
    const desired = config.mapping![column];
    const marker: DiffMarker = s ? (s.field === desired ? '=' : '~') : desired === null ? '=' : '+';
    entries.push({ resource: 'mapping', key: column, marker, suggested: s?.field ?? null, confidence: s?.confidence, desired });
  }

  for (const [field, t] of entriesInOrder(resources.dataTypes.fieldDataTypes ?? {})) {
    const desired = config.dataTypes?.[field];
    entries.push(desired === undefined
      ? { resource: 'dataTypes', key: field, marker: unpinned(t.confidence), suggested: t.dataType, confidence: t.confidence }
      : { resource: 'dataTypes', key: field, marker: pinned(t.dataType, desired), suggested: t.dataType, confidence: t.confidence, desired });
  }
  for (const [field, desired] of entriesInOrder(config.dataTypes ?? {})) {
    if (!resources.dataTypes.fieldDataTypes?.[field]) entries.push({ resource: 'dataTypes', key: field, marker: '+', desired });
  }

  // Combining and pivot are compared as the update bodies (the job file laid over the current
  // value, as `run` sends it), so the marker and the decision to update are one comparison;
  // both sides are shown in the job file's shape.
  const current = currentBodies(resources);
  const bodies = desiredBodies(config, resources);
  for (const field of keysInOrder(config.combining ?? {})) {
    const s = getOwn(current.combining.columnsBeingCombined, field);
    const d = getOwn(bodies.combining.columnsBeingCombined, field)!;
    entries.push({
      resource: 'combining', key: field, marker: s === undefined ? '+' : sameValue(s, d) ? '=' : '~',
      suggested: s === undefined ? undefined : combiningFromWire(s), desired: combiningFromWire(d),
    });
  }
  for (const [field, u] of entriesInOrder(config.units ?? {})) {
    const s = resources.units.fieldUnitConversions?.[field];
    entries.push({
      resource: 'units', key: field, marker: s ? pinned({ from: s.from, to: s.to }, u) : '+',
      suggested: s ? { from: s.from, to: s.to } : undefined, confidence: s?.confidence, desired: u,
    });
  }
  for (const [field, s] of entriesInOrder(resources.impute.imputeMethods ?? {})) {
    if (config.impute?.[field] === undefined) entries.push({ resource: 'impute', key: field, marker: unpinned(s.confidence), suggested: s.imputeMethod, confidence: s.confidence });
  }
  for (const [field, m] of entriesInOrder(config.impute ?? {})) {
    const s = resources.impute.imputeMethods?.[field];
    const suggested = s ? (s.imputeMethod === 'fill' ? { method: 'fill', value: s.imputeMethodConfig?.fillValue } : { method: s.imputeMethod }) : undefined;
    entries.push({ resource: 'impute', key: field, marker: pinned(suggested, m.method === 'fill' ? m : { method: m.method }), suggested, confidence: s?.confidence, desired: m });
  }
  if (config.pivot !== undefined) {
    const s = current.pivot.pivot;
    const d = bodies.pivot.pivot!;
    entries.push({
      resource: 'pivot', key: 'pivot', marker: s === null ? '+' : sameValue(s, d) ? '=' : '~',
      suggested: s === null ? undefined : pivotFromWire(s), desired: pivotFromWire(d),
    });
  }
  if (config.rowDropping !== undefined) {
    const s = (resources.rowDropping.additionalRowDroppingMethods ?? []).map((r) => ({ method: r.method, fields: r.methodConfig.fields }));
    entries.push({ resource: 'rowDropping', key: 'additional', marker: s.length ? pinned(s, config.rowDropping) : '+', suggested: s.length ? s : undefined, desired: config.rowDropping });
  }
  const text = resources.text.textProcessingMethods ?? {};
  for (const [field, rules] of entriesInOrder(config.text?.regexReplacement ?? {})) {
    const s = text.regexReplacement?.[field];
    entries.push({ resource: 'text', key: `regexReplacement.${field}`, marker: pinned(s, rules), suggested: s, desired: rules });
  }
  for (const [field, casing] of entriesInOrder(config.text?.casing ?? {})) {
    const s = text.casing?.[field];
    entries.push({ resource: 'text', key: `casing.${field}`, marker: pinned(s, casing), suggested: s, desired: casing });
  }
  return entries;
}

/** Entries that need review: unpinned suggestions under the bar. */
export function needsReview(entries: DiffEntry[]): DiffEntry[] {
  return entries.filter((e) => e.marker === '?');
}

/** Renders one value of a diff entry for people. */
export function showValue(value: unknown): string {
  if (value === null) return '(unmapped)';
  if (value === undefined) return '(none)';
  if (typeof value === 'string') return value;
  // stringifyJson: regular-expression rules are Maps (JSON.stringify would show {}), in written order.
  return stringifyJson(value);
}

/** The diff as text, one line per entry grouped by resource (`~ mapping  First: suggested x (0.62) -> y`). */
export function formatDiff(entries: DiffEntry[], opts: { showAccepted?: boolean } = {}): string {
  const lines: string[] = [];
  let resource = '';
  for (const e of entries) {
    if (e.marker === ' ' && !opts.showAccepted) continue;
    if (e.resource !== resource) { resource = e.resource; lines.push(`${resource}:`); }
    const conf = e.confidence !== undefined ? ` (${e.confidence.toFixed(2)})` : '';
    let text: string;
    switch (e.marker) {
      case '~': text = `suggested ${showValue(e.suggested)}${conf} -> ${showValue(e.desired)}`; break;
      case '+': text = showValue(e.desired); break;
      case '=': text = `${showValue(e.desired)}${conf}`; break;
      case '?': text = e.missingColumn ? `pinned to ${showValue(e.desired)} but the input has no such column` : `${showValue(e.suggested)}${conf} needs review`; break;
      default: text = `${showValue(e.suggested)}${conf}`;
    }
    lines.push(`  ${e.marker} ${e.key}: ${text}`);
  }
  return lines.join('\n');
}
