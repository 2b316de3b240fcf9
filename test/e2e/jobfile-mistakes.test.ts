// A user's mistakes in a job file that used to pass `validate` (or stop a dry run without a
// location): each is now one sentence at file:line:col with the fix, exit 2, from the real CLI on
// real files beside the customers example's data.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyExample, runCli } from '../support/cli.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'import-jobfile-mistakes-'));
  await copyExample('customers', dir);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const cli = (args: string[]) => runCli(args, { cwd: dir, timeoutMs: 40_000 });

/** The customers example's schema, as a job file's last lines. */
const SCHEMA = `schema:
  expectedFields: [id, full_name, email, amount, country, created_at, phone]
  optionalFields: [phone]
  fieldDataTypes: {id: number, full_name: rich_text, email: rich_text, amount: number,
                   country: category, created_at: date_time, phone: rich_text}
`;

/** A job file over customers.csv: `config` lines start at line 6. */
function job(config: string, schema = SCHEMA): string {
  return `version: 1\npipeline: pl_customers\ninput:\n  file: ./customers.csv\nconfig:\n${config}${schema}`;
}

async function write(text: string | Uint8Array, name = 'job.yaml'): Promise<string> {
  await writeFile(join(dir, name), text);
  return name;
}

/** validate and dry-run both refuse the file with this message (exit 2), and the dry run writes nothing. */
async function expectRefused(name: string, message: string): Promise<void> {
  const v = await cli(['validate', name]);
  expect(v.stderr).toContain(message);
  expect(v.exitCode).toBe(2);
  expect(v.stdout).toBe('');
  const d = await cli(['dry-run', name]);
  expect(d.stderr).toContain(message);
  expect(d.exitCode).toBe(2);
  await expect(stat(join(dir, name.replace(/\.yaml$/, '.out.csv')))).rejects.toThrow();
}

const COMBINED = '  mapping: {Customer ID: id, First: full_name, Last: full_name}\n  allowColumnCombining: true\n  combining:\n';

describe('a setting written without a value', () => {
  it('refuses an unquoted comma separator inside braces, which YAML reads as no value, and says to quote it', async () => {
    await write(job(`${COMBINED}    full_name: {method: stringAppend, separator: ,}\n`));
    await expectRefused('job.yaml', 'job.yaml:9:50: config.combining.full_name.separator is empty: inside braces YAML reads "separator: ," as no value followed by a comma; quote the value, such as separator: ", ".');
    await write(job('  impute:\n    phone: {method: fill, value: ,}\n'), 'fill.yaml');
    await expectRefused('fill.yaml', 'fill.yaml:7:34: config.impute.phone.value is empty: inside braces YAML reads "value: ," as no value followed by a comma; quote the value, such as value: ", ".');
  });

  it('refuses an explicit null separator and an empty method or order at the value, instead of the defaults', async () => {
    await write(job(`${COMBINED}    full_name: {method: stringAppend, separator: null}\n`), 'null.yaml');
    await expectRefused('null.yaml', 'null.yaml:9:50: config.combining.full_name.separator is null, which YAML reads as no value; write its value, or remove the key to leave it unset.');
    await write(job(`${COMBINED}    full_name:\n      method:\n      order: [First, Last]\n`), 'method.yaml');
    await expectRefused('method.yaml', 'method.yaml:10:14: config.combining.full_name.method is empty; write its value (stringAppend, json), or remove the key to leave it unset.');
    await write(job(`${COMBINED}    full_name:\n      order:\n`), 'order.yaml');
    await expectRefused('order.yaml', 'order.yaml:10:13: config.combining.full_name.order is empty; write its value, or remove the key to leave it unset.');
  });

  it('refuses other settings left empty (run.wait, pipeline, aggregationMethod) rather than taking a default', async () => {
    await write('version: 1\npipeline:\ninput: {file: ./customers.csv}\nrun:\n  wait: ~\n');
    const r = await cli(['validate', 'job.yaml']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('job.yaml:2:10: pipeline is empty; write its value, or remove the key to leave it unset.');
    expect(r.stderr).toContain('job.yaml:5:9: run.wait is ~, which YAML reads as no value; write its value (true or false), or remove the key to leave it unset.');
  });

  it('keeps the nulls the format gives a meaning, and empty sections', async () => {
    await write(job('  mapping: {Customer ID: id, Internal Notes: null}\n  units:\n    created_at: {from: null, to: null}\n  impute:\n    country: {method: null}\n  text:\n'));
    const r = await cli(['validate', 'job.yaml']);
    expect(r.stderr).not.toContain('error');
    expect(r.stdout).toBe('job.yaml: valid\n');
    expect(r.exitCode).toBe(0);
  });
});

describe('fill values', () => {
  it('fills a text field with the value as written, leading zero and all', async () => {
    await write(job('  mapping: {Customer ID: id, Tel: phone}\n  impute:\n    phone: {method: fill, value: 0800123456}\n'));
    const r = await cli(['dry-run', 'job.yaml']);
    expect(r.stderr).toContain('phone: {"method":"fill","value":"0800123456"}');
    expect(r.exitCode).toBe(0);
    const rows = (await readFile(join(dir, 'job.out.csv'), 'utf8')).split('\n');
    const header = rows[0].split(',');
    const filled = rows.find((line) => line.startsWith('1004,'))!;
    expect(filled.split(',')[header.indexOf('phone')]).toBe('0800123456');
  });

  it('keeps every digit of an integer a double cannot hold', async () => {
    await write(job('  mapping: {Customer ID: id, Tel: phone}\n  impute:\n    phone: {method: fill, value: 12345678901234567891}\n'));
    const r = await cli(['dry-run', 'job.yaml']);
    expect(r.exitCode).toBe(0);
    expect(await readFile(join(dir, 'job.out.csv'), 'utf8')).toContain(',12345678901234567891');
  });
});

describe('mistakes only the data or the engine\'s rules reveal, at their line', () => {
  it('names a column given two pivot roles in validate, as the pivot step would refuse it', async () => {
    await write(job('  mapping: {Customer ID: id, Country: country, Amount: amount}\n  pivot:\n    pivotColumns: [country]\n    valueColumns: [amount]\n    indexColumns: [id, country]\n'));
    await expectRefused('job.yaml', 'job.yaml:8:20: column "country" is named in both config.pivot.indexColumns and config.pivot.pivotColumns, but a pivot column has one role (index, pivot or value); remove it from one of them.');
  });

  it('names the field a renamed column became when a rule still uses the old name (no schema)', async () => {
    await write(job('  mapping:\n    Country: nation\n  text:\n    casing:\n      Country: upper\n', ''));
    const r = await cli(['dry-run', 'job.yaml']);
    expect(r.stderr).toContain('job.yaml:10:7: config.text.casing names the field "Country", but config.mapping maps the column "Country" to "nation", so no column gives "Country"; name the field "nation" here.');
    expect(r.exitCode).toBe(2);
  });

  it('stops a dry run at a fill value that does not fit the type inferred from the data', async () => {
    await write(job('  impute:\n    Customer ID: {method: fill, value: unknown}\n', ''));
    expect((await cli(['validate', 'job.yaml'])).exitCode).toBe(0); // validate reads the header only: the type is not known there
    const r = await cli(['dry-run', 'job.yaml']);
    expect(r.stderr).toContain('job.yaml:7:33: config.impute.Customer ID.value: Fill value "unknown" for field "Customer ID" is not a number, but the field\'s data type is number (the type the dry run inferred from the data; pin the type under config.dataTypes if it is wrong); write a value of that type or change the field\'s type.');
    expect(r.exitCode).toBe(2);
  });

  it('refuses a slash-date fill value that reads either way, which the column could read the other way', async () => {
    await write(job('  impute:\n    created_at: {method: fill, value: "01/02/2020"}\n'));
    for (const command of ['validate', 'dry-run']) {
      const r = await cli([command, 'job.yaml']);
      expect(r.stderr).toContain('job.yaml:7:32: config.impute.created_at.value: Fill value "01/02/2020" for field "created_at" reads as 2020-01-02 month-first and as 2020-02-01 day-first, and the column\'s order is known only from its values; write it as YYYY-MM-DD.');
      expect(r.exitCode).toBe(2);
    }
  });

  it('stops a dry run at a time-zone conversion on a field inferred as text', async () => {
    await write(job('  units:\n    Tel: {from: UTC_m5, to: UTC_p0}\n', ''));
    const r = await cli(['dry-run', 'job.yaml']);
    expect(r.stderr).toMatch(/job\.yaml:7:5: config\.units\.Tel converts UTC_m5 → UTC_p0, which needs data type date_time, but the field is rich_text \(the type the dry run inferred from the data; pin the type under config\.dataTypes if it is wrong\); /);
    expect(r.exitCode).toBe(2);
  });
});

describe('the job file\'s encoding', () => {
  it('refuses a Latin-1 job file at its first non-UTF-8 byte, before anything is sent', async () => {
    const text = Buffer.from('version: 1\npipeline: pl_customers\nname: caf\xe9\ninput: {file: ./customers.csv}\noptions: {destinationFileName: caf\xe9.csv}\n', 'latin1');
    await write(text);
    const message = 'job.yaml:3:10: the job file is not UTF-8 text: byte 0xE9 here is not UTF-8, "é" in Latin-1 (the file was probably saved as Latin-1 or Windows-1252); save it as UTF-8.';
    await expectRefused('job.yaml', message);
    // run refuses it the same way (exit 2, not a network error: nothing was sent to the unused port).
    const r = await runCli(['run', 'job.yaml', '--yes'], { cwd: dir, env: { IMPORT_BASE_URL: 'http://127.0.0.1:9', IMPORT_API_KEY: 'k' } });
    expect(r.stderr).toContain(message);
    expect(r.exitCode).toBe(2);
  });

  it('says in one short sentence that a UTF-16 job file is UTF-16, with or without a byte order mark', async () => {
    const yaml = 'version: 1\ninput: {file: ./customers.csv}\n';
    await write(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(yaml, 'utf16le')]), 'bom.yaml');
    const r = await cli(['validate', 'bom.yaml']);
    expect(r.stderr).toBe('error: bom.yaml:1:1: the job file is UTF-16 (little-endian) text, not UTF-8; save it as UTF-8 (most editors offer the encoding under "Save As").\n');
    expect(r.exitCode).toBe(2);
    await write(Buffer.from(yaml, 'utf16le'), 'nobom.yaml');
    const r2 = await cli(['validate', 'nobom.yaml']);
    expect(r2.stderr).toBe('error: nobom.yaml:1:1: the job file is UTF-16 text, not UTF-8; save it as UTF-8 (most editors offer the encoding under "Save As").\n');
    expect(r2.exitCode).toBe(2);
  });

  it('says what differs when a mapped column only looks like a header: Unicode normalisation, a non-breaking space', async () => {
    await writeFile(join(dir, 'names.csv'), 'Pre\u0301nom,Nom de famille\nAnn,Lee\n');
    await write('version: 1\ninput: {file: ./names.csv}\nconfig:\n  mapping:\n    "Pr\u00e9nom": first\n    "Nom\u00a0de famille": last\n');
    const r = await cli(['validate', 'job.yaml']);
    expect(r.stderr).toContain('job.yaml:5:5: column "Pr\u00e9nom" in config.mapping is not in names.csv, whose columns are Pre\u0301nom, Nom de famille; it looks like "Pre\u0301nom" there but differs only in Unicode normalisation (NFC in the job file, NFD in names.csv); copy the name from names.csv.');
    expect(r.stderr).toContain('job.yaml:6:5: column "Nom\u00a0de famille" in config.mapping is not in names.csv, whose columns are Pre\u0301nom, Nom de famille; it looks like "Nom de famille" there but has a non-breaking space in the job file where names.csv has a space; copy the name from names.csv.');
    expect(r.exitCode).toBe(2);
  });
});

describe('a schema block the engine cannot apply', () => {
  it('refuses an impute method fill in the schema with no value to fill with, at its line in the job file\'s terms, unless config.impute gives one', async () => {
    const schema = `${SCHEMA}  imputeMethods: {country: fill}\n`;
    await write(job('  mapping: {Customer ID: id}\n', schema));
    await expectRefused('job.yaml', 'job.yaml:12:19: schema.imputeMethods.country is fill, which needs a value to fill with, and the schema block has no place for one (the dry run would stop on it); give the value under config.impute (country: {method: fill, value: ...}), or make the method dropMissing or null.');
    const refused = await cli(['validate', 'job.yaml']);
    expect(refused.stderr).not.toContain('imputeMethodConfig');
    // The job file's own fill value replaces the pipeline's suggestion: validate and the dry run accept it.
    await write(job('  mapping: {Customer ID: id}\n  impute:\n    country: {method: fill, value: ZZ}\n', schema), 'valued.yaml');
    const v = await cli(['validate', 'valued.yaml']);
    expect(v.exitCode).toBe(0);
    const d = await cli(['dry-run', 'valued.yaml']);
    expect(d.exitCode).toBe(0);
    expect(await readFile(join(dir, 'valued.out.csv'), 'utf8')).toContain('ZZ');
  });
});

describe('an input that is the dry run\'s own default output', () => {
  it('passes validate (a run sends it) with a warning at input.file that a dry run needs --out', async () => {
    await writeFile(join(dir, 'job.out.csv'), await readFile(join(dir, 'customers.csv')));
    await write('version: 1\npipeline: pl_customers\ninput:\n  file: ./job.out.csv\n');
    const v = await cli(['validate', 'job.yaml']);
    expect(v.stderr).toContain("warning: job.yaml:4:3: input.file job.out.csv is where `import dry-run` writes this job file's output by default, so a dry run of it needs --out with another path (or rename the input).\n");
    expect(v.stdout).toBe('job.yaml: valid\n');
    expect(v.exitCode).toBe(0);
    const d = await cli(['dry-run', 'job.yaml']);
    expect(d.exitCode).toBe(2);
  });
});

describe('environment variables written another way', () => {
  it('refuses a ${...} that is not a ${NAME} reference, such as a shell default, instead of sending it as written', async () => {
    await write('version: 1\npipeline: ${PIPELINE:-pl_customers}\ninput: {file: ./customers.csv}\nrun:\n  webhookUrl: "https://hooks.example.com/${ TOKEN }"\n');
    const r = await runCli(['validate', 'job.yaml'], { cwd: dir, env: { PIPELINE: 'pl_customers', TOKEN: 't' } });
    expect(r.stderr).toContain('job.yaml:2:11: "${PIPELINE:-pl_customers}" is not an environment variable reference: job files read only ${NAME}, with no shell forms such as ":-" (a default), so it would be kept as written; set PIPELINE in the environment and write ${PIPELINE}, or write the value itself.');
    expect(r.stderr).toContain('job.yaml:5:42: "${ TOKEN }" is not an environment variable reference: job files read only ${NAME} (letters, digits and _, no spaces), so it would be kept as written; fix the name, or write $${ for a literal "${".');
    expect(r.exitCode).toBe(2);
  });

  it('names the variables that made a value empty', async () => {
    await write('version: 1\npipeline: ${PIPELINE}${SUFFIX}\ninput: {file: ./customers.csv}\n');
    const r = await runCli(['validate', 'job.yaml'], { cwd: dir, env: { PIPELINE: '', SUFFIX: '' } });
    expect(r.stderr).toBe('error: job.yaml:2:11: pipeline is empty: ${PIPELINE} and ${SUFFIX} are set to an empty value in the environment; set them to the value, or write the value in place of ${PIPELINE} and ${SUFFIX}.\n');
    expect(r.exitCode).toBe(2);
  });

  it('warns that $NAME is kept as written when NAME is set, and keeps $${NAME} literal without a word', async () => {
    await write('version: 1\nname: $JOB_NAME\ninput: {file: ./customers.csv}\noptions: {destinationFileName: "$${DAY}.csv"}\n');
    const r = await runCli(['validate', 'job.yaml'], { cwd: dir, env: { JOB_NAME: 'nightly', DAY: 'mon' } });
    expect(r.stderr).toContain('warning: job.yaml:2:7: "$JOB_NAME" is kept as written, since job files read a variable only as ${NAME}; write ${JOB_NAME} to use the environment variable JOB_NAME.');
    expect(r.stderr).not.toContain('DAY');
    expect(r.stdout).toBe('job.yaml: valid\n');
    expect(r.exitCode).toBe(0);
  });
});

describe('YAML merge keys', () => {
  it('refuses <<: *anchor, which YAML 1.2 reads as a key named "<<" (a column of inline rows), and takes a quoted "<<" as a name', async () => {
    await write('version: 1\ninput:\n  rows:\n    - &first {id: 1, name: Ann}\n    - {<<: *first, id: 2}\n');
    await expectRefused('job.yaml', 'job.yaml:5:8: "<<" in input.rows[1] is a YAML merge key, which job files do not read (they are YAML 1.2, where it is an ordinary key named "<<"); write the keys out, or quote it ("<<") if it is a name.');
    await write(job('  impute:\n    country: &fill {method: fill, value: US}\n  text:\n    casing: {full_name: title}\n  combining:\n    full_name: {<<: *fill}\n'), 'config.yaml');
    const r = await cli(['validate', 'config.yaml']);
    expect(r.stderr).toContain('config.yaml:11:17: "<<" in config.combining.full_name is a YAML merge key');
    expect(r.exitCode).toBe(2);
    await write('version: 1\ninput:\n  rows:\n    - {"<<": x, id: 2}\n', 'quoted.yaml');
    expect((await cli(['validate', 'quoted.yaml'])).exitCode).toBe(0);
  });
});

describe('an input with no data', () => {
  it('refuses inline rows written as an empty list at the list, as a rowsFile holding [] is', async () => {
    await write('version: 1\ninput:\n  rows: []\n');
    await expectRefused('job.yaml', 'job.yaml:3:9: input.rows is an empty list, so the job would have no data; add at least one row, such as [{id: 1, name: Ann}].');
  });
});

describe('a combining order', () => {
  it('refuses a column of the input that config.mapping does not map to the field, at the column, as the engine would stop on the order', async () => {
    await write(job(`${COMBINED}    full_name: {separator: " ", order: [First, Last, Country]}\n`));
    await expectRefused('job.yaml', 'job.yaml:9:54: column "Country" in config.combining.full_name.order is not mapped to "full_name" in config.mapping, so it is not one of the columns combined into it (the run would stop on the order); add "Country: full_name" under config.mapping, or remove it from the order.');
  });
});

describe('text the engine would insert as written', () => {
  it('refuses a replacement referring to a group the pattern does not have ($2 with one group, $0, $<name>), which would land in the output', async () => {
    await write(job('  text:\n    regexReplacement:\n      phone:\n        "[(]([0-9]+)[)]": "$2-"\n        "[0-9]+": "<$0>"\n        "(?<area>[0-9]{3})": "$<code>"\n        "x": "$1"\n', SCHEMA));
    const r = await cli(['validate', 'job.yaml']);
    expect(r.stderr).toContain('job.yaml:9:27: replacement for "[(]([0-9]+)[)]" in config.text.regexReplacement.phone refers to group 2 with $2, but the pattern has one group, so $2 would be inserted as written; refer to a group the pattern has, or write $$2 for the text "$2".');
    expect(r.stderr).toContain('job.yaml:10:19: replacement for "[0-9]+" in config.text.regexReplacement.phone holds $0, which ECMAScript inserts as written (it has no group 0); write $& for the whole match, or $$0 for the text "$0".');
    expect(r.stderr).toContain('job.yaml:11:30: replacement for "(?<area>[0-9]{3})" in config.text.regexReplacement.phone refers to the group "code" with $<code>, but the pattern\'s named groups are area, so it would insert nothing; use one of those names.');
    expect(r.stderr).toContain('job.yaml:12:14: replacement for "x" in config.text.regexReplacement.phone refers to group 1 with $1, but the pattern has no groups');
    expect(r.exitCode).toBe(2);
    // $$ is a literal $, and $10 with one group is $1 then "0", as in ECMAScript.
    await write(job('  mapping: {Customer ID: id, Tel: phone}\n  text:\n    regexReplacement:\n      phone:\n        "^[(]([0-9]+)[)] ": "$$$10-"\n', SCHEMA), 'ok.yaml');
    expect((await cli(['validate', 'ok.yaml'])).exitCode).toBe(0);
    const d = await cli(['dry-run', 'ok.yaml']);
    expect(d.exitCode).toBe(0);
    expect(await readFile(join(dir, 'ok.out.csv'), 'utf8')).toContain(',$5550-123-4567\n');
  });

  it('refuses \\t in a separator and \\1 in a replacement written outside double quotes, which YAML keeps as a backslash and a letter', async () => {
    await write(job(`${COMBINED}    full_name: {separator: '\\t'}\n  text:\n    regexReplacement:\n      phone: {'[(]([0-9]+)[)]': '\\1-'}\n`));
    const r = await cli(['validate', 'job.yaml']);
    expect(r.stderr).toContain('job.yaml:9:28: config.combining.full_name.separator holds "\\t" as two characters, a backslash and "t", since YAML reads escapes only in double quotes; write "\\t" in double quotes for a tab, or "\\\\t" for the two characters.');
    expect(r.stderr).toContain('job.yaml:12:33: replacement for "[(]([0-9]+)[)]" in config.text.regexReplacement.phone holds "\\1", which is inserted as written, since a replacement refers to a group as $1; write $1, or "\\\\1" in double quotes for the two characters.');
    expect(r.exitCode).toBe(2);
    await write(job(`${COMBINED}    full_name: {separator: "\\t"}\n`), 'tab.yaml');
    expect((await cli(['dry-run', 'tab.yaml'])).exitCode).toBe(0);
    expect(await readFile(join(dir, 'tab.out.csv'), 'utf8')).toContain(',mary-jane\to\'NEIL,');
  });
});

describe('a pattern that is not the expression it looks like', () => {
  it('refuses \\b in double quotes (a backspace to YAML), \\p{L} (text without the u flag) and a /regex/g literal, each at its pattern', async () => {
    await write(job('  text:\n    regexReplacement:\n      full_name: {"\\\\\\\\\\bo\'": "O"}\n      email: {\'\\p{L}+\': x}\n      phone: {"/[^0-9]/g": ""}\n', SCHEMA));
    const r = await cli(['validate', 'job.yaml']);
    expect(r.stderr).toContain('job.yaml:8:19: pattern "\\\\\\\\\\bo\'" in config.text.regexReplacement.full_name is written in double quotes, where YAML reads "\\b" as a backspace character (U+0008), not a word boundary; write the pattern in single quotes (\'\\\\\\bo\'\'\') so the expression gets "\\b".');
    expect(r.stderr).toContain('job.yaml:9:15: pattern "\\p{L}+" in config.text.regexReplacement.email uses \\p{L}, a Unicode property, which text rules do not read: they run without the u flag, where \\p{L} is the text "p{L}"; spell the characters out in a class instead, such as [A-Za-zÀ-ÖØ-öø-ÿ].');
    expect(r.stderr).toContain('job.yaml:10:15: pattern "/[^0-9]/g" in config.text.regexReplacement.phone is written as a JavaScript regex literal, whose slashes and flags would be matched as text; write the expression alone, "[^0-9]" (every rule replaces all matches, and there are no flags).');
    expect(r.exitCode).toBe(2);
  });

  it('takes \\b in single quotes as a word boundary, and warns about a pattern between slashes without flags', async () => {
    await write(job('  mapping: {Customer ID: id, Last: full_name}\n  text:\n    regexReplacement:\n      full_name: {\'\\bo\'\'\': "O\'", "/x/": ""}\n', SCHEMA));
    const v = await cli(['validate', 'job.yaml']);
    expect(v.stderr).toContain('warning: job.yaml:9:34: pattern "/x/" in config.text.regexReplacement.full_name starts and ends with "/", which are matched as text (the expression is written without slashes); remove them unless the values hold them.');
    expect(v.exitCode).toBe(0);
    expect((await cli(['dry-run', 'job.yaml'])).exitCode).toBe(0);
    expect(await readFile(join(dir, 'job.out.csv'), 'utf8')).toContain(",O'NEIL,");
  });
});

describe('a mapping keyed by its data source', () => {
  it('refuses in validate a source name that is not the input\'s, as the dry run does', async () => {
    await write('version: 1\ninput: {file: ./customers.csv}\nconfig:\n  mapping:\n    customers-nov.csv: {Customer ID: id}\n');
    await expectRefused('job.yaml', 'job.yaml:4:3: config.mapping is keyed by the data source "customers-nov.csv", but the source of the input is "customers.csv"; rename the key to "customers.csv", or write the columns flat (column: field), which apply to the job\'s one source whatever its name.');
    await write('version: 1\ninput: {file: ./customers.csv}\nconfig:\n  mapping:\n    customers.csv: {Customer ID: id}\n', 'right.yaml');
    expect((await cli(['validate', 'right.yaml'])).exitCode).toBe(0);
  });
});

describe('a schema block naming a field it does not list', () => {
  it('refuses a preset row dropping rule on a field not in expectedFields, at the field, as the dry run would stop on it', async () => {
    await write(job('  mapping: {Customer ID: id}\n', `${SCHEMA}  rowDropping:\n    - {method: missingValues, fields: [id, e-mail]}\n`));
    await expectRefused('job.yaml', 'job.yaml:13:44: schema.rowDropping[0].fields names "e-mail", which is not in expectedFields or optionalFields; did you mean "email"?');
  });
});

describe('script ids', () => {
  it('warns at a preColumnMapping id spelt unlike its local module, which a dry run would skip, and is quiet about a service script', async () => {
    await writeFile(join(dir, 'n.mjs'), 'export default (table) => table;\n');
    await write('version: 1\ninput: {file: ./customers.csv}\nscripts:\n  preColumnMapping: [normalise-headers, service-side]\nlocalScripts:\n  normalize-headers: ./n.mjs\n');
    const r = await cli(['validate', 'job.yaml']);
    expect(r.stderr).toContain('warning: job.yaml:4:22: script "normalise-headers" in scripts.preColumnMapping has no module under localScripts, so a dry run skips it; did you mean "normalize-headers"?');
    expect(r.stderr).not.toContain('service-side');
    expect(r.exitCode).toBe(0);
  });
});

describe('an input path a shell would have expanded', () => {
  it('says that ~ and wildcards are taken as written, with the fix', async () => {
    await write('version: 1\ninput:\n  file: ~/customers.csv\n');
    await expectRefused('job.yaml', 'job.yaml:3:3: input.file ~/customers.csv does not exist (paths are relative to the job file\'s folder); a "~" is not expanded here: write the path relative to the job file\'s folder, or start it with ${HOME}/ instead.');
    await write('version: 1\ninput:\n  file: ./customers-*.csv\n', 'glob.yaml');
    await expectRefused('glob.yaml', 'glob.yaml:3:3: input.file customers-*.csv does not exist (paths are relative to the job file\'s folder); wildcards are not expanded here: name one file.');
  });
});

describe('typographic quotes', () => {
  it('refuses a value or key wrapped in “ ” or ‘ ’, which YAML keeps as text, and keeps them inside straight quotes', async () => {
    await write('version: 1\npipeline: “pl_customers”\ninput: {file: ./customers.csv}\nconfig:\n  mapping:\n    “Customer ID”: id\n  impute:\n    Country: {method: fill, value: ‘US’}\n');
    const r = await cli(['validate', 'job.yaml']);
    expect(r.stderr).toContain('job.yaml:2:11: pipeline is wrapped in typographic quotes (“pl_customers”), which YAML keeps as part of the text; write straight quotes ("pl_customers") or none (typographic quotes inside straight ones are kept, if meant).');
    expect(r.stderr).toContain('job.yaml:6:5: the key in config.mapping is wrapped in typographic quotes (“Customer ID”)');
    expect(r.stderr).toContain('job.yaml:8:36: config.impute.Country.value is wrapped in typographic quotes (‘US’)');
    expect(r.exitCode).toBe(2);
    await write('version: 1\ninput: {file: ./customers.csv}\nconfig:\n  impute:\n    Country: {method: fill, value: "‘US’"}\n', 'meant.yaml');
    expect((await cli(['validate', 'meant.yaml'])).exitCode).toBe(0);
  });
});
