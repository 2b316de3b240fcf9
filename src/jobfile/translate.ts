/**
 * The one translation between a job file's `config`, the service's read bodies and its update
 * bodies. Job files, command-line flags and the engine all go through here, so a dry run, the
 * local service and the real service always see the same configuration.
 */
import type { CombiningConfig, JobConfig, JobResources, PipelineSchema, PivotConfig } from '../contract/index.js';
import { entriesInOrder, orderedObject, setOwn } from '../contract/json.js';
import { currentBodies, rulesMap, sameValue, sourceNames } from '../contract/translate.js';
import type { JobFileConfig } from './types.js';

// The read -> update translation moved to the contract (the engine and the local service use it too).
export {
  combiningUpdate, currentBodies, dataTypesUpdate, DEFAULT_SOURCE, engineConfig, fieldsUpdate, imputeUpdate, pivotUpdate,
  rowDroppingUpdate, sameValue, schemaFromResources, sourceNames, textUpdate, unitsUpdate,
} from '../contract/translate.js';

/** The configuration resources in the order updates must be sent (the sheet changes the columns). */
export const RESOURCE_ORDER = ['sheet', 'fields', 'combining', 'dataTypes', 'units', 'impute', 'pivot', 'rowDropping', 'text'] as const;
/** A configuration resource's name, as a key of JobConfig. */
export type ResourceName = (typeof RESOURCE_ORDER)[number];

// ---- job file config over the current values -> complete update bodies ----

/**
 * The complete update bodies the job file asks for: the current values with every member the
 * job file (or a flag) sets laid over them. A resource the config does not touch keeps its
 * current body, so comparing with `currentBodies` tells exactly what changes.
 */
export function desiredBodies(config: JobFileConfig, current: JobResources): Required<JobConfig> {
  const bodies = currentBodies(current);
  if (config.sheet !== undefined) bodies.sheet = config.sheet;

  if (config.mapping !== undefined || config.allowColumnCombining !== undefined) {
    const [source] = sourceNames(current.fields);
    const mapping = bodies.fields.columnFieldMapping[source] ?? {};
    const pins = effectivePins(config, current);
    for (const [column, field] of Object.entries(pins)) {
      // Seed: a column absent from the mapping is unmapped; the job file says so with null.
      if (field === null) delete mapping[column];
      else setOwn(mapping, column, { field });
    }
    if (!config.allowColumnCombining) {
      // A field the job file pins to a column is that column's alone: a suggestion that maps
      // another, unpinned column to it gives way (or the service would refuse two columns).
      const pinnedFields = new Set(Object.values(pins).filter((f): f is string => f !== null));
      for (const [column, m] of Object.entries(mapping)) {
        if (!(column in pins) && pinnedFields.has(m.field)) delete mapping[column];
      }
    }
    // `allowColumnCombining` derived from a current mapping that already combines columns is kept.
    bodies.fields = { ...bodies.fields, columnFieldMapping: { ...bodies.fields.columnFieldMapping, [source]: mapping } };
    if (config.allowColumnCombining !== undefined) bodies.fields.allowColumnCombining = config.allowColumnCombining;
  }

  for (const [field, c] of Object.entries(config.combining ?? {})) {
    setOwn(bodies.combining.columnsBeingCombined, field, combiningOver(bodies.combining.columnsBeingCombined[field] ?? {}, c));
  }

  for (const [field, dataType] of Object.entries(config.dataTypes ?? {})) setOwn(bodies.dataTypes.fieldDataTypes, field, { dataType });
  for (const [field, u] of Object.entries(config.units ?? {})) setOwn(bodies.units.fieldUnitConversions, field, { from: u.from, to: u.to });

  for (const [field, m] of Object.entries(config.impute ?? {})) {
    setOwn(bodies.impute.imputeMethods, field, m.method === 'fill'
      ? { imputeMethod: 'fill', imputeMethodConfig: { fillValue: m.value } }
      : { imputeMethod: m.method });
  }

  if (config.pivot !== undefined) {
    const p = config.pivot;
    bodies.pivot = {
      pivot: {
        pivotColumns: { columnNames: [...p.pivotColumns] },
        valueColumns: { columnNames: [...p.valueColumns] },
        indexColumns: { columnNames: [...p.indexColumns], aggregationMethod: p.aggregationMethod ?? 'first' },
      },
    };
  }

  if (config.rowDropping !== undefined) {
    bodies.rowDropping = {
      additionalRowDroppingMethods: config.rowDropping.map((r) => ({ method: r.method, methodConfig: { fields: [...r.fields] } })),
    };
  }

  if (config.text !== undefined) {
    const t = bodies.text.textProcessingMethods;
    for (const [field, rules] of entriesInOrder(config.text.regexReplacement ?? {})) {
      t.regexReplacement = orderedObject([...entriesInOrder(t.regexReplacement ?? {}), [field, rulesMap(rules)]]);
    }
    for (const [field, casing] of Object.entries(config.text.casing ?? {})) {
      t.casing = { ...(t.casing ?? {}) };
      setOwn(t.casing, field, casing);
    }
  }
  return bodies;
}

/** A job file's combining entry: the wire's `methodConfig.separator` and `combiningOrder` as `separator` and `order`. */
export type JobCombining = NonNullable<JobFileConfig['combining']>[string];

/**
 * A field's combining body with the job file's entry laid over the current one. Seed rule 1: an
 * unspecified member takes the default, which is what the read returns. The update body and the
 * diff's marker both come from here, so a value in the other shape is never a change.
 */
export function combiningOver(base: CombiningConfig, c: JobCombining): CombiningConfig {
  const next: CombiningConfig = { ...base };
  if (c.method !== undefined) next.method = c.method;
  if (c.separator !== undefined) next.methodConfig = { ...(base.methodConfig ?? {}), separator: c.separator };
  if (c.order !== undefined) next.combiningOrder = [...c.order];
  return next;
}

/** A field's combining body in the job file's shape (`pull` writes it, the diff shows it). */
export function combiningFromWire(c: CombiningConfig): JobCombining {
  return {
    ...(c.method !== undefined ? { method: c.method } : {}),
    ...(c.methodConfig?.separator !== undefined ? { separator: c.methodConfig.separator } : {}),
    ...(c.combiningOrder !== undefined ? { order: [...c.combiningOrder] } : {}),
  };
}

/** A pivot body in the job file's shape (`pull` writes it, the diff shows it). */
export function pivotFromWire(p: PivotConfig): NonNullable<JobFileConfig['pivot']> {
  return {
    pivotColumns: [...p.pivotColumns.columnNames], valueColumns: [...p.valueColumns.columnNames],
    indexColumns: [...p.indexColumns.columnNames], aggregationMethod: p.indexColumns.aggregationMethod ?? 'first',
  };
}

/**
 * The job file's mapping pins that apply to this input: a pinned column the input does not have
 * is left out (the diff flags it for review), so no body ever names a column that is not there.
 */
export function effectivePins(config: JobFileConfig, current: JobResources): Record<string, string | null> {
  const columns = new Set(current.fields.inputColumns ?? []);
  const known = columns.size > 0;
  return Object.fromEntries(Object.entries(config.mapping ?? {}).filter(([column]) => !known || columns.has(column)));
}

/** The resources whose desired body differs from the current one, in update order. */
export function changedResources(current: Required<JobConfig>, desired: Required<JobConfig>): ResourceName[] {
  return RESOURCE_ORDER.filter((name) => {
    // allowColumnCombining cannot be read back: it matters only with the mapping it is sent with.
    if (name === 'fields') return !sameValue(current.fields.columnFieldMapping, desired.fields.columnFieldMapping);
    return !sameValue(current[name], desired[name]);
  });
}

// ---- read bodies -> a job file's config (`import pull`) ----

/** The job-file `config` that reproduces a job's current configuration: `desiredBodies` of it changes nothing. */
export function configFromResources(current: JobResources): JobFileConfig {
  const config: JobFileConfig = {};
  if (current.sheet) config.sheet = current.sheet.sheetSelection.selected;
  const mapped = new Map<string, string>();
  for (const columns of Object.values(current.fields.columnFieldMapping ?? {})) {
    for (const [column, m] of entriesInOrder(columns)) mapped.set(column, m.field);
  }
  // Input columns first (unmapped ones as null), then mapped columns the input list lacks.
  const pairs: [string, string | null][] = (current.fields.inputColumns ?? []).map((column) => [column, mapped.get(column) ?? null]);
  const listed = new Set(current.fields.inputColumns ?? []);
  for (const [column, field] of mapped) if (!listed.has(column)) pairs.push([column, field]);
  config.mapping = orderedObject(pairs);
  const perField = new Map<string, number>();
  for (const field of mapped.values()) perField.set(field, (perField.get(field) ?? 0) + 1);
  if ([...perField.values()].some((n) => n > 1)) config.allowColumnCombining = true;

  // Field-keyed sections in the service's order, as ordered objects: a field named "1962" stays
  // where the service lists it and `__proto__` is a key like any other (STYLE.md "Keyed data").
  const combining = entriesInOrder(current.combining.columnsBeingCombined ?? {});
  if (combining.length) config.combining = orderedObject(combining.map(([field, c]) => [field, combiningFromWire(c)]));
  const types = entriesInOrder(current.dataTypes.fieldDataTypes ?? {});
  if (types.length) config.dataTypes = orderedObject(types.map(([f, t]) => [f, t.dataType]));
  const units = entriesInOrder(current.units.fieldUnitConversions ?? {});
  if (units.length) config.units = orderedObject(units.map(([f, u]) => [f, { from: u.from ?? null, to: u.to ?? null }]));
  const impute = entriesInOrder(current.impute.imputeMethods ?? {});
  if (impute.length) {
    config.impute = orderedObject(impute.map(([f, m]) => [f, m.imputeMethod === 'fill'
      ? { method: 'fill' as const, value: m.imputeMethodConfig?.fillValue }
      : { method: m.imputeMethod }]));
  }
  const p = current.pivot.pivot;
  if (p) config.pivot = pivotFromWire(p);
  const additional = current.rowDropping.additionalRowDroppingMethods ?? [];
  if (additional.length) config.rowDropping = additional.map((r) => ({ method: r.method, fields: [...r.methodConfig.fields] }));
  const text = current.text.textProcessingMethods ?? {};
  if (Object.keys(text.regexReplacement ?? {}).length || Object.keys(text.casing ?? {}).length) {
    config.text = {};
    if (text.regexReplacement) {
      config.text.regexReplacement = orderedObject(entriesInOrder(text.regexReplacement).map(([field, rules]) => [field, new Map(entriesInOrder(rules))]));
    }
    if (text.casing) config.text.casing = orderedObject(entriesInOrder(text.casing));
  }
  return config;
}


/**
 * A job file's `schema` block (jobfile.md) from a pipeline schema (a schema file's, or the one the
 * service's reads describe): members in the format's order, empty ones left out; field-keyed
 * members are Maps, so every field name keeps its order (`"1962"`, `__proto__` included).
 */
export function schemaToJobFile(schema: PipelineSchema): Map<string, unknown> {
  const block = new Map<string, unknown>();
  if (schema.expectedFields.length) block.set('expectedFields', schema.expectedFields);
  if (schema.optionalFields.length) block.set('optionalFields', schema.optionalFields);
  for (const [key, value] of [['fieldDataTypes', schema.fieldDataTypes], ['fieldUnits', schema.fieldUnits], ['imputeMethods', schema.imputeMethods]] as const) {
    const entries = entriesInOrder(value as Record<string, unknown>);
    if (entries.length) block.set(key, new Map(entries));
  }
  // Back to the job file's own shape (`fields`, not the seed's `methodConfig.fields`).
  if (schema.rowDropping.length) block.set('rowDropping', schema.rowDropping.map((r) => ({ method: r.method, fields: [...r.methodConfig.fields] })));
  return block;
}
