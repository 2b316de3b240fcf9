import { mkdtemp, readFile, writeFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyExample, runCli, tempExample } from '../support/cli.js';
import { findPython, noPythonReason } from '../support/python.js';

const examples = join(import.meta.dirname, '..', '..', 'examples');

/** A copy of examples/<name> in a new temporary folder. */
async function exampleCopy(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `import-e2e-${name}-`));
  await copyExample(name, dir);
  return dir;
}

describe('import dry-run on the bundled examples', () => {
  it('writes the customers output beside the job file, exactly as the semantics say', async () => {
    const dir = await exampleCopy('customers');
    const r = await runCli(['dry-run', join(dir, 'job.yaml')]);
    expect(r.stderr).toContain('Wrote');
    // Every step that changes data says so: the time-zone shift too (all 8 rows, before the drops).
    expect(r.stderr).toContain('\nConverted UTC_m5 -> UTC_p0 in created_at: 8\n');
    expect(r.exitCode).toBe(0);
    const out = await readFile(join(dir, 'job.out.csv'), 'utf8');
    expect(out).toBe([
      'id,full_name,email,amount,country,created_at,phone',
      "1001,Mary-Jane O'Neil,mary@example.com,1234.5,US,2024-03-05T19:22:10,5551234567",
      '1002,John Smith,john.smith@example.com,99.99,GB,2024-03-06T14:00:00,5559876543',
      '1004,Li Wei,li.wei@example.com,0.15,CN,2024-03-08T05:00:00,',
      '1005,Émile Zola,emile@example.fr,2000,FR,2024-03-11T04:30:00,0033123456789',
      "1006,Sam O'Brien,sam@example.com,,US,2024-03-11T17:00:00,5552223333",
      '',
    ].join('\n'));
  });

  it('prints the start and run webhook bodies and the report with -o json', async () => {
    const dir = await exampleCopy('customers');
    const r = await runCli(['dry-run', join(dir, 'job.yaml'), '-o', 'json', '--out', join(dir, 'x.csv')]);
    expect(r.exitCode).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.startWebhook.dataLength).toEqual({ 'customers.csv': 8 });
    expect(body.startWebhook.missingRowIndices['customers.csv']['Customer ID']).toEqual([5]);
    expect(body.runWebhook.dataTable[0]).toEqual(['id', 'full_name', 'email', 'amount', 'country', 'created_at', 'phone']);
    expect(body.runWebhook.dataTable[1][0]).toBe(1001);
    expect(body.runWebhook.dataTypes.amount).toBe('number');
    expect(body.report.rowsIn).toBe(8);
    expect(body.report.rowsOut).toBe(5);
    expect(body.report.converted).toEqual([{ rule: 'UTC_m5 -> UTC_p0', field: 'created_at', count: 8 }]);
  });

  it('pivots the store metrics, keeping the first of duplicates', async () => {
    const dir = await exampleCopy('pivot');
    const r = await runCli(['dry-run', join(dir, 'job.yaml')]);
    expect(r.exitCode).toBe(0);
    expect(await readFile(join(dir, 'job.out.csv'), 'utf8')).toBe([
      'store,month,revenue,visits',
      'north,2024-01,1200,340',
      'south,2024-01,980,290',
      'north,2024-02,1310,',
      'south,2024-02,1005,301',
      '',
    ].join('\n'));
  });

  it('selects the Orders sheet of the workbook and writes an xlsx', async () => {
    const dir = await exampleCopy('workbook');
    const r = await runCli(['dry-run', join(dir, 'job.yaml'), '-o', 'json']);
    expect(r.exitCode).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.runWebhook.dataTable).toEqual([
      ['order_id', 'customer', 'quantity', 'unit_price', 'ordered_at', 'status'],
      ['A-001', 'Ann Lee', 3, 9.5, '2024-03-05T14:22:10', 'shipped'],
      ['A-002', 'Bob Ross', 1, 120, '2024-03-06T00:00:00', 'open'],
      ['A-003', 'Cy Twombly', 1, 15.25, '2024-03-07T09:30:00', 'open'],
      ['A-004', 'Dee', 12, 1.1, '2024-03-08T23:59:59', 'cancelled'],
    ]);
    expect(await readdir(dir)).toContain('job.out.xlsx');
  });
});

describe('import dry-run on bad input', () => {
  it('names the line of a row with the wrong number of cells and writes nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'import-e2e-bad-'));
    await writeFile(join(dir, 'in.csv'), 'a,b\n1,2\n3\n');
    await writeFile(join(dir, 'job.yaml'), 'version: 1\ninput:\n  file: ./in.csv\n');
    const r = await runCli(['dry-run', join(dir, 'job.yaml')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/in\.csv:3/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(await readdir(dir)).toEqual(['in.csv', 'job.yaml']);
  });

  it('pads short rows with --lenient and counts them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'import-e2e-lenient-'));
    await writeFile(join(dir, 'in.csv'), 'a,b\n1,2\n3\n');
    await writeFile(join(dir, 'job.yaml'), 'version: 1\ninput:\n  file: ./in.csv\n');
    const r = await runCli(['dry-run', join(dir, 'job.yaml'), '--lenient']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('padded or cut');
    expect(await readFile(join(dir, 'job.out.csv'), 'utf8')).toBe('a,b\n1,2\n3,\n');
  });

  it('refuses a header-only input', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'import-e2e-header-'));
    await writeFile(join(dir, 'in.csv'), 'a,b\n');
    await writeFile(join(dir, 'job.yaml'), 'version: 1\ninput:\n  file: ./in.csv\n');
    const r = await runCli(['dry-run', join(dir, 'job.yaml')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('no data rows');
    expect(await readdir(dir)).toEqual(['in.csv', 'job.yaml']);
  });

  it('reports a missing input file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'import-e2e-missing-'));
    await writeFile(join(dir, 'job.yaml'), 'version: 1\ninput:\n  file: ./nope.csv\n');
    const r = await runCli(['dry-run', join(dir, 'job.yaml')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('nope.csv');
  });

  it('warns that it renamed a repeated header, and puts it in the report', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'import-e2e-repeat-'));
    await writeFile(join(dir, 'in.csv'), 'id,name,name\n1,a,b\n');
    await writeFile(join(dir, 'job.yaml'), 'version: 1\ninput:\n  file: ./in.csv\n');
    const r = await runCli(['dry-run', join(dir, 'job.yaml'), '-o', 'json']);
    expect(r.exitCode).toBe(0);
    const note = `The header of ${join(dir, 'in.csv')} was completed: column 3 repeats the header "name" and is read as "name_2".`;
    expect(r.stderr).toContain(note);
    expect(JSON.parse(r.stdout).report.warnings).toContain(note);
    expect(await readFile(join(dir, 'job.out.csv'), 'utf8')).toBe('id,name,name_2\n1,a,b\n');
  });

  it('warns that text rules on a number field change nothing, and keeps the numbers', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'import-e2e-textnum-'));
    await writeFile(join(dir, 'in.csv'), 'sku,price\nA-5,1.5\nB-7,25\n');
    await writeFile(join(dir, 'job.yaml'), 'version: 1\ninput:\n  file: ./in.csv\nconfig:\n  dataTypes: {price: number}\n  text:\n    regexReplacement:\n      price: {"5": "6"}\n      sku: {"-": ""}\n');
    const r = await runCli(['dry-run', join(dir, 'job.yaml'), '-o', 'json']);
    expect(r.exitCode).toBe(0);
    const note = 'Text rules on field "price" change nothing: it is a number field, and text rules act on text values only; give it data type rich_text to edit its text, or remove the rules.';
    // Located at the rule in the job file (named as the user gave it: here an absolute path).
    const located = `${join(dir, 'job.yaml')}:8:7: ${note}`;
    expect(r.stderr).toContain(`warning: ${located}\n`);
    expect(JSON.parse(r.stdout).report.warnings).toEqual([located]);
    expect(await readFile(join(dir, 'job.out.csv'), 'utf8')).toBe('sku,price\nA5,1.5\nB7,25\n');
  });

  it('says a data file given for the job file is one, and how to write the job file', async () => {
    const r = await runCli(['dry-run', 'examples/customers/customers.csv']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe('error: examples/customers/customers.csv is a data file, not a job file; write a job file for it with `import init examples/customers/customers.csv --write job.yaml`, then pass job.yaml.\n');
  });

  it('lists the sheets when the job selects one that does not exist', async () => {
    const dir = await exampleCopy('workbook');
    const job = (await readFile(join(dir, 'job.yaml'), 'utf8')).replace('config:\n', 'config:\n  sheet: Ordres\n');
    await writeFile(join(dir, 'job.yaml'), job);
    const r = await runCli(['dry-run', join(dir, 'job.yaml')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Notes, Orders');
  });

  it('names a script that throws', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'import-e2e-script-'));
    await writeFile(join(dir, 'in.csv'), 'a,b\n1,2\n');
    await writeFile(join(dir, 'boom.mjs'), 'export default () => { throw new Error("kaboom"); };\n');
    await writeFile(join(dir, 'job.yaml'), 'version: 1\ninput:\n  file: ./in.csv\nscripts:\n  preColumnMapping: [boom]\nlocalScripts:\n  boom: ./boom.mjs\n');
    const r = await runCli(['dry-run', join(dir, 'job.yaml')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('boom');
    expect(r.stderr).toContain('kaboom');
  });

  it('runs a preColumnMapping script before the mapping', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'import-e2e-script-ok-'));
    await writeFile(join(dir, 'in.csv'), 'First Name,AGE\nann,3\n');
    await writeFile(join(dir, 'lower.mjs'), [
      'export default ({ columns, rows }) => {',
      '  const name = (c) => c.toLowerCase().replace(/ /g, "_");',
      '  return { columns: columns.map(name), rows: rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [name(k), v]))) };',
      '};',
    ].join('\n'));
    await writeFile(join(dir, 'job.yaml'), 'version: 1\ninput:\n  file: ./in.csv\nscripts:\n  preColumnMapping: [lower]\nlocalScripts:\n  lower: ./lower.mjs\n');
    const r = await runCli(['dry-run', join(dir, 'job.yaml')]);
    expect(r.exitCode).toBe(0);
    expect(await readFile(join(dir, 'job.out.csv'), 'utf8')).toBe('first_name,age\nann,3\n');
  });
});

/** The rows Python's csv module reads from a CSV file (JSON through stdout), or undefined when there is no python3. */
function pythonCsvRows(path: string): string[][] | undefined {
  const python = findPython(['csv', 'json']);
  if (!python) return undefined;
  const script = 'import csv, json, sys\nprint(json.dumps(list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8")))))';
  const r = spawnSync(python, ['-c', script, path], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** The rows pandas reads from a CSV file, as text (missing as ''), header first; undefined without pandas. */
function pandasCsvRows(path: string): string[][] | undefined {
  const python = findPython(['pandas']);
  if (!python) return undefined;
  const script = 'import json, sys, pandas as pd\nd = pd.read_csv(sys.argv[1], dtype=str, keep_default_na=False)\nprint(json.dumps([list(d.columns)] + d.values.tolist()))';
  const r = spawnSync(python, ['-c', script, path], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe('import dry-run output, read back by other programs', () => {
  it('quotes a date_time value that a text rule made into text with a comma', async (context) => {
    const dir = await tempExample('customers');
    const job = await readFile(join(dir, 'job.yaml'), 'utf8');
    await writeFile(join(dir, 'job.yaml'), job.replace('      phone: {"[^0-9+]": ""}', '      phone: {"[^0-9+]": ""}\n      created_at: {"^(\\\\d{4})-(\\\\d\\\\d)-(\\\\d\\\\d)T(.*)$": "$2/$3/$1, $4 "}'));
    const r = await runCli(['dry-run', join(dir, 'job.yaml'), '-o', 'json', '--out', join(dir, 'out.csv')]);
    expect(r.exitCode, r.stderr).toBe(0);
    const table: unknown[][] = JSON.parse(r.stdout).runWebhook.dataTable;
    expect(table[1][5]).toBe('03/05/2024, 19:22:10 ');
    expect((await readFile(join(dir, 'out.csv'), 'utf8')).split('\n')[1]).toContain(',"03/05/2024, 19:22:10 ",');
    const rows = pythonCsvRows(join(dir, 'out.csv'));
    if (!rows) return context.skip(noPythonReason(['csv'], 'python3'));
    expect(rows).toEqual(table.map((row) => row.map((v) => (v === null ? '' : String(v)))));
  });

  it('writes a missing value of a one-column output as "", so readers keep the row', async (context) => {
    const dir = await mkdtemp(join(tmpdir(), 'import-e2e-one-column-'));
    await writeFile(join(dir, 'in.csv'), 'name\nann\nbob\n""\ncid\n');
    await writeFile(join(dir, 'job.yaml'), 'version: 1\ninput:\n  file: ./in.csv\n');
    const r = await runCli(['dry-run', join(dir, 'job.yaml'), '--out', join(dir, 'out.csv')]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('Wrote 4 rows');
    expect(await readFile(join(dir, 'out.csv'), 'utf8')).toBe('name\nann\nbob\n""\ncid\n');
    // Our own reader takes the file back with the same rows.
    await writeFile(join(dir, 'again.yaml'), 'version: 1\ninput:\n  file: ./out.csv\n');
    const again = await runCli(['dry-run', join(dir, 'again.yaml'), '--out', join(dir, 'again.csv')]);
    expect(again.stderr).toContain('Rows: 4 in, 4 out');
    const rows = pythonCsvRows(join(dir, 'out.csv'));
    if (!rows) return context.skip(noPythonReason(['csv'], 'python3'));
    expect(rows).toEqual([['name'], ['ann'], ['bob'], [''], ['cid']]);
    const frame = pandasCsvRows(join(dir, 'out.csv'));
    if (!frame) return context.skip(noPythonReason(['pandas'], 'python3-pandas'));
    expect(frame).toEqual([['name'], ['ann'], ['bob'], [''], ['cid']]);
  });

  it('refuses an output with no columns, saying why, and writes nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'import-e2e-no-columns-'));
    await writeFile(join(dir, 'in.csv'), 'a,b\n1,\n2,\n');
    await writeFile(join(dir, 'job.yaml'), 'version: 1\ninput:\n  file: ./in.csv\nconfig:\n  mapping: {a: null, b: null}\n');
    for (const out of ['out.csv', 'out.xlsx']) {
      const r = await runCli(['dry-run', join(dir, 'job.yaml'), '--out', join(dir, out), '--rejects', join(dir, 'rejects.csv')]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`error: The output ${join(dir, out)} would have no columns (every input column is unmapped, or a script removed them all), so nothing was written; map at least one column under config.mapping.`);
    }
    expect((await readdir(dir)).sort()).toEqual(['in.csv', 'job.yaml']);
  });

  it('warns, as the Excel writer does, when unpaired surrogates become U+FFFD in the CSV', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'import-e2e-surrogates-'));
    await writeFile(join(dir, 'in.json'), '[{"id": "1", "t": "a\\ud800b"}, {"id": "2", "t": "c\\udc00d"}]');
    await writeFile(join(dir, 'job.yaml'), 'version: 1\ninput:\n  file: ./in.json\n');
    const r = await runCli(['dry-run', join(dir, 'job.yaml'), '-o', 'json', '--out', join(dir, 'out.csv')]);
    expect(r.exitCode, r.stderr).toBe(0);
    const warning = 'CSV output: 2 character(s) that UTF-8 cannot hold (unpaired surrogates) were replaced with U+FFFD.';
    expect(r.stderr).toContain(`warning: ${warning}`);
    expect(JSON.parse(r.stdout).report.warnings).toContain(warning);
    expect(await readFile(join(dir, 'out.csv'), 'utf8')).toBe('id,t\n1,a\ufffdb\n2,c\ufffdd\n');
  });

  it('quotes a first column name that starts with U+FEFF, so the file does not begin with a BOM', async (context) => {
    const dir = await mkdtemp(join(tmpdir(), 'import-e2e-bom-name-'));
    await writeFile(join(dir, 'in.json'), '[{"\\ufeffid": "1", "a": "x"}]');
    await writeFile(join(dir, 'job.yaml'), 'version: 1\ninput:\n  file: ./in.json\n');
    const r = await runCli(['dry-run', join(dir, 'job.yaml'), '--out', join(dir, 'out.csv')]);
    expect(r.exitCode, r.stderr).toBe(0);
    const bytes = await readFile(join(dir, 'out.csv'));
    expect(bytes.subarray(0, 3).toString('latin1')).not.toBe('\xef\xbb\xbf');
    expect(bytes.toString('utf8')).toBe('"\ufeffid",a\n1,x\n');
    const frame = pandasCsvRows(join(dir, 'out.csv'));
    if (!frame) return context.skip(noPythonReason(['pandas'], 'python3-pandas'));
    expect(frame).toEqual([['\ufeffid', 'a'], ['1', 'x']]);
  });
});

describe('import validate', () => {
  it('says valid for every bundled example', async () => {
    for (const name of ['customers', 'pivot', 'workbook']) {
      const r = await runCli(['validate', join(examples, name, 'job.yaml')]);
      // validate reads the input's header to check the columns, and says so.
      expect(r.stderr).toMatch(/^Read the header of .+ \(\d+ columns\) to check the columns( and fields)? the job file names\.\n$/);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain('valid');
    }
  });

  it('lists every problem with file:line:col and exits 2', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'import-e2e-validate-'));
    await writeFile(join(dir, 'job.yaml'), 'version: 1\ninput:\n  file: ./in.csv\nconfig:\n  mappings: {}\n  dataTypes:\n    amount: money\n');
    const r = await runCli(['validate', join(dir, 'job.yaml')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/job\.yaml:5:3: .*mappings.*did you mean "mapping"/);
    expect(r.stderr).toMatch(/job\.yaml:7:13: .*money/);
  });
});

describe('import init', () => {
  it('writes a skeleton that dry-runs, with suggestions and their confidence', async () => {
    const dir = await exampleCopy('customers');
    const r = await runCli(['init', join(dir, 'customers.csv'), '--schema', join(dir, 'schema.yaml'), '--write', join(dir, 'new.yaml')]);
    expect(r.exitCode).toBe(0);
    const text = await readFile(join(dir, 'new.yaml'), 'utf8');
    expect(text).toContain('file: ./customers.csv');
    expect(text).toMatch(/E-mail Address.*: email # suggested, confidence \d\.\d\d/);
    expect(text).toContain('pipeline: pl_customers');
    const d = await runCli(['validate', join(dir, 'new.yaml')]);
    expect(d.exitCode).toBe(0);
    const run = await runCli(['dry-run', join(dir, 'new.yaml')]);
    expect(run.exitCode).toBe(0);
  });

  it('copies the schema file in its own field order, leaving empty members out, as pull writes it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'init-schema-'));
    await writeFile(join(dir, 'years.csv'), 'name,1962,1963\nx,1,2\n');
    await writeFile(join(dir, 'schema.yaml'), 'id: pl_years\nexpectedFields: [name, "1962", "1963"]\nfieldDataTypes: {name: rich_text, "1962": number, "1963": number}\nimputeMethods: {}\n');
    const r = await runCli(['init', join(dir, 'years.csv'), '--schema', join(dir, 'schema.yaml')]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.slice(r.stdout.indexOf('\nschema:'))).toBe('\nschema:\n  expectedFields: [ name, "1962", "1963" ]\n  fieldDataTypes: { name: rich_text, "1962": number, "1963": number }\n');
  });

  it('prints to stdout without --write', async () => {
    const r = await runCli(['init', join(examples, 'pivot', 'metrics.csv')]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('version: 1');
    expect(r.stdout).toContain('metric: metric # suggested, confidence 1.00');
  });
});
