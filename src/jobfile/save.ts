/**
 * Writing review choices back into a job file (`import review --save`), keeping every byte that
 * does not change. yaml's Document API finds each node and its source range; the text is then
 * edited only there, because `Document.toString()` re-renders the whole file (flow spacing,
 * comment alignment, line folding) and would rewrite lines nobody touched.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { isAlias, isMap, isScalar, isSeq, parseDocument, stringify, visit, type Alias, type Document, type Node, type Pair, type YAMLMap } from 'yaml';
import { writeAtomic } from '../engine/write/atomic.js';
import { UsageError } from '../errors.js';
import { substituteEnv } from './env.js';
import { CONFIG_KEYS } from './format.js';
import { sameValue } from './translate.js';
import type { JobFileConfig } from './types.js';

/** `config` members whose value is a map of name -> value, set key by key. Others are set whole. */
const KEYED_SECTIONS = ['mapping', 'combining', 'dataTypes', 'units', 'impute'] as const;
const WHOLE_SECTIONS = ['sheet', 'allowColumnCombining', 'pivot', 'rowDropping', 'text'] as const;

/**
 * Writes the choices into the job file at `path` (atomically: temp file + rename, same mode):
 * each key of `config.mapping`, `config.dataTypes`, `config.impute` (and the other keyed
 * sections) is changed in place when it differs, added at the end of its map when new;
 * `config` and its sections are created at the end of their parent when missing. Nothing
 * is written when the file already says all of it.
 */
export async function saveChoices(path: string, choices: JobFileConfig, env: NodeJS.ProcessEnv = {}, remove: string[][] = []): Promise<void> {
  const before = await readForSave(path);
  const after = applyChoices(before, choices, path, env, remove);
  if (after === before) return;
  // writeAtomic keeps the job file's permissions.
  await writeAtomic(path, (temp) => writeFile(temp, after, 'utf8'));
}

/** `checkSavable` of the job file at `path`: called before a review with `--save` asks anything. */
export async function checkSavableFile(path: string): Promise<void> {
  checkSavable(await readForSave(path), path);
}

async function readForSave(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${path} to save the choices (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); check the path.`, { cause: error });
  }
}

/**
 * The job file text with the choices written in (pure; `where` names the file in errors). A value
 * is compared with what the file means, as `validate` reads it (an alias as the value it stands
 * for, `${NAME}` with `env`'s value), so a choice equal to it keeps the user's text.
 */
export function applyChoices(text: string, choices: JobFileConfig, where = 'the job file', env: NodeJS.ProcessEnv = {}, remove: string[][] = []): string {
  const leaves: { path: string[]; value: unknown }[] = [];
  for (const section of WHOLE_SECTIONS) {
    if (choices[section] !== undefined) leaves.push({ path: ['config', section], value: plain(choices[section]) });
  }
  for (const section of KEYED_SECTIONS) {
    for (const [key, value] of Object.entries(choices[section] ?? {})) leaves.push({ path: ['config', section, key], value: plain(value) });
  }
  // Sections in the order a job file lists them, so a new `config` block reads naturally.
  const order: readonly string[] = CONFIG_KEYS;
  leaves.sort((a, b) => order.indexOf(a.path[1]) - order.indexOf(b.path[1]));
  // A mapping keyed by its source name (jobfile.md) is edited under that name.
  const original = parseDocument(text, { uniqueKeys: false });
  let doc: Document | undefined = original;
  const source = keyedMappingSource(doc);
  if (source !== undefined) {
    const under = (path: string[]) => (path[0] === 'config' && path[1] === 'mapping' && path.length > 2 ? ['config', 'mapping', source, ...path.slice(2)] : path);
    for (const leaf of leaves) leaf.path = under(leaf.path);
    remove = remove.map(under);
  }

  let out = text;
  // One leaf at a time, parsing again after each edit: every edit sees true ranges.
  for (const leaf of leaves) {
    doc ??= parseDocument(out, { uniqueKeys: false });
    const next = setLeaf(out, doc, leaf.path, leaf.value, where, env);
    if (next !== out) { out = next; doc = undefined; }
  }
  // Items of a list go last first, so each index names the item it named in the file as read.
  const listLengths = new Map<string, number>();
  const listed = remove.filter((path) => {
    const parent = findPath(original, path.slice(0, -1));
    if (isSeq(parent)) listLengths.set(path.slice(0, -1).join('\0'), parent.items.length);
    return isSeq(parent);
  });
  const removals = [...remove.filter((path) => !listed.includes(path)), ...[...listed].sort((a, b) => Number(b[b.length - 1]) - Number(a[a.length - 1]))];
  for (const path of removals) out = deletePath(out, path, where);
  // `init`'s note that a required field has no column is answered once a column is mapped to it.
  for (const field of Object.values(choices.mapping ?? {})) {
    if (typeof field === 'string') out = out.replace(new RegExp(`^[ \\t]*# required field ${escapeRegExp(field)} has no column: .*(\\r?\\n|$)`, 'm'), '');
  }

  const check = parseDocument(out, { uniqueKeys: false });
  for (const path of remove) {
    if (!listed.includes(path) && findPath(check, path) !== undefined) throw new Error(`removing ${path.join('.')} from ${where} left it in place`);
  }
  for (const [parent, length] of listLengths) {
    const gone = listed.filter((path) => path.slice(0, -1).join('\0') === parent).length;
    const node = findPath(check, parent.split('\0'));
    const now = isSeq(node) ? node.items.length : 0;
    if (now !== length - gone) throw new Error(`removing ${gone} item(s) of ${parent.split('\0').join('.')} from ${where} left ${now} of ${length}`);
  }
  for (const leaf of leaves) {
    const value = resolvedValue(findPath(check, leaf.path), check, env);
    if (check.errors.length || !sameValue(value, leaf.value)) {
      throw new Error(`saving ${leaf.path.join('.')} into ${where} produced ${check.errors[0]?.message ?? JSON.stringify(value)}`);
    }
  }
  return out;
}

/**
 * Sets one leaf (`['config', 'impute', 'country']`). A block map there that becomes another map
 * stays a block map, edited member by member: a member that keeps its value keeps its line and
 * its comment, a changed one changes on its line, a new one goes at the end, one no longer in the
 * value goes.
 */
function setLeaf(text: string, doc: Document, path: string[], value: unknown, where: string, env: NodeJS.ProcessEnv): string {
  const node = findPath(doc, path);
  const editable = isMap(node) && !node.flow && node.items.length > 0 && isObject(value) && Object.keys(value).length > 0
    && aliasesOf(doc, node).length === 0 && node.items.every((p) => keyOf(p) !== undefined && keyOf(p) !== '<<');
  if (!editable) return fillCommentedLine(text, doc, path, value) ?? setPath(text, doc, path, value, where, env);
  const before = node.items.map((p) => keyOf(p)!);
  let out = text;
  for (const [key, member] of Object.entries(value)) out = setLeaf(out, parseDocument(out, { uniqueKeys: false }), [...path, key], member, where, env);
  for (const key of before) if (!Object.hasOwn(value, key)) out = deletePath(out, [...path, key], where);
  return out;
}

/** The source name of a `config.mapping` keyed by source (`customers.csv: {First: full_name}`), else undefined. */
function keyedMappingSource(doc: Document): string | undefined {
  const config = doc.get('config', true);
  const mapping = isMap(config) ? config.get('mapping', true) : undefined;
  if (!isMap(mapping) || mapping.items.length !== 1) return undefined;
  const [only] = mapping.items;
  return isMap(only.value) && isScalar(only.key) ? String(only.key.value) : undefined;
}

/** Sets one path (`['config', 'mapping', 'Tel']`) in the text (`doc` is its parse), touching only the bytes that must change. */
function setPath(text: string, doc: Document, path: string[], value: unknown, where: string, env: NodeJS.ProcessEnv): string {
  if (doc.errors.length) throw new UsageError(`${where} is not valid YAML (${doc.errors[0].message}); fix it and save again.`);
  const nl = text.includes('\r\n') ? '\r\n' : '\n';
  const unit = indentUnit(doc.contents, text);
  let node: unknown = doc.contents;
  for (let i = 0; i < path.length; i++) {
    if (!isMap(node)) {
      throw new UsageError(`${path.slice(0, i).join('.') || 'The top level'} in ${where} is not a mapping, so ${path.join('.')} cannot be saved there; fix the file.`);
    }
    const map: YAMLMap = node;
    const pair = map.items.find((p) => keyOf(p) === path[i]);
    const rest = nest(path.slice(i + 1), value);
    if (!pair) return insertPair(text, map, path[i], rest, path.length - i - 1, unit, nl);
    const child = pair.value as Node | null;
    if (i === path.length - 1) return replaceValue(text, doc, pair, value, unit, nl, resolvedValue(child, doc, env), path.join('.'), where);
    refuseShared(doc, path.slice(0, i + 1), path.join('.'), where);
    if (child === null || (isScalar(child) && child.value === null)) return fillNull(text, pair, rest, path.length - i - 2, unit, nl);
    node = child;
  }
  return text;
}

/**
 * Refuses (UsageError) to save `target` through `path` when a section on the way is an alias, or
 * an anchor used elsewhere: an edit there would change what other places of the file say too.
 */
function refuseShared(doc: Document, path: string[], target: string, where: string): void {
  let node: unknown = doc.contents;
  for (let i = 0; i < path.length; i++) {
    if (!isMap(node)) return;
    const pair = node.items.find((p) => keyOf(p) === path[i]);
    if (!pair) return;
    const child = pair.value as Node | null;
    const here = path.slice(0, i + 1).join('.');
    if (isAlias(child)) {
      throw new UsageError(`${here} in ${where} is an alias (*${child.source}), so ${target} cannot be saved there without changing what it points to; write ${here} out in full and save again.`);
    }
    if (child !== null && aliasesOf(doc, child).length) {
      throw new UsageError(`${here} in ${where} is an anchor (&${child.anchor}) used elsewhere, so saving ${target} into it would change those places too; write them out in full and save again.`);
    }
    node = child;
  }
}

/** The `config` sections a review's save may write into or remove from. */
const SAVED_SECTIONS: string[][] = [
  ...[...KEYED_SECTIONS, 'pivot', 'rowDropping'].map((section) => ['config', section]),
  ['config', 'text', 'casing'], ['config', 'text', 'regexReplacement'],
];

/**
 * Refuses (UsageError, as the save would) a job file whose `config`, or a section of it a review
 * may save into, is an alias or an anchor used elsewhere: checked before the review asks
 * anything, so no one answers every question to be refused at the end.
 */
export function checkSavable(text: string, where: string): void {
  const doc = parseDocument(text, { uniqueKeys: false });
  if (doc.errors.length) return; // loading the job file has said what is wrong
  const source = keyedMappingSource(doc);
  for (const path of [...SAVED_SECTIONS, ...(source === undefined ? [] : [['config', 'mapping', source]])]) {
    refuseShared(doc, path, 'the review\'s choices', where);
  }
}

/** `init`'s comment after a value it suggested: true of the suggestion, stale once the value changes. */
const INIT_VALUE_COMMENT = /^[ \t]*#[ \t]*(suggested, confidence [0-9.]+|no field suggested|inferred, confidence [0-9.]+|from the schema, confidence [0-9.]+)[ \t]*$/;

/**
 * A key `init` left as a comment for review (`# Joined: signed_up_at # suggested, confidence 0.64:
 * under 0.8, review it`), in the block map at `path`'s parent: the chosen value takes that line,
 * so the key sits where it was suggested and the question it asked goes with it. Undefined when
 * the key is already in the map or there is no such line.
 */
function fillCommentedLine(text: string, doc: Document, path: string[], value: unknown): string | undefined {
  const parent = findPath(doc, path.slice(0, -1));
  if (!isMap(parent) || parent.flow || parent.items.some((p) => keyOf(p) === path[path.length - 1])) return undefined;
  // The parent's own key line (or the top of the file): the region is the lines indented under it.
  let from = 0;
  let parentIndent = -1;
  if (path.length > 1) {
    const grand = findPath(doc, path.slice(0, -2));
    const pair = isMap(grand) ? grand.items.find((p) => keyOf(p) === path[path.length - 2]) : undefined;
    if (!pair) return undefined;
    const keyStart = (pair.key as Node).range![0];
    parentIndent = columnOf(text, keyStart);
    const lineEnd = text.indexOf('\n', keyStart);
    if (lineEnd === -1) return undefined;
    from = lineEnd + 1;
  }
  const key = flowText(path[path.length - 1]);
  const commented = new RegExp(`^([ \\t]*)#[ \\t]*${escapeRegExp(key)}: .*review it.*$`);
  for (let at = from; at < text.length;) {
    const next = text.indexOf('\n', at);
    const end = next === -1 ? text.length : next;
    const line = text.slice(at, end).replace(/\r$/, '');
    const indent = line.length - line.trimStart().length;
    if (line.trim() !== '' && !line.trimStart().startsWith('#') && indent <= parentIndent) return undefined;
    const m = commented.exec(line);
    if (m && indent > parentIndent) return splice(text, at, at + line.length, `${m[1]}${key}: ${flowText(value)}`);
    at = end + 1;
  }
  return undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Removes one member (`['config', 'dataTypes', 'notes']`) or one list item (`['config',
 * 'rowDropping', '1']`) with its value, the comment on its line and, unless it is the first, the
 * comments directly above it (its own, at its indentation); a block map left empty becomes `{}`,
 * a block list `[]`. A path the file does not have leaves the text as it is.
 */
function deletePath(text: string, path: string[], where: string): string {
  const doc = parseDocument(text, { uniqueKeys: false });
  refuseShared(doc, path.slice(0, -1), path.join('.'), where);
  const parent = findPath(doc, path.slice(0, -1));
  const last = path[path.length - 1];
  let items: { start: number; end: number }[];
  if (isMap(parent)) {
    items = parent.items.map((p) => {
      const key = (p.key as Node).range!;
      return { start: key[0], end: Math.max(((p.value as Node | null)?.range ?? key)[1], key[1]) };
    });
  } else if (isSeq(parent)) {
    items = (parent.items as (Node | null)[]).map((item) => ({ start: item?.range?.[0] ?? -1, end: item?.range?.[1] ?? -1 }));
  } else {
    return text;
  }
  const index = isMap(parent) ? parent.items.findIndex((p) => keyOf(p) === last) : /^\d+$/.test(last) ? Number(last) : -1;
  if (index < 0 || index >= items.length || items[index].start < 0) return text;
  const { start: itemStart, end: itemEnd } = items[index];
  let out: string;
  if (parent.flow) {
    if (index > 0) {
      // From the comma after the member before it.
      out = splice(text, items[index - 1].end, itemEnd, '');
    } else {
      out = splice(text, itemStart, items[1] ? items[1].start : itemEnd, '');
    }
  } else {
    const lineStart = text.lastIndexOf('\n', itemStart - 1) + 1;
    let end = text.indexOf('\n', Math.max(itemEnd - 1, itemStart));
    // A block value's range already ends after its last line.
    if (text[itemEnd - 1] === '\n') end = itemEnd - 1;
    // Comments above the first member head the whole section (init's "# input column: output
    // field ..."), so they stay; those above a later member are that member's.
    out = splice(text, index > 0 ? ownCommentsAbove(text, lineStart) : lineStart, end === -1 ? text.length : end + 1, '');
  }
  if (items.length === 1 && !parent.flow) out = setPath(out, parseDocument(out, { uniqueKeys: false }), path.slice(0, -1), isMap(parent) ? {} : [], 'the job file', {});
  return out;
}

/**
 * Where the comments that belong to the entry starting its line at `lineStart` begin: the
 * own-line comments right above it at its indentation, with no blank line between. A comment
 * `init` left for another key (`# Joined: signed_up_at # ...: review it`, `# required field ...`)
 * is not the entry's and stays, with everything above it.
 */
function ownCommentsAbove(text: string, lineStart: number): number {
  const indentOf = (line: string) => line.length - line.trimStart().length;
  const entryLineEnd = text.indexOf('\n', lineStart);
  const indent = indentOf(text.slice(lineStart, entryLineEnd === -1 ? text.length : entryLineEnd));
  let start = lineStart;
  while (start > 0) {
    const prevStart = text.lastIndexOf('\n', start - 2) + 1;
    const line = text.slice(prevStart, start - 1).replace(/\r$/, '');
    if (!line.trimStart().startsWith('#') || indentOf(line) !== indent || INIT_NOTE.test(line)) break;
    start = prevStart;
  }
  return start;
}

/** `init`'s own-line notes about other keys: a suggestion under the bar left as a comment, a required field with no column. */
const INIT_NOTE = /^[ \t]*#[ \t]*(.*review it|required field .* has no column:)/;

/**
 * A key as `validate` reads it: strings as they are, numbers and booleans as written (`1e3:` is
 * the column "1e3", not 1000), so a save finds the key the user wrote instead of adding a twin.
 */
function keyOf(pair: Pair): string | undefined {
  const key = pair.key;
  if (!isScalar(key) || key.value === null || typeof key.value === 'object') return undefined;
  return typeof key.value === 'string' ? key.value : String(key.source ?? key.value);
}

/** The node at `path` (keys matched as `keyOf` reads them), or undefined. */
function findPath(doc: Document, path: string[]): unknown {
  let node: unknown = doc.contents;
  for (const segment of path) {
    if (isAlias(node)) node = node.resolve(doc);
    if (!isMap(node)) return undefined;
    const pair = node.items.find((p) => keyOf(p) === segment);
    if (!pair) return undefined;
    node = pair.value;
  }
  return node;
}

/** What a node means once loaded: aliases resolved, `${NAME}` in strings replaced from `env` (unset ones left as written). */
function resolvedValue(node: unknown, doc: Document, env: NodeJS.ProcessEnv): unknown {
  if (node === null || node === undefined) return node;
  const value = typeof node === 'object' && 'toJS' in node ? (node as Node).toJS(doc) : node;
  return expand(value, env);
}

function expand(value: unknown, env: NodeJS.ProcessEnv): unknown {
  if (typeof value === 'string') return substituteEnv(value, env).value;
  if (Array.isArray(value)) return value.map((v) => expand(v, env));
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), expand(v, env)]));
  if (isObject(value)) {
    const out: Record<string, unknown> = Object.create(null);
    for (const [k, v] of Object.entries(value)) out[k] = expand(v, env);
    return out;
  }
  return value;
}

/** `{a: {b: value}}` for `['a', 'b']`. */
function nest(path: string[], value: unknown): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
}

/** Adds `key: value` as the last member of a map (block or flow). `depth` levels of `value` are written as block maps. */
function insertPair(text: string, map: YAMLMap, key: string, value: unknown, depth: number, unit: number, nl: string): string {
  const range = map.range!;
  if (map.flow) {
    const last = map.items[map.items.length - 1];
    if (!last) {
      const close = text.lastIndexOf('}', range[1] - 1);
      return splice(text, close, close, `${flowText(key)}: ${flowText(value)}`);
    }
    // Right after the last member, so the spacing before the closing brace stays as it was.
    const end = ((last.value as Node | null)?.range ?? (last.key as Node).range!)[1];
    return splice(text, end, end, `, ${flowText(key)}: ${flowText(value)}`);
  }
  const last = map.items[map.items.length - 1];
  const indent = last ? columnOf(text, (last.key as Node).range![0]) : 0;
  let end = last ? Math.max(((last.value as Node | null)?.range ?? (last.key as Node).range!)[2], (last.key as Node).range![2]) : range[1];
  // After the last member's line (its trailing comment stays with it).
  if (text[end - 1] !== '\n') {
    const lineEnd = text.indexOf('\n', end);
    end = lineEnd === -1 ? text.length : lineEnd + 1;
  }
  const lead = end === text.length && text.length > 0 && !text.endsWith('\n') ? nl : '';
  return splice(text, end, end, lead + blockPair(key, value, indent, depth, unit, nl).join(''));
}

/** The aliases that stand for `node` elsewhere in the file (`b: *t` for `a: &t number`), in document order. */
function aliasesOf(doc: Document, node: Node): Alias[] {
  if (!('anchor' in node) || !node.anchor) return [];
  const out: Alias[] = [];
  visit(doc, { Alias: (_, alias) => { if (alias.resolve(doc) === node) out.push(alias); } });
  return out;
}

/**
 * Replaces a member's value; a value that already means `value` (`current`, resolved) keeps its bytes.
 * A value anchored and used elsewhere (`a: &t number`, `b: *t`) keeps its meaning there: the first
 * alias takes the anchor and the old value (`b: &t number`), so only the chosen member changes.
 */
function replaceValue(text: string, doc: Document, pair: Pair, value: unknown, unit: number, nl: string, current: unknown, shown: string, where: string): string {
  const node = pair.value as Node | null;
  if (node === null || !node.range) {
    const colon = text.indexOf(':', (pair.key as Node).range![1]);
    return splice(text, colon + 1, colon + 1, ` ${flowText(value)}`);
  }
  if (sameValue(current, value)) return text;
  let [start, end] = node.range;
  const aliases = aliasesOf(doc, node);
  if (aliases.length) {
    if ((isMap(node) || isSeq(node)) && !node.flow) {
      throw new UsageError(`${shown} in ${where} is an anchor (&${node.anchor}) used elsewhere, so changing it would change those places too; write them out in full and save again.`);
    }
    // The anchor with any tag after it (`&t !!str number`), moved whole to the first alias.
    const props = text.lastIndexOf(`&${node.anchor}`, start);
    const [aliasStart, aliasEnd] = aliases[0].range!;
    text = splice(text, aliasStart, aliasEnd, text.slice(props, end));
    text = splice(text, props, start, '');
    end -= start - props;
    start = props;
  }
  if ((isMap(node) || isSeq(node)) && !node.flow) {
    // A block value stays a block, at its own indentation.
    const indent = columnOf(text, start);
    const pad = ' '.repeat(indent);
    // A list as block items (`- {method: ...}`), one a line, as a block list is written.
    const lines = isObject(value) && Object.keys(value).length
      ? Object.entries(value).flatMap(([k, v]) => blockPair(k, v, indent, 0, unit, nl))
      : Array.isArray(value) && value.length ? value.map((item) => `${pad}- ${flowText(item)}${nl}`) : [pad + flowText(value) + nl];
    const body = lines.join('').slice(indent);
    return splice(text, start, end, text.slice(start, end).endsWith('\n') ? body : body.slice(0, -nl.length));
  }
  if (isScalar(node) && (node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED')) {
    // `|-` and its lines: the range ends after the last line's newline, which stays.
    return splice(text, start, end, flowText(value) + (text.slice(start, end).endsWith('\n') ? nl : ''));
  }
  // A scalar or a flow collection: the new value in flow style, in the same place.
  const space = start === end && text[start - 1] === ':' ? ' ' : '';
  // `init`'s note on the old value (`# suggested, confidence 0.92`) no longer describes the new one.
  const lineEnd = text.indexOf('\n', end);
  const rest = text.slice(end, lineEnd === -1 ? text.length : lineEnd).replace(/\r$/, '');
  const tail = INIT_VALUE_COMMENT.test(rest) ? rest.length : 0;
  return splice(text, start, end + tail, space + flowText(value));
}

/** `key:` with no value (or null) becoming a map: the members go on the lines below; a comment stays on the key's line. */
function fillNull(text: string, pair: Pair, value: unknown, depth: number, unit: number, nl: string): string {
  const keyRange = (pair.key as Node).range!;
  const colon = text.indexOf(':', keyRange[1]);
  const lineEnd = text.indexOf('\n', colon);
  const at = lineEnd === -1 ? text.length : lineEnd + 1;
  const indent = columnOf(text, keyRange[0]) + unit;
  const lines = Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => blockPair(k, v, indent, depth, unit, nl));
  let out = splice(text, at, at, (lineEnd === -1 ? nl : '') + lines.join(''));
  // An explicit `null` or `~` goes; the space and any comment after it stay.
  const node = pair.value as Node | null;
  if (node?.range && node.range[1] > node.range[0] && node.range[0] > colon) {
    const token = text.slice(node.range[0], node.range[1]).trimEnd();
    if (token !== '' && !token.startsWith('#')) out = splice(out, node.range[0], node.range[0] + token.length, '');
  }
  return out;
}

/** Lines of `key: value` at `indent`; the first `depth` levels of object values as nested block maps, deeper ones in flow style. */
function blockPair(key: string, value: unknown, indent: number, depth: number, unit: number, nl: string): string[] {
  const pad = ' '.repeat(indent);
  if (depth > 0 && isObject(value) && Object.keys(value).length) {
    return [`${pad}${flowText(key)}:${nl}`, ...Object.entries(value).flatMap(([k, v]) => blockPair(k, v, indent + unit, depth - 1, unit, nl))];
  }
  return [`${pad}${flowText(key)}: ${flowText(value)}${nl}`];
}

/** A value on one line: plain when YAML allows, quoted otherwise; collections as `{a: 1}` / `[a, b]`. */
function flowText(value: unknown): string {
  return stringify(value, { collectionStyle: 'flow', flowCollectionPadding: false, lineWidth: 0, blockQuote: false }).trimEnd();
}

/** The indentation step of the file: how far the first block map under the top level is indented (2 if none). */
function indentUnit(root: unknown, text: string): number {
  if (isMap(root)) {
    for (const pair of root.items) {
      const child = pair.value as Node | null;
      if (isMap(child) && !child.flow && child.items.length) {
        const column = columnOf(text, (child.items[0].key as Node).range![0]);
        if (column > 0) return column;
      }
    }
  }
  return 2;
}

function columnOf(text: string, offset: number): number {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  // A byte-order mark before the first line is not indentation.
  return offset - lineStart - (lineStart === 0 && text.startsWith('\uFEFF') && offset > 0 ? 1 : 0);
}

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The value as YAML would read it back: undefined members dropped. */
function plain(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}
