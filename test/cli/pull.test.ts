/**
 * `import pull` through the real CLI against a recording server that answers with the service's
 * JSON text as written, so the order of its keys is the one on the wire.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { json, startRecordingServer, type RecordingServer } from '../support/recording-server.js';
import { KEY, RESOURCES, SHEET } from './reads.js';

let server: RecordingServer;
beforeAll(async () => { server = await startRecordingServer(); });
afterAll(async () => { await server.close(); });

/** A reply with JSON text sent as is (an object would be re-serialized, "1962" first). */
const raw = (text: string) => ({ status: 200, body: text, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  server.reset();
  for (const r of RESOURCES) server.on(`GET ${r.get}/J1`, json(r.read));
  server.on('GET /selected-sheet/J1', json({ ...SHEET, sheetSelection: { ...SHEET.sheetSelection, sheets: ['Sheet1'] } }));
  server.on('GET /fields/J1', raw('{"expectedFields": [], "optionalFields": [], "inputColumns": ["TQ", "1962", "Notes"],'
    + ' "columnFieldMapping": {"export.xlsx": {"TQ": {"field": "tq", "confidence": 0.9}, "1962": {"field": "y1962", "confidence": 0.8},'
    + ' "Late": {"field": "late", "confidence": 0.7}, "2001": {"field": "y2001", "confidence": 0.6}}}}'));
  server.on('GET /field-data-types/J1', raw('{"fieldDataTypes": {"tq": {"dataType": "rich_text", "confidence": 0.9},'
    + ' "y1962": {"dataType": "number", "confidence": 0.8}, "2001": {"dataType": "number", "confidence": 0.7}, "1962": {"dataType": "date_time", "confidence": 0.6}},'
    + ' "expectedFieldDataTypes": {}}'));
  server.on('GET /impute-methods/J1', raw('{"imputeMethods": {"tq": {"imputeMethod": null, "confidence": 0.5}, "1962": {"imputeMethod": "dropMissing", "confidence": 0.5}}, "expectedImputeMethods": {}}'));
});

const cli = (args: string[]) => runCli([...args, '--base-url', server.url, '--api-key', KEY]);

describe('import pull', () => {
  it('writes mapping, data types and impute keys in the service\'s order, a key named "1962" included', async () => {
    const r = await cli(['pull', 'J1']);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const section = (name: string) => {
      const lines = r.stdout.split('\n');
      const from = lines.indexOf(`  ${name}:`);
      expect(from).toBeGreaterThan(-1);
      const out: string[] = [];
      for (const line of lines.slice(from + 1)) {
        if (!line.startsWith('    ')) break;
        out.push(line.trim().replace(/ #.*$/, ''));
      }
      return out;
    };
    // Input columns in their order, then the mapped columns the input list lacks, in the mapping's order.
    expect(section('mapping')).toEqual(['TQ: tq', '"1962": y1962', 'Notes: null', 'Late: late', '"2001": y2001']);
    expect(section('dataTypes')).toEqual(['tq: rich_text', 'y1962: number', '"2001": number', '"1962": date_time']);
    expect(section('impute')).toEqual(['tq:', 'method: null', '"1962":', 'method: dropMissing']);
  });
});
