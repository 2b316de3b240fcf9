// What `start` derives from an upload: the engine's suggestions and the column type profiles that
// later updates use, both from the first SAMPLE_ROWS rows only (the rows the dry run's suggestions use).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobResources } from '../../src/contract/index.js';
import { stringifyJson } from '../../src/contract/json.js';
import { analyzeJob } from '../../src/engine/pipeline.js';
import { openInput } from '../../src/engine/read/index.js';
import { inferDataType } from '../../src/engine/suggest.js';
import { SAMPLE_ROWS, type Row } from '../../src/engine/types.js';
import { loadSchemaFile } from '../../src/jobfile/schema-file.js';
import { ROOT, startEmulator, type Emulator } from '../support/emulator.js';
import { call, startJob } from './helpers.js';

const READS: Record<keyof JobResources, string> = {
  sheet: 'selected-sheet', fields: 'fields', combining: 'column-combining-methods', dataTypes: 'field-data-types', units: 'units',
  impute: 'impute-methods', pivot: 'pivot', rowDropping: 'row-dropping-methods', text: 'text-processing-methods', scripts: 'scripts',
};

let emu: Emulator;
let dir: string;
let file: string;
beforeAll(async () => {
  emu = await startEmulator({ schema: 'examples/customers/schema.yaml' });
  dir = await mkdtemp(join(tmpdir(), 'emulator-start-suggestions-'));
  // Past the sample every column changes its kind: amounts and dates become text, a few
  // categories become many. Suggestions and profiles must not see those rows.
  const lines = ['customer_id,amount,signup,plan,notes'];
  for (let i = 0; i < SAMPLE_ROWS + 500; i++) {
    const isSample = i < SAMPLE_ROWS;
    lines.push([
      i + 1,
      isSample ? (i % 7 === 0 ? '' : (i * 1.25).toFixed(2)) : `about ${i}`,
      isSample ? `2024-01-${String((i % 28) + 1).padStart(2, '0')}` : `week ${i}`,
      isSample ? ['basic', 'pro', 'team'][i % 3] : `plan-${i}`,
      i % 11 === 0 ? '"says ""hi"", twice"' : `note ${i}`,
    ].join(','));
  }
  file = join(dir, 'customers-long.csv');
  await writeFile(file, lines.join('\n') + '\n');
});
afterAll(async () => {
  await emu?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** The first SAMPLE_ROWS raw rows of a file, as the engine reads them. */
async function sampleOf(path: string): Promise<{ columns: string[]; rows: Row[] }> {
  const table = await (await openInput({ file: path })).open({});
  const rows: Row[] = [];
  for await (const batch of table.batches) {
    for (const row of batch.rows) if (rows.length < SAMPLE_ROWS) rows.push(row);
    if (rows.length >= SAMPLE_ROWS) break;
  }
  return { columns: table.columns, rows };
}

describe('start', () => {
  it('answers every resource with the suggestions the engine makes for the same file', async () => {
    const jobId = await startJob(emu, { file, fields: { pipelineId: 'pl_customers' } });
    const source = await openInput({ file });
    const schema = await loadSchemaFile(join(ROOT, 'examples', 'customers', 'schema.yaml'), process.env);
    const expected = (await analyzeJob({ input: source, schema })).resources;
    for (const [name, path] of Object.entries(READS) as [keyof JobResources, string][]) {
      const answer = await call(emu, 'GET', `/${path}/${jobId}`);
      expect(answer.status).toBe(200);
      expect(answer.body, name).toEqual(name === 'sheet' ? { sheetSelection: null } : JSON.parse(stringifyJson(expected[name])));
    }
  });

  it("keeps each column's inferred type and its number and date fits from the first SAMPLE_ROWS rows", async () => {
    const jobId = await startJob(emu, { file });
    const record = JSON.parse(await readFile(join(emu.dataDir, 'jobs', jobId, 'job.json'), 'utf8'));
    const { columns, rows } = await sampleOf(file);
    const expected: Record<string, unknown> = {};
    columns.forEach((column, i) => {
      expected[column] = {
        inferred: inferDataType(rows, i),
        fit: { number: inferDataType(rows, i, 'number').confidence, date_time: inferDataType(rows, i, 'date_time').confidence },
      };
    });
    expect(record.columnTypes).toEqual(expected);
    // The rows past the sample (text amounts and dates) count for nothing.
    expect(record.columnTypes.amount).toEqual({ inferred: { dataType: 'number', confidence: 1 }, fit: { number: 1, date_time: 0 } });
    expect(record.columnTypes.signup.fit.date_time).toBe(1);
  });
});
