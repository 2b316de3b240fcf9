/**
 * Files that are not CSV, TSV, XLSX or a JSON array, made by the tools that write them, are named
 * with the way out (exit 2, nothing written), never read as text: a gzip file used to give "not valid
 * UTF-8", a Parquet file "a header but no data rows", JSON Lines "a quoted field has text after its
 * closing quote".
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../support/cli.js';

const CSV = 'name,age\nAnn,3\nBo,4\n';
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'import-formats-'));
  await writeFile(join(dir, 'people.csv'), CSV);
});

/** Whether a command-line tool is on PATH. */
const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status === 0;

/** Dry-runs a job file that names `file`; the refusal must be one sentence naming the file, and no output may be left. */
async function refused(file: string, says: RegExp): Promise<void> {
  const job = join(dir, `${file}.yaml`);
  await writeFile(job, `version: 1\ninput: {file: ${file}}\n`);
  const r = await runCli(['dry-run', job], { timeoutMs: 30_000 });
  expect(r.exitCode).toBe(2);
  expect(r.stderr).toMatch(says);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(existsSync(join(dir, `${file}.out.csv`))).toBe(false);
}

describe('compressed files, made by their own tools', () => {
  const cases: [tool: string, args: string[], suffix: string, says: RegExp][] = [
    ['gzip', ['-k', '-f'], '.gz', /people\.csv\.gz is gzip-compressed, which cannot be read; decompress it first \(gunzip -k\)/],
    ['bzip2', ['-k', '-f'], '.bz2', /is bzip2-compressed, .*\(bunzip2 -k\)/],
    ['xz', ['-k', '-f'], '.xz', /is xz-compressed, .*\(unxz -k\)/],
    ['zstd', ['-k', '-f', '-q'], '.zst', /is zstd-compressed, .*\(unzstd\)/],
  ];
  for (const [tool, args, suffix, says] of cases) {
    it.skipIf(!has(tool))(`${tool} (skipped when ${tool} is not installed)`, async () => {
      expect(spawnSync(tool, [...args, join(dir, 'people.csv')]).status).toBe(0);
      await refused(`people.csv${suffix}`, says);
    });
  }
});

describe('other formats', () => {
  it('a job file given as the data file, which would read as a one-column CSV', async () => {
    await writeFile(join(dir, 'nightly.yml'), 'version: 1\ninput: {file: people.csv}\n');
    await refused('nightly.yml', /nightly\.yml is a YAML file \(a job file or a schema file\?\), which cannot be read; give the CSV, TSV, XLSX or JSON file that holds the rows\.$/m);
  });

  it.skipIf(!has('sqlite3'))('an SQLite database made by sqlite3', async () => {
    const made = spawnSync('sqlite3', [join(dir, 'people.db'), 'create table people(name text, age int); insert into people values (\'Ann\', 3);']);
    expect(made.status).toBe(0);
    await refused('people.db', /people\.db is an SQLite database, which cannot be read; export the table as CSV, XLSX or a JSON array/);
  });

  it.skipIf(!has('soffice'))('an OpenDocument spreadsheet made by LibreOffice (skipped without libreoffice-calc-nogui)', async () => {
    const made = spawnSync('soffice', ['--headless', '--convert-to', 'ods', '--outdir', dir, join(dir, 'people.csv')], { timeout: 120_000 });
    expect(made.status).toBe(0);
    await refused('people.ods', /people\.ods is an OpenDocument file \(\.ods\), which cannot be read; save it as \.xlsx or CSV/);
  });

  it('an old binary workbook, by its first bytes whatever its name', async () => {
    await writeFile(join(dir, 'book.dat'), Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]));
    await refused('book.dat', /book\.dat is an Excel 97-2003 workbook \(\.xls\), which cannot be read/);
  });

  it.skipIf(!has('soffice'))('a workbook LibreOffice saved as .xls, renamed .xlsx: an old workbook or a password-protected one (skipped without libreoffice-calc-nogui)', async () => {
    const made = spawnSync('soffice', ['--headless', '--convert-to', 'xls', '--outdir', dir, join(dir, 'people.csv')], { timeout: 120_000 });
    expect(made.status).toBe(0);
    await refused('people.xls', /people\.xls is an Excel 97-2003 workbook \(\.xls\), which cannot be read; save it as \.xlsx or CSV and retry\.$/m);
    await writeFile(join(dir, 'renamed.xlsx'), await readFile(join(dir, 'people.xls')));
    await refused('renamed.xlsx', /renamed\.xlsx is an Excel 97-2003 workbook \(\.xls\) or a password-protected workbook, not the ZIP package an \.xlsx file is, which cannot be read; remove the password if it has one, then save it as \.xlsx or CSV and retry\.$/m);
  });

  it('a workbook LibreOffice saved with a password to open (test/fixtures/real/password-libreoffice.xlsx) is said to be password-protected, under any name', async () => {
    const bytes = await readFile(join(ROOT, 'test/fixtures/real/password-libreoffice.xlsx'));
    const says = 'is a password-protected (encrypted) workbook, which cannot be read; open it in Excel or LibreOffice, remove the password (save it without one), and retry.';
    for (const name of ['locked.xlsx', 'locked.xls', 'locked.csv']) {
      await writeFile(join(dir, name), bytes);
      await refused(name, new RegExp(`${name.replace('.', '\\.')} ${says.replace(/[().]/g, '\\$&')}$`, 'm'));
    }
  });

  it.skipIf(!has('soffice'))('an .xlsx LibreOffice wrote, named .xls, is read by its bytes (skipped without libreoffice-calc-nogui)', async () => {
    const made = spawnSync('soffice', ['--headless', '--convert-to', 'xlsx', '--outdir', dir, join(dir, 'people.csv')], { timeout: 120_000 });
    expect(made.status).toBe(0);
    await writeFile(join(dir, 'export.xls'), await readFile(join(dir, 'people.xlsx')));
    const job = join(dir, 'export.xls.yaml');
    await writeFile(job, 'version: 1\ninput: {file: export.xls}\n');
    const r = await runCli(['dry-run', job, '--out', '-'], { timeoutMs: 30_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(CSV);
  });

  it.skipIf(!existsSync('/usr/bin/python3') || spawnSync('/usr/bin/python3', ['-c', 'import pandas'], { stdio: 'ignore' }).status !== 0)(
    'text pandas wrote under an .xls name (to_csv with tabs, to_html, as web apps\' "Export to Excel" do) is named as such, never called an old workbook (skipped without /usr/bin/python3 and pandas)', async () => {
      const script = "import sys, pandas as pd\nf = pd.DataFrame({'name': ['Ann'], 'age': [3]})\nf.to_csv(sys.argv[1] + '/tabs.xls', sep='\\t', index=False)\nf.to_html(sys.argv[1] + '/table.xls', index=False)";
      const made = spawnSync('/usr/bin/python3', ['-c', script, dir], { encoding: 'utf8' });
      expect(made.status, made.stderr).toBe(0);
      await refused('tabs.xls', /tabs\.xls is not an Excel workbook, though its name ends in \.xls: it holds text that looks like CSV; rename it to \.csv \(or \.tsv\) and retry\.$/m);
      await refused('table.xls', /table\.xls is not an Excel workbook, though its name ends in \.xls: it is an HTML table or an XML Spreadsheet 2003 file \(as web apps' "Export to Excel" write\); open it in Excel or LibreOffice, save it as \.xlsx or CSV, and retry\.$/m);
    });

  it('JSON Lines, by extension, by content, and after a first object too long to sniff', async () => {
    const lines = '{"name":"Ann","age":3}\n{"name":"Bo","age":4}\n';
    await writeFile(join(dir, 'people.jsonl'), lines);
    await refused('people.jsonl', /people\.jsonl holds JSON Lines \(one object per line\), which cannot be read; make it one array of row objects \(jq -s \. people\.jsonl > rows\.json\)/);
    await writeFile(join(dir, 'export.json'), lines);
    await refused('export.json', /export\.json holds JSON Lines/);
    const long = `{"name":"${'a'.repeat(300)}","age":3}\n{"name":"Bo","age":4}\n`;
    await writeFile(join(dir, 'long.json'), long);
    await refused('long.json', /long\.json:2:1: a second JSON object follows the first: this is JSON Lines/);
  });

  it('a .jsonl file that holds a JSON array is read as the array it is', async () => {
    await writeFile(join(dir, 'array.jsonl'), '[{"name": "Ann", "age": 3}]\n');
    await writeFile(join(dir, 'array.yaml'), 'version: 1\ninput: {file: array.jsonl}\n');
    const r = await runCli(['dry-run', join(dir, 'array.yaml')], { timeoutMs: 30_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await readFile(join(dir, 'array.out.csv'), 'utf8')).toBe('name,age\nAnn,3\n');
  });

  it('a CSV that merely starts with a brace is still read as CSV', async () => {
    await writeFile(join(dir, 'braces.csv'), '{a},b\n{"x"},2\n');
    await writeFile(join(dir, 'braces.yaml'), 'version: 1\ninput: {file: braces.csv}\n');
    const r = await runCli(['dry-run', join(dir, 'braces.yaml')], { timeoutMs: 30_000 });
    expect(r.exitCode).toBe(0);
  });
});
