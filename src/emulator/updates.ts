/**
 * Applying a checked update body to a job's read bodies. An update replaces its resource; the
 * read then shows exactly what was sent (in the seed's spelling) plus `confidence`: the
 * suggestion's where the value is the one suggested, 1 where the update chose another.
 * A mapping change also keeps the resources that follow from it consistent: which fields are
 * combined, the data types of newly mapped fields, and the column named by each unit conversion.
 */
import type {
  CombiningConfig, ColumnCombiningUpdate, DataType, DataTypesRead, DataTypesUpdate, FieldsUpdate, ImputeRead,
  ImputeUpdate, JobResources, PivotUpdate, RowDroppingUpdate, TextProcessingUpdate, UnitsUpdate,
} from '../contract/index.js';
import { DEFAULT_SEPARATOR } from '../contract/index.js';
import { sameValue } from '../contract/translate.js';
import { getOwn, setOwn } from '../contract/json.js';
import { combinedFieldsOf, flatMapping } from './validate-bodies.js';

/** Per input column: the type inferred from the sample, and how much of it fits number and date_time. */
export type ColumnTypes = Record<string, { inferred: { dataType: DataType; confidence: number }; fit: { number: number; date_time: number } }>;

/** The configuration state of a job that updates change. */
export interface ConfigState {
  /** The read bodies as GET returns them. */
  resources: JobResources;
  /** The engine's suggestions at start (or after a sheet change): where confidences come from. */
  suggested: JobResources;
  /** Update-only member of updateFields, needed at run time. */
  allowColumnCombining: boolean;
  /** Column type profiles from the start sample, for fields a mapping update introduces (null when unknown). */
  columnTypes: ColumnTypes | null;
}

/** The confidence of a value: kept where it equals the current or suggested value, else 1 (set by an update). */
function confidence<T>(value: T, candidates: ({ value: T; confidence?: number } | undefined)[]): number | undefined {
  for (const c of candidates) if (c && sameValue(c.value, value)) return c.confidence;
  return 1;
}

/** Columns mapped to each field, in input-column order. */
function columnsByField(mapping: Record<string, string>, columnOrder: string[]): Map<string, string[]> {
  const byField = new Map<string, string[]>();
  // A Set and push, not includes and spread: a 50,000-column mapping update took 27 s of the request thread.
  const inOrder = new Set(columnOrder);
  const ordered = [...columnOrder.filter((c) => Object.hasOwn(mapping, c)), ...Object.keys(mapping).filter((c) => !inOrder.has(c))];
  for (const column of ordered) {
    const field = mapping[column];
    const list = byField.get(field);
    if (list) list.push(column);
    else byField.set(field, [column]);
  }
  return byField;
}

/** The default combining entry of a field (seed rule 1: what the read returns for unspecified members). */
function defaultCombining(columns: string[]): CombiningConfig {
  return { method: 'stringAppend', methodConfig: { separator: DEFAULT_SEPARATOR }, combiningOrder: [...columns] };
}

/** A combining entry with every unspecified member at its default. */
function withDefaults(entry: CombiningConfig, columns: string[]): CombiningConfig {
  const method = entry.method ?? 'stringAppend';
  const methodConfig = entry.methodConfig ?? (method === 'stringAppend' ? { separator: DEFAULT_SEPARATOR } : {});
  return { method, methodConfig: { ...methodConfig }, combiningOrder: [...(entry.combiningOrder ?? columns)] };
}

/** The data type a field newly mapped from `columns` gets: the schema's type, else the column's inferred type. */
function typeForNewField(state: ConfigState, field: string, columns: string[]): { dataType: DataType; confidence?: number } | undefined {
  const schemaType = getOwn(state.resources.dataTypes.expectedFieldDataTypes, field);
  const profile = columns.length === 1 ? getOwn(state.columnTypes ?? undefined, columns[0]) : undefined;
  if (schemaType) {
    if (!profile || schemaType === 'rich_text' || schemaType === 'category') return { dataType: schemaType, confidence: 1 };
    return { dataType: schemaType, confidence: profile.fit[schemaType] };
  }
  if (columns.length > 1) return { dataType: 'rich_text', confidence: 1 };
  if (profile) return { ...profile.inferred };
  // No profile (scripts reshaped the columns): carry the type the column had under its previous field.
  const previous = state.resources.fields.columnFieldMapping;
  for (const columnsOf of Object.values(previous)) {
    const old = getOwn(columnsOf, columns[0]);
    const type = old && getOwn(state.resources.dataTypes.fieldDataTypes, old.field);
    if (type) return { ...type };
  }
  return undefined;
}

/** Applies an updateFields body (and keeps combining, data types and unit columns consistent with it). */
export function applyFields(state: ConfigState, update: FieldsUpdate): ConfigState {
  const current = state.resources;
  const columns = current.fields.inputColumns;
  const suggestedMapping = state.suggested.fields.columnFieldMapping;
  const currentMapping = current.fields.columnFieldMapping;

  const columnFieldMapping: JobResources['fields']['columnFieldMapping'] = {};
  for (const source of Object.keys(currentMapping)) setOwn(columnFieldMapping, source, {});
  for (const [source, byColumn] of Object.entries(update.columnFieldMapping)) {
    for (const [column, { field }] of Object.entries(byColumn)) {
      const read = (m: Record<string, Record<string, { field: string; confidence?: number }>>) => {
        const e = getOwn(getOwn(m, source), column);
        return e ? { value: e.field, confidence: e.confidence } : undefined;
      };
      if (!getOwn(columnFieldMapping, source)) setOwn(columnFieldMapping, source, {});
      setOwn(columnFieldMapping[source], column, { field, confidence: confidence(field, [read(currentMapping), read(suggestedMapping)]) });
    }
  }
  const allowColumnCombining = Boolean(update.allowColumnCombining);
  const resources: JobResources = structuredClone({ ...current, fields: { ...current.fields, columnFieldMapping } });

  // Which columns each field has, before and after.
  const before = columnsByField(flatMapping(currentMapping), columns);
  const after = columnsByField(flatMapping(columnFieldMapping), columns);

  // Combining: the fields several columns now map to, each with its entry (kept while its columns are the same).
  const combined = combinedFieldsOf({ resources, allowColumnCombining });
  const columnsBeingCombined: Record<string, CombiningConfig> = {};
  for (const [field, cols] of combined) {
    const kept = getOwn(current.combining.columnsBeingCombined, field);
    setOwn(columnsBeingCombined, field, kept && sameValue(before.get(field), cols) ? kept : defaultCombining(cols));
  }
  resources.combining = { columnsBeingCombined };

  // Data types: follow the mapping like the suggestions do (one entry per mapped field).
  const fieldDataTypes: DataTypesRead['fieldDataTypes'] = {};
  for (const [field, cols] of after) {
    const existing = getOwn(current.dataTypes.fieldDataTypes, field);
    if (existing && sameValue(before.get(field), cols)) { setOwn(fieldDataTypes, field, existing); continue; }
    const type = typeForNewField(state, field, cols);
    if (type) setOwn(fieldDataTypes, field, type);
  }
  resources.dataTypes = { ...resources.dataTypes, fieldDataTypes };

  // Unit conversions name the column their field comes from.
  for (const [field, conversion] of Object.entries(resources.units.fieldUnitConversions)) {
    conversion.columnName = after.get(field)?.[0] ?? conversion.columnName;
  }
  return { ...state, resources, allowColumnCombining };
}

/** Applies an updateColumnCombiningMethods body; combined fields it leaves out take the defaults. */
export function applyCombining(state: ConfigState, update: ColumnCombiningUpdate): ConfigState {
  const columnsBeingCombined: Record<string, CombiningConfig> = {};
  for (const [field, cols] of combinedFieldsOf(state)) {
    setOwn(columnsBeingCombined, field, withDefaults(getOwn(update.columnsBeingCombined, field) ?? {}, cols));
  }
  return { ...state, resources: { ...state.resources, combining: { columnsBeingCombined } } };
}

/** Applies an updateDataTypes body. */
export function applyDataTypes(state: ConfigState, update: DataTypesUpdate): ConfigState {
  const fieldDataTypes: DataTypesRead['fieldDataTypes'] = {};
  const entry = (r: JobResources, field: string) => {
    const e = getOwn(r.dataTypes.fieldDataTypes, field);
    return e ? { value: e.dataType, confidence: e.confidence } : undefined;
  };
  for (const [field, { dataType }] of Object.entries(update.fieldDataTypes)) {
    setOwn(fieldDataTypes, field, { dataType, confidence: confidence(dataType, [entry(state.resources, field), entry(state.suggested, field)]) });
  }
  return { ...state, resources: { ...state.resources, dataTypes: { ...state.resources.dataTypes, fieldDataTypes } } };
}

/** Applies an updateUnits body; the read adds the field's column and a confidence. */
export function applyUnits(state: ConfigState, update: UnitsUpdate): ConfigState {
  const byField = columnsByField(flatMapping(state.resources.fields.columnFieldMapping), state.resources.fields.inputColumns);
  const fieldUnitConversions: JobResources['units']['fieldUnitConversions'] = {};
  for (const [field, { from, to }] of Object.entries(update.fieldUnitConversions)) {
    const old = getOwn(state.resources.units.fieldUnitConversions, field) ?? getOwn(state.suggested.units.fieldUnitConversions, field);
    const same = old && old.from === from && old.to === to;
    // Member order as the seed lists it: columnName, to, from, confidence.
    setOwn(fieldUnitConversions, field, { columnName: byField.get(field)?.[0] ?? field, to, from, confidence: same ? old.confidence : 1 });
  }
  return { ...state, resources: { ...state.resources, units: { ...state.resources.units, fieldUnitConversions } } };
}

/** Applies an updateImputeMethods body. */
export function applyImpute(state: ConfigState, update: ImputeUpdate): ConfigState {
  const imputeMethods: ImputeRead['imputeMethods'] = {};
  const entry = (r: JobResources, field: string) => {
    const e = getOwn(r.impute.imputeMethods, field);
    if (!e) return undefined;
    const { confidence: c, ...value } = e;
    return { value, confidence: c };
  };
  for (const [field, value] of Object.entries(update.imputeMethods)) {
    const c = confidence<object>(value, [entry(state.resources, field), entry(state.suggested, field)]);
    setOwn(imputeMethods, field, { ...structuredClone(value), confidence: c });
  }
  return { ...state, resources: { ...state.resources, impute: { ...state.resources.impute, imputeMethods } } };
}

/** Applies an updatePivot body (null removes the pivot). */
export function applyPivot(state: ConfigState, update: PivotUpdate): ConfigState {
  const p = update.pivot;
  const pivot = p === null ? null : {
    pivotColumns: { columnNames: [...p.pivotColumns.columnNames], confidence: 1 },
    valueColumns: { columnNames: [...p.valueColumns.columnNames], confidence: 1 },
    indexColumns: { columnNames: [...p.indexColumns.columnNames], aggregationMethod: p.indexColumns.aggregationMethod, confidence: 1 },
  };
  return { ...state, resources: { ...state.resources, pivot: { pivot } } };
}

/** Applies an updateRowDroppingMethods body (the preset methods are the pipeline's and do not change). */
export function applyRowDropping(state: ConfigState, update: RowDroppingUpdate): ConfigState {
  const additionalRowDroppingMethods = update.additionalRowDroppingMethods.map((r) => ({
    method: r.method, methodConfig: { fields: [...r.methodConfig.fields] }, confidence: 1,
  }));
  return { ...state, resources: { ...state.resources, rowDropping: { ...state.resources.rowDropping, additionalRowDroppingMethods } } };
}

/** Applies an updateTextProcessingMethods body. */
export function applyText(state: ConfigState, update: TextProcessingUpdate): ConfigState {
  return { ...state, resources: { ...state.resources, text: { textProcessingMethods: structuredClone(update.textProcessingMethods) } } };
}
