/** `import serve` checks update and run bodies with the contract's strict schemas: the seed's update shape, nothing more. */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, ROOT, type Emulator } from '../support/emulator.js';
import { call, startJob } from '../emulator/helpers.js';

let emu: Emulator;
let jobId: string;
beforeAll(async () => {
  emu = await startEmulator({ schema: 'examples/customers/schema.yaml' });
  jobId = await startJob(emu, { file: join(ROOT, 'examples/customers/customers.csv'), fields: { pipelineId: 'pl_customers' } });
});
afterAll(async () => { await emu?.stop(); });

describe('update bodies in import serve', () => {
  it('refuses a read-only member (400), naming it: confidence is returned on read and omitted on update', async () => {
    const answer = await call(emu, 'POST', `/field-data-types/${jobId}`, { fieldDataTypes: { amount: { dataType: 'number', confidence: 0.9 } } });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toEqual({ code: 'invalid_body', message: 'body.fieldDataTypes.amount has an unknown member "confidence"; it takes dataType.' });
    const fields = await call(emu, 'POST', `/fields/${jobId}`, { columnFieldMapping: {}, inputColumns: [] });
    expect(fields.body.error.message).toBe('The body has an unknown member "inputColumns"; it takes columnFieldMapping, allowColumnCombining.');
  });

  it('takes values in any case and stores them in the seed\'s spelling', async () => {
    expect((await call(emu, 'POST', `/field-data-types/${jobId}`, { fieldDataTypes: { amount: { dataType: 'NUMBER' } } })).status).toBe(200);
    expect((await call(emu, 'GET', `/field-data-types/${jobId}`)).body.fieldDataTypes.amount.dataType).toBe('number');
  });

  it('refuses a run body with a member the seed does not have (400)', async () => {
    const answer = await call(emu, 'POST', `/run/${jobId}`, { returnWhenComplete: true, priority: 'high' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toBe('The body has an unknown member "priority"; it takes webhookUrl, returnWhenComplete.');
  });
});
