/**
 * Readable tables of each resource (read bodies and the update bodies we send), with confidence
 * as a number and a small bar. cli-table3 is loaded only when a table is printed.
 */
import type CliTable3 from 'cli-table3';
import { entriesInOrder } from '../contract/json.js';
import { printable } from '../errors.js';
import { confidenceBar } from './output.js';

/** Our own colour codes (SGR) are kept; every other control character in a cell is escaped (cells hold a service's names and values). */
const safeCell = (cell: string) => cell.split(/(\u001b\[[0-9;]*m)/).map((part, i) => (i % 2 ? part : printable(part))).join('');

/**
 * What a table needs: the cli-table3 constructor, whether colour is on, and whether the data is a
 * read (a suggestion the service gave no confidence for shows as `unknown`) or a body we sent.
 */
export interface TableKit { Table: typeof CliTable3; color: boolean; isRead: boolean }

/** Loads cli-table3 (kept out of start-up). */
export async function tableKit(color: boolean, isRead = false): Promise<TableKit> {
  const { default: Table } = await import('cli-table3');
  return { Table, color, isRead };
}

/** A table with a header row; columns whose cells are all empty are left out. */
export function renderTable(kit: TableKit, head: string[], rows: string[][]): string {
  const keep = head.map((_, i) => i === 0 || rows.some((r) => (r[i] ?? '') !== ''));
  const pick = <T,>(cells: T[]) => cells.filter((_, i) => keep[i]);
  const table = new kit.Table({
    head: pick(head),
    // Colour only when allowed: plain output must be stable for pipes and tests.
    style: kit.color ? { head: ['bold'], border: ['grey'], compact: true } : { head: [], border: [], compact: true },
  });
  for (const row of rows) table.push(pick(head.map((_, i) => safeCell(row[i] ?? ''))));
  return table.toString();
}

type Any = any;
const conf = (kit: TableKit, c: unknown) => (typeof c === 'number' ? confidenceBar(c, kit.color) : kit.isRead ? 'unknown' : '');
/** Entries of a keyed map (an object or a Map) in written order. */
const pairs = (v: unknown): [string, Any][] => (v && typeof v === 'object' ? entriesInOrder(v as Record<string, Any>) : []);
const list = (v: unknown) => (Array.isArray(v) ? v.join(', ') : '');
const text = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));
const lines = (...parts: (string | false | undefined)[]) => parts.filter((p) => p).join('\n');

/** `sheet get`: every sheet, the selected one marked. */
export function sheetTable(data: Any, kit: TableKit): string {
  const s = data?.sheetSelection ?? {};
  const sheets: string[] = Array.isArray(s.sheets) && s.sheets.length ? s.sheets : s.selected ? [s.selected] : [];
  if (!sheets.length) return 'The input has no sheets (it is not a workbook).';
  return renderTable(kit, ['Sheet', 'Selected', 'Confidence'], sheets.map((name) =>
    [name, name === s.selected ? 'yes' : '', name === s.selected ? conf(kit, s.confidence) : '']));
}

/** `fields get`: column, mapped field and confidence; unmapped columns and expected fields left over below. */
export function fieldsTable(data: Any, kit: TableKit): string {
  const sources = pairs(data?.columnFieldMapping);
  const rows: string[][] = [];
  const mapped = new Set<string>();
  const fields = new Set<string>();
  for (const [source, columns] of sources) {
    for (const [column, m] of pairs(columns)) {
      mapped.add(column);
      if (m?.field) fields.add(m.field);
      rows.push([column, text(m?.field), conf(kit, m?.confidence), sources.length > 1 ? source : '']);
    }
  }
  const inputColumns: string[] = Array.isArray(data?.inputColumns) ? data.inputColumns : [];
  for (const column of inputColumns) if (!mapped.has(column)) rows.push([column, '(unmapped)', '', '']);
  const missing = (Array.isArray(data?.expectedFields) ? data.expectedFields : []).filter((f: string) => !fields.has(f));
  return lines(
    rows.length ? renderTable(kit, ['Column', 'Field', 'Confidence', 'Source'], rows) : 'No columns are mapped.',
    missing.length > 0 && `Expected fields with no column: ${missing.join(', ')}`,
    Array.isArray(data?.optionalFields) && data.optionalFields.length > 0 && `Optional fields: ${data.optionalFields.join(', ')}`,
    data?.allowColumnCombining !== undefined && `Allow column combining: ${data.allowColumnCombining}`,
  );
}

/** `combining get`: per field, method, separator and order. */
export function combiningTable(data: Any, kit: TableKit): string {
  const combined = pairs(data?.columnsBeingCombined);
  if (!combined.length) return 'No columns are being combined.';
  return renderTable(kit, ['Field', 'Method', 'Separator', 'Order'], combined.map(([field, c]) =>
    [field, text(c?.method), c?.methodConfig?.separator !== undefined ? JSON.stringify(c.methodConfig.separator) : '', list(c?.combiningOrder)]));
}

/** `types get`: per field, type, confidence and the pipeline's expected type. */
export function typesTable(data: Any, kit: TableKit): string {
  const expected: Record<string, string> = data?.expectedFieldDataTypes ?? {};
  const types: Record<string, Any> = data?.fieldDataTypes ?? {};
  const fields = [...new Set([...Object.keys(types), ...Object.keys(expected)])];
  if (!fields.length) return 'No data types are set.';
  return renderTable(kit, ['Field', 'Type', 'Confidence', 'Expected'], fields.map((f) =>
    [f, text(types[f]?.dataType), conf(kit, types[f]?.confidence), text(expected[f])]));
}

/** `units get`: per field, column, from, to, confidence and the expected unit. */
export function unitsTable(data: Any, kit: TableKit): string {
  const expected: Record<string, string | null> = data?.expectedFieldUnits ?? {};
  const units: Record<string, Any> = data?.fieldUnitConversions ?? {};
  const fields = [...new Set([...Object.keys(units), ...Object.keys(expected)])];
  if (!fields.length) return 'No unit conversions are set.';
  return renderTable(kit, ['Field', 'Column', 'From', 'To', 'Confidence', 'Expected'], fields.map((f) =>
    [f, text(units[f]?.columnName), text(units[f]?.from), text(units[f]?.to), conf(kit, units[f]?.confidence), text(expected[f])]));
}

/** `impute get`: per field, method, fill value, confidence and the expected method. */
export function imputeTable(data: Any, kit: TableKit): string {
  const expected: Record<string, string | null> = data?.expectedImputeMethods ?? {};
  const methods: Record<string, Any> = data?.imputeMethods ?? {};
  const fields = [...new Set([...Object.keys(methods), ...Object.keys(expected)])];
  if (!fields.length) return 'No impute methods are set.';
  return renderTable(kit, ['Field', 'Method', 'Fill value', 'Confidence', 'Expected'], fields.map((f) => {
    const m = methods[f];
    const method = m ? (m.imputeMethod ?? 'none') : '';
    const fill = m?.imputeMethodConfig && 'fillValue' in m.imputeMethodConfig ? JSON.stringify(m.imputeMethodConfig.fillValue) : '';
    return [f, method, fill, conf(kit, m?.confidence), f in expected ? (expected[f] ?? 'none') : ''];
  }));
}

/** `pivot get`: the three column roles. */
export function pivotTable(data: Any, kit: TableKit): string {
  const p = data?.pivot;
  if (!p) return 'No pivot is set.';
  return renderTable(kit, ['Role', 'Columns', 'Aggregation', 'Confidence'], [
    ['pivot columns', list(p.pivotColumns?.columnNames), '', conf(kit, p.pivotColumns?.confidence)],
    ['value columns', list(p.valueColumns?.columnNames), '', conf(kit, p.valueColumns?.confidence)],
    ['index columns', list(p.indexColumns?.columnNames), text(p.indexColumns?.aggregationMethod), conf(kit, p.indexColumns?.confidence)],
  ]);
}

/** `row-dropping get`: preset and additional rules. */
export function rowDroppingTable(data: Any, kit: TableKit): string {
  const rows: string[][] = [];
  for (const r of data?.presetRowDroppingMethods ?? []) rows.push(['preset', text(r?.method), list(r?.methodConfig?.fields), '']);
  for (const r of data?.additionalRowDroppingMethods ?? []) rows.push(['additional', text(r?.method), list(r?.methodConfig?.fields), conf(kit, r?.confidence)]);
  if (!rows.length) return 'No rows are dropped.';
  return renderTable(kit, ['Kind', 'Method', 'Fields', 'Confidence'], rows);
}

/** `text get`: casing and regular-expression replacements per field. */
export function textTable(data: Any, kit: TableKit): string {
  const t = data?.textProcessingMethods ?? {};
  const rows: string[][] = [];
  for (const [field, casing] of pairs(t.casing)) rows.push([field, 'casing', text(casing), '']);
  for (const [field, rules] of pairs(t.regexReplacement)) {
    // Rules apply in the order shown (written order, a Map in reads and bodies).
    for (const [pattern, replacement] of pairs(rules)) rows.push([field, 'replace', `/${pattern}/`, JSON.stringify(replacement)]);
  }
  if (!rows.length) return 'No text processing is set.';
  return renderTable(kit, ['Field', 'Rule', 'Value', 'Replacement'], rows);
}

/** `scripts get`: script ids by position. */
export function scriptsTable(data: Any, kit: TableKit): string {
  const pre: string[] = data?.preColumnMapping ?? [];
  const post: string[] = data?.postClean ?? [];
  if (!pre.length && !post.length) return 'No scripts are attached.';
  return renderTable(kit, ['Position', 'Scripts'], [['preColumnMapping', pre.join(', ')], ['postClean', post.join(', ')]]);
}

/** The answer of `run` (its shape is not shown in the seed): key and value per member, or the text itself. */
export function answerTable(data: Any, kit: TableKit): string {
  if (data === undefined || data === null || data === '') return '';
  if (typeof data !== 'object' || Array.isArray(data)) return printable(text(data));
  // Nested objects (the local service's `output` and `report`) read better one member per row.
  const rows: string[][] = [];
  const add = (key: string, v: Any, depth: number): void => {
    if (v && typeof v === 'object' && !Array.isArray(v) && depth < 1 && Object.keys(v).length) {
      for (const [k, inner] of Object.entries<Any>(v)) add(`${key}.${k}`, inner, depth + 1);
      return;
    }
    const shown = text(v);
    rows.push([key, shown.length > 80 ? shown.slice(0, 80) + '…' : shown]);
  };
  for (const [k, v] of Object.entries<Any>(data)) add(k, v, 0);
  return rows.length ? renderTable(kit, ['Key', 'Value'], rows) : '';
}
