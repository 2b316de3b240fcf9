// An update that fails mid-way (a service's 422 on the second update): stderr names what was
// applied and what was not, no run is sent, and a second `run job.yaml --job ID` finishes the job
// by sending only what still differs. The real CLI against a recording server playing a service
// that keeps state as the seed describes (reads return what updates set).
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { json, startRecordingServer, type RecordedRequest, type RecordingServer } from '../support/recording-server.js';

const JOB = 'job_partial';

/** A small service: one job over in.csv (id, full, amt), suggestions for id and full only. */
function fakeService(server: RecordingServer, opts: { rejectTypes: () => boolean }): void {
  const state = {
    fields: {
      expectedFields: ['id', 'name', 'amount'], optionalFields: [], inputColumns: ['id', 'full', 'amt'],
      columnFieldMapping: { 'in.csv': { id: { field: 'id', confidence: 1 }, full: { field: 'name', confidence: 0.9 } } } as Record<string, Record<string, { field: string; confidence: number }>>,
    },
    dataTypes: { fieldDataTypes: { id: { dataType: 'number', confidence: 1 }, name: { dataType: 'rich_text', confidence: 1 } } as Record<string, { dataType: string; confidence: number }>, expectedFieldDataTypes: {} },
    impute: { imputeMethods: {} as Record<string, unknown>, expectedImputeMethods: {} },
  };
  server.fallback((req: RecordedRequest) => {
    const route = `${req.method} ${req.path.replace(`/${JOB}`, '/:id')}`;
    const body = req.json as Record<string, any> | undefined;
    switch (route) {
      case 'POST /start': return json({ jobId: JOB });
      case 'GET /selected-sheet/:id': return json({ error: { message: 'not a workbook' } }, 404);
      case 'GET /fields/:id': return json(state.fields);
      case 'GET /column-combining-methods/:id': return json({ columnsBeingCombined: {} });
      case 'GET /field-data-types/:id': return json(state.dataTypes);
      case 'GET /units/:id': return json({ fieldUnitConversions: {}, expectedFieldUnits: {} });
      case 'GET /impute-methods/:id': return json(state.impute);
      case 'GET /pivot/:id': return json({ pivot: null });
      case 'GET /row-dropping-methods/:id': return json({ presetRowDroppingMethods: [], additionalRowDroppingMethods: [] });
      case 'GET /text-processing-methods/:id': return json({ textProcessingMethods: {} });
      case 'GET /scripts/:id': return json({ preColumnMapping: [], postClean: [] });
      case 'POST /fields/:id': {
        const mapping: Record<string, Record<string, { field: string; confidence: number }>> = {};
        for (const [source, columns] of Object.entries<Record<string, { field: string }>>(body!.columnFieldMapping)) {
          mapping[source] = Object.fromEntries(Object.entries(columns).map(([c, m]) => [c, { field: m.field, confidence: 1 }]));
        }
        state.fields.columnFieldMapping = mapping;
        return json({});
      }
      case 'POST /field-data-types/:id': {
        if (opts.rejectTypes()) return json({ error: { code: 'invalid_value', message: 'field amount cannot be typed yet' } }, 422);
        state.dataTypes.fieldDataTypes = Object.fromEntries(Object.entries<{ dataType: string }>(body!.fieldDataTypes).map(([f, t]) => [f, { dataType: t.dataType, confidence: 1 }]));
        return json({});
      }
      case 'POST /impute-methods/:id':
        state.impute.imputeMethods = Object.fromEntries(Object.entries<Record<string, unknown>>(body!.imputeMethods).map(([f, m]) => [f, { ...m, confidence: 1 }]));
        return json({});
      case 'POST /run/:id': return json({ jobId: JOB, status: 'completed' });
      default: return json({ error: { message: `no route ${route}` } }, 404);
    }
  });
}

let server: RecordingServer;
let dir: string;
let rejecting = true;

beforeAll(async () => {
  server = await startRecordingServer();
  fakeService(server, { rejectTypes: () => rejecting });
  dir = await mkdtemp(join(tmpdir(), 'import-partial-'));
  await writeFile(join(dir, 'in.csv'), 'id,full,amt\n1,Ann,3.5\n2,Bob,\n');
  await writeFile(join(dir, 'job.yaml'), [
    'version: 1',
    'pipeline: pl_x',
    'input: {file: ./in.csv}',
    'config:',
    '  mapping: {amt: amount}',
    '  dataTypes: {amount: number}',
    '  impute: {amount: {method: fill, value: 0}}',
    '',
  ].join('\n'));
});
afterAll(async () => { await server?.close(); });

const cli = (args: string[]) => runCli(args, { env: { IMPORT_BASE_URL: server.url, IMPORT_API_KEY: 'k' }, cwd: dir, timeoutMs: 30_000 });
const posts = () => server.requests.filter((r) => r.method === 'POST').map((r) => r.path.replace(`/${JOB}`, '/ID'));

describe('an update that fails mid-way', () => {
  it('names the applied and the missing updates, sends no run, and a second run --job finishes', async () => {
    const first = await cli(['run', 'job.yaml']);
    expect(first.exitCode).toBe(1);
    expect(first.stderr).toContain(`Job ${JOB} is half configured: updated fields; not updated: dataTypes, impute. The job was not run. Fix the cause below, then \`import run job.yaml --job ${JOB}\` sends only what still differs and runs it.`);
    expect(first.stderr).toContain('field amount cannot be typed yet');
    expect(posts()).toEqual(['/start', '/fields/ID', '/field-data-types/ID']);

    server.requests.length = 0;
    rejecting = false;
    const second = await cli(['run', 'job.yaml', '--job', JOB]);
    expect(second.stderr).toContain('Updated dataTypes.');
    expect(second.exitCode).toBe(0);
    // fields already holds the mapping: only what still differs is sent, then the run.
    expect(posts()).toEqual(['/field-data-types/ID', '/impute-methods/ID', '/run/ID']);
  });
});
