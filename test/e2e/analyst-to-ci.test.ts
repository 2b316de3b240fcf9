// The worked example of the README: from a raw CSV to a reviewed job file that CI runs.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveChoices } from '../../src/jobfile/save.js';
import { copyExample, runCli } from '../support/cli.js';
import { startEmulator, type Emulator } from '../support/emulator.js';

let service: Emulator;
beforeAll(async () => { service = await startEmulator({ schema: 'examples/review/schema.yaml' }); });
afterAll(async () => { await service?.stop(); });

describe('examples/review: init, review --save, then CI', () => {
  it('stops at the gate until reviewed, runs once reviewed, and stops again when the data changes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'import-analyst-'));
    await copyExample('review', dir);
    const env = { IMPORT_BASE_URL: service.url };
    const job = join(dir, 'new.yaml');

    const init = await runCli(['init', join(dir, 'signups.csv'), '--schema', join(dir, 'schema.yaml'), '--write', job], { env });
    expect(init.exitCode).toBe(0);
    expect(await readFile(job, 'utf8')).toContain('# Joined: signed_up_at # suggested, confidence 0.64: under 0.8, review it');

    // CI before review: the low-confidence suggestion stops the run; the confident ones do not.
    const gated = await runCli(['run', job], { env });
    expect(gated.exitCode).toBe(5);
    expect(gated.stderr).toContain('column "Joined" -> field signed_up_at (confidence 0.64)');
    expect(gated.stderr).not.toContain('column "Contact"');

    // What `import review new.yaml --save` writes when the analyst confirms both and maps Joined.
    await saveChoices(job, { mapping: { Contact: 'email', Joined: 'signed_up_at', 'Spend (USD)': 'total_spend' } });
    const text = await readFile(job, 'utf8');
    expect(text).toContain('# Job file for signups.csv');
    expect(text).toContain('Joined: signed_up_at');

    const ran = await runCli(['run', job], { env });
    expect(ran.stderr).toContain('completed');
    expect(ran.exitCode).toBe(0);

    // Next month's export renamed Contact to Mail: the pin no longer matches, so the run stops
    // before anything is sent, naming the line, and a person decides.
    await writeFile(job, text.replace('file: ./signups.csv', 'file: ./signups-december.csv'));
    const changed = await runCli(['run', job], { env });
    expect(changed.exitCode).toBe(2);
    expect(changed.stderr).toMatch(/new\.yaml:\d+:\d+: column "Contact" in config\.mapping is not in signups-december\.csv, whose columns are Cust #, Mail, Joined, Plan, Spend \(USD\)/);
    expect(changed.stderr).not.toContain('Started job');
  });
});
