/**
 * Checking values against the contract's schemas: a tolerant read of a service's answer, a
 * strict check of an update body, and the one sentence that names what is wrong and where. The
 * callers turn a problem into their own error (the client's ApiError or UsageError, the local
 * service's 400 or 422).
 */
import * as v from 'valibot';
import { entriesInOrder, orderedObject } from './json.js';
import { isPlainObject } from './keyed.js';
import { describeValue, READ_ONLY_MEMBERS, READS, UPDATES, VALUE_ISSUE } from './schemas.js';

/** What is wrong with a value: where (a path such as `pivot.indexColumns.columnNames`, '' for the whole value) and what. */
export interface Problem {
  path: string;
  /** Follows the path in a sentence: `must be a list, not an object`. */
  problem: string;
  /** A value the seed does not allow (422 in `import serve`), rather than a body of the wrong shape (400). */
  isValue: boolean;
}

/** The result of a check: the value as the schema reads it, or the first problem. */
export type Checked<T> = { ok: true; value: T } | { ok: false; problem: Problem };

/** Parses `value` with `schema`; the first problem when it does not fit. */
export function check<S extends v.GenericSchema>(schema: S, value: unknown): Checked<v.InferOutput<S>> {
  const result = v.safeParse(schema, value, { abortEarly: true });
  if (result.success) return { ok: true, value: result.output };
  return { ok: false, problem: problemOf(result.issues[0]) };
}

/** A configuration resource that has a read body. */
export type ReadName = keyof typeof READS;
/** A configuration resource that has an update body. */
export type UpdateName = keyof typeof UPDATES;

/** A service's read body, read tolerantly. */
export function checkRead<K extends ReadName>(name: K, body: unknown): Checked<v.InferOutput<(typeof READS)[K]>> {
  return check(READS[name], body) as Checked<v.InferOutput<(typeof READS)[K]>>;
}

/** An update body, checked strictly (exactly the seed's update members) and read in the seed's spelling. */
export function checkUpdate<K extends UpdateName>(name: K, body: unknown): Checked<v.InferOutput<(typeof UPDATES)[K]>> {
  return check(UPDATES[name], body) as Checked<v.InferOutput<(typeof UPDATES)[K]>>;
}

/** The problem of a valibot issue, in our words. */
export function problemOf(issue: v.BaseIssue<unknown>): Problem {
  const path = pathOf(issue.path ?? []);
  const isValue = issue.expected === VALUE_ISSUE;
  if (issue.kind !== 'schema') return { path, problem: issue.message, isValue };
  const got = describeValue(issue.input);
  // A member the schema requires is absent: the path ends with its key.
  if (issue.input === undefined && typeof issue.expected === 'string' && issue.expected.startsWith('"')) {
    return { path, problem: 'is required', isValue };
  }
  switch (issue.type) {
    case 'string': return { path, problem: `must be a string, not ${got}`, isValue };
    case 'number': return { path, problem: `must be a number, not ${got}`, isValue };
    case 'boolean': return { path, problem: `must be true or false, not ${got}`, isValue };
    case 'array': return { path, problem: `must be a list, not ${got}`, isValue };
    case 'union': return { path, problem: `is ${got}, which is not one of the forms allowed here`, isValue };
    case 'custom': return { path, problem: `${issue.message}, not ${got}`, isValue };
    default: return { path, problem: `must be a JSON object, not ${got}`, isValue };
  }
}

/** A path as JavaScript would write it: `a.b`, `a["odd key"]`, `a[0]`. */
export function pathOf(items: readonly { key?: unknown }[]): string {
  let out = '';
  for (const item of items) {
    const key = item.key;
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += out ? `.${key}` : key;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

/** `root` and a problem's path joined (`body.fieldDataTypes.amount`, `body["1962"]`). */
export function joinPath(root: string, path: string): string {
  if (!path) return root;
  if (!root) return path;
  return path.startsWith('[') ? root + path : `${root}.${path}`;
}

/**
 * A read body with the read-only members of `name` left out (seed: returned on read, omitted on
 * update), so that what `get -o json` prints can be sent back as an update body. Nothing else
 * changes: unknown members stay, for the strict check to name them.
 */
export function withoutReadOnly(name: UpdateName, body: unknown): unknown {
  let out = body;
  for (const member of READ_ONLY_MEMBERS[name]) out = drop(out, member.split('.'));
  return out;
}

function drop(value: unknown, path: string[]): unknown {
  const [head, ...rest] = path;
  if (head === '[]') return Array.isArray(value) ? value.map((item) => drop(item, rest)) : value;
  if (!isPlainObject(value)) return value;
  const pairs = entriesInOrder(value).flatMap(([key, item]): [string, unknown][] => {
    if (head !== '*' && key !== head) return [[key, item]];
    if (rest.length === 0) return [];
    return [[key, drop(item, rest)]];
  });
  return orderedObject(pairs);
}
