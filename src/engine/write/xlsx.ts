/**
 * Excel writer (engine.md step 12): one worksheet `data` written with exceljs's streaming
 * WorkbookWriter; number columns as number cells, date_time columns as date cells, the rest as text.
 */
import { createWriteStream } from 'node:fs';
import type ExcelJSNamespace from 'exceljs';
import type { DataType } from '../../contract/index.js';
import type { Table, Value } from '../types.js';

type ExcelJS = typeof ExcelJSNamespace;

/** Number format of date_time cells. */
export const DATE_FORMAT = 'yyyy-mm-dd hh:mm:ss';
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;

/** A value as an Excel cell value for its column's type; null stays an empty cell. */
export function excelValue(value: Value | undefined, type: DataType | undefined): string | number | Date | null {
  if (value === null || value === undefined) return null;
  if (type === 'number') {
    if (typeof value === 'number') return Number.isFinite(value) ? value : null;
    const n = Number(value);
    return value.trim() !== '' && Number.isFinite(n) ? n : value;
  }
  if (type === 'date_time' && typeof value === 'string') {
    // The engine's date_time text is a wall-clock time; Excel has no zones, so it is stored as UTC.
    const m = ISO_DATE_TIME.exec(value);
    if (m) return new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]));
    return value;
  }
  return typeof value === 'number' ? String(value) : value;
}

/** Writes a table as an XLSX workbook to `path` (not atomic: see writeTable); resolves with the number of data rows. */
export async function writeXlsx(table: Table, path: string): Promise<{ rows: number }> {
  const ExcelJS = ((await import('exceljs')) as unknown as { default: ExcelJS }).default;
  const stream = createWriteStream(path);
  let failure: unknown;
  // exceljs only listens for stream errors at the very end; keep the first one and stop at once.
  stream.on('error', (error) => { failure ??= error; });
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  const zip = (book as unknown as { zip: NodeJS.EventEmitter & { abort?: () => void } }).zip;
  zip.on('error', (error: unknown) => { failure ??= error; });
  const check = (): void => {
    if (failure) throw failure;
  };
  let rows = 0;
  try {
    const sheet = book.addWorksheet('data');
    const types = table.columns.map((_, i) => table.types[i]);
    // Column styles reach every cell of the column, so date cells get their format without per-cell work.
    sheet.columns = table.columns.map((name, i) => ({
      key: `c${i}`,
      width: Math.min(60, Math.max(10, name.length + 2)),
      ...(types[i] === 'date_time' ? { style: { numFmt: DATE_FORMAT } } : {}),
    }));
    sheet.addRow(table.columns).commit();
    for await (const batch of table.batches) {
      check();
      for (const row of batch.rows) {
        const values = new Array<string | number | Date | null>(types.length);
        for (let i = 0; i < types.length; i++) values[i] = excelValue(row[i], types[i]);
        sheet.addRow(values).commit();
      }
      rows += batch.rows.length;
    }
    sheet.commit();
    await book.commit();
    check();
    return { rows };
  } catch (error) {
    zip.abort?.();
    stream.destroy();
    throw error;
  }
}
