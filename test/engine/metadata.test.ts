import { describe, expect, it } from 'vitest';
import type { JobResources } from '../../src/contract/index.js';
import { DataTableCollector, MetadataCollector, startWebhookBody } from '../../src/engine/metadata.js';
import { suggestResources } from '../../src/engine/suggest.js';
import { SAMPLE_ROWS, type Batch, type Row } from '../../src/engine/types.js';

/** A batch of rows numbered from `first` (1-based data-row numbers). */
function batch(rows: Row[], first = 1): Batch {
  return { rows, rowNumbers: rows.map((_, i) => first + i) };
}

describe('MetadataCollector', () => {
  it('lists missing values by 0-based data-row index, the header not counting', () => {
    const m = new MetadataCollector('in.csv', ['a', 'b'], { full: false });
    m.push(batch([['x', null], ['', 'y']]));
    m.push(batch([['  ', 'z'], ['w', null]], 3));
    expect(m.result().missingRowIndices).toEqual({ 'in.csv': { a: [1, 2], b: [0, 3] } });
  });

  it('computes uniqueRatio as distinct non-missing values over data rows, to 4 decimals', () => {
    const m = new MetadataCollector('in.csv', ['a', 'b', 'c'], { full: false });
    m.push(batch([['x', '1', null], ['x', '2', null], ['y', '3', null]]));
    expect(m.result().uniqueRatio).toEqual({ 'in.csv': { a: 0.6667, b: 1, c: 0 } });
  });

  it('compares values as written', () => {
    const m = new MetadataCollector('in.csv', ['a'], { full: false });
    m.push(batch([['US'], ['us'], ['US '], ['US']]));
    expect(m.result().uniqueRatio['in.csv'].a).toBe(0.75);
  });

  it('counts every row in dataLength and lists the input columns', () => {
    const m = new MetadataCollector('jsonData', ['a'], { full: false });
    const rows: Row[] = Array.from({ length: SAMPLE_ROWS + 7 }, () => ['v']);
    m.push(batch(rows.slice(0, 4000)));
    m.push(batch(rows.slice(4000), 4001));
    const r = m.result();
    expect(r.dataLength).toEqual({ jsonData: SAMPLE_ROWS + 7 });
    expect(r.inputColumns).toEqual({ jsonData: ['a'] });
  });

  it('derives uniqueRatio and missingRowIndices from the first SAMPLE_ROWS rows by default', () => {
    const m = new MetadataCollector('in.csv', ['a'], { full: false });
    const rows: Row[] = Array.from({ length: SAMPLE_ROWS + 10 }, (_, i) => [i === 5 || i >= SAMPLE_ROWS ? null : String(i % 2)]);
    // The cut falls inside the second batch.
    m.push(batch(rows.slice(0, SAMPLE_ROWS - 3)));
    m.push(batch(rows.slice(SAMPLE_ROWS - 3), SAMPLE_ROWS - 2));
    const r = m.result();
    expect(r.missingRowIndices['in.csv'].a).toEqual([5]);
    expect(r.uniqueRatio['in.csv'].a).toBe(Math.round((2 / SAMPLE_ROWS) * 10_000) / 10_000);
    expect(r.dataLength['in.csv']).toBe(SAMPLE_ROWS + 10);
  });

  it('derives them from every row with full data', () => {
    const m = new MetadataCollector('in.csv', ['a'], { full: true });
    const rows: Row[] = Array.from({ length: SAMPLE_ROWS + 2 }, (_, i) => [i >= SAMPLE_ROWS ? null : 'v']);
    m.push(batch(rows));
    const r = m.result();
    expect(r.missingRowIndices['in.csv'].a).toEqual([SAMPLE_ROWS, SAMPLE_ROWS + 1]);
    expect(r.uniqueRatio['in.csv'].a).toBe(Math.round((1 / (SAMPLE_ROWS + 2)) * 10_000) / 10_000);
  });

  it('reports zero ratios and no indices for an input with no rows', () => {
    const r = new MetadataCollector('in.csv', ['a'], { full: false }).result();
    expect(r).toEqual({ dataLength: { 'in.csv': 0 }, inputColumns: { 'in.csv': ['a'] }, uniqueRatio: { 'in.csv': { a: 0 } }, missingRowIndices: { 'in.csv': { a: [] } } });
  });
});

describe('startWebhookBody', () => {
  it("combines the job's suggestions with the input metadata", () => {
    const schema = { expectedFields: ['email'], optionalFields: [], fieldDataTypes: { email: 'rich_text' as const }, fieldUnits: {}, imputeMethods: {}, rowDropping: [] };
    const resources: JobResources = suggestResources({ sourceName: 'in.csv', columns: ['E-mail', 'x'], sample: [['a@b.co', '1']], schema });
    const m = new MetadataCollector('in.csv', ['E-mail', 'x'], { full: false });
    m.push(batch([['a@b.co', '1'], [null, '1']]));
    expect(startWebhookBody('job_1', resources, m.result())).toEqual({
      jobId: 'job_1',
      dataLength: { 'in.csv': 2 },
      inputColumns: { 'in.csv': ['E-mail', 'x'] },
      expectedFields: ['email'],
      columnFieldMapping: { 'in.csv': { 'E-mail': { field: 'email', confidence: 1 } } },
      expectedFieldDataTypes: { email: 'rich_text' },
      fieldDataTypes: { email: { dataType: 'rich_text', confidence: 1 } },
      uniqueRatio: { 'in.csv': { 'E-mail': 0.5, x: 0.5 } },
      missingRowIndices: { 'in.csv': { 'E-mail': [1], x: [] } },
    });
  });
});

describe('DataTableCollector', () => {
  it('writes a header row then value rows: numbers as numbers, missing as null, the rest as strings', () => {
    const c = new DataTableCollector();
    c.push(batch([[1, 'Ann', '2024-03-05T00:00:00'], [2.5, '', null]]));
    c.push(batch([[Number.NaN, '  ', '7']], 3));
    expect(c.body('job_1', ['id', 'name', 'when'], ['number', 'rich_text', 'date_time'])).toEqual({
      jobId: 'job_1',
      dataTable: [['id', 'name', 'when'], [1, 'Ann', '2024-03-05T00:00:00'], [2.5, null, null], [null, null, '7']],
      dataTypes: { id: 'number', name: 'rich_text', when: 'date_time' },
    });
  });

  it('types columns with no type as rich_text', () => {
    expect(new DataTableCollector().body('j', ['a', 'b'], [undefined, 'category'])).toEqual({
      jobId: 'j',
      dataTable: [['a', 'b']],
      dataTypes: { a: 'rich_text', b: 'category' },
    });
  });
});
