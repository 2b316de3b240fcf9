import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, ROOT, type Emulator } from '../support/emulator.js';
import { call, startJob, waitForJob, webhookListener } from './helpers.js';

const CUSTOMERS = join(ROOT, 'examples/customers/customers.csv');

let emu: Emulator;
beforeAll(async () => { emu = await startEmulator({ schema: 'examples/customers/schema.yaml', webhookRetry: { attempts: 4, baseDelayMs: 20 } }); });
afterAll(async () => { await emu?.stop(); });

describe('start webhook', () => {
  it('POSTs the metadata of the input after the upload', async () => {
    const hook = await webhookListener();
    try {
      const jobId = await startJob(emu, { file: CUSTOMERS, fields: { pipelineId: 'pl_customers', webhookUrl: `${hook.url}/start?token=s3cret` } });
      const [received] = await hook.next(1);
      expect(received.path).toBe('/start?token=s3cret');
      expect(received.headers['content-type']).toBe('application/json');
      expect(received.headers['x-import-event']).toBe('start');
      expect(received.headers['x-import-job-id']).toBe(jobId);
      const body = received.body;
      const fields = (await call(emu, 'GET', `/fields/${jobId}`)).body;
      const types = (await call(emu, 'GET', `/field-data-types/${jobId}`)).body;
      expect(Object.keys(body).sort()).toEqual(['columnFieldMapping', 'dataLength', 'expectedFieldDataTypes', 'expectedFields', 'fieldDataTypes', 'inputColumns', 'jobId', 'missingRowIndices', 'uniqueRatio']);
      expect(body.jobId).toBe(jobId);
      expect(body.dataLength).toEqual({ 'customers.csv': 8 });
      expect(body.inputColumns).toEqual({ 'customers.csv': fields.inputColumns });
      expect(body.expectedFields).toEqual(fields.expectedFields);
      expect(body.columnFieldMapping).toEqual(fields.columnFieldMapping);
      expect(body.fieldDataTypes).toEqual(types.fieldDataTypes);
      expect(body.expectedFieldDataTypes).toEqual(types.expectedFieldDataTypes);
      // 0-based data-row indices: the 6th data row has no Customer ID; the 3rd no e-mail.
      expect(body.missingRowIndices['customers.csv']['Customer ID']).toEqual([5]);
      expect(body.missingRowIndices['customers.csv']['E-mail Address']).toEqual([2]);
      expect(body.uniqueRatio['customers.csv']['Customer ID']).toBeCloseTo(6 / 8, 4);
      // The token in the query string is never logged.
      expect(emu.logs.join('\n')).not.toContain('s3cret');
    } finally {
      await hook.close();
    }
  });
});

describe('run webhook', () => {
  it('POSTs the processed data table and its types after the run', async () => {
    const hook = await webhookListener();
    try {
      const jobId = await startJob(emu, { content: 'id,name,amount\n1,ann,10\n2,bob,\n', fileName: 'tiny.csv' });
      await call(emu, 'POST', `/field-data-types/${jobId}`, { fieldDataTypes: { id: { dataType: 'number' }, name: { dataType: 'rich_text' }, amount: { dataType: 'number' } } });
      const run = await call(emu, 'POST', `/run/${jobId}`, { webhookUrl: `${hook.url}/run`, returnWhenComplete: true });
      expect(run.body.status).toBe('succeeded');
      const [received] = await hook.next(1);
      expect(received.headers['x-import-event']).toBe('run');
      expect(received.body).toEqual({
        jobId,
        dataTable: [['id', 'name', 'amount'], [1, 'ann', 10], [2, 'bob', null]],
        dataTypes: { id: 'number', name: 'rich_text', amount: 'number' },
      });
    } finally {
      await hook.close();
    }
  });

  it('retries with backoff when the listener fails first, and records the delivery', async () => {
    const hook = await webhookListener(2);
    try {
      const jobId = await startJob(emu, { content: 'a\nx\n', fileName: 'one.csv' });
      await call(emu, 'POST', `/run/${jobId}`, { webhookUrl: `${hook.url}/run`, returnWhenComplete: true });
      const [received] = await hook.next(1);
      expect(hook.attempts).toHaveLength(3);
      expect(hook.attempts.map((a) => a.headers['x-import-attempt'])).toEqual(['1', '2', '3']);
      // One delivery id across the retries, so a receiver can de-duplicate.
      expect(new Set(hook.attempts.map((a) => a.headers['x-import-delivery'])).size).toBe(1);
      // Exponential backoff: 20 ms, then 40 ms.
      expect(hook.attempts[1].at - hook.attempts[0].at).toBeGreaterThanOrEqual(15);
      expect(hook.attempts[2].at - hook.attempts[1].at).toBeGreaterThanOrEqual(35);
      expect(received.body.jobId).toBe(jobId);
      await until(async () => emu.logs.filter((l) => l.includes(`run webhook of ${jobId}`)).length === 3);
      const status = await waitForJob(emu, jobId);
      await until(async () => (await fetch(`${emu.url}/local/jobs/${jobId}`).then((r) => r.json()) as any).webhooks[0]?.status === 'delivered');
      expect(status.status).toBe('succeeded');
    } finally {
      await hook.close();
    }
  });

  it('gives up after the last attempt without failing the job', async () => {
    const hook = await webhookListener(100);
    try {
      const jobId = await startJob(emu, { content: 'a\nx\n', fileName: 'one.csv' });
      const run = await call(emu, 'POST', `/run/${jobId}`, { webhookUrl: `${hook.url}/run`, returnWhenComplete: true });
      expect(run.body.status).toBe('succeeded');
      await until(async () => hook.attempts.length === 4);
      await until(async () => (await fetch(`${emu.url}/local/jobs/${jobId}`).then((r) => r.json()) as any).webhooks[0]?.status === 'failed');
      const job = await fetch(`${emu.url}/local/jobs/${jobId}`).then((r) => r.json()) as any;
      expect(job.status).toBe('succeeded');
      expect(job.webhooks[0]).toMatchObject({ event: 'run', status: 'failed', attempts: 4, lastError: 'HTTP 500' });
    } finally {
      await hook.close();
    }
  });
});

async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}
