import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../support/emulator.js';
import { call, startJob } from './helpers.js';

let emu: Emulator;
beforeAll(async () => { emu = await startEmulator(); });
afterAll(async () => { await emu?.stop(); });

describe('concurrent jobs', () => {
  it('starts, configures and runs 20 jobs at once, each with its own output', async () => {
    const count = 20;
    const results = await Promise.all(Array.from({ length: count }, async (_, i) => {
      const rows = Array.from({ length: 50 + i }, (_, r) => `${r + 1},job ${i} row ${r + 1}`);
      const jobId = await startJob(emu, { content: ['id,label', ...rows, ''].join('\n'), fileName: `part-${i}.csv`, fields: { jobName: `job ${i}` } });
      const update = await call(emu, 'POST', `/text-processing-methods/${jobId}`, { textProcessingMethods: { casing: { label: 'upper' } } });
      expect(update.status).toBe(200);
      const run = await call(emu, 'POST', `/run/${jobId}`, { returnWhenComplete: true });
      return { i, jobId, run };
    }));
    expect(new Set(results.map((r) => r.jobId)).size).toBe(count);
    for (const { i, jobId, run } of results) {
      expect(run.status).toBe(200);
      expect(run.body).toMatchObject({ jobId, status: 'succeeded', rowsIn: 50 + i, rowsOut: 50 + i });
      const text = await readFile(join(emu.dataDir, 'output', `${jobId}.csv`), 'utf8');
      const lines = text.trimEnd().split('\n');
      expect(lines).toHaveLength(51 + i);
      expect(lines[1]).toBe(`1,JOB ${i} ROW 1`);
      expect(lines.at(-1)).toBe(`${50 + i},JOB ${i} ROW ${50 + i}`);
    }
  });

  it('serialises concurrent updates of one job: the last one sent wins and reads back', async () => {
    const jobId = await startJob(emu, { content: 'a,b\n1,2\n', fileName: 'ab.csv' });
    const casings = ['upper', 'lower', 'title', 'swap', 'upper', 'lower'];
    const answers = await Promise.all(casings.map((c) => call(emu, 'POST', `/text-processing-methods/${jobId}`, { textProcessingMethods: { casing: { b: c } } })));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const read = await call(emu, 'GET', `/text-processing-methods/${jobId}`);
    expect(casings).toContain(read.body.textProcessingMethods.casing.b);
  });
});
