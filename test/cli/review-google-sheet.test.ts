// `import review` of a job file whose input is a Google Sheets link, offline (--dry-run) and
// against the local service, with the sheet exported by a fake Google on 127.0.0.1.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { review } from '../../src/cli/commands/review.js';
import type { Deps } from '../../src/cli/deps.js';
import type { Prompter } from '../../src/cli/prompter.js';
import { startEmulator, type Emulator } from '../support/emulator.js';
import { fakeDeps } from '../support/fake-deps.js';
import { PUBLIC_ID, sheetLink, startFakeGoogle, type FakeGoogle } from '../support/google-sheets.js';

const JOB = `# Orders from the team's shared sheet.
version: 1
pipeline: pl_orders
input:
  googleSheet: {url: "${sheetLink(PUBLIC_ID)}", sheet: Orders}
review:
  minConfidence: 0.8
schema:
  expectedFields: [order_id, customer, quantity, unit_price, ordered_at, status]
  fieldDataTypes: {order_id: rich_text, customer: rich_text, quantity: number, unit_price: number,
                   ordered_at: date_time, status: category}
`;

let google: FakeGoogle;
beforeAll(async () => { google = await startFakeGoogle(); });
afterAll(async () => { await google?.close(); });

/** Accepts every suggestion and confirms; records each question with the lines shown before it. */
function acceptAll(): { prompter: Prompter; messages: string[] } {
  const messages: string[] = [];
  const prompter: Prompter = {
    select: async (message, choices) => {
      messages.push(message);
      return (choices.find((c) => c.value === 'accept') ?? choices.find((c) => c.value === 'keep') ?? choices[0]).value as never;
    },
    search: async (message, choices) => { messages.push(message); return choices[0].value as never; },
    confirm: async (message) => { messages.push(message); return true; },
  };
  return { prompter, messages };
}

/** Deps at a terminal (not CI) with IMPORT_SHEETS_BASE_URL set to the fake Google. */
function terminal(cwd: string, settings: Partial<Deps['settings']> = {}) {
  return fakeDeps({ cwd, tty: true, ci: false, env: { IMPORT_SHEETS_BASE_URL: google.url }, settings: { timeoutMs: 5_000, ...settings } });
}

describe('review of a Google Sheets job file', () => {
  it('reviews offline with the sheet\'s own sample values and saves the choices', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'import-review-sheet-'));
    await writeFile(join(dir, 'job.yaml'), JOB);
    const { prompter } = acceptAll();
    const { deps, stderr } = terminal(dir);
    const before = google.requests.length;
    await review({ jobFile: 'job.yaml', save: true, dryRun: true, redact: false, all: false }, deps, prompter);
    expect(stderr()).toContain('Reading the Google Sheet "Orders" for the engine\'s suggestions...');
    // The sheet's values are shown as samples (read once: the export and its redirect).
    expect(stderr()).toContain('"A-001"');
    expect(stderr()).toContain('"ann lee"');
    expect(stderr()).not.toContain('no sample values');
    expect(google.requests.length - before).toBe(2);
    const saved = await readFile(join(dir, 'job.yaml'), 'utf8');
    expect(saved.startsWith('# Orders from the team\'s shared sheet.\n')).toBe(true);
    expect(saved).toContain('    Order No: order_id\n');
    expect(saved).toContain('    Customer: customer\n');
  });

  describe('against the local service', () => {
    let service: Emulator;
    let schemaDir: string;
    beforeAll(async () => {
      schemaDir = await mkdtemp(join(tmpdir(), 'import-review-sheet-schema-'));
      await writeFile(join(schemaDir, 'orders.yaml'), `id: pl_orders\n${JOB.slice(JOB.indexOf('schema:\n') + 8).replace(/^ {2}/gm, '')}`);
      service = await startEmulator({ schema: join(schemaDir, 'orders.yaml'), sheets: { baseUrl: google.url } });
    });
    afterAll(async () => { await service?.stop(); });

    it('starts the job with the link, shows the sheet\'s samples, and prints the job id', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'import-review-sheet-'));
      await writeFile(join(dir, 'job.yaml'), JOB);
      const { prompter } = acceptAll();
      const { deps, stderr, stdout } = terminal(dir, { baseUrl: service.url, apiKey: 'k' });
      await review({ jobFile: 'job.yaml', save: false, dryRun: false, redact: false, all: false }, deps, prompter);
      expect(stdout()).toMatch(/^job_[\w-]{16}\n$/);
      expect(stderr()).toContain('"A-001"');
    });

    it('goes on without samples, saying why, when this machine cannot read the sheet', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'import-review-sheet-'));
      await writeFile(join(dir, 'job.yaml'), JOB);
      const { prompter } = acceptAll();
      const { deps, stderr } = terminal(dir, { baseUrl: service.url, apiKey: 'k' });
      const closed = await startFakeGoogle();
      await closed.close();
      deps.env.IMPORT_SHEETS_BASE_URL = closed.url;
      await review({ jobFile: 'job.yaml', save: false, dryRun: false, redact: false, all: false }, deps, prompter);
      expect(stderr()).toContain(`(no sample values: Cannot reach ${new URL(closed.url).host} to read the Google Sheet`);
    });
  });
});
