// The service and the dry run must see one configuration: a job file's config sent as updates over
// HTTP (as `import run job.yaml` sends them) gives the same output bytes as the engine's dry run.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobResources } from '../../src/contract/index.js';
import { openJobInput } from '../../src/cli/job-input.js';
import { runJob } from '../../src/engine/pipeline.js';
import { loadJobFile } from '../../src/jobfile/load.js';
import { changedResources, currentBodies, desiredBodies } from '../../src/jobfile/translate.js';
import { startEmulator, ROOT, type Emulator } from '../support/emulator.js';
import { call, startJob } from './helpers.js';

const READS: Record<keyof JobResources, string> = {
  sheet: 'selected-sheet', fields: 'fields', combining: 'column-combining-methods', dataTypes: 'field-data-types', units: 'units',
  impute: 'impute-methods', pivot: 'pivot', rowDropping: 'row-dropping-methods', text: 'text-processing-methods', scripts: 'scripts',
};

let emu: Emulator;
let out: string;
beforeAll(async () => {
  emu = await startEmulator({ schema: 'examples/customers/schema.yaml' });
  out = await mkdtemp(join(tmpdir(), 'emulator-parity-'));
});
afterAll(async () => {
  await emu?.stop();
  await rm(out, { recursive: true, force: true });
});

describe('the service and the dry run', () => {
  for (const example of ['customers', 'pivot']) {
    it(`write the same output for examples/${example}/job.yaml`, async () => {
      const job = await loadJobFile(join(ROOT, 'examples', example, 'job.yaml'), process.env);
      const dryOut = join(out, `${example}.csv`);
      await runJob({ input: await openJobInput(job), schema: job.schema, sheet: job.config.sheet }, {
        configure: (resources) => desiredBodies(job.config, resources),
        output: { path: dryOut, format: 'csv' },
      });

      const jobId = await startJob(emu, { file: job.input.file as string, fields: { pipelineId: job.pipeline as string } });
      const current = {} as JobResources;
      for (const [name, path] of Object.entries(READS) as [keyof JobResources, string][]) {
        const body = (await call(emu, 'GET', `/${path}/${jobId}`)).body;
        (current as any)[name] = name === 'sheet' ? (body.sheetSelection ? body : null) : body;
      }
      const desired = desiredBodies(job.config, current);
      const changed = changedResources(currentBodies(current), desired);
      expect(changed.length).toBeGreaterThan(0);
      for (const name of changed) {
        const answer = await call(emu, 'POST', `/${name === 'sheet' ? 'fields' : READS[name]}/${jobId}`, desired[name]);
        expect(answer.status, `${name}: ${JSON.stringify(answer.body)}`).toBe(200);
      }
      const run = await call(emu, 'POST', `/run/${jobId}`, { returnWhenComplete: true });
      expect(run.body.status).toBe('succeeded');
      expect(await readFile(run.body.output.path, 'utf8')).toBe(await readFile(dryOut, 'utf8'));
    });
  }
});
