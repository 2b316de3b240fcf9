/**
 * `import review` as a person runs it: the real CLI (`node bin/import.js`, needs `npm run build`)
 * in a pseudo-terminal made by util-linux `script`, answered with keystrokes. Each keystroke is
 * sent only once the prompt it answers is on screen.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { copyFile, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../support/cli.js';

const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;

const KEY = { enter: '\r', down: '\u001b[B', up: '\u001b[A', ctrlC: '\u0003' };

// Comments everywhere, aligned and not, a flow map over two lines: all of it must survive --save.
const JOB = `# Customers, reviewed by hand.   Try: import review job.yaml --dry-run --save
version: 1
name: customers-review   # shown in the service's UI
input:
  file: ./customers.csv
config:
  mapping:
    First:    full_name   # first half of the name
    Last: full_name       # second half
  allowColumnCombining: true
  # Signup Date (0.85) is under the bar below.
review:
  minConfidence: 0.9
schema:
  expectedFields: [id, full_name, email, amount, country, created_at, phone]
  optionalFields: [phone]
  fieldDataTypes: {id: number, full_name: rich_text, email: rich_text, amount: number,
                   country: category, created_at: date_time, phone: rich_text}
`;

function stripAnsi(text: string): string {
  // CSI sequences (cursor moves, erases, colours) and the rest of ESC sequences.
  return text.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/\u001b[@-Z\\-_]/g, '');
}

/** The CLI in a pseudo-terminal: `waitFor` text (in order), then `send` keys. */
class Terminal {
  private raw = '';
  private cursor = 0;
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcessWithoutNullStreams;

  constructor(args: string[], cwd: string, extraEnv: Record<string, string> = {}) {
    const home = join(cwd, '.home');
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('IMPORT_') && k !== 'CI' && k !== 'FORCE_COLOR') env[k] = v;
    Object.assign(env, { NO_COLOR: '1', TERM: 'xterm', HOME: home, XDG_CONFIG_HOME: join(home, '.config') }, extraEnv);
    const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const command = [process.execPath, BIN, ...args].map(quote).join(' ');
    // -q quiet, -f flush at once, -e exit with the child's code, -c the command; no typescript file.
    this.child = spawn('script', ['-qfec', command, '/dev/null'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.setEncoding('utf8').on('data', (d: string) => { this.raw += d; });
    this.child.stderr.setEncoding('utf8').on('data', (d: string) => { this.raw += d; });
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  /** Everything shown so far, without escape sequences. */
  text(): string {
    return stripAnsi(this.raw);
  }

  /** Resolves once `expected` appears after the previous match. */
  async waitFor(expected: string, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const at = this.text().indexOf(expected, this.cursor);
      if (at !== -1) { this.cursor = at + expected.length; return; }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${JSON.stringify(expected)}; the screen so far:\n${this.text()}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** Sends keys, a moment after the prompt rendered (it reads keys from then on). */
  async send(keys: string): Promise<void> {
    await new Promise((r) => setTimeout(r, 60));
    this.child.stdin.write(keys);
  }

  /** Answers a prompt: wait for its text, then press the keys. */
  async answer(prompt: string, ...keys: string[]): Promise<void> {
    await this.waitFor(prompt);
    for (const key of keys) await this.send(key);
  }

  /** The exit code, killing the session if it does not end in time. */
  async exitCode(timeoutMs = 20_000): Promise<number | null> {
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const code = await this.exited;
    clearTimeout(timer);
    this.child.stdin.end();
    return code;
  }
}

async function jobDir(job = JOB): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'import-review-pty-'));
  await copyFile(join(ROOT, 'examples', 'customers', 'customers.csv'), join(dir, 'customers.csv'));
  await writeFile(join(dir, 'job.yaml'), job);
  return dir;
}

describe.skipIf(!hasScript)('import review in a terminal', () => {
  it('walks the columns with arrow keys, Enter and a typed search, and saves the job file keeping its comments', async () => {
    const dir = await jobDir();
    const term = new Terminal(['review', 'job.yaml', '--dry-run', '--save'], dir);

    await term.waitFor('Column 1 of 9: Internal Notes');
    await term.answer('? Map "Internal Notes" to', KEY.enter); // Leave unmapped (no suggestion)
    await term.waitFor('suggested:  created_at (confidence 0.85)');
    await term.answer('? Map "Signup Date" to', KEY.enter); // Accept created_at
    await term.answer('? Map "Customer ID" to', KEY.enter); // Accept id
    await term.answer('? Map "E-mail Address" to', KEY.enter); // Accept email
    await term.answer('? Map "Tel" to', KEY.down, KEY.enter); // Choose another field…
    await term.answer('? Field for "Tel" (type to filter)', 'pho');
    await term.answer('❯ phone (optional; suggested 0.96)', KEY.enter);
    await term.answer('? Map "Amount" to', KEY.enter);
    await term.answer('? Map "Country" to', KEY.down, KEY.down, KEY.enter); // Leave unmapped
    await term.answer('? Map "First" to', KEY.enter); // Keep full_name (pinned)
    await term.answer('? Map "Last" to', KEY.enter);
    await term.answer('? Data type of "full_name" (from First, Last)', KEY.enter); // rich_text, expected
    await term.answer('? Data type of "amount" (from Amount)', KEY.enter); // number (suggested, 0.88)
    await term.waitFor('Your choices (+ newly pinned, ~ changed) for job.yaml:');
    await term.answer('? Save these choices to job.yaml?', KEY.enter);

    expect(await term.exitCode()).toBe(0);
    expect(term.text()).toContain('Saved 9 choices to job.yaml.');
    expect(await readFile(join(dir, 'job.yaml'), 'utf8')).toBe(`# Customers, reviewed by hand.   Try: import review job.yaml --dry-run --save
version: 1
name: customers-review   # shown in the service's UI
input:
  file: ./customers.csv
config:
  mapping:
    First:    full_name   # first half of the name
    Last: full_name       # second half
    Internal Notes: null
    Signup Date: created_at
    Customer ID: id
    E-mail Address: email
    Tel: phone
    Amount: amount
    Country: null
  allowColumnCombining: true
  dataTypes:
    full_name: rich_text
    amount: number
  # Signup Date (0.85) is under the bar below.
review:
  minConfidence: 0.9
schema:
  expectedFields: [id, full_name, email, amount, country, created_at, phone]
  optionalFields: [phone]
  fieldDataTypes: {id: number, full_name: rich_text, email: rich_text, amount: number,
                   country: category, created_at: date_time, phone: rich_text}
`);
    // No temp file left beside it.
    expect((await readdir(dir)).filter((f) => f !== '.home').sort()).toEqual(['customers.csv', 'job.yaml']);
  }, 90_000);

  it('exits 130 on Ctrl-C at a prompt and leaves the job file untouched', async () => {
    const dir = await jobDir();
    const term = new Terminal(['review', 'job.yaml', '--dry-run', '--save'], dir);
    await term.answer('? Map "Internal Notes" to', KEY.enter);
    await term.answer('? Map "Signup Date" to', KEY.ctrlC);
    expect(await term.exitCode()).toBe(130);
    expect(term.text()).toContain('Cancelled at a prompt; nothing was saved.');
    expect(await readFile(join(dir, 'job.yaml'), 'utf8')).toBe(JOB);
    expect((await readdir(dir)).filter((f) => f !== '.home').sort()).toEqual(['customers.csv', 'job.yaml']);
  }, 60_000);

  it('declining the final question exits 5 and saves nothing', async () => {
    const dir = await jobDir();
    const term = new Terminal(['review', 'job.yaml', '--dry-run', '--save'], dir);
    for (const column of ['Internal Notes', 'Signup Date', 'Customer ID', 'E-mail Address', 'Tel', 'Amount', 'Country', 'First', 'Last']) {
      await term.answer(`? Map "${column}" to`, KEY.enter);
    }
    await term.answer('? Data type of "full_name"', KEY.enter);
    await term.answer('? Data type of "amount"', KEY.enter);
    await term.answer('? Save these choices to job.yaml?', 'n', KEY.enter);
    expect(await term.exitCode()).toBe(5);
    expect(term.text()).toContain('Review declined; nothing was saved or run.');
    expect(await readFile(join(dir, 'job.yaml'), 'utf8')).toBe(JOB);
  }, 60_000);

  it('keeps a ${NAME} value and an alias that the analyst kept, writing only the new lines', async () => {
    const job = `version: 1
schema:
  expectedFields: [id, full_name, email, amount, country, created_at, &ph phone]
  optionalFields: [phone]
input:
  file: ./customers.csv
config:
  mapping:
    E-mail Address: \${EMAIL_FIELD}   # differs per environment
    Tel: *ph
`;
    const dir = await jobDir(job);
    const term = new Terminal(['review', 'job.yaml', '--dry-run', '--save'], dir, { EMAIL_FIELD: 'email' });
    for (const column of ['First', 'Last', 'Internal Notes', 'Signup Date', 'Customer ID', 'Amount', 'Country']) {
      await term.answer(`? Map "${column}" to`, KEY.enter);
    }
    await term.answer('? Map "E-mail Address" to', KEY.enter); // Keep email (pinned)
    await term.answer('? Map "Tel" to', KEY.enter); // Keep phone (pinned)
    await term.answer('? Save these choices to job.yaml?', KEY.enter);
    expect(await term.exitCode()).toBe(0);
    expect(term.text()).toContain('(2 already pinned in job.yaml, unchanged)');
    expect(await readFile(join(dir, 'job.yaml'), 'utf8')).toBe(`${job}    First: null
    Last: null
    Internal Notes: null
    Signup Date: created_at
    Customer ID: id
    Amount: amount
    Country: country
`);
  }, 60_000);

  it('changes only the chosen column when its field is anchored and used in the schema: the schema keeps its value', async () => {
    const job = `version: 1
input:
  file: ./customers.csv
config:
  mapping:
    Tel: &ph phone   # one anchor, two uses
schema:
  expectedFields: [id, full_name, email, amount, country, created_at, phone]
  optionalFields: [*ph]
`;
    const dir = await jobDir(job);
    const term = new Terminal(['review', 'job.yaml', '--dry-run', '--save'], dir);
    for (const column of ['First', 'Last', 'Internal Notes', 'Signup Date', 'Customer ID', 'E-mail Address', 'Amount', 'Country']) {
      await term.answer(`? Map "${column}" to`, KEY.enter);
    }
    await term.answer('? Map "Tel" to', KEY.down, KEY.down, KEY.enter); // Leave unmapped
    await term.waitFor('~ Tel: phone -> (unmapped)');
    await term.answer('? Save these choices to job.yaml?', KEY.enter);
    expect(await term.exitCode()).toBe(0);
    const saved = await readFile(join(dir, 'job.yaml'), 'utf8');
    expect(saved).toBe(job
      .replace('    Tel: &ph phone   #', `    Tel: null   #`)
      .replace('  optionalFields: [*ph]', '  optionalFields: [&ph phone]')
      .replace('schema:\n', `    First: null
    Last: null
    Internal Notes: null
    Signup Date: created_at
    Customer ID: id
    E-mail Address: email
    Amount: amount
    Country: country
schema:
`));
    expect(spawnSync(process.execPath, [BIN, 'validate', 'job.yaml'], { cwd: dir, encoding: 'utf8' }).status).toBe(0);
  }, 60_000);

  it('asks before a second column goes to a field, and saves the combining the analyst confirmed so the file validates', async () => {
    const job = `version: 1
input:
  file: ./customers.csv
schema:
  expectedFields: [id, full_name, email, amount, country, created_at, phone]
  optionalFields: [phone]
`;
    const dir = await jobDir(job);
    const term = new Terminal(['review', 'job.yaml', '--dry-run', '--save'], dir);
    await term.answer('? Map "First" to', KEY.down, KEY.enter); // Choose a field…
    await term.answer('? Field for "First" (type to filter)', 'full');
    await term.answer('❯ full_name', ''); // the search settles on its one match before Enter
    await term.answer('', KEY.enter);
    await term.answer('? Map "Last" to', KEY.down, KEY.enter);
    await term.answer('? Field for "Last" (type to filter)', 'full');
    await term.answer('❯ full_name (also from First)', '');
    await term.answer('', KEY.enter);
    await term.waitFor('"full_name" already comes from First: a second column for it means combining the columns\' values.');
    await term.answer('? Combine First + Last into full_name?', KEY.enter); // No (the default)
    await term.waitFor('"full_name" stays with First; choose another field for "Last", or leave it unmapped.');
    await term.answer('? Map "Last" to', KEY.down, KEY.enter);
    await term.answer('? Field for "Last" (type to filter)', 'full');
    await term.answer('❯ full_name (also from First)', '');
    await term.answer('', KEY.enter);
    await term.answer('? Combine First + Last into full_name?', KEY.down, KEY.enter); // Yes, joined with a space
    for (const column of ['Internal Notes', 'Signup Date', 'Customer ID', 'E-mail Address', 'Tel', 'Amount', 'Country']) {
      await term.answer(`? Map "${column}" to`, KEY.enter);
    }
    await term.answer('? Data type of "full_name" (from First, Last)', KEY.enter);
    await term.waitFor('+ allowColumnCombining: true');
    await term.answer('? Save these choices to job.yaml?', KEY.enter);
    expect(await term.exitCode()).toBe(0);
    const saved = await readFile(join(dir, 'job.yaml'), 'utf8');
    expect(saved).toContain(`    First: full_name
    Last: full_name
`);
    expect(saved).toContain(`  allowColumnCombining: true
  combining:
    full_name: {method: stringAppend, separator: " ", order: [First, Last]}
`);
    const validate = spawnSync(process.execPath, [BIN, 'validate', 'job.yaml'], { cwd: dir, encoding: 'utf8' });
    expect(validate.stdout).toContain('job.yaml: valid');
    expect(validate.status).toBe(0);
  }, 90_000);

  it('removes, and says so, a setting that names the field of a column the analyst unmapped, so the saved file runs', async () => {
    const job = `version: 1
input:
  file: ./data.csv
config:
  mapping:
    notes: notes # suggested, confidence 1.00
  dataTypes:
    amount: number # inferred, confidence 1.00
    notes: rich_text # inferred, confidence 1.00
  impute:
    notes: {method: fill, value: none}
`;
    const dir = await jobDir(job);
    await writeFile(join(dir, 'data.csv'), 'id,name,amount,notes\n1,Ann,10,x\n2,Bob,20,\n');
    const term = new Terminal(['review', 'job.yaml', '--dry-run', '--save'], dir);
    for (const column of ['id', 'name', 'amount']) await term.answer(`? Map "${column}" to`, KEY.enter);
    await term.answer('? Map "notes" to', KEY.down, KEY.enter); // Leave unmapped
    await term.waitFor('  removed (the next run would stop on each):');
    await term.waitFor('    - dataTypes.notes: rich_text (no column gives "notes" now)');
    await term.waitFor('    - impute.notes: {"method":"fill","value":"none"} (no column gives "notes" now)');
    await term.answer('? Save these choices to job.yaml?', KEY.enter);
    expect(await term.exitCode()).toBe(0);
    expect(await readFile(join(dir, 'job.yaml'), 'utf8')).toBe(`version: 1
input:
  file: ./data.csv
config:
  mapping:
    notes: null
    id: id
    name: name
    amount: amount
  dataTypes:
    amount: number # inferred, confidence 1.00
  impute: {}
`);
    for (const command of ['validate', 'dry-run']) {
      const result = spawnSync(process.execPath, [BIN, command, 'job.yaml'], { cwd: dir, encoding: 'utf8' });
      expect(result.status, `${command}: ${result.stderr}`).toBe(0);
    }
  }, 60_000);

  it('removes a pivot and a row-dropping rule that name the unmapped field, with the comments that belong to them, so the saved file runs', async () => {
    const job = `version: 1
input:
  file: ./data.csv
config:
  mapping:
    notes: notes # suggested, confidence 1.00
  dataTypes:
    amount: number # inferred, confidence 1.00
    # free text, typed by hand
    notes: rich_text # inferred, confidence 1.00
  pivot:
    pivotColumns: [name]
    valueColumns: [notes]
    indexColumns: [id]
  rowDropping:
    # one row per id
    - {method: duplicateValues, fields: [id]}
    # rows without notes are noise
    - method: missingValues
      fields: [notes]
`;
    const dir = await jobDir(job);
    await writeFile(join(dir, 'data.csv'), 'id,name,amount,notes\n1,Ann,10,x\n2,Bob,20,\n');
    const term = new Terminal(['review', 'job.yaml', '--dry-run', '--save'], dir);
    for (const column of ['id', 'name', 'amount']) await term.answer(`? Map "${column}" to`, KEY.enter);
    await term.answer('? Map "notes" to', KEY.down, KEY.enter); // Leave unmapped
    await term.waitFor('  removed (the next run would stop on each):');
    await term.waitFor('    - dataTypes.notes: rich_text (no column gives "notes" now)');
    await term.waitFor('    - pivot: {"pivotColumns":["name"],"valueColumns":["notes"],"indexColumns":["id"],"aggregationMethod":"first"} (no column gives "notes" now)');
    await term.waitFor('    - rowDropping[1]: {"method":"missingValues","fields":["notes"]} (no column gives "notes" now)');
    await term.answer('? Save these choices to job.yaml?', KEY.enter);
    expect(await term.exitCode()).toBe(0);
    expect(await readFile(join(dir, 'job.yaml'), 'utf8')).toBe(`version: 1
input:
  file: ./data.csv
config:
  mapping:
    notes: null
    id: id
    name: name
    amount: amount
  dataTypes:
    amount: number # inferred, confidence 1.00
  rowDropping:
    # one row per id
    - {method: duplicateValues, fields: [id]}
`);
    for (const command of ['validate', 'dry-run']) {
      const result = spawnSync(process.execPath, [BIN, command, 'job.yaml'], { cwd: dir, encoding: 'utf8' });
      expect(result.status, `${command}: ${result.stderr}`).toBe(0);
    }
  }, 60_000);

  it('refuses --save on a job file whose config section is an alias before asking anything, leaving the file as it was', async () => {
    const job = `version: 1
input:
  file: ./customers.csv
schema:
  fieldDataTypes: &types {amount: number}
config:
  dataTypes: *types
`;
    const dir = await jobDir(job);
    const term = new Terminal(['review', 'job.yaml', '--dry-run', '--save'], dir);
    expect(await term.exitCode()).toBe(2);
    expect(term.text()).toMatch(/config\.dataTypes in \S*job\.yaml is an alias \(\*types\), so the review's choices cannot be saved there without changing what it points to; write config\.dataTypes out in full and save again\./);
    expect(term.text()).not.toContain('? Map');
    expect(await readFile(join(dir, 'job.yaml'), 'utf8')).toBe(job);
  }, 60_000);

  it('init leaves a sheet suggested under the bar as a comment; the gate stops on it; review asks and writes it on that line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'import-review-pty-'));
    // Two sheets, "Summary" and "Orders 2024"; the engine suggests "Orders 2024" at 0.67.
    await copyFile(join(ROOT, 'test', 'fixtures', 'read', 'unsure-sheet.xlsx'), join(dir, 'orders.xlsx'));
    const env = { ...process.env, NO_COLOR: '1', HOME: join(dir, '.home'), XDG_STATE_HOME: join(dir, '.home', '.state') };
    const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8', env });
    expect(cli('init', 'orders.xlsx', '--write', 'job.yaml').status).toBe(0);
    const written = await readFile(join(dir, 'job.yaml'), 'utf8');
    expect(written).toContain('config:\n  # sheet: Orders 2024 # suggested, confidence 0.67: under 0.8, review it; sheets: Summary, Orders 2024\n  mapping:\n');
    expect(cli('run', 'job.yaml', '--dry-run', '--min-confidence', '0.8').status).toBe(5);

    const term = new Terminal(['review', 'job.yaml', '--dry-run', '--save'], dir);
    await term.answer('? Sheet to import', KEY.enter); // Orders 2024 (suggested, 0.67)
    for (const column of ['order', 'order_2', 'column_3', '2024', '2024-01-01T00:00:00', 'total: usd', '#']) {
      await term.answer(`? Map "${column}" to`, KEY.enter);
    }
    await term.answer('? Save these choices to job.yaml?', KEY.enter);
    expect(await term.exitCode()).toBe(0);
    expect(await readFile(join(dir, 'job.yaml'), 'utf8')).toBe(written.replace(/  # sheet: .*\n/, '  sheet: Orders 2024\n'));
    expect(cli('run', 'job.yaml', '--dry-run', '--min-confidence', '0.8').status).toBe(0);
  }, 90_000);

  it('shows a pinned column next month\'s export no longer has, and drops it so the saved file validates (the README\'s worked example)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'import-review-pty-'));
    for (const name of ['signups.csv', 'signups-december.csv', 'schema.yaml']) await copyFile(join(ROOT, 'examples', 'review', name), join(dir, name));
    const env = { ...process.env, NO_COLOR: '1', HOME: join(dir, '.home'), XDG_STATE_HOME: join(dir, '.home', '.state') };
    const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8', env });
    expect(cli('init', 'signups.csv', '--schema', 'schema.yaml', '--write', 'job.yaml').status).toBe(0);
    const text = (await readFile(join(dir, 'job.yaml'), 'utf8')).replace('file: ./signups.csv', 'file: ./signups-december.csv');
    await writeFile(join(dir, 'job.yaml'), text);
    expect(cli('validate', 'job.yaml').status).toBe(2);

    const term = new Terminal(['review', 'job.yaml', '--dry-run', '--save'], dir);
    await term.waitFor('Pinned in job.yaml: "Contact: email", but signups-december.csv has no column "Contact".');
    await term.answer('? Pinned column "Contact"', KEY.enter); // Remove the line (and choose the column for email below)
    for (const column of ['Joined', 'Mail', 'Spend (USD)', 'Cust #', 'Plan']) await term.answer(`? Map "${column}" to`, KEY.enter);
    await term.waitFor('    - mapping.Contact: email (not a column of signups-december.csv)');
    await term.answer('? Save these choices to job.yaml?', KEY.enter);
    expect(await term.exitCode()).toBe(0);
    const saved = await readFile(join(dir, 'job.yaml'), 'utf8');
    expect(saved).not.toContain('Contact:');
    expect(saved).toContain('    Mail: email\n');
    const validate = cli('validate', 'job.yaml');
    expect(validate.status, validate.stderr).toBe(0);
  }, 90_000);
});
