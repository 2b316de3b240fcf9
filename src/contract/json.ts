/**
 * JSON text <-> values without losing what users wrote. A plain JavaScript object puts
 * integer-like keys ("1962", "9") before the others whatever their written order, so JSON whose
 * member order matters (regular-expression rules, row objects whose keys become columns) is read
 * with the order recorded, and every body we write keeps the order it was built in (`Map`s too).
 * `__proto__` is an ordinary key here: it is always an own property, never a prototype.
 */
import { createRequire } from 'node:module';
import type * as Jsonc from 'jsonc-parser';

// jsonc-parser is loaded on the first text that needs the order-keeping parse, not at start-up
// (commands that build ordered objects import this module when the CLI starts).
let jsonc: typeof Jsonc | undefined;
function jsoncParser(): typeof Jsonc {
  return (jsonc ??= createRequire(import.meta.url)('jsonc-parser') as typeof Jsonc);
}

/** Records the written order of an object's keys when it differs from `Object.keys` order. */
export const KEY_ORDER: unique symbol = Symbol('import.keyOrder');

/** An object that may carry the written order of its keys. */
type Ordered = Record<string, unknown> & { [KEY_ORDER]?: string[] };

/** True for a key that a JavaScript object would move first (a canonical array index). */
export function isIndexLikeKey(key: string): boolean {
  if (key.length === 0 || key.length > 10) return false;
  if (key === '0') return true;
  const first = key.charCodeAt(0);
  if (first < 49 || first > 57) return false; // 1-9: no leading zero
  for (let i = 1; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return Number(key) < 4294967295;
}

/** The keys of an object in the order they were written (or added), integer-like keys included. */
export function keysInOrder(object: object): string[] {
  const order = (object as Ordered)[KEY_ORDER];
  const own = Object.keys(object);
  if (order === undefined) return own;
  // A key deleted since the order was recorded (a column the job file unmaps) is gone; one set
  // since (a pinned column the suggestions did not map) comes last, where it was added.
  const present = order.filter((key) => Object.prototype.hasOwnProperty.call(object, key));
  if (present.length === own.length) return present;
  const listed = new Set(present);
  return [...present, ...own.filter((key) => !listed.has(key))];
}

/** `[key, value]` pairs of an object or a Map, in written order. */
export function entriesInOrder<T>(object: Record<string, T> | Map<string, T>): [string, T][] {
  if (object instanceof Map) return [...object];
  return keysInOrder(object).map((key) => [key, object[key]]);
}

/** Sets `key` as an own property of `target`, so a user's `__proto__` is a key like any other (plain assignment would set the prototype). */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The value of an own key (`__proto__` included), or undefined: never something inherited such as Object.prototype. */
export function getOwn<T>(object: Record<string, T> | undefined, key: string): T | undefined {
  return object !== undefined && Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
}

/** An object with `pairs` as own properties (`__proto__` included) that remembers their order. */
export function orderedObject<T>(pairs: Iterable<readonly [string, T]>): Record<string, T> {
  const object: Ordered = {};
  const keys: string[] = [];
  let reordered = false;
  for (const [key, value] of pairs) {
    if (!Object.prototype.hasOwnProperty.call(object, key)) {
      keys.push(key);
      if (!reordered && isIndexLikeKey(key) && keys.length > 1) reordered = true;
    }
    setOwn(object, key, value);
  }
  if (reordered && !sameOrder(keys, Object.keys(object))) {
    Object.defineProperty(object, KEY_ORDER, { value: keys, enumerable: false });
  }
  return object as Record<string, T>;
}

/**
 * A number literal inside a row's nested value (an array or object cell) that a double would
 * change (`1e400`, `0.30000000000000000001`), kept as written: stringifyJson writes it back as that
 * number, so the cell's JSON still holds a number where the file did, not a string.
 */
export class NumberText {
  constructor(readonly text: string) {}
  /** Writers other than stringifyJson get the text (a string): never a rounded or infinite double. */
  toJSON(): string {
    return this.text;
  }
}

/** Options of `parseJson`. */
export interface ParseJsonOptions {
  /**
   * Data rows: an integer a double cannot hold exactly (`12345678901234567890`, a snowflake id)
   * becomes a BigInt, and a fraction a double would change or a number beyond a double's range
   * (`1e400`) its written text, instead of the nearest double, 0 or Infinity: values are imported
   * as written, never rounded in silence (see exactNumber). Such text inside a row's nested value
   * is a NumberText, so the value's JSON keeps it a number.
   */
  exactNumbers?: boolean;
  /**
   * Data rows: an object that names a key twice is refused (a DuplicateKeyError at the second
   * one) instead of keeping the last value, as JSON.parse does, and losing the first in silence.
   */
  uniqueKeys?: boolean;
  /**
   * Arrays and objects nested deeper than this are refused (a NestingError at the first one past
   * it): JSON.parse takes any depth, but copying or writing such a value back (structuredClone,
   * JSON.stringify) recurses once a level and runs out of stack a few thousand levels down.
   */
  maxDepth?: number;
}

/** A JSON object naming a key twice; the message ends "in JSON at position N", as JSON.parse's errors do. */
export class DuplicateKeyError extends SyntaxError {
  constructor(readonly key: string, readonly offset: number) {
    super(`key ${JSON.stringify(key)} appears twice in one object, so one of its values would be lost, in JSON at position ${offset}`);
  }
}

/** JSON whose arrays and objects nest deeper than a limit; the message ends "in JSON at position N", as JSON.parse's errors do. */
export class NestingError extends SyntaxError {
  constructor(readonly maxDepth: number, readonly offset: number) {
    super(`arrays and objects nest more than ${maxDepth} levels deep, in JSON at position ${offset}`);
  }
}

/**
 * May `text` hold a number that a double would change: 16 digits in a row, 16 digits around a
 * decimal point, or a 3-digit exponent? (cheap; false positives only cost a slower parse)
 */
const MAYBE_INEXACT = /\d{16}|[\d.]{17}|[eE][+-]?\d{3}/;

/**
 * Parses JSON text like `JSON.parse`, and records the written key order of every object whose
 * order a JavaScript object would change (read it with `keysInOrder`). Only such text (or, with
 * `exactNumbers`, text with long numbers) pays for a second, event-based parse.
 */
export function parseJson(text: string, options: ParseJsonOptions = {}): unknown {
  const value: unknown = JSON.parse(text);
  const exact = Boolean(options.exactNumbers) && MAYBE_INEXACT.test(text);
  const keys = objectKeys(value, options.maxDepth ?? Infinity);
  // Checked before the ordered parse below, which recurses too.
  if (keys.isTooDeep) throw new NestingError(options.maxDepth as number, nestingOffset(text, options.maxDepth as number));
  const ordered = exact || keys.indexLike;
  // Fewer keys kept than written means a key repeats: the ordered parse finds where (and, when it
  // runs anyway, checks every object itself, so the count is not needed).
  const repeats = Boolean(options.uniqueKeys) && (ordered || writtenKeyCount(text) !== keys.count);
  return ordered || repeats ? parseOrdered(text, exact, repeats) : value;
}

/**
 * How many object keys valid JSON text writes: strings followed by a colon, read string by string
 * from the start (sticky), so no quote inside a string is taken for the start of one. About half
 * of JSON.parse's time.
 */
function writtenKeyCount(text: string): number {
  const token = /[^"]*("(?:[^"\\]|\\.)*")(\s*:)?/y;
  let n = 0;
  for (let m; (m = token.exec(text)) !== null;) if (m[2] !== undefined) n++;
  return n;
}


/**
 * A number literal as a data value: the double when it holds the written value, else a BigInt
 * for an integer (exact), else the written text: a fraction with more digits than a double holds
 * (`0.30000000000000000001`, which would read back as `0.3`), a number past a double's range
 * either way (`1e400`, `1e-400`), or an integer written with a leading zero (YAML's `01234`, a
 * code). Trailing zeros are not digits a double loses (`1.50` is 1.5).
 */
export function exactNumber(literal: string, n: number): number | bigint | string {
  // Past a double's range, or a leading zero a number would drop (a YAML row's `zip: 01234`).
  if (!Number.isFinite(n) || /^-?0\d/.test(literal)) return literal;
  if (/^-?\d+$/.test(literal)) {
    if (Number.isSafeInteger(n)) return n;
    const exact = BigInt(literal);
    return BigInt(n) === exact ? n : exact;
  }
  return decimalDigits(literal) === decimalDigits(String(n)) ? n : literal;
}

/** The decimal value of JSON number text as one comparable text: its sign and canonicalDecimal (`-1.50e2` -> `-15e1`). */
function decimalDigits(literal: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?$/.exec(literal);
  if (!match) return literal;
  const fraction = match[3] ?? '';
  const decimal = canonicalDecimal(`${match[2]}${fraction}`, Number(match[4] ?? 0) - fraction.length);
  return decimal === '0' ? '0' : `${match[1]}${decimal}`;
}

/** `digits` x 10^`scale` as one text for comparing (`1230`, 0 and `123`, 1 are both `123e1`; all zeros `0`). */
export function canonicalDecimal(digits: string, scale: number): string {
  let from = 0;
  let to = digits.length;
  while (from < to && digits.charCodeAt(from) === 48) from++;
  while (to > from && digits.charCodeAt(to - 1) === 48) { to--; scale++; }
  return from === to ? '0' : `${digits.slice(from, to)}e${scale}`;
}

/**
 * What the objects inside `value` hold: how many own keys in all, and whether any has an
 * integer-like key among others (its written order may differ from Object.keys'); and whether
 * arrays and objects nest deeper than `maxDepth` (the walk stops there). One walk.
 */
function objectKeys(value: unknown, maxDepth: number): { count: number; indexLike: boolean; isTooDeep: boolean } {
  let count = 0;
  let indexLike = false;
  const stack: unknown[] = [value];
  const depths: number[] = [1];
  while (stack.length) {
    const v = stack.pop();
    const depth = depths.pop() as number;
    if (v === null || typeof v !== 'object') continue;
    if (depth > maxDepth) return { count, indexLike, isTooDeep: true };
    if (Array.isArray(v)) {
      for (const item of v) if (item !== null && typeof item === 'object') { stack.push(item); depths.push(depth + 1); }
      continue;
    }
    const keys = Object.keys(v);
    count += keys.length;
    // Integer-like keys come first in Object.keys, so only then may the written order differ.
    if (keys.length > 1 && isIndexLikeKey(keys[0])) indexLike = true;
    for (const key of keys) {
      const item = (v as Record<string, unknown>)[key];
      if (item !== null && typeof item === 'object') { stack.push(item); depths.push(depth + 1); }
    }
  }
  return { count, indexLike, isTooDeep: false };
}

/** Where valid JSON `text` opens its first array or object deeper than `maxDepth` (a scan outside strings). */
function nestingOffset(text: string, maxDepth: number): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) { // a string: skip to its closing quote
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++;
    } else if (c === 91 || c === 123) {
      if (++depth > maxDepth) return i;
    } else if (c === 93 || c === 125) depth--;
  }
  return 0;
}

/** The order-keeping parse: builds values from the parser's events. `text` is valid JSON. */
function parseOrdered(text: string, exactNumbers: boolean, uniqueKeys = false): unknown {
  // Each open container: an array, or an object with its pairs so far and the pending key
  // (and, when keys must be unique, the keys seen).
  type Frame = { array: unknown[] } | { pairs: [string, unknown][]; key: string; seen?: Set<string> };
  const stack: Frame[] = [];
  let result: unknown;
  const put = (value: unknown) => {
    const top = stack[stack.length - 1];
    if (!top) result = value;
    else if ('array' in top) top.array.push(value);
    else top.pairs.push([top.key, value]);
  };
  jsoncParser().visit(text, {
    onObjectBegin: () => { stack.push(uniqueKeys ? { pairs: [], key: '', seen: new Set() } : { pairs: [], key: '' }); },
    onObjectProperty: (property, offset) => {
      const frame = stack[stack.length - 1] as { key: string; seen?: Set<string> };
      if (frame.seen) {
        if (frame.seen.has(property)) throw new DuplicateKeyError(property, offset);
        frame.seen.add(property);
      }
      frame.key = property;
    },
    onObjectEnd: () => { put(orderedObject((stack.pop() as { pairs: [string, unknown][] }).pairs)); },
    onArrayBegin: () => { stack.push({ array: [] }); },
    onArrayEnd: () => { put((stack.pop() as { array: unknown[] }).array); },
    onLiteralValue: (value, offset, length) => {
      if (!exactNumbers || typeof value !== 'number') return put(value);
      const exact = exactNumber(text.slice(offset, offset + length), value);
      // Deeper than a row's cell (rows array, row object), the number is part of a nested value's JSON.
      put(typeof exact === 'string' && stack.length > 2 ? new NumberText(exact) : exact);
    },
  }, { disallowComments: true, allowTrailingComma: false });
  return result;
}

/**
 * `JSON.stringify` that writes object keys in written order (`keysInOrder`) and a `Map` as an
 * object in insertion order. Values without either are handed to `JSON.stringify` whole.
 */
export function stringifyJson(value: unknown, indent?: number): string {
  if (!needsOrderedWrite(value)) return JSON.stringify(value, null, indent);
  return write(value, indent ? ' '.repeat(indent) : '', '') ?? 'null';
}

function needsOrderedWrite(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'bigint') return true;
    if (v === null || typeof v !== 'object') continue;
    if (v instanceof Map || v instanceof NumberText || (v as Ordered)[KEY_ORDER]) return true;
    for (const item of Array.isArray(v) ? v : Object.values(v)) if (typeof item === 'bigint' || (item !== null && typeof item === 'object')) stack.push(item);
  }
  return false;
}

function write(value: unknown, indent: string, at: string): string | undefined {
  if (typeof value === 'bigint') return value.toString(); // an exact integer from `exactNumbers`
  if (value instanceof NumberText) return value.text; // a number as written, from `exactNumbers`
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return JSON.stringify(value);
  const inner = at + indent;
  const open = indent ? `\n${inner}` : '';
  const close = indent ? `\n${at}` : '';
  const sep = indent ? `,\n${inner}` : ',';
  if (Array.isArray(value)) {
    if (!value.length) return '[]';
    return `[${open}${value.map((v) => write(v, indent, inner) ?? 'null').join(sep)}${close}]`;
  }
  const pairs = value instanceof Map ? [...value] : entriesInOrder(value as Record<string, unknown>);
  const parts: string[] = [];
  for (const [key, v] of pairs) {
    const text = write(v, indent, inner);
    if (text !== undefined) parts.push(`${JSON.stringify(String(key))}:${indent ? ' ' : ''}${text}`);
  }
  return parts.length ? `{${open}${parts.join(sep)}${close}}` : '{}';
}

/**
 * `value` for writers that follow `Object.keys` order (the yaml package): every object whose
 * written key order a JavaScript object would change, and every Map, becomes a Map in written order.
 */
export function asOrderedMaps(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(asOrderedMaps);
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  const pairs = entriesInOrder(value as Record<string, unknown>).map(([k, v]) => [k, asOrderedMaps(v)] as [string, unknown]);
  if (value instanceof Map || (value as Ordered)[KEY_ORDER]) return new Map(pairs);
  return orderedObject(pairs);
}

function sameOrder(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((k, i) => k === b[i]);
}
