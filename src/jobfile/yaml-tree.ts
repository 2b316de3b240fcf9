/**
 * Parsing job-file YAML into a tree with positions, at a cost linear in the file: yaml's own
 * duplicate-key check (quadratic in a mapping's size) and alias lookup (a walk of the whole
 * document per alias) are replaced by one pass here, and brackets nested past any sensible
 * depth are refused before the parser recurses into them.
 */
import { isAlias, isMap, isPair, isSeq, LineCounter, parseDocument, type Document } from 'yaml';

/** Flow brackets nested deeper than this are refused (a job file needs a handful of levels). */
export const MAX_NESTING = 64;

/** A syntax problem: where (an offset into the text) and what, as one sentence. */
export interface SyntaxProblem { offset: number; message: string }

/** A parsed YAML document with what validation needs. */
export interface YamlTree {
  text: string;
  doc: Document;
  lineCounter: LineCounter;
  /** Syntax errors; when there are any, the tree cannot be trusted. */
  errors: SyntaxProblem[];
  /** Syntax warnings (the tree is sound). */
  warnings: SyntaxProblem[];
  /** The node an alias stands for (the last node anchored with its name before it), or undefined. */
  resolve(alias: unknown): unknown;
}

/** Parses `text`; never throws for bad YAML (the errors say what is wrong). */
export function parseYamlTree(text: string): YamlTree {
  const lineCounter = new LineCounter();
  const brackets = scanFlowBrackets(text);
  if (brackets.tooDeep !== undefined) {
    // Parsing would recurse once per level; refuse before it does.
    const doc = parseDocument('', { lineCounter: new LineCounter() });
    lineCounter.addNewLine(0);
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineCounter.addNewLine(i + 1);
    const error = { offset: brackets.tooDeep, message: `brackets nest more than ${MAX_NESTING} levels deep here; a job file needs only a few levels, so look for a "[" or "{" that is never closed.` };
    return { text, doc, lineCounter, errors: [error], warnings: [], resolve: () => undefined };
  }
  let doc: Document;
  try {
    // uniqueKeys: false: yaml compares each key with every earlier one; duplicates are found in one pass by the validator.
    doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
  } catch (error) {
    const empty = parseDocument('', { lineCounter: new LineCounter() });
    return { text, doc: empty, lineCounter, errors: [{ offset: 0, message: `invalid YAML: ${(error as Error).message}; fix the syntax.` }], warnings: [], resolve: () => undefined };
  }
  const errors = syntaxErrors(doc, text, brackets.unclosed);
  const warnings = doc.warnings.map((w) => ({ offset: w.pos[0], message: `YAML: ${sentence(w.message)}` }));
  const targets = errors.length ? new Map<unknown, unknown>() : aliasTargets(doc);
  return { text, doc, lineCounter, errors, warnings, resolve: (alias) => targets.get(alias) };
}

/** The first syntax error as one clear sentence: the rest of a broken file are consequences of it. */
function syntaxErrors(doc: Document, text: string, unclosed: number[]): SyntaxProblem[] {
  const [first] = doc.errors;
  if (!first) return [];
  if (first.code === 'MULTIPLE_DOCS') {
    return [{ offset: first.pos[0], message: 'the file holds more than one YAML document; keep one and remove the "---" separator.' }];
  }
  if (first.code === 'RESOURCE_EXHAUSTION') {
    return [{ offset: first.pos[0], message: 'the YAML nests too deeply to read here; a job file needs only a few levels, so look for an unclosed bracket or a runaway indentation.' }];
  }
  const open = unclosed[0];
  if (open !== undefined && open <= first.pos[0]) {
    const bracket = text[open];
    const close = bracket === '[' ? ']' : '}';
    const { line } = lineOf(text, first.pos[0]);
    return [{ offset: open, message: `invalid YAML: this "${bracket}" is never closed (the parser reached line ${line} looking for "${close}"); add the "${close}".` }];
  }
  return [{ offset: first.pos[0], message: `invalid YAML: ${sentence(first.message).replace(/\.$/, '')}; fix the syntax here.` }];
}

/**
 * Each alias's target, found in one pass over the document in order: an anchor names the last
 * node written with it before the alias (an alias inside its own anchored node points at that
 * node, a cycle the validator reports). Iterative, so depth costs no stack.
 */
function aliasTargets(doc: Document): Map<unknown, unknown> {
  const anchors = new Map<string, unknown>();
  const targets = new Map<unknown, unknown>();
  const stack: unknown[] = [doc.contents];
  while (stack.length) {
    const node = stack.pop();
    if (node === null || node === undefined) continue;
    if (isAlias(node)) {
      targets.set(node, anchors.get(node.source));
      continue;
    }
    if (isPair(node)) {
      stack.push(node.value, node.key);
      continue;
    }
    const anchor = (node as { anchor?: string }).anchor;
    if (anchor) anchors.set(anchor, node);
    if (isMap(node) || isSeq(node)) {
      for (let i = node.items.length - 1; i >= 0; i--) stack.push(node.items[i]);
    }
  }
  return targets;
}

/**
 * Flow brackets (`[`, `{`) opened and not closed, and where nesting first passes MAX_NESTING.
 * A bracket counts where a YAML value can start (after `:`, `-`, `,`, `?`, another bracket, or at
 * the start of a line), outside quotes and comments; a closing bracket counts inside brackets.
 */
export function scanFlowBrackets(text: string): { tooDeep?: number; unclosed: number[] } {
  const open: number[] = [];
  let last = '\n'; // the last character that is not a space or a tab, on this line
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') { last = '\n'; continue; }
    if (c === ' ' || c === '\t' || c === '\r') continue;
    const atValueStart = last === '\n' || last === ':' || last === '-' || last === ',' || last === '?' || last === '[' || last === '{';
    if (c === '#' && (last === '\n' || /\s/.test(text[i - 1] ?? '\n'))) {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
      continue;
    }
    if ((c === '"' || c === "'") && atValueStart) {
      i = quoteEnd(text, i);
      last = c;
      continue;
    }
    if ((c === '[' || c === '{') && atValueStart) {
      open.push(i);
      if (open.length > MAX_NESTING) return { tooDeep: i, unclosed: open };
    } else if ((c === ']' || c === '}') && open.length) {
      open.pop();
    }
    last = c;
  }
  return { unclosed: open };
}

/** The offset of the quote that closes the quoted scalar starting at `start` (or the end of the text). */
function quoteEnd(text: string, start: number): number {
  const quote = text[start];
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (quote === '"' && c === '\\') { i++; continue; }
    if (c === quote) {
      if (quote === "'" && text[i + 1] === "'") { i++; continue; }
      return i;
    }
  }
  return text.length;
}

function lineOf(text: string, offset: number): { line: number } {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return { line };
}

/** Ends a message fragment with a period (unless it already ends a sentence). */
export function sentence(message: string): string {
  const text = message.replace(/\s+/g, ' ').trim();
  return /[.?!]$/.test(text) ? text : `${text}.`;
}
