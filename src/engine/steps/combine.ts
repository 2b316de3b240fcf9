/**
 * Step 4, combining: several input columns mapped to one field become one value.
 *
 * The values are combined while mapping (map.ts calls `combineValues` for each row), because
 * after mapping a field has one column and the separate values are gone; combining there costs
 * one pass and no temporary columns. This step keeps its place in the order and validates the
 * combining configuration; its `apply` passes rows through untouched.
 */
import { COMBINING_METHODS, DEFAULT_SEPARATOR, type CombiningMethod } from '../../contract/index.js';
import { keysInOrder } from '../../contract/json.js';
import { UsageError } from '../../errors.js';
import { isMissing } from '../missing.js';
import type { EngineConfig, Step, Value } from '../types.js';

/** How one field's columns are combined, fully resolved (defaults applied). */
export interface CombineSpec {
  field: string;
  method: CombiningMethod;
  separator: string;
  /** The field's input columns in combining order. */
  columns: string[];
}

/** The allowed method a configured method names, ignoring case; `undefined` when none. */
export function combiningMethodOf(value: unknown): CombiningMethod | undefined {
  // Seed: the update example writes `JSON` while the allowed list says `json`; we accept any case.
  if (typeof value !== 'string') return undefined;
  const lower = value.toLowerCase();
  return COMBINING_METHODS.find((m) => m.toLowerCase() === lower);
}

/** The input columns of each field that several columns map to, in `columnOrder` order (then mapping order). Linear in the columns. */
export function combinedFields(mapping: Record<string, string>, columnOrder: string[]): Map<string, string[]> {
  const byField = new Map<string, string[]>();
  const inOrder = new Set(columnOrder);
  const ordered = [...inOrder, ...keysInOrder(mapping).filter((c) => !inOrder.has(c))];
  for (const column of ordered) {
    if (!Object.hasOwn(mapping, column)) continue;
    const field = mapping[column];
    if (typeof field !== 'string' || field === '') continue;
    const list = byField.get(field);
    if (list) list.push(column);
    else byField.set(field, [column]);
  }
  for (const [field, columns] of byField) if (columns.length < 2) byField.delete(field);
  return byField;
}

/** The message for several columns mapped to one field while combining is off. */
export function combiningNotAllowedMessage(field: string, columns: string[]): string {
  const list = columns.join(', ');
  const verb = columns.length === 2 ? 'both map' : 'all map';
  return `Columns ${list} ${verb} to field ${field}; set allowColumnCombining: true or map one of them elsewhere.`;
}

/** What a combining order gets wrong: the first column it lists twice (at its second place), columns that are not the field's, the field's columns it leaves out. */
export interface OrderProblems { repeated?: { column: string; at: number }; foreign: { column: string; at: number }[]; leftOut: string[] }

/**
 * The rule for a combining order, in one place (the job-file check words its breaches with their
 * positions, the engine for any body): it lists exactly the field's columns, each once. undefined
 * when it does.
 */
export function combiningOrderProblems(order: readonly string[], columns: readonly string[]): OrderProblems | undefined {
  const own = new Set(columns);
  const seen = new Set<string>();
  const problems: OrderProblems = { foreign: [], leftOut: [] };
  order.forEach((column, at) => {
    if (seen.has(column)) problems.repeated ??= { column, at };
    else if (!own.has(column)) problems.foreign.push({ column, at });
    seen.add(column);
  });
  problems.leftOut = columns.filter((column) => !seen.has(column));
  return problems.repeated || problems.foreign.length > 0 || problems.leftOut.length > 0 ? problems : undefined;
}

/**
 * Resolves (and validates) how each combined field is combined: method (default `stringAppend`),
 * separator (default `""`), and order (default: input column order; a given `combiningOrder` must
 * list exactly the field's columns). Throws a UsageError naming the field otherwise.
 */
export function resolveCombining(config: EngineConfig, columnOrder: string[]): CombineSpec[] {
  const specs: CombineSpec[] = [];
  for (const [field, columns] of combinedFields(config.mapping ?? {}, columnOrder)) {
    if (!config.allowColumnCombining) throw new UsageError(combiningNotAllowedMessage(field, columns));
    const combining = config.combining ?? {};
    const entry = (Object.hasOwn(combining, field) ? combining[field] : undefined) ?? {};
    let method: CombiningMethod = 'stringAppend';
    if (entry.method !== undefined && entry.method !== null) {
      const found = combiningMethodOf(entry.method);
      if (!found) throw new UsageError(`Combining method "${String(entry.method)}" for field ${field} is not one of ${COMBINING_METHODS.join(', ')}.`);
      method = found;
    }
    const separator = entry.methodConfig?.separator ?? DEFAULT_SEPARATOR;
    if (typeof separator !== 'string') throw new UsageError(`Combining separator for field ${field} must be a string.`);
    let order = columns;
    if (entry.combiningOrder !== undefined && entry.combiningOrder !== null) {
      const given = entry.combiningOrder;
      if (!Array.isArray(given) || combiningOrderProblems(given, columns)) {
        throw new UsageError(`combiningOrder for field ${field} must list exactly its columns ${columns.join(', ')}, each once; got ${Array.isArray(given) ? given.join(', ') || 'nothing' : JSON.stringify(given)}.`);
      }
      order = given;
    }
    specs.push({ field, method, separator, columns: order });
  }
  return specs;
}

const JSON_KEYS = new WeakMap<CombineSpec, string[]>();
/** Each column's `"name":` for json combining, made once per spec. */
function jsonKeys(spec: CombineSpec): string[] {
  let keys = JSON_KEYS.get(spec);
  if (!keys) {
    keys = spec.columns.map((c) => `${JSON.stringify(c)}:`);
    JSON_KEYS.set(spec, keys);
  }
  return keys;
}

function asText(value: Value): string {
  return typeof value === 'number' ? String(value) : (value as string);
}

/**
 * Combines one row's values of a field's columns (given in combining order): `stringAppend` joins
 * the text with the separator (missing as `""`; all missing → null); `json` writes a compact object
 * keyed by column name, missing as `null`.
 */
export function combineValues(spec: CombineSpec, values: Value[]): Value {
  if (spec.method === 'json') {
    // Written directly rather than through an object: keys keep the combining order (an object
    // would move `"1962"` first) and `__proto__` stays a key.
    const keys = jsonKeys(spec);
    let json = '{';
    for (let i = 0; i < keys.length; i++) {
      const v = values[i];
      json += (i > 0 ? ',' : '') + keys[i] + (isMissing(v) ? 'null' : JSON.stringify(asText(v)));
    }
    // Even an all-missing row gives an object: the keys still say which columns were combined.
    return json + '}';
  }
  let text = '';
  let isAllMissing = true;
  for (let i = 0; i < values.length; i++) {
    if (i > 0) text += spec.separator;
    const v = values[i];
    if (!isMissing(v)) {
      isAllMissing = false;
      text += asText(v);
    }
  }
  return isAllMissing ? null : text;
}

/** Step 4: validates the combining configuration; the values were combined by the map step. */
export const combine: Step = {
  name: 'combine',
  check(config) {
    // Column order does not matter for validation; the mapping's key order stands in for it.
    resolveCombining(config, keysInOrder(config.mapping ?? {}));
  },
  apply(input, config) {
    resolveCombining(config, keysInOrder(config.mapping ?? {}));
    return input;
  },
};
