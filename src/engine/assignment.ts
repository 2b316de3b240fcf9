/**
 * Which column goes to which field (engine.md "Suggestions", mapping): among the candidate pairs
 * (scores at or over the bar), each column and each field used at most once, the set with the
 * best total worth. A pair right with probability p is worth +1 when right and -1 when wrong
 * (someone must undo it): 2p - 1, so a pair counts for its score less about one half, and three
 * middling pairs do not outweigh two good ones as they would in a plain sum of scores.
 *
 * In three rounds: columns whose name equals a field's are fixed first (the earlier column wins);
 * then the pairs scoring at least GUESS_SCORE, worth score - 0.59; then, among what is left, the
 * guesses (0.5 to 0.59), worth score - 0.49. A guess never displaces a better pair to make room
 * for itself. Ties in a total go to earlier columns, then earlier fields, so when each column's
 * best field is wanted by no other column the result is that of taking pairs best-first (each
 * column gets its best field, which no total beats).
 *
 * The candidate pairs fall into independent groups (columns and fields linked by candidates);
 * each group is solved on its own with the Hungarian method (shortest augmenting paths, O(n²m)
 * for n × m). A group too large for that (more than MAX_GROUP_WORK steps, which only very wide
 * inputs against very wide schemas reach) is solved best-first instead, so cost stays bounded.
 */

/** A possible pair: column index, field index, and its score (rounded to 2 decimals). */
export interface Candidate { column: number; field: number; score: number }

/** The field chosen for a column, with the pair's score. */
export interface Choice { field: number; score: number }

/** Pairs scoring under this are guesses, chosen only among what better pairs leave. */
export const GUESS_SCORE = 0.6;

/** Largest n²m a group may cost to be solved exactly; larger groups are solved best-first. */
export const MAX_GROUP_WORK = 20_000_000;

/** Chooses pairs with the best total score; returns the choice of each column (undefined: unmapped). */
export function assignPairs(columnCount: number, candidates: readonly Candidate[], maxGroupWork = MAX_GROUP_WORK): (Choice | undefined)[] {
  const byColumn: (Choice | undefined)[] = new Array(columnCount).fill(undefined);
  const usedFields = new Set<number>();
  // Exact names first, in column order: a column named like a field is that field.
  for (const c of [...candidates].filter((p) => p.score === 1).sort(byPosition)) {
    if (byColumn[c.column] || usedFields.has(c.field)) continue;
    byColumn[c.column] = { field: c.field, score: 1 };
    usedFields.add(c.field);
  }
  // A pair's worth is its score less just under the round's lowest score, so every candidate of
  // the round is worth making.
  for (const [lowest, offset] of [[GUESS_SCORE, Math.round(GUESS_SCORE * 100) - 1], [0, 49]]) {
    const open = candidates.filter((p) => p.score >= lowest && !byColumn[p.column] && !usedFields.has(p.field));
    for (const group of groupsOf(open)) {
      const chosen = groupWork(group) <= maxGroupWork ? solveExactly(group.pairs, offset) : solveBestFirst(group.pairs);
      for (const p of chosen) {
        byColumn[p.column] = { field: p.field, score: p.score };
        usedFields.add(p.field);
      }
    }
  }
  return byColumn;
}

interface Group { pairs: Candidate[]; columns: number; fields: number }

function groupWork({ columns, fields }: Group): number {
  const [small, large] = columns <= fields ? [columns, fields] : [fields, columns];
  return small * small * large;
}

/** Splits pairs into groups linked by shared columns or fields (union-find). */
function groupsOf(pairs: readonly Candidate[]): Group[] {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let root = x;
    while (parent.get(root) !== root) root = parent.get(root)!;
    while (x !== root) { const next = parent.get(x)!; parent.set(x, root); x = next; }
    return root;
  };
  for (const p of pairs) {
    const a = `c${p.column}`;
    const b = `f${p.field}`;
    if (!parent.has(a)) parent.set(a, a);
    if (!parent.has(b)) parent.set(b, b);
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(ra, rb);
  }
  const groups = new Map<string, { pairs: Candidate[]; columns: Set<number>; fields: Set<number> }>();
  for (const p of pairs) {
    const root = find(`c${p.column}`);
    let g = groups.get(root);
    if (!g) groups.set(root, (g = { pairs: [], columns: new Set(), fields: new Set() }));
    g.pairs.push(p);
    g.columns.add(p.column);
    g.fields.add(p.field);
  }
  return [...groups.values()].map((g) => ({ pairs: g.pairs, columns: g.columns.size, fields: g.fields.size }));
}

/** Best-first: highest score first (ties: earlier column, then earlier field), each side once. */
export function solveBestFirst(pairs: readonly Candidate[]): Candidate[] {
  const sorted = [...pairs].sort((a, b) => b.score - a.score || byPosition(a, b));
  const columns = new Set<number>();
  const fields = new Set<number>();
  const out: Candidate[] = [];
  for (const p of sorted) {
    if (columns.has(p.column) || fields.has(p.field)) continue;
    columns.add(p.column);
    fields.add(p.field);
    out.push(p);
  }
  return out;
}

/**
 * The pairs of one group with the best total worth (Hungarian method). Scores are whole
 * hundredths; each weight is (score - offset hundredths) × BIG minus the pair's rank in (column,
 * field) order, so among equal totals the earlier pairs win, and BIG exceeds any sum of ranks.
 */
export function solveExactly(pairs: readonly Candidate[], offset: number): Candidate[] {
  const columns = [...new Set(pairs.map((p) => p.column))].sort((a, b) => a - b);
  const fields = [...new Set(pairs.map((p) => p.field))].sort((a, b) => a - b);
  const columnIndex = new Map(columns.map((c, i) => [c, i]));
  const fieldIndex = new Map(fields.map((f, i) => [f, i]));
  // Rows are the smaller side.
  const rowsAreColumns = columns.length <= fields.length;
  const n = rowsAreColumns ? columns.length : fields.length;
  const m = rowsAreColumns ? fields.length : columns.length;
  const big = n * columns.length * fields.length + 1;
  const weight = new Float64Array(n * m); // 0 = not a candidate (the row stays unmapped)
  const pairAt = new Map<number, Candidate>();
  for (const p of pairs) {
    const c = columnIndex.get(p.column)!;
    const f = fieldIndex.get(p.field)!;
    const rank = c * fields.length + f;
    const cell = rowsAreColumns ? c * m + f : f * m + c;
    weight[cell] = (Math.round(p.score * 100) - offset) * big - rank;
    pairAt.set(cell, p);
  }
  const rowOf = hungarianMax(n, m, weight);
  const out: Candidate[] = [];
  for (let j = 0; j < m; j++) {
    const i = rowOf[j];
    if (i < 0) continue;
    const p = pairAt.get(i * m + j);
    if (p) out.push(p);
  }
  return out;
}

/**
 * Maximum-weight assignment of n rows to m >= n columns (every row gets a column; a zero weight
 * means "not really paired"). Shortest augmenting paths with potentials. Returns, per column,
 * its row or -1.
 */
function hungarianMax(n: number, m: number, weight: Float64Array): Int32Array {
  // Minimise cost = -weight. Arrays are 1-based with index 0 as the virtual start.
  const u = new Float64Array(n + 1);
  const v = new Float64Array(m + 1);
  const p = new Int32Array(m + 1); // p[j] = row assigned to column j (0 = none)
  const way = new Int32Array(m + 1);
  const minv = new Float64Array(m + 1);
  const used = new Uint8Array(m + 1);
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    minv.fill(Infinity);
    used.fill(0);
    do {
      used[j0] = 1;
      const i0 = p[j0];
      let delta = Infinity;
      let j1 = 0;
      for (let j = 1; j <= m; j++) {
        if (used[j]) continue;
        const cur = -weight[(i0 - 1) * m + (j - 1)] - u[i0] - v[j];
        if (cur < minv[j]) { minv[j] = cur; way[j] = j0; }
        if (minv[j] < delta) { delta = minv[j]; j1 = j; }
      }
      for (let j = 0; j <= m; j++) {
        if (used[j]) { u[p[j]] += delta; v[j] -= delta; } else minv[j] -= delta;
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0];
      p[j0] = p[j1];
      j0 = j1;
    } while (j0 !== 0);
  }
  const rowOf = new Int32Array(m).fill(-1);
  for (let j = 1; j <= m; j++) if (p[j] > 0) rowOf[j - 1] = p[j] - 1;
  return rowOf;
}

function byPosition(a: Candidate, b: Candidate): number {
  return a.column - b.column || a.field - b.field;
}
