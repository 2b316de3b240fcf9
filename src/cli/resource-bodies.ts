/**
 * Update bodies for one resource at a time. `--data` bodies and flags both become a job file's
 * `config` fragment, and the complete update body always comes from `desiredBodies` in
 * jobfile/translate.ts: flags, `--data` and job files therefore produce identical bodies.
 */
import {
  AGGREGATION_METHODS, CASINGS, COMBINING_METHODS, DATA_TYPES, IMPUTE_METHODS, READ_ONLY_CASINGS, ROW_DROPPING_METHODS,
  type Casing, type JobConfig, type JobResources,
} from '../contract/index.js';
import { UsageError } from '../errors.js';
import { desiredBodies, type ResourceName } from '../jobfile/translate.js';
import type { JobFileConfig } from '../jobfile/types.js';
import { checkRegex, oneOf } from './flags.js';

/** Read bodies with nothing in them: the base a single resource's read is laid over. */
export function emptyResources(): JobResources {
  return {
    sheet: null,
    fields: { expectedFields: [], optionalFields: [], inputColumns: [], columnFieldMapping: {} },
    combining: { columnsBeingCombined: {} },
    dataTypes: { fieldDataTypes: {}, expectedFieldDataTypes: {} },
    units: { fieldUnitConversions: {}, expectedFieldUnits: {} },
    impute: { imputeMethods: {}, expectedImputeMethods: {} },
    pivot: { pivot: null },
    rowDropping: { presetRowDroppingMethods: [], additionalRowDroppingMethods: [] },
    text: { textProcessingMethods: {} },
    scripts: { preColumnMapping: [], postClean: [] },
  };
}

/** The read body of one resource with missing members filled with their empty value (a service may omit them). */
export function normalizeRead<K extends keyof JobResources>(name: K, read: unknown): NonNullable<JobResources[K]> {
  const empty = emptyResources();
  const base = (name === 'sheet' ? { sheetSelection: { selected: '', confidence: undefined, sheets: [] } } : empty[name]) as object;
  const value = read && typeof read === 'object' && !Array.isArray(read) ? read : {};
  return { ...base, ...value } as NonNullable<JobResources[K]>;
}

/** The complete update body of one resource: the current read with the fragment laid over it by `desiredBodies`. */
export function updateBody<K extends ResourceName>(name: K, fragment: JobFileConfig, current: NonNullable<JobResources[K]>): Required<JobConfig>[K] {
  const resources = emptyResources();
  (resources as unknown as Record<string, unknown>)[name] = current;
  return desiredBodies(fragment, resources)[name];
}

/** Lays `over` on `base`: maps merge key by key (per field for combining), lists and scalars are replaced. */
export function mergeFragments(base: JobFileConfig, over: JobFileConfig): JobFileConfig {
  const out: JobFileConfig = { ...base };
  if (over.sheet !== undefined) out.sheet = over.sheet;
  if (over.mapping !== undefined) out.mapping = { ...base.mapping, ...over.mapping };
  if (over.allowColumnCombining !== undefined) out.allowColumnCombining = over.allowColumnCombining;
  if (over.combining !== undefined) {
    out.combining = { ...base.combining };
    for (const [field, c] of Object.entries(over.combining)) out.combining[field] = { ...base.combining?.[field], ...c };
  }
  if (over.dataTypes !== undefined) out.dataTypes = { ...base.dataTypes, ...over.dataTypes };
  if (over.units !== undefined) out.units = { ...base.units, ...over.units };
  if (over.impute !== undefined) out.impute = { ...base.impute, ...over.impute };
  if (over.pivot !== undefined) out.pivot = over.pivot;
  if (over.rowDropping !== undefined) out.rowDropping = over.rowDropping;
  if (over.text !== undefined) {
    out.text = { ...base.text };
    if (over.text.regexReplacement) out.text.regexReplacement = { ...base.text?.regexReplacement, ...over.text.regexReplacement };
    if (over.text.casing) out.text.casing = { ...base.text?.casing, ...over.text.casing };
  }
  return out;
}

/** A `--data` body turned into a fragment; `clearPivot` says the body was `{"pivot": null}`. */
export interface DataFragment { config: JobFileConfig; clearPivot?: boolean; warnings: string[] }

/**
 * Converts a `--data` body (the seed's update shape; a read body is accepted too, its read-only
 * members ignored, so `get -o json` output can be edited and sent back) into a fragment,
 * validating every value. `where` names the source in messages (`--data`, `--data @body.json`).
 */
export function dataToFragment(name: ResourceName, data: unknown, where: string): DataFragment {
  const body = object(data, where);
  const warnings: string[] = [];
  const config: JobFileConfig = {};
  const allow = (update: string[], readOnly: string[]) => onlyKeys(body, update, readOnly, where);
  switch (name) {
    case 'sheet': {
      allow(['sheetSelection'], []);
      const selection = object(required(body, 'sheetSelection', where), `${where}: sheetSelection`);
      config.sheet = string(required(selection, 'selected', `${where}: sheetSelection`), `${where}: sheetSelection.selected`);
      break;
    }
    case 'fields': {
      allow(['columnFieldMapping', 'allowColumnCombining'], ['expectedFields', 'optionalFields', 'inputColumns']);
      if (body.columnFieldMapping !== undefined) config.mapping = mappingOf(body.columnFieldMapping, `${where}: columnFieldMapping`);
      if (body.allowColumnCombining !== undefined) config.allowColumnCombining = boolean(body.allowColumnCombining, `${where}: allowColumnCombining`);
      break;
    }
    case 'combining': {
      allow(['columnsBeingCombined'], []);
      config.combining = {};
      for (const [field, raw] of entries(required(body, 'columnsBeingCombined', where), `${where}: columnsBeingCombined`)) {
        const at = `${where}: columnsBeingCombined.${field}`;
        const c = object(raw, at);
        onlyKeys(c, ['method', 'methodConfig', 'combiningOrder'], [], at);
        const entry: NonNullable<JobFileConfig['combining']>[string] = {};
        if (c.method !== undefined && c.method !== null) entry.method = allowed(COMBINING_METHODS, c.method, `${at}.method`);
        if (c.methodConfig !== undefined && c.methodConfig !== null) {
          const mc = object(c.methodConfig, `${at}.methodConfig`);
          if (mc.separator !== undefined) entry.separator = string(mc.separator, `${at}.methodConfig.separator`);
        }
        if (c.combiningOrder !== undefined && c.combiningOrder !== null) entry.order = strings(c.combiningOrder, `${at}.combiningOrder`);
        config.combining[field] = entry;
      }
      break;
    }
    case 'dataTypes': {
      allow(['fieldDataTypes'], ['expectedFieldDataTypes']);
      config.dataTypes = {};
      for (const [field, raw] of entries(required(body, 'fieldDataTypes', where), `${where}: fieldDataTypes`)) {
        const at = `${where}: fieldDataTypes.${field}`;
        const dataType = typeof raw === 'string' ? raw : required(object(raw, at), 'dataType', at);
        config.dataTypes[field] = allowed(DATA_TYPES, dataType, `${at}.dataType`);
      }
      break;
    }
    case 'units': {
      allow(['fieldUnitConversions'], ['expectedFieldUnits']);
      config.units = {};
      for (const [field, raw] of entries(required(body, 'fieldUnitConversions', where), `${where}: fieldUnitConversions`)) {
        const at = `${where}: fieldUnitConversions.${field}`;
        const u = object(raw, at);
        const from = u.from === undefined || u.from === null ? null : string(u.from, `${at}.from`);
        const to = u.to === undefined || u.to === null ? null : string(u.to, `${at}.to`);
        // Seed rule 1: a conversion needs both; both null means none.
        if ((from === null) !== (to === null)) throw new UsageError(`${at}: "from" and "to" must both be set or both be null.`);
        config.units[field] = { from, to };
      }
      break;
    }
    case 'impute': {
      allow(['imputeMethods'], ['expectedImputeMethods']);
      config.impute = {};
      for (const [field, raw] of entries(required(body, 'imputeMethods', where), `${where}: imputeMethods`)) {
        const at = `${where}: imputeMethods.${field}`;
        const m = object(raw, at);
        onlyKeys(m, ['imputeMethod', 'imputeMethodConfig'], ['confidence'], at);
        const method = m.imputeMethod === null || m.imputeMethod === undefined ? null : allowed(IMPUTE_METHODS, m.imputeMethod, `${at}.imputeMethod`, 'null');
        if (method === 'fill') {
          const cfg = m.imputeMethodConfig === undefined ? {} : object(m.imputeMethodConfig, `${at}.imputeMethodConfig`);
          if (!('fillValue' in cfg)) throw new UsageError(`${at}: the fill method needs imputeMethodConfig.fillValue.`);
          config.impute[field] = { method, value: cfg.fillValue };
        } else {
          config.impute[field] = { method };
        }
      }
      break;
    }
    case 'pivot': {
      allow(['pivot'], []);
      const pivot = required(body, 'pivot', where);
      if (pivot === null) return { config, clearPivot: true, warnings };
      const p = object(pivot, `${where}: pivot`);
      onlyKeys(p, ['pivotColumns', 'valueColumns', 'indexColumns'], [], `${where}: pivot`);
      const names = (key: string) => {
        if (p[key] === undefined || p[key] === null) return undefined;
        const member = object(p[key], `${where}: pivot.${key}`);
        return strings(required(member, 'columnNames', `${where}: pivot.${key}`), `${where}: pivot.${key}.columnNames`);
      };
      const index = p.indexColumns && typeof p.indexColumns === 'object' ? (p.indexColumns as Record<string, unknown>) : {};
      if (index.aggregationMethod !== undefined && index.aggregationMethod !== null) {
        allowed(AGGREGATION_METHODS, index.aggregationMethod, `${where}: pivot.indexColumns.aggregationMethod`);
      }
      config.pivot = {
        pivotColumns: names('pivotColumns') ?? [],
        valueColumns: names('valueColumns') ?? [],
        indexColumns: names('indexColumns') ?? [],
        aggregationMethod: 'first',
      };
      break;
    }
    case 'rowDropping': {
      allow(['additionalRowDroppingMethods'], ['presetRowDroppingMethods']);
      const list = required(body, 'additionalRowDroppingMethods', where);
      if (!Array.isArray(list)) throw new UsageError(`${where}: additionalRowDroppingMethods must be a list of {method, methodConfig: {fields}}.`);
      config.rowDropping = list.map((raw, i) => {
        const at = `${where}: additionalRowDroppingMethods[${i}]`;
        const r = object(raw, at);
        onlyKeys(r, ['method', 'methodConfig'], ['confidence'], at);
        const method = allowed(ROW_DROPPING_METHODS, required(r, 'method', at), `${at}.method`);
        const mc = object(required(r, 'methodConfig', at), `${at}.methodConfig`);
        return { method, fields: strings(required(mc, 'fields', `${at}.methodConfig`), `${at}.methodConfig.fields`) };
      });
      break;
    }
    case 'text': {
      allow(['textProcessingMethods'], []);
      const t = object(required(body, 'textProcessingMethods', where), `${where}: textProcessingMethods`);
      onlyKeys(t, ['regexReplacement', 'casing'], [], `${where}: textProcessingMethods`);
      const text: NonNullable<JobFileConfig['text']> = {};
      if (t.regexReplacement !== undefined && t.regexReplacement !== null) {
        text.regexReplacement = {};
        for (const [field, raw] of entries(t.regexReplacement, `${where}: textProcessingMethods.regexReplacement`)) {
          const at = `${where}: textProcessingMethods.regexReplacement.${field}`;
          const rules = new Map<string, string>();
          for (const [pattern, replacement] of entries(raw, at)) {
            checkRegex(pattern, at);
            rules.set(pattern, string(replacement, `${at}["${pattern}"]`));
          }
          text.regexReplacement[field] = rules;
        }
      }
      if (t.casing !== undefined && t.casing !== null) {
        text.casing = {};
        for (const [field, raw] of entries(t.casing, `${where}: textProcessingMethods.casing`)) {
          const at = `${where}: textProcessingMethods.casing.${field}`;
          const readOnly = typeof raw === 'string' ? oneOf(READ_ONLY_CASINGS, raw) : undefined;
          if (readOnly) {
            warnings.push(`${at}: "${readOnly}" is not in the seed's list of supported casings (${CASINGS.join(', ')}); sending it anyway.`);
            text.casing[field] = readOnly;
          } else {
            text.casing[field] = allowed(CASINGS, raw, at) as Casing;
          }
        }
      }
      config.text = text;
      break;
    }
  }
  return { config, warnings };
}

/** A columnFieldMapping body (source -> column -> {field}, or column -> {field} with no source) as a flat mapping; null unmaps. */
function mappingOf(value: unknown, where: string): Record<string, string | null> {
  const mapping: Record<string, string | null> = {};
  const isEntry = (v: unknown) => v === null || (typeof v === 'object' && !Array.isArray(v) && 'field' in (v as object));
  const top = entries(value, where);
  // Seed: keyed by data source, then column. A body without the source level is accepted too.
  const flat = top.length > 0 && top.every(([, v]) => isEntry(v));
  const columns = flat ? top : top.flatMap(([source, v]) => entries(v, `${where}.${source}`).map(([c, m]) => [c, m, `${where}.${source}.${c}`] as const));
  for (const item of columns) {
    const [column, m] = item;
    const at = item.length === 3 ? item[2] : `${where}.${column}`;
    if (m === null) { mapping[column] = null; continue; }
    const entry = object(m, at);
    mapping[column] = entry.field === null ? null : string(required(entry, 'field', at), `${at}.field`);
  }
  return mapping;
}

// ---- small JSON checks, each with the path of the value in its message ----

function object(value: unknown, where: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError(`${where} must be a JSON object, not ${describe(value)}.`);
  }
  return value as Record<string, unknown>;
}

function entries(value: unknown, where: string): [string, unknown][] {
  return Object.entries(object(value, where));
}

function required(o: Record<string, unknown>, key: string, where: string): unknown {
  if (!(key in o)) throw new UsageError(`${where} has no "${key}"; see the seed's update body for this resource.`);
  return o[key];
}

function string(value: unknown, where: string): string {
  if (typeof value !== 'string') throw new UsageError(`${where} must be a string, not ${describe(value)}.`);
  return value;
}

function strings(value: unknown, where: string): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new UsageError(`${where} must be a list of strings, not ${describe(value)}.`);
  return value as string[];
}

function boolean(value: unknown, where: string): boolean {
  if (typeof value !== 'boolean') throw new UsageError(`${where} must be true or false, not ${describe(value)}.`);
  return value;
}

function allowed<T extends string>(list: readonly T[], value: unknown, where: string, extra?: string): T {
  const match = typeof value === 'string' ? oneOf(list, value) : undefined;
  if (!match) throw new UsageError(`${where} is ${describe(value)}; use one of ${[...list, ...(extra ? [extra] : [])].join(', ')}.`);
  return match;
}

function onlyKeys(o: Record<string, unknown>, update: string[], readOnly: string[], where: string): void {
  for (const key of Object.keys(o)) {
    if (update.includes(key) || readOnly.includes(key) || key === 'confidence') continue;
    throw new UsageError(`${where} has an unknown member "${key}"; expected ${update.join(', ')}.`);
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `"${value}"`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}
