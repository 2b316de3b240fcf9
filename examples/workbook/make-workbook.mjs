// Regenerates orders.xlsx (committed): node examples/workbook/make-workbook.mjs
import ExcelJS from 'exceljs';
import { fileURLToPath } from 'node:url';

const wb = new ExcelJS.Workbook();
const notes = wb.addWorksheet('Notes');
notes.addRow(['About this export']);
notes.addRow(['Orders are on the second sheet.']);
const orders = wb.addWorksheet('Orders');
orders.addRow([]); // a blank first row: the header is the first non-empty row
orders.addRow(['Order No', 'Customer', 'Qty', 'Unit Price', 'Ordered At', 'Status']);
const rows = [
  ['A-001', 'ann lee', 3, 9.5, new Date(Date.UTC(2024, 2, 5, 14, 22, 10)), 'shipped'],
  ['A-002', 'BOB ROSS', 1, 120, new Date(Date.UTC(2024, 2, 6)), 'open'],
  ['A-003', 'cy twombly', null, 15.25, new Date(Date.UTC(2024, 2, 7, 9, 30)), 'open'],
  ['A-004', 'dee', 12, 1.1, new Date(Date.UTC(2024, 2, 8, 23, 59, 59)), 'cancelled'],
];
for (const r of rows) orders.addRow(r);
await wb.xlsx.writeFile(fileURLToPath(new URL('./orders.xlsx', import.meta.url)));
