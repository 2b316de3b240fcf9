/**
 * Translations between the seed's wire shapes: a read body as the update body that keeps it
 * (read-only members dropped), and the update bodies as the engine's configuration. The job-file
 * side (job file <-> bodies) is src/jobfile/translate.ts; both the engine and the local service
 * use this module, so nothing below the CLI reaches up into the job-file layer.
 */
import type { EngineConfig } from '../engine/types.js';
import type {
  ColumnCombiningRead, ColumnCombiningUpdate, DataTypesRead, DataTypesUpdate, FieldsRead, FieldsUpdate, ImputeRead,
  ImputeUpdate, JobConfig, JobResources, PipelineSchema, PivotRead, PivotUpdate, RowDroppingRead, RowDroppingUpdate, TextProcessingConfig,
  TextProcessingRead, TextProcessingUpdate, UnitsRead, UnitsUpdate,
} from './index.js';
import { entriesInOrder, orderedObject } from './json.js';

/** Data source name used when the service returns a mapping with no source at all. */
export const DEFAULT_SOURCE = 'default';

/** A keyed map of user-named keys (`__proto__`, `"1962"` included) with each value mapped, in written order. */
function mapValues<T, U>(map: Record<string, T> | undefined, fn: (value: T, key: string) => U): Record<string, U> {
  return orderedObject(entriesInOrder(map ?? {}).map(([key, value]) => [key, fn(value, key)] as const));
}

/** One field's regular-expression rules as a Map in written order (a stored or parsed body may hold them as an object). */
export function rulesMap(rules: Map<string, string> | Record<string, string>): Map<string, string> {
  return new Map(entriesInOrder(rules));
}

/** The data source names of a fields read body (the engine and the local service always give one). */
export function sourceNames(read: FieldsRead): string[] {
  const names = Object.keys(read.columnFieldMapping ?? {});
  return names.length ? names : [DEFAULT_SOURCE];
}

/** input column -> field over every data source of a mapping. */
export function flatMapping(mapping: Record<string, Record<string, { field: string }>>): Record<string, string> {
  return orderedObject(Object.values(mapping).flatMap((columns) => entriesInOrder(columns).map(([column, m]) => [column, m.field] as const)));
}

/** Whether a mapping maps several columns to one field (which needs `allowColumnCombining`). */
export function combinesColumns(mapping: Record<string, Record<string, { field: string }>>): boolean {
  const fields = Object.values(flatMapping(mapping));
  return new Set(fields).size < fields.length;
}

/**
 * `updateFields` body that keeps the current mapping. The read has no `allowColumnCombining`
 * (seed: update only), so it is derived: a mapping that already combines columns keeps it allowed.
 */
export function fieldsUpdate(read: FieldsRead): FieldsUpdate {
  const current = read.columnFieldMapping ?? {};
  const columnFieldMapping = orderedObject(sourceNames(read).map((source) =>
    [source, mapValues(current[source], (m) => ({ field: m.field }))] as const));
  return combinesColumns(columnFieldMapping) ? { columnFieldMapping, allowColumnCombining: true } : { columnFieldMapping };
}

/** `updateColumnCombiningMethods` body that keeps the current methods. */
export function combiningUpdate(read: ColumnCombiningRead): ColumnCombiningUpdate {
  return { columnsBeingCombined: mapValues(read.columnsBeingCombined, (c) => structuredClone(c)) };
}

/** `updateDataTypes` body that keeps the current types. */
export function dataTypesUpdate(read: DataTypesRead): DataTypesUpdate {
  return { fieldDataTypes: mapValues(read.fieldDataTypes, (t) => ({ dataType: t.dataType })) };
}

/** `updateUnits` body that keeps the current conversions. */
export function unitsUpdate(read: UnitsRead): UnitsUpdate {
  return { fieldUnitConversions: mapValues(read.fieldUnitConversions, (u) => ({ from: u.from ?? null, to: u.to ?? null })) };
}

/** `updateImputeMethods` body that keeps the current methods. */
export function imputeUpdate(read: ImputeRead): ImputeUpdate {
  return {
    imputeMethods: mapValues(read.imputeMethods, (m) => (m.imputeMethodConfig !== undefined
      ? { imputeMethod: m.imputeMethod, imputeMethodConfig: structuredClone(m.imputeMethodConfig) }
      : { imputeMethod: m.imputeMethod })),
  };
}

/** `updatePivot` body that keeps the current pivot. */
export function pivotUpdate(read: PivotRead): PivotUpdate {
  const p = read.pivot;
  if (!p) return { pivot: null };
  return {
    pivot: {
      pivotColumns: { columnNames: [...p.pivotColumns.columnNames] },
      valueColumns: { columnNames: [...p.valueColumns.columnNames] },
      indexColumns: { columnNames: [...p.indexColumns.columnNames], aggregationMethod: p.indexColumns.aggregationMethod ?? 'first' },
    },
  };
}

/** `updateRowDroppingMethods` body that keeps the current additional methods. */
export function rowDroppingUpdate(read: RowDroppingRead): RowDroppingUpdate {
  return {
    additionalRowDroppingMethods: (read.additionalRowDroppingMethods ?? []).map((r) => ({
      method: r.method, methodConfig: { fields: [...r.methodConfig.fields] },
    })),
  };
}

/** Text processing methods with each field's rules as a Map in written order. */
export function textConfig(t: TextProcessingConfig): TextProcessingConfig {
  const out: TextProcessingConfig = {};
  if (t.regexReplacement) out.regexReplacement = mapValues(t.regexReplacement, rulesMap);
  if (t.casing) out.casing = mapValues(t.casing, (c) => c);
  return out;
}

/** `updateTextProcessingMethods` body that keeps the current methods. */
export function textUpdate(read: TextProcessingRead): TextProcessingUpdate {
  return { textProcessingMethods: textConfig(read.textProcessingMethods ?? {}) };
}

/** Every resource's current value as an update body. */
export function currentBodies(current: JobResources): Required<JobConfig> {
  return {
    sheet: current.sheet?.sheetSelection.selected as string,
    fields: fieldsUpdate(current.fields),
    combining: combiningUpdate(current.combining),
    dataTypes: dataTypesUpdate(current.dataTypes),
    units: unitsUpdate(current.units),
    impute: imputeUpdate(current.impute),
    pivot: pivotUpdate(current.pivot),
    rowDropping: rowDroppingUpdate(current.rowDropping),
    text: textUpdate(current.text),
  };
}

/**
 * Deep equality of JSON values, ignoring object key order. Maps (regular-expression rules) are
 * equal to a Map or an object with the same entries in the same order: their order is their meaning.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    return a === b || (a === undefined && b === undefined);
  }
  if (a instanceof Map || b instanceof Map) {
    if (Array.isArray(a) || Array.isArray(b)) return false;
    const ea = entriesInOrder(a as Record<string, unknown>);
    const eb = entriesInOrder(b as Record<string, unknown>);
    return ea.length === eb.length && ea.every(([key, value], i) => key === eb[i][0] && sameValue(value, eb[i][1]));
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => sameValue(v, bb[i]));
  }
  const ka = Object.keys(a as object).filter((k) => (a as any)[k] !== undefined);
  const kb = Object.keys(b as object).filter((k) => (b as any)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => sameValue((a as any)[k], (b as any)[k]));
}

/**
 * What a job's reads say about its pipeline, as a job file's `schema` block: the expected and
 * optional fields (getFields), expected types (getDataTypes), units (getUnits), impute methods
 * (getImputeMethods) and the preset row dropping (getRowDroppingMethods). The inverse of the
 * engine's suggestions for a schema, so a dry run or a prediction with it applies what the service does.
 */
export function schemaFromResources(resources: JobResources): PipelineSchema {
  return {
    expectedFields: [...(resources.fields.expectedFields ?? [])],
    optionalFields: [...(resources.fields.optionalFields ?? [])],
    fieldDataTypes: mapValues(resources.dataTypes.expectedFieldDataTypes, (t) => t),
    fieldUnits: mapValues(resources.units.expectedFieldUnits, (u) => u ?? null),
    imputeMethods: mapValues(resources.impute.expectedImputeMethods, (m) => m ?? null),
    rowDropping: (resources.rowDropping.presetRowDroppingMethods ?? []).map((r) => ({ method: r.method, methodConfig: { fields: [...r.methodConfig.fields] } })),
  };
}

/** The engine's complete configuration from the job's resources and the update bodies to apply. */
export function engineConfig(resources: JobResources, bodies: Required<JobConfig>): EngineConfig {
  return {
    sheet: bodies.sheet ?? null,
    mapping: flatMapping(bodies.fields.columnFieldMapping),
    allowColumnCombining: Boolean(bodies.fields.allowColumnCombining),
    combining: bodies.combining.columnsBeingCombined,
    dataTypes: mapValues(bodies.dataTypes.fieldDataTypes, (t) => t.dataType),
    units: bodies.units.fieldUnitConversions,
    impute: bodies.impute.imputeMethods,
    pivot: bodies.pivot.pivot,
    presetRowDropping: resources.rowDropping.presetRowDroppingMethods ?? [],
    additionalRowDropping: bodies.rowDropping.additionalRowDroppingMethods,
    text: textConfig(bodies.text.textProcessingMethods),
    scripts: { preColumnMapping: resources.scripts.preColumnMapping ?? [], postClean: resources.scripts.postClean ?? [] },
  };
}
