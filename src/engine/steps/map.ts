/**
 * Step 3, mapping: each mapped input column's value goes to its field; unmapped columns are
 * dropped. Fields with several columns are combined here (see combine.ts for why).
 */
import { entriesInOrder } from '../../contract/json.js';
import { UsageError } from '../../errors.js';
import { isMissing } from '../missing.js';
import { eachBatch, locatedMessage, type Batch, type EngineConfig, type RuleSubject, type Row, type Step, type StepContext, type Table, type Value } from '../types.js';
import { combineValues, resolveCombining, type CombineSpec } from './combine.js';

/** Where each output column's value comes from. */
type Source =
  | { kind: 'column'; index: number }
  | { kind: 'combined'; indices: number[]; spec: CombineSpec; values: Value[] }
  | { kind: 'empty' };

/** The output columns of mapping and how each is filled. */
export interface MappingPlan { fields: string[]; sources: Source[] }

/**
 * Works out the output columns: mapped fields in `expectedFields` order, then mapped fields not
 * listed there in input-column order (by their first column); an expected, non-optional field
 * without a column is an all-missing column at its place in `expectedFields` order.
 * Throws a UsageError for a mapping naming a column that is not in the input, or for several
 * columns on one field without `allowColumnCombining`.
 */
export function planMapping(columns: string[], config: EngineConfig, ctx: StepContext): MappingPlan {
  const mapping = config.mapping ?? {};
  const positions = new Map<string, number>();
  columns.forEach((c, i) => { if (!positions.has(c)) positions.set(c, i); });
  for (const [column, field] of entriesInOrder(mapping)) {
    if (!positions.has(column)) {
      throw new UsageError(`The mapping names column "${column}" (→ ${field}), which is not in the input; input columns: ${columns.join(', ')}.`);
    }
    if (typeof field !== 'string' || field === '') {
      throw new UsageError(`The mapping of column "${column}" must name a field.`);
    }
  }
  const specs = new Map(resolveCombining(config, columns).map((s) => [s.field, s]));

  // Mapped fields in input-column order of their first column.
  const mappedFields: string[] = [];
  const firstColumn = new Map<string, string>();
  for (const column of columns) {
    if (!Object.hasOwn(mapping, column)) continue;
    const field = mapping[column];
    if (!firstColumn.has(field)) { firstColumn.set(field, column); mappedFields.push(field); }
  }
  const expected = ctx.schema.expectedFields ?? [];
  const optional = new Set(ctx.schema.optionalFields ?? []);
  const fields: string[] = [];
  const sources: Source[] = [];
  const seen = new Set<string>();
  const add = (field: string) => {
    seen.add(field);
    fields.push(field);
    const spec = specs.get(field);
    // `values` is scratch space reused for every row (combineValues only reads it): no array per row.
    if (spec) sources.push({ kind: 'combined', indices: spec.columns.map((c) => positions.get(c) as number), spec, values: spec.columns.map(() => null) });
    else sources.push({ kind: 'column', index: positions.get(firstColumn.get(field) as string) as number });
  };
  // engine.md: a required expected field with no column is output all-missing, so the output
  // always has the columns the destination requires; it keeps its place in expectedFields order.
  for (const field of expected) {
    if (seen.has(field)) continue;
    if (firstColumn.has(field)) add(field);
    else if (!optional.has(field)) {
      seen.add(field);
      fields.push(field);
      sources.push({ kind: 'empty' });
    }
  }
  for (const field of mappedFields) if (!seen.has(field)) add(field);
  return { fields, sources };
}

function mapRow(row: Row, sources: Source[]): Row {
  const out: Row = new Array(sources.length);
  for (let j = 0; j < sources.length; j++) {
    const source = sources[j];
    if (source.kind === 'column') {
      const v = row[source.index];
      out[j] = v === undefined || isMissing(v) ? null : v;
    } else if (source.kind === 'combined') {
      const { indices, values } = source;
      for (let k = 0; k < indices.length; k++) values[k] = row[indices[k]] ?? null;
      out[j] = combineValues(source.spec, values);
    } else {
      out[j] = null;
    }
  }
  return out;
}

/**
 * Where a configured field is among a step's incoming columns. A field the schema knows
 * (expected or optional) but the output lacks — an optional field nobody mapped — gives -1:
 * its rule has nothing to act on and is skipped with a warning. Any other unknown field is a
 * UsageError naming it, prefixed by `what` (e.g. `Impute method for field "x"`); `rule` says
 * which rule asks, so the warning can name where it was configured.
 */
export function fieldIndex(columns: string[], field: string, ctx: StepContext, what: string, rule?: RuleSubject): number {
  const index = columns.indexOf(field);
  if (index >= 0) return index;
  const schema = ctx.schema;
  if ((schema.expectedFields ?? []).includes(field) || (schema.optionalFields ?? []).includes(field)) {
    ctx.warn(locatedMessage(ctx, rule, `${what}: the field is not in the output (no column is mapped to it); skipped.`));
    return -1;
  }
  throw new UsageError(`${what}: "${field}" is not a field of the output; fields: ${columns.join(', ') || '(none)'}.`);
}

/** Step 3: keeps mapped columns under their field names, combining fields with several columns. */
export const map: Step = {
  name: 'map',
  check(config, columns, ctx) {
    planMapping(columns, config, ctx);
  },
  apply(input: Table, config: EngineConfig, ctx: StepContext): Table {
    const { fields, sources } = planMapping(input.columns, config, ctx);
    const mapBatch = (batch: Batch): Batch => {
      const rows = new Array<Row>(batch.rows.length);
      for (let r = 0; r < rows.length; r++) rows[r] = mapRow(batch.rows[r], sources);
      return { rows, rowNumbers: batch.rowNumbers, owned: true };
    };
    // Types are set by the data-type step, which comes after mapping.
    return { columns: fields, types: fields.map(() => undefined), batches: eachBatch(input.batches, mapBatch) };
  },
};
