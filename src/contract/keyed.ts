/**
 * Schemas for user-keyed maps (field -> ..., column -> ..., pattern -> replacement). valibot's
 * `record` builds a plain object: it drops `__proto__`, `constructor` and `prototype` and moves
 * integer-like keys first. These keep every key, in written order (json.ts `keysInOrder`), as an
 * ordered object or a `Map`.
 */
import * as v from 'valibot';
import { entriesInOrder, orderedObject } from './json.js';

/** Any synchronous valibot schema. */
type AnySchema = v.GenericSchema<any, any, v.BaseIssue<unknown>>;

/** The issue of a value that is not a JSON object where a keyed map is expected. */
export interface KeyedIssue extends v.BaseIssue<unknown> {
  readonly kind: 'schema';
  readonly type: 'keyed';
  readonly expected: 'Object';
}

/** A keyed-map schema: `Out` is an ordered object or a Map of the value schema's outputs. */
export interface KeyedSchema<TValue extends AnySchema, Out>
  extends v.BaseSchema<Record<string, v.InferInput<TValue>>, Out, KeyedIssue | v.InferIssue<TValue>> {
  readonly type: 'keyed';
  readonly reference: (...args: any[]) => v.BaseSchema<unknown, unknown, v.BaseIssue<unknown>>;
  readonly expects: 'Object';
  readonly value: TValue;
  readonly message: undefined;
}

/** Whether `value` is a JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Map);
}

interface KeyedOptions {
  /** Build a Map instead of an ordered object. */
  map?: boolean;
  /** Tolerant reads: a `null` value, or one the value schema turns into `undefined`, is "not set" and left out. */
  skipUnset?: boolean;
}

function keyedSchema<TValue extends AnySchema, Out>(value: TValue, options: KeyedOptions): KeyedSchema<TValue, Out> {
  return v._standardSchema({
    kind: 'schema',
    type: 'keyed',
    reference: keyed,
    expects: 'Object',
    async: false,
    value,
    message: undefined,
    '~run'(this: any, dataset: any, config: any) {
      const input = dataset.value;
      // A Map is accepted too: bodies we build hold regular-expression rules as Maps.
      if (!isPlainObject(input) && !(input instanceof Map)) {
        v._addIssue(this, 'type', dataset, config);
        return dataset;
      }
      dataset.typed = true;
      const pairs: [string, unknown][] = [];
      for (const [key, item] of entriesInOrder(input as Record<string, unknown>)) {
        if (options.skipUnset && (item === null || item === undefined)) continue;
        const out = this.value['~run']({ value: item }, config);
        if (out.issues) {
          const pathItem = { type: 'object', origin: 'value', input, key, value: item };
          for (const issue of out.issues) {
            if (issue.path) issue.path.unshift(pathItem);
            else issue.path = [pathItem];
            dataset.issues?.push(issue);
          }
          if (!dataset.issues) dataset.issues = out.issues;
          if (config.abortEarly) {
            dataset.typed = false;
            break;
          }
        }
        if (!out.typed) dataset.typed = false;
        if (options.skipUnset && out.value === undefined) continue;
        pairs.push([key, out.value]);
      }
      dataset.value = options.map ? new Map(pairs) : orderedObject(pairs);
      return dataset;
    },
  } as unknown as Omit<KeyedSchema<TValue, Out>, '~standard'>);
}

/** A JSON object with user-named keys, every value checked by `value`; keys kept as written. */
export function keyed<TValue extends AnySchema>(value: TValue): KeyedSchema<TValue, Record<string, v.InferOutput<TValue>>> {
  return keyedSchema(value, {});
}

/** Like `keyed`, for reads: `null` values, and values `value` reads as `undefined`, are "not set" and left out. */
export function keyedRead<TValue extends AnySchema>(value: TValue): KeyedSchema<TValue, Record<string, Exclude<v.InferOutput<TValue>, undefined>>> {
  return keyedSchema(value, { skipUnset: true });
}

/** A JSON object whose key order matters (regular-expression rules), read into a Map in written order. */
export function orderedMap<TValue extends AnySchema>(value: TValue, read = false): KeyedSchema<TValue, Map<string, Exclude<v.InferOutput<TValue>, undefined>>> {
  return keyedSchema(value, { map: true, skipUnset: read });
}
