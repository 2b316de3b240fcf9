import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fieldsTable, pivotTable, tableKit, textTable, typesTable, answerTable } from '../../src/cli/resource-table.js';
import { start, startOptions } from '../../src/cli/commands/start.js';
import { fakeDeps } from '../support/fake-deps.js';
import { json, startRecordingServer, type RecordingServer } from '../support/recording-server.js';
import { FIELDS, PIVOT, TEXT, TYPES } from './reads.js';

describe('resource tables', () => {
  it('show confidence as a number and a bar, plain without colour', async () => {
    const plain = fieldsTable(FIELDS, await tableKit(false));
    expect(plain).toContain('│ First  │ firstName  │ 0.95 ██████████ │');
    expect(plain).not.toContain('\u001b[');
  });

  it('colour low confidence only when colour is on', async () => {
    const coloured = typesTable(TYPES, await tableKit(true));
    expect(coloured).toContain('\u001b[31m0.40 ████░░░░░░\u001b[39m');
    expect(coloured).toContain('\u001b[32m0.90 █████████░\u001b[39m');
  });

  it('render pivot roles, text rules and run answers', async () => {
    const kit = await tableKit(false);
    expect(pivotTable(PIVOT, kit)).toContain('index columns │ date');
    expect(textTable(TEXT, kit)).toContain('/[^0-9]/');
    expect(pivotTable({ pivot: null }, kit)).toBe('No pivot is set.');
    expect(answerTable('accepted', kit)).toBe('accepted');
  });
});

describe('start progress bar', () => {
  let server: RecordingServer;
  beforeAll(async () => { server = await startRecordingServer(); server.on('POST /start', json({ jobId: 'P1' })); });
  afterAll(async () => { await server.close(); });

  it('draws on a TTY stderr for a large file and keeps stdout to the id', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-progress-'));
    writeFileSync(join(dir, 'big.csv'), Buffer.alloc(12 * 1024 * 1024, 'a'));
    const { deps, stdout, stderr } = fakeDeps({ tty: true, cwd: dir, settings: { baseUrl: server.url } });
    await start(startOptions({ file: 'big.csv' }), deps);
    expect(stdout()).toBe('P1\n');
    expect(stderr()).toMatch(/Uploading big\.csv \[#+\] 100%/);
  });

  it('stays silent off a TTY', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-progress-'));
    writeFileSync(join(dir, 'big.csv'), Buffer.alloc(12 * 1024 * 1024, 'a'));
    const { deps, stderr } = fakeDeps({ tty: false, cwd: dir, settings: { baseUrl: server.url } });
    await start(startOptions({ file: 'big.csv' }), deps);
    expect(stderr()).toBe('');
  });
});
