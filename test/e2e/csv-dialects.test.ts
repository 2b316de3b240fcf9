/**
 * CSV files as other tools write them, through the real CLI's dry run: pandas' to_csv with `;` and
 * tab (it quotes only fields holding the delimiter, as Excel's semicolon CSV does), text that iconv
 * turned into UTF-16 or UTF-32, and files printf wrote byte by byte. Exit 0 must mean every value
 * was read as written; anything else is one sentence and exit 2. Run `npm run build` first.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { findPython, noPythonReason } from '../support/python.js';

let dir: string;
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'import-e2e-dialects-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

/** Debian's python, which has pandas (a pyenv python on PATH may not). */
const PYTHON = '/usr/bin/python3';
const hasPandas = spawnSync(PYTHON, ['-c', 'import pandas'], { stdio: 'ignore' }).status === 0;
const hasIconv = spawnSync('sh', ['-c', 'command -v iconv'], { stdio: 'ignore' }).status === 0;

/** Runs a shell command in the temp folder (printf, iconv), failing the test if it fails. */
function sh(command: string): void {
  const r = spawnSync('sh', ['-c', command], { cwd: dir, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
}

/** Writes `name` with pandas: a DataFrame of `columns` (name -> values) saved by to_csv with `sep`. */
function pandasCsv(name: string, columns: Record<string, (string | number)[]>, sep: string): void {
  const script = 'import json, sys, pandas as pd\npd.DataFrame(json.loads(sys.argv[1])).to_csv(sys.argv[2], sep=sys.argv[3], index=False)';
  const r = spawnSync(PYTHON, ['-c', script, JSON.stringify(columns), join(dir, name), sep], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
}

/** Dry-runs `file` with every column passed through as text (`columns` typed rich_text), plus `args`; stdout parsed. */
async function dryRun(file: string, columns: string[] = [], args: string[] = []) {
  const job = join(dir, `${file}.yaml`);
  const types = columns.map((c) => `    ${JSON.stringify(c)}: rich_text\n`).join('');
  await writeFile(job, `version: 1\npipeline: p\ninput: {file: ${JSON.stringify(file)}}\n${types ? `config:\n  dataTypes:\n${types}` : ''}`);
  const r = await runCli(['dry-run', job, '-o', 'json', '--out', join(dir, `${file}.out.csv`), ...args], { timeoutMs: 30_000 });
  return { ...r, json: r.exitCode === 0 ? JSON.parse(r.stdout) : undefined };
}

/** Expects a refusal: exit 2, one line on stderr matching `says`, no output written. */
async function refused(file: string, says: RegExp): Promise<string> {
  const r = await dryRun(file);
  expect(r.exitCode, r.stderr).toBe(2);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr.trim()).toMatch(says);
  expect(existsSync(join(dir, `${file}.out.csv`))).toBe(false);
  return r.stderr;
}

describe.skipIf(!hasPandas)('files pandas writes with ; and tab (skipped without /usr/bin/python3 and pandas)', () => {
  const people = {
    'Name, first': ['Smith, John', 'Madonna', 'Doe, Jane'],
    'City, State': ['Austin, TX', 'Lima', 'Boston, MA'],
    Amount: ['12', '3,5', '7'],
  };

  for (const [sep, label] of [[';', 'semicolon'], ['\t', 'tab']] as const) {
    it(`reads a ${label} file whose header splits on commas too, every value as written`, async () => {
      const file = `people-${label}.csv`;
      pandasCsv(file, people, sep);
      const r = await dryRun(file, Object.keys(people));
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.json.runWebhook.dataTable).toEqual([
        ['Name, first', 'City, State', 'Amount'],
        ['Smith, John', 'Austin, TX', '12'],
        ['Madonna', 'Lima', '3,5'],
        ['Doe, Jane', 'Boston, MA', '7'],
      ]);
    }, 30_000);
  }

  it('refuses a one-column file pandas wrote with ; whose values hold commas, saying the header is one column and the ways out', async () => {
    pandasCsv('one-column-semi.csv', { note: ['a, b', 'c'] }, ';');
    await refused('one-column-semi.csv', /one-column-semi\.csv:2: the header is one column \(it holds no comma, semicolon, tab or \| outside quotes\) but this row holds 1 comma outside quotes; if the file is one column, quote the values that hold commas \(as pandas' to_csv does with its default sep\) or name the file \.tsv, and if the rows hold more columns, add their names to the header\.$/);
    // The ways out the message names: pandas' default sep quotes the values, and a .tsv file is split on tabs only.
    for (const [name, sep] of [['one-column-comma.csv', ','], ['one-column-semi.tsv', ';']]) {
      pandasCsv(name, { note: ['a, b', 'c'] }, sep);
      const r = await dryRun(name, ['note']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.json.runWebhook.dataTable).toEqual([['note'], ['a, b'], ['c']]);
    }
  }, 30_000);

  it('under --lenient, names the rows of a one-column file pandas wrote with ; whose values it cut at a comma, and what it kept', async () => {
    pandasCsv('one-column-lenient.csv', { note: ['a, b', 'c', 'd,e'] }, ';');
    const r = await dryRun('one-column-lenient.csv', ['note'], ['--lenient']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.json.runWebhook.dataTable).toEqual([['note'], ['a'], ['c'], ['d']]);
    expect(r.json.report.rowsRepaired).toBe(2);
    const said = /one-column-lenient\.csv:2: the header is one column \(it holds no comma, semicolon, tab or \| outside quotes\), so --lenient cut 2 rows \(1, 3\) at the first comma outside quotes, keeping "a" of "a, b" and the like; to keep such values whole, quote them .* add their names to the header\.$/;
    expect(r.json.report.warnings).toEqual([expect.stringMatching(said)]);
    expect(r.stderr).toMatch(/^warning: .*one-column-lenient\.csv:2: the header is one column/m);
  }, 30_000);

  it('refuses a file whose first rows split evenly on two delimiters, naming both and the way out', async () => {
    const columns = { 'Name, first': ['Smith, John', 'Doe, Jane'], Age: [42, 37] };
    pandasCsv('even-semi.csv', columns, ';');
    await refused('even-semi.csv', /even-semi\.csv:1: cannot tell the delimiter: the header and the first rows split evenly on "," \(2 columns\) and on ";" \(2 columns\); save the file comma-separated .* \(there is no setting for the delimiter\)\.$/);
    pandasCsv('even-tab.csv', columns, '\t');
    await refused('even-tab.csv', /split evenly on "," \(2 columns\) and on tab \(2 columns\);.*or name a tab-separated file \.tsv/);
    // The way out the message names: the same tab file named .tsv.
    pandasCsv('even-tab.tsv', columns, '\t');
    const r = await dryRun('even-tab.tsv', ['Name, first', 'Age']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.json.runWebhook.dataTable).toEqual([['Name, first', 'Age'], ['Smith, John', '42'], ['Doe, Jane', '37']]);
  }, 30_000);
});

describe.skipIf(!hasIconv)('text iconv wrote in UTF-16 and UTF-32 (skipped without iconv)', () => {
  it('refuses UTF-16 without a byte-order mark at the first NUL byte, one column or two', async () => {
    sh(String.raw`printf 'id\r\n1001\r\n1002\r\n' | iconv -f UTF-8 -t UTF-16LE > ids.csv`);
    await refused('ids.csv', /ids\.csv:1:2 holds a NUL byte: it looks like UTF-16\/UTF-32 without a byte-order mark, or a binary file; save it as UTF-8 and retry\.$/);
    sh(String.raw`printf 'id,name\r\n1001,Ann\r\n' | iconv -f UTF-8 -t UTF-16BE > two.csv`);
    await refused('two.csv', /two\.csv:1:1 holds a NUL byte/);
  });

  it('refuses UTF-32, with or without its byte-order mark', async () => {
    sh(String.raw`printf 'id,name\n1,Zoë\n' | iconv -f UTF-8 -t UTF-32 > bom32.csv`);
    await refused('bom32.csv', /bom32\.csv is UTF-32 text, which is not read; save it as UTF-8 and retry\.$/);
    sh(String.raw`printf 'id,name\n1,Zoë\n' | iconv -f UTF-8 -t UTF-32LE > le32.csv`);
    await refused('le32.csv', /le32\.csv:1:2 holds a NUL byte/);
  });

  it('still reads UTF-16 with a byte-order mark, every value as written', async () => {
    sh(String.raw`printf 'id,name\r\n1,Zoë\r\n2,Łódź\r\n' | iconv -f UTF-8 -t UTF-16 > bom16.csv`);
    const r = await dryRun('bom16.csv', ['id', 'name']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.json.runWebhook.dataTable).toEqual([['id', 'name'], ['1', 'Zoë'], ['2', 'Łódź']]);
  });
});

describe('a carriage return inside a value, as pandas and Python\'s csv module write it', () => {
  /** Runs `script` with a python3 that has `module` (argv[1] is the file to write in the temp folder); undefined, with the reason to skip, when there is none. */
  function python(module: string, packages: string, script: string, name: string): string | undefined {
    const found = findPython([module]);
    if (!found) return noPythonReason([module], packages);
    const r = spawnSync(found, ['-c', script, join(dir, name)], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return undefined;
  }

  it('refuses a value holding a CR that pandas wrote unquoted at its line and column, and keeps it under --lenient with a warning', async (context) => {
    const skip = python('pandas', 'python3-pandas', "import sys, pandas as pd\npd.DataFrame({'id': ['1', '2'], 'note': ['x\\ry', 'z']}).to_csv(sys.argv[1], index=False)", 'pandas-cr.csv');
    if (skip) return context.skip(skip);
    // pandas 1.5 writes `1,x<CR>y`: its own read_csv ends the row at the CR; Python's csv module takes it as a line end too.
    await refused('pandas-cr.csv', /pandas-cr\.csv:2:4: an unquoted field holds a lone CR \(carriage return\), which readers disagree on \(some end the row there, some refuse the file\); quote the field if the CR is part of the value, or save the file with one kind of line end \(an editor's line-ending setting does it\) if it ends a line\.$/);
    const r = await dryRun('pandas-cr.csv', ['id', 'note'], ['--lenient']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.json.runWebhook.dataTable).toEqual([['id', 'note'], ['1', 'x\ry'], ['2', 'z']]);
    expect(r.json.report.warnings).toContainEqual(expect.stringMatching(/pandas-cr\.csv:2:4: an unquoted field holds a lone CR \(carriage return\), kept in the value under --lenient; quote such fields/));
  });

  it('reads a value holding a CR that Python\'s csv module quoted, as written', async (context) => {
    const skip = python('csv', 'python3', "import sys, csv\nwith open(sys.argv[1], 'w', newline='') as f: csv.writer(f).writerows([['id', 'note'], ['1', 'x\\ry'], ['2', 'z']])", 'csv-module-cr.csv');
    if (skip) return context.skip(skip);
    const r = await dryRun('csv-module-cr.csv', ['id', 'note']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.json.runWebhook.dataTable).toEqual([['id', 'note'], ['1', 'x\ry'], ['2', 'z']]);
    expect(r.json.report.warnings).toEqual([]);
  });

  it('refuses quotes pandas escaped with a backslash (escapechar, doublequote=False, as MySQL\'s INTO OUTFILE writes them) at the quote\'s line and column, saying so', async (context) => {
    const skip = python('pandas', 'python3-pandas', "import sys, pandas as pd\npd.DataFrame({'id': [1, 2], 'name': ['O\"Brien, Pat', 'plain']}).to_csv(sys.argv[1], index=False, escapechar='\\\\', doublequote=False)", 'pandas-backslash.csv');
    if (skip) return context.skip(skip);
    // pandas writes `1,"O\"Brien, Pat"`: RFC 4180 readers (pandas' own read_csv too) end the field at the escaped quote.
    await refused('pandas-backslash.csv', /pandas-backslash\.csv:2:6: a quoted field has text after its closing quote, which follows a backslash: quotes escaped as \\" \(as MySQL's SELECT \.\.\. INTO OUTFILE and Python's csv with escapechar write them\) are not CSV quoting; export the file with quotes inside fields doubled \(""\) and retry\.$/);
  });
});

describe('files printf writes byte by byte', () => {
  it('drops a byte-order mark written twice instead of keeping it in the first column\'s name', async () => {
    sh(String.raw`printf '\357\273\277\357\273\277id,name\n1,a\n' > double-bom.csv`);
    const r = await dryRun('double-bom.csv', ['id', 'name']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.json.runWebhook.dataTable).toEqual([['id', 'name'], ['1', 'a']]);
  });

  it('says the line ends are mixed when CRLF and lone CR line ends run two lines into one row', async () => {
    sh(String.raw`printf 'id,name\r\n1,a\n2,b\r3,c\n' > mixed-eol.csv`);
    await refused('mixed-eol.csv', /mixed-eol\.csv:3:4: the line ends are mixed: this line holds a lone CR, .* so the row has 3 cells but the header has 2; save the file with one kind of line end .* and retry\.$/);
  });

  it('says the line ends are mixed when --lenient cuts a row that CRLF and lone CR line ends ran together', async () => {
    sh(String.raw`printf 'id,name\r\n1,a\n2,b\r3,c\n' > mixed-eol-lenient.csv`);
    const r = await dryRun('mixed-eol-lenient.csv', ['id', 'name'], ['--lenient']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.json.runWebhook.dataTable).toEqual([['id', 'name'], ['1', 'a'], ['2', 'b\r3']]);
    expect(r.json.report.rowsRepaired).toBe(1);
    const said = /mixed-eol-lenient\.csv:3:4: the line ends are mixed: this line holds a lone CR, which does not end a row in a file whose lines end in LF or CRLF, so its row had the wrong number of cells and was padded or cut under --lenient; save the file with one kind of line end \(an editor's line-ending setting does it\) to read the rows as written\.$/;
    expect(r.json.report.warnings).toEqual([expect.stringMatching(said)]);
    expect(r.stderr).toMatch(/^warning: .*mixed-eol-lenient\.csv:3:4: the line ends are mixed/m);
  });

  it('refuses a lone CR in an unquoted field of an LF file at its line and column, though the row is as wide as the header', async () => {
    sh(String.raw`printf 'a,b\n1,x\ry\n2,z\n' > lone-cr.csv`);
    await refused('lone-cr.csv', /lone-cr\.csv:2:4: an unquoted field holds a lone CR \(carriage return\), which readers disagree on/);
  });

  it('says the line ends are mixed when a lone CR follows a closing quote, at its line and column', async () => {
    sh(String.raw`printf 'a,b\n"a"\rb,c\n1,2\n' > cr-after-quote.csv`);
    await refused('cr-after-quote.csv', /cr-after-quote\.csv:2:4: the line ends are mixed: a closing quote is followed by a lone CR, which does not end a row in a file whose lines end in LF or CRLF; save the file with one kind of line end .* and retry\.$/);
  });

  it('refuses spaces between a closing quote and the delimiter, which Python\'s csv module and pandas keep, at their line and column', async () => {
    sh(String.raw`printf 'name,city\n"Smith" ,"Austin"\n' > padded-quote.csv`);
    await refused('padded-quote.csv', /padded-quote\.csv:2:8: a quoted field has whitespace after its closing quote, which readers disagree on \(some drop it, Python's csv module and pandas keep it in the value\); delete it, or move it inside the quotes if it is part of the value\.$/);
  });

  it('refuses a NUL byte in a UTF-8 file at its line and column', async () => {
    sh(String.raw`printf 'id,name\n1,a\000b\n' > nul.csv`);
    await refused('nul.csv', /nul\.csv:2:4 holds a NUL byte/);
  });
});
