/**
 * The dry run's HTML report (`import dry-run --report <file.html>`): one self-contained page, inline
 * CSS and SVG, no script and nothing fetched, that an analyst opens in a browser. Pure: data in,
 * HTML text out. Every value from the user's data is escaped.
 */
import type { ColumnProfile } from '../engine/profile.js';
import type { Report } from '../engine/types.js';

/** One input column's mapping as the report shows it. */
export interface MappingRow {
  column: string;
  field: string | null;
  /** The service's (or engine's) confidence in its suggestion. */
  confidence?: number;
  /** The suggested field, when the job file chose another. */
  suggested?: string | null;
  /** Whether the job file pins this column. */
  pinned: boolean;
}

/** Everything the report shows. */
export interface HtmlReport {
  title: string;
  jobFile: string;
  input: string;
  output: string;
  generatedAt: string;
  mapping: MappingRow[];
  report: Report;
  profile: ColumnProfile[];
  /** The rejects file, when one was written. */
  rejectsFile?: string;
}

const CSS = `
:root{--ink:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#f6f8fa;--bar:#0969da;--warn:#bc4c00;--bad:#cf222e;--ok:#1a7f37}
*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);margin:0;background:#fff}
main{max-width:1180px;margin:0 auto;padding:24px 28px 48px}h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:32px 0 10px;padding-bottom:6px;border-bottom:1px solid var(--line)}
h3{font-size:14px;margin:0 0 6px;word-break:break-all}.meta{color:var(--muted);font-size:13px}code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace;background:var(--bg);padding:1px 4px;border-radius:4px}
.cards{display:flex;flex-wrap:wrap;gap:12px;margin-top:16px}.card{border:1px solid var(--line);border-radius:8px;padding:10px 14px;min-width:130px}
.card b{display:block;font-size:22px}.card span{color:var(--muted);font-size:12px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:5px 8px;border-bottom:1px solid var(--line);vertical-align:middle}th{font-size:12px;color:var(--muted);font-weight:600}
td.num{text-align:right;font-variant-numeric:tabular-nums}.badge{display:inline-block;font-size:11px;padding:0 6px;border-radius:10px;border:1px solid var(--line);color:var(--muted)}
.badge.pin{border-color:var(--bar);color:var(--bar)}.badge.low{border-color:var(--warn);color:var(--warn)}.unmapped{color:var(--muted);font-style:italic}
.fields{display:grid;grid-template-columns:repeat(auto-fill,minmax(270px,1fr));gap:14px}.field{border:1px solid var(--line);border-radius:8px;padding:12px}
.field dl{display:grid;grid-template-columns:auto 1fr;gap:2px 10px;margin:6px 0;font-size:12px}.field dt{color:var(--muted)}.field dd{margin:0}
.top{font-size:12px;width:100%}.top td{border:0;padding:1px 4px}.samples{font-size:12px;color:var(--muted);word-break:break-all}
ul.warnings{margin:0;padding-left:20px;color:var(--warn)}ul.warnings li{margin:4px 0;word-break:break-word}svg{display:block}.arrow{color:var(--muted)}.before{color:var(--bad)}.after{color:var(--ok)}
`;

/** Renders the whole page. */
export function renderHtmlReport(data: HtmlReport): string {
  const r = data.report;
  const dropped = r.dropped.reduce((n, d) => n + d.count, 0);
  const filled = Object.values(r.filled).reduce((n, v) => n + v, 0);
  const emptied = Object.values(r.coercionFailures).reduce((n, v) => n + v, 0);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${esc(data.title)}</title><style>${CSS}</style></head>
<body><main>
<h1>${esc(data.title)}</h1>
<div class="meta">Job file <code>${esc(data.jobFile)}</code> · input <code>${esc(data.input)}</code> · output <code>${esc(data.output)}</code> · ${esc(data.generatedAt)}</div>
<div class="cards">
${card(r.rowsIn, 'row in', 'rows in')}${card(r.rowsOut, 'row out', 'rows out')}${card(dropped, 'row dropped', 'rows dropped')}${card(filled, 'cell filled', 'cells filled')}${card(emptied, 'cell emptied (not the type)', 'cells emptied (not the type)')}
</div>
${warningsSection(r)}
${mappingSection(data.mapping)}
${rowsSection(r, data.rejectsFile)}
${fieldsSection(data.profile)}
${cellsSection(r)}
${conversionsSection(r)}
${textSection(r)}
</main></body></html>
`;
}

/** The run's warnings, as the terminal and `-o json` give them: what was read, changed or left out that the numbers alone do not say. */
function warningsSection(r: Report): string {
  if (r.warnings.length === 0) return '';
  return `<h2>Warnings</h2>
<ul class="warnings">
${r.warnings.map((w) => `<li>${esc(w)}</li>`).join('\n')}
</ul>`;
}

function card(value: number, one: string, many: string): string {
  return `<div class="card"><b>${fmt(value)}</b><span>${esc(value === 1 ? one : many)}</span></div>`;
}

function mappingSection(rows: MappingRow[]): string {
  const body = rows.map((m) => {
    const confidence = m.confidence === undefined ? '' : `${bar(m.confidence, 1, 120, m.confidence < 0.8 ? 'var(--warn)' : 'var(--bar)')}`;
    const field = m.field === null ? '<span class="unmapped">unmapped</span>' : esc(m.field);
    const badges = [
      m.pinned ? '<span class="badge pin">pinned in job file</span>' : '',
      m.suggested !== undefined && m.suggested !== m.field ? `<span class="badge">suggested: ${m.suggested === null ? 'unmapped' : esc(m.suggested)}</span>` : '',
      !m.pinned && m.confidence !== undefined && m.confidence < 0.8 ? '<span class="badge low">review</span>' : '',
    ].join(' ');
    return `<tr><td>${esc(m.column)}</td><td class="arrow">→</td><td>${field}</td><td>${confidence}</td><td class="num">${m.confidence === undefined ? '' : m.confidence.toFixed(2)}</td><td>${badges}</td></tr>`;
  }).join('\n');
  return `<h2>Mapping</h2>
<table><thead><tr><th>Input column</th><th></th><th>Field</th><th>Confidence</th><th></th><th></th></tr></thead><tbody>
${body || '<tr><td colspan="6" class="unmapped">no columns</td></tr>'}
</tbody></table>`;
}

function rowsSection(r: Report, rejectsFile: string | undefined): string {
  const max = Math.max(1, r.rowsIn);
  const rows = [
    `<tr><td>Rows in</td>${barCell(r.rowsIn, max, 'var(--muted)')}</tr>`,
    ...r.dropped.map((d) => `<tr><td>Dropped by <code>${esc(d.rule)}</code>${d.firstRows.length ? ` <span class="meta">rows ${d.firstRows.join(', ')}${d.count > d.firstRows.length ? ', …' : ''}</span>` : ''}</td>${barCell(d.count, max, 'var(--bad)')}</tr>`),
    `<tr><td>Rows out</td>${barCell(r.rowsOut, max, 'var(--ok)')}</tr>`,
  ];
  if (r.rowsRepaired) rows.splice(1, 0, `<tr><td>Padded or cut (--lenient)</td>${barCell(r.rowsRepaired, max, 'var(--warn)')}</tr>`);
  return `<h2>Rows</h2>
<table><tbody>
${rows.join('\n')}
</tbody></table>${rejectsFile ? `<p class="meta">Every dropped row and emptied cell is listed in <code>${esc(rejectsFile)}</code>.</p>` : ''}`;
}

function fieldsSection(profile: ColumnProfile[]): string {
  return `<h2>Fields</h2>
<div class="fields">
${profile.map(fieldCard).join('\n')}
</div>`;
}

function fieldCard(p: ColumnProfile): string {
  const missingShare = p.rows ? p.missing / p.rows : 0;
  const distinct = p.distinctCapped ? `more than ${fmt(p.distinct)}` : fmt(p.distinct);
  const isAllDistinct = p.top.length > 0 && p.top[0].count === 1 && p.distinct > 1;
  const top = isAllDistinct ? '<div class="samples">every value is distinct</div>'
    : p.top.length && !(p.histogram && p.type === 'number' && p.distinct > 20)
    ? `<table class="top"><tbody>${p.top.map((t) => `<tr><td>${esc(t.value)}</td><td class="num">${fmt(t.count)}</td><td>${bar(t.count, p.top[0].count, 80, 'var(--bar)')}</td></tr>`).join('')}</tbody></table>`
    : '';
  return `<section class="field"><h3>${esc(p.field)} <span class="badge">${esc(p.type)}</span></h3>
<dl><dt>missing</dt><dd>${fmt(p.missing)} of ${fmt(p.rows)} (${pct(missingShare)}) ${bar(missingShare, 1, 80, 'var(--warn)')}</dd>
<dt>distinct</dt><dd>${distinct}</dd>${p.histogram ? `<dt>range</dt><dd>${esc(showNumber(p.histogram.min, p.histogram.isDate))} – ${esc(showNumber(p.histogram.max, p.histogram.isDate))}</dd>` : ''}</dl>
${p.histogram ? histogramSvg(p.histogram.bins, p.field) : ''}${top}
<div class="samples">samples: ${p.samples.map((s) => `<code>${esc(s)}</code>`).join(' ') || '—'}</div></section>`;
}

function cellsSection(r: Report): string {
  const fields = [...new Set([...Object.keys(r.filled), ...Object.keys(r.coercionFailures)])];
  if (fields.length === 0) return '<h2>Fills and coercion failures</h2><p class="meta">No cell was filled or emptied.</p>';
  return `<h2>Fills and coercion failures</h2>
<table><thead><tr><th>Field</th><th>Filled (impute)</th><th>Emptied (not a valid value of the type)</th></tr></thead><tbody>
${fields.map((f) => `<tr><td>${esc(f)}</td><td class="num">${fmt(r.filled[f] ?? 0)}</td><td class="num">${fmt(r.coercionFailures[f] ?? 0)}</td></tr>`).join('\n')}
</tbody></table>`;
}

function conversionsSection(r: Report): string {
  if (r.converted.length === 0) return '';
  return `<h2>Unit conversions</h2>
<table><thead><tr><th>Field</th><th>Conversion</th><th>Values changed</th></tr></thead><tbody>
${r.converted.map((c) => `<tr><td>${esc(c.field)}</td><td><code>${esc(c.rule)}</code></td><td class="num">${fmt(c.count)}</td></tr>`).join('\n')}
</tbody></table>`;
}

function textSection(r: Report): string {
  if (r.textChanges.length === 0) return '<h2>Text rules</h2><p class="meta">No text rule is configured.</p>';
  return `<h2>Text rules</h2>
<table><thead><tr><th>Field</th><th>Rule</th><th>Cells changed</th><th>Before → after (first few)</th></tr></thead><tbody>
${r.textChanges.map((t) => `<tr><td>${esc(t.field)}</td><td><code>${esc(t.rule)}</code></td><td class="num">${fmt(t.count)}</td><td>${t.examples.map((e) => `<span class="before">${esc(JSON.stringify(e.before))}</span> → <span class="after">${e.after === null ? '(missing)' : esc(JSON.stringify(e.after))}</span>`).join('<br>')}</td></tr>`).join('\n')}
</tbody></table>`;
}

/** A horizontal bar of `value` out of `max`, `width` pixels wide. */
function bar(value: number, max: number, width: number, color: string): string {
  const w = max > 0 ? Math.max(value > 0 ? 1 : 0, Math.round((value / max) * width)) : 0;
  return `<svg width="${width}" height="10" role="img" aria-label="${fmt(value)}" style="display:inline-block;vertical-align:middle"><rect width="${width}" height="10" rx="2" fill="#eaeef2"/><rect width="${w}" height="10" rx="2" fill="${color}"/></svg>`;
}

function barCell(value: number, max: number, color: string): string {
  return `<td class="num">${fmt(value)}</td><td>${bar(value, max, 420, color)}</td>`;
}

function histogramSvg(bins: number[], field: string): string {
  const max = Math.max(1, ...bins);
  const w = 240;
  const h = 48;
  const bw = w / bins.length;
  const rects = bins.map((b, i) => {
    const bh = b === 0 ? 0 : Math.max(1, Math.round((b / max) * h));
    return `<rect x="${(i * bw + 0.5).toFixed(1)}" y="${h - bh}" width="${(bw - 1).toFixed(1)}" height="${bh}" fill="var(--bar)"/>`;
  }).join('');
  return `<svg width="${w}" height="${h}" role="img" aria-label="histogram of ${esc(field)}">${rects}</svg>`;
}

function showNumber(n: number, isDate: boolean): string {
  return isDate ? new Date(n).toISOString().slice(0, 19) : String(Number(n.toPrecision(12)));
}

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}

function pct(share: number): string {
  return `${(share * 100).toFixed(share > 0 && share < 0.01 ? 2 : 1)}%`;
}

/** Escapes text for HTML content and attribute values. */
export function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
