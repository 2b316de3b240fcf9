import { describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { buildProgram, configure } from '../../src/cli/program.js';
import { startCommand, startOptions } from '../../src/cli/commands/start.js';
import { runCommand } from '../../src/cli/commands/run.js';
import { fieldsCommand } from '../../src/cli/commands/fields.js';
import { combiningCommand } from '../../src/cli/commands/combining.js';
import { typesCommand } from '../../src/cli/commands/types.js';
import { unitsCommand } from '../../src/cli/commands/units.js';
import { imputeCommand } from '../../src/cli/commands/impute.js';
import { pivotCommand } from '../../src/cli/commands/pivot.js';
import { rowDroppingCommand } from '../../src/cli/commands/row-dropping.js';
import { textCommand } from '../../src/cli/commands/text.js';
import { sheetCommand } from '../../src/cli/commands/sheet.js';
import { UsageError } from '../../src/errors.js';
import { main } from '../../src/main.js';
import { fakeDeps } from '../support/fake-deps.js';

/** Parses argv with one command whose run functions capture their options. */
async function parse(make: (deps: any, run: any) => Command, argv: string[]): Promise<{ kind: string; opts: any }> {
  const { deps } = fakeDeps();
  let captured: { kind: string; opts: any } | undefined;
  const capture = (kind: string) => async (opts: any) => { captured = { kind, opts }; };
  const run = new Proxy({}, { get: (_t, kind: string) => capture(kind) });
  const root = new Command('import').exitOverride();
  root.addCommand(configure(make(deps, run), deps));
  await root.parseAsync(['node', 'import', ...argv]);
  if (!captured) throw new Error('no run');
  return captured;
}

describe('argv → options', () => {
  it('start collects repeatable flags', async () => {
    const { deps } = fakeDeps();
    let opts: any;
    const root = new Command('import').exitOverride();
    root.addCommand(configure(startCommand(deps, async (o) => { opts = o; }), deps));
    await root.parseAsync(['node', 'import', 'start', '--pipeline', 'a', '--pipeline', 'b', '--script', 's', '--json-data', '-', '--use-full-data']);
    expect(opts).toEqual({
      pipelines: ['a', 'b'], name: undefined, file: undefined, gsUrl: undefined, gsSheet: undefined, jsonData: '-',
      destinationFileName: undefined, useFullData: true, useVariableFields: false, scripts: ['s'], webhookUrl: undefined, outputFileType: undefined,
    });
  });

  it('start checks the inputs without I/O', () => {
    expect(() => startOptions({ gsSheet: 'x' })).toThrow('--gs-sheet needs --gs-url');
    expect(() => startOptions({ file: 'a', gsUrl: 'https://x', gsSheet: 's' })).toThrow('--file and --gs-url');
  });

  it('run <jobId> --wait --webhook-url', async () => {
    expect(await parse(runCommand, ['run', 'J 1', '--wait', '--webhook-url', 'https://h.example'])).toEqual({
      kind: 'jobId', opts: { jobId: 'J 1', wait: true, webhookUrl: 'https://h.example' },
    });
    expect((await parse(runCommand, ['run', 'J1'])).opts).toEqual({ jobId: 'J1', wait: false, webhookUrl: undefined });
  });

  it('run <job.yaml> passes the job-file options through', async () => {
    const r = await parse(runCommand, ['run', 'job.yaml', '--no-wait', '--yes', '--min-confidence', '0.8', '--job', 'J1', '--max-dropped-rows', '10']);
    expect(r.kind).toBe('jobFile');
    expect(r.opts).toEqual({
      jobFile: 'job.yaml', job: 'J1', yes: true, minConfidence: '0.8', wait: false, webhookUrl: undefined, dryRun: false,
      out: undefined, interactive: false, maxDroppedRows: '10', lenient: false,
    });
    expect((await parse(runCommand, ['run', 'job.yml', '--dry-run', '--out', 'o.csv', '--lenient'])).opts).toMatchObject({ wait: undefined, dryRun: true, out: 'o.csv', lenient: true });
  });

  it('fields update --map/--unmap/--allow-combining', async () => {
    const r = await parse(fieldsCommand, ['fields', 'update', 'J1', '--map', 'a=b=c', '--map', 'X=y', '--unmap', 'Z', '--allow-combining']);
    expect(r).toEqual({ kind: 'update', opts: { jobId: 'J1', data: undefined, map: [{ column: 'a=b', field: 'c' }, { column: 'X', field: 'y' }], unmap: ['Z'], allowCombining: true } });
    expect((await parse(fieldsCommand, ['fields', 'update', 'J1', '--no-allow-combining'])).opts.allowCombining).toBe(false);
    await expect(parse(fieldsCommand, ['fields', 'update', 'J1', '--map', 'a=b', '--unmap', 'a'])).rejects.toThrow(UsageError);
  });

  it('combining update', async () => {
    expect((await parse(combiningCommand, ['combining', 'update', 'J1', '--field', 'name', '--method', 'JSON', '--separator', '', '--order', 'b,a'])).opts)
      .toEqual({ jobId: 'J1', data: undefined, field: 'name', method: 'json', separator: '', order: ['b', 'a'] });
  });

  it('types, units, impute, row-dropping and text updates', async () => {
    expect((await parse(typesCommand, ['types', 'update', 'J1', '--type', 'a=number', '--type', 'b=category'])).opts.types)
      .toEqual([{ field: 'a', dataType: 'number' }, { field: 'b', dataType: 'category' }]);
    expect((await parse(unitsCommand, ['units', 'update', 'J1', '--unit', 't=UTC_m1:UTC_p2', '--clear-unit', 'u'])).opts.units)
      .toEqual([{ field: 't', from: 'UTC_m1', to: 'UTC_p2' }, { field: 'u', from: null, to: null }]);
    expect((await parse(imputeCommand, ['impute', 'update', 'J1', '--impute', 'a=fill:1', '--impute', 'b=none'])).opts.set)
      .toEqual([{ field: 'a', method: 'fill', value: 1 }, { field: 'b', method: null }]);
    expect((await parse(rowDroppingCommand, ['row-dropping', 'update', 'J1', '--drop', 'missingValues:a,b'])).opts.drops)
      .toEqual([{ method: 'missingValues', fields: ['a', 'b'] }]);
    expect((await parse(rowDroppingCommand, ['row-dropping', 'update', 'J1', '--clear'])).opts.drops).toEqual([]);
    expect((await parse(textCommand, ['text', 'update', 'J1', '--case', 'a=UPPER'])).opts.casing).toEqual([{ field: 'a', casing: 'upper' }]);
  });

  it('pivot update', async () => {
    expect((await parse(pivotCommand, ['pivot', 'update', 'J1', '--pivot-columns', 'm', '--value-columns', 'v', '--index-columns', 'd,s', '--aggregation', 'first'])).opts)
      .toEqual({ jobId: 'J1', data: undefined, clear: undefined, pivotColumns: ['m'], valueColumns: ['v'], indexColumns: ['d', 's'], aggregation: 'first' });
    await expect(parse(pivotCommand, ['pivot', 'update', 'J1', '--clear', '--pivot-columns', 'm'])).rejects.toThrow('--clear removes the pivot');
  });

  it('sheet update <jobId> <sheetName> and --data', async () => {
    expect((await parse(sheetCommand, ['sheet', 'update', 'J1', 'Q3 orders'])).opts).toEqual({ jobId: 'J1', sheetName: 'Q3 orders', data: undefined });
    expect((await parse(sheetCommand, ['sheet', 'update', 'J1', '--data', '@s.json'])).opts).toEqual({ jobId: 'J1', sheetName: undefined, data: '@s.json' });
  });
});

describe('--help', () => {
  it('shows an example on every command and subcommand', () => {
    const { deps, stdout } = fakeDeps();
    const program = buildProgram(deps);
    const missing: string[] = [];
    const walk = (cmd: Command, name: string) => {
      const before = stdout().length;
      cmd.outputHelp();
      if (!stdout().slice(before).includes('Examples:\n  $ ')) missing.push(name);
      for (const sub of cmd.commands) walk(sub, `${name} ${sub.name()}`);
    };
    walk(program, 'import');
    expect(missing).toEqual([]);
  });

  it('does not need a base URL or key', async () => {
    const { deps, stdout } = fakeDeps();
    expect(await main(['node', 'import', 'fields', 'update', '--help'], deps)).toBe(0);
    expect(stdout()).toContain('--map <column=field>');
    expect(stdout()).toContain('--data <json|@file|->');
  });
});

describe('main() with fake IO', () => {
  it('prints usage errors as one line and returns 2', async () => {
    const { deps, stderr } = fakeDeps();
    expect(await main(['node', 'import', 'types', 'update', 'J1', '--type', 'x'], deps)).toBe(2);
    expect(stderr()).toBe('error: --type "x" is not of the form <field>=<number|rich_text|category|date_time>; e.g. --type amount=number.\n');
  });
});
