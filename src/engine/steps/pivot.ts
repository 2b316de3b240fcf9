/**
 * Step 10, pivot (engine.md step 10): rows grouped by the index columns, each distinct pivot
 * value becoming a column, cells holding the first row's value. Holds the whole table: a later
 * row may add a column.
 */
import { AGGREGATION_METHODS, type DataType, type PivotConfig } from '../../contract/index.js';
import { nameList, UsageError } from '../../errors.js';
import { isMissing } from '../missing.js';
import { BATCH_SIZE, locatedMessage, type Batch, type EngineConfig, type Row, type Step, type StepContext, type Table, type Value } from '../types.js';
import { dropCounter, tupleKey, type DropCounter } from './drop-rows.js';

interface PivotPlan { index: string[]; pivot: string[]; values: string[] }

function names(value: unknown, member: string): string[] {
  const list = (value as { columnNames?: unknown } | undefined)?.columnNames;
  if (!Array.isArray(list) || !list.every((c) => typeof c === 'string')) {
    throw new UsageError(`Pivot ${member}.columnNames must be a list of column names.`);
  }
  return list as string[];
}

function validate(config: PivotConfig): PivotPlan {
  const index = names(config.indexColumns, 'indexColumns');
  const pivot = names(config.pivotColumns, 'pivotColumns');
  const values = names(config.valueColumns, 'valueColumns');
  const method = config.indexColumns.aggregationMethod;
  // Seed leaves the case of method values open; we accept any case. `first` is the only method.
  if (typeof method !== 'string' || !AGGREGATION_METHODS.some((m) => m === method.toLowerCase())) {
    throw new UsageError(`Pivot aggregationMethod "${String(method)}" is not supported; the only method is ${AGGREGATION_METHODS.join(', ')}.`);
  }
  if (pivot.length === 0) throw new UsageError('Pivot needs at least one pivot column (pivotColumns.columnNames).');
  if (values.length === 0) throw new UsageError('Pivot needs at least one value column (valueColumns.columnNames).');
  const twice = pivotColumnNamedTwice({ index, pivot, values });
  if (twice !== undefined) throw new UsageError(`Pivot column "${twice.column}" is named twice; a column has one role (index, pivot or value).`);
  return { index, pivot, values };
}

/** Where a pivot column is named again (the role list and position of its second mention), when one is: each column has one role. */
export function pivotColumnNamedTwice(roles: { index: readonly string[]; pivot: readonly string[]; values: readonly string[] }): { column: string; role: 'index' | 'pivot' | 'values'; at: number } | undefined {
  const seen = new Set<string>();
  for (const role of ['index', 'pivot', 'values'] as const) {
    for (const [at, column] of roles[role].entries()) {
      if (seen.has(column)) return { column, role, at };
      seen.add(column);
    }
  }
  return undefined;
}

/**
 * The positions of a role's columns; a column that is not there stops the run, named with where it
 * was configured when the caller knows. An optional field of the schema that no column is mapped
 * to is said as such: it is a field, but not in the output.
 */
function positionsOf(columns: string[], wanted: string[], role: 'indexColumns' | 'pivotColumns' | 'valueColumns', ctx: StepContext): number[] {
  const label = { indexColumns: 'index', pivotColumns: 'pivot', valueColumns: 'value' }[role];
  return wanted.map((name, at) => {
    const i = columns.indexOf(name);
    if (i >= 0) return i;
    const isOptional = (ctx.schema.optionalFields ?? []).includes(name);
    const message = isOptional
      ? `Pivot ${label} column "${name}" is an optional field that no column is mapped to, so it is not in the output and the pivot cannot use it; map a column to "${name}", or remove it from ${role}.`
      : `Pivot ${label} column "${name}" is not a column; columns: ${columns.join(', ')}.`;
    throw new UsageError(locatedMessage(ctx, { step: 'pivot', field: name, role, at }, message));
  });
}

function text(value: Value): string {
  return typeof value === 'number' ? String(value) : (value as string);
}

/** A name not yet in `taken`: the name itself, else with `_2`, `_3`... as the readers do for repeated headers. */
function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = `${name}_${n}`;
  taken.add(candidate);
  return candidate;
}

/** Step 10: reshapes rows so each distinct pivot value becomes a column (aggregation `first`). */
export const pivot: Step = {
  name: 'pivot',
  check(config) {
    if (config.pivot) validate(config.pivot);
  },
  async apply(input: Table, config: EngineConfig, ctx: StepContext): Promise<Table> {
    if (!config.pivot) return input;
    const plan = validate(config.pivot);
    const indexAt = positionsOf(input.columns, plan.index, 'indexColumns', ctx);
    const pivotAt = positionsOf(input.columns, plan.pivot, 'pivotColumns', ctx);
    const valueAt = positionsOf(input.columns, plan.values, 'valueColumns', ctx);

    // Groups in first-seen order; each keeps its index values, first row number and cells by pivot value.
    const groups = new Map<string, { indexValues: Value[]; rowNumber: number; cells: Map<string, Value[]> }>();
    const pivotValues: string[] = [];
    /** Each pivot value's first values of the pivot columns: several pivot columns may join to one name. */
    const firstTuples = new Map<string, string[]>();
    /** Two different tuples that join to one pivot value, the first pair found, and how many rows had such a second tuple. */
    let clash: { first: string[]; other: string[]; rows: number } | undefined;
    /** Rows whose group already had a cell for their pivot value: `first` leaves their values out. */
    let repeated: { rows: number; firstRow: number } | undefined;
    let countMissingPivot: DropCounter | undefined;
    for await (const batch of input.batches) {
      for (let r = 0; r < batch.rows.length; r++) {
        const row = batch.rows[r];
        // A row without a pivot value has no column to go to; like pandas, it is left out
        // (and reported as dropped) rather than inventing a column named after nothing.
        if (pivotAt.some((i) => isMissing(row[i]))) {
          countMissingPivot ??= dropCounter(ctx, `pivot: missing ${plan.pivot.join(', ')}`, { method: 'missingPivotValue', origin: 'pivot', fields: plan.pivot });
          countMissingPivot(batch.rowNumbers[r], row);
          continue;
        }
        const tuple = pivotAt.map((i) => text(row[i]));
        const pivotValue = tuple.join('_');
        const firstTuple = firstTuples.get(pivotValue);
        if (firstTuple === undefined) { firstTuples.set(pivotValue, tuple); pivotValues.push(pivotValue); }
        else if (tuple.length > 1 && tuple.some((t, k) => t !== firstTuple[k])) {
          clash ??= { first: firstTuple, other: tuple, rows: 0 };
          clash.rows++;
        }
        const key = tupleKey(row, indexAt);
        let group = groups.get(key);
        if (!group) {
          group = { indexValues: indexAt.map((i) => (isMissing(row[i]) ? null : row[i])), rowNumber: batch.rowNumbers[r], cells: new Map() };
          groups.set(key, group);
        }
        // `first`: the first row's values for this group and pivot value, even when missing.
        if (!group.cells.has(pivotValue)) group.cells.set(pivotValue, valueAt.map((i) => (isMissing(row[i]) ? null : row[i])));
        else {
          repeated ??= { rows: 0, firstRow: batch.rowNumbers[r] };
          repeated.rows++;
        }
      }
    }
    // What `first`, the joined names and the reshaping leave out is said, never dropped in silence.
    const roles = new Set([...indexAt, ...pivotAt, ...valueAt]);
    const leftOut = input.columns.filter((_, i) => !roles.has(i));
    if (leftOut.length > 0) {
      const one = leftOut.length === 1;
      ctx.warn(`Pivot: ${one ? 'column' : 'columns'} ${nameList(leftOut.map((c) => JSON.stringify(c)))} ${one ? 'is' : 'are'} not an index, pivot or value column, so the output leaves ${one ? 'it' : 'them'} out (a column with one value per group can be added to indexColumns).`);
    }
    if (repeated) {
      ctx.warn(`Pivot: ${repeated.rows} ${repeated.rows === 1 ? 'row repeats' : 'rows repeat'} an index and pivot value already seen (the first at row ${repeated.firstRow}); aggregation first kept the first row's values and left theirs out.`);
    }
    if (clash) {
      const show = (t: string[]) => `(${t.map((v) => JSON.stringify(v)).join(', ')})`;
      ctx.warn(`Pivot: pivot values ${show(clash.first)} and ${show(clash.other)} both join to ${JSON.stringify(clash.first.join('_'))}, so they share one column (${clash.rows} ${clash.rows === 1 ? 'row' : 'rows'} with a second such value); values joined by "_" are one pivot value (engine.md step 10), so pivot on one column to keep them apart.`);
    }

    const columns = [...plan.index];
    const types: (DataType | undefined)[] = indexAt.map((i) => input.types[i]);
    const taken = new Set(columns);
    // One value column: columns named `<pivot value>`; several: `<value column>_<pivot value>`,
    // value column first (all pivot values of the first value column, then the next), the order
    // pandas gives when its (value, pivot) column levels are joined with `_`, as the names are.
    plan.values.forEach((valueColumn, v) => {
      for (const pivotValue of pivotValues) {
        const name = plan.values.length === 1 ? pivotValue : `${valueColumn}_${pivotValue}`;
        const unique = uniqueName(name, taken);
        if (unique !== name) ctx.warn(`Pivot: the column for pivot value ${JSON.stringify(pivotValue)} is named ${JSON.stringify(unique)}: ${JSON.stringify(name)} is already a column.`);
        columns.push(unique);
        types.push(input.types[valueAt[v]]);
      }
    });
    const width = plan.values.length;
    async function* batches(): AsyncGenerator<Batch> {
      let rows: Row[] = [];
      let rowNumbers: number[] = [];
      for (const group of groups.values()) {
        const row: Row = group.indexValues.slice();
        for (let v = 0; v < width; v++) {
          for (const pivotValue of pivotValues) {
            const cells = group.cells.get(pivotValue);
            row.push(cells ? cells[v] : null);
          }
        }
        rows.push(row);
        rowNumbers.push(group.rowNumber);
        if (rows.length === BATCH_SIZE) {
          yield { rows, rowNumbers };
          rows = [];
          rowNumbers = [];
        }
      }
      if (rows.length > 0) yield { rows, rowNumbers };
    }
    return { columns, types, batches: batches() };
  },
};
