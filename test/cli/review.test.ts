import { copyFile, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { review, reviewForRun } from '../../src/cli/commands/review.js';
import type { Deps } from '../../src/cli/deps.js';
import { lazyClient } from '../../src/cli/deps.js';
import { makeIO } from '../../src/cli/io.js';
import { openJobInput } from '../../src/cli/job-input.js';
import { filterChoices, type PromptChoice, type Prompter } from '../../src/cli/prompter.js';
import {
  mergeChoices, readColumnSamples, redactValue, reviewAndConfirm, reviewChoices, withMetadata, type ColumnSamples,
} from '../../src/cli/review-flow.js';
import type { JobResources } from '../../src/contract/index.js';
import { analyzeJob } from '../../src/engine/pipeline.js';
import { CancelledError, ReviewRequiredError, UsageError } from '../../src/errors.js';
import { loadJobFile } from '../../src/jobfile/load.js';
import type { JobFile } from '../../src/jobfile/types.js';
import { main } from '../../src/main.js';
import { fakeDeps } from '../support/fake-deps.js';
import { startEmulator, type Emulator } from '../support/emulator.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', 'examples', 'customers');

/** A job file with comments: First and Last pinned, the bar at 0.9. */
const JOB = `# Review test: First and Last pinned, the rest from the suggestions.
version: 1
pipeline: pl_customers
name: review-test
input:
  file: ./customers.csv
config:
  mapping:
    First: full_name     # first half of the name
    Last: full_name
  allowColumnCombining: true
review:
  minConfidence: 0.9     # Signup Date (0.85) and amount's type (0.88) fall under it
schema:
  expectedFields: [id, full_name, email, amount, country, created_at, phone]
  optionalFields: [phone]
  fieldDataTypes: {id: number, full_name: rich_text, email: rich_text, amount: number,
                   country: category, created_at: date_time, phone: rich_text}
`;

async function jobDir(text = JOB): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'import-review-'));
  await copyFile(join(EXAMPLES, 'customers.csv'), join(dir, 'customers.csv'));
  await writeFile(join(dir, 'job.yaml'), text);
  return dir;
}

async function loaded(text = JOB): Promise<{ dir: string; job: JobFile; resources: JobResources; samples: ColumnSamples }> {
  const dir = await jobDir(text);
  const job = await loadJobFile(join(dir, 'job.yaml'), {});
  const analysis = await analyzeJob({ input: await openJobInput(job), schema: job.schema });
  const samples = withMetadata(await readColumnSamples(job), analysis.metadata);
  return { dir, job, resources: analysis.resources, samples };
}

interface Asked { kind: 'select' | 'search' | 'confirm'; message: string; choices: PromptChoice<unknown>[]; default?: unknown }

/** A Prompter answering from a queue; each select/search answer must be one of the choices offered. */
function scripted(answers: unknown[]): { prompter: Prompter; asked: Asked[] } {
  const asked: Asked[] = [];
  const next = (q: Asked) => {
    asked.push(q);
    if (answers.length === 0) throw new Error(`no scripted answer for ${q.kind} "${q.message}"`);
    const a = answers.shift();
    if (a instanceof Error) throw a;
    if (q.kind !== 'confirm' && !q.choices.some((c) => JSON.stringify(c.value) === JSON.stringify(a))) {
      throw new Error(`"${JSON.stringify(a)}" is not a choice of "${q.message}": ${q.choices.map((c) => JSON.stringify(c.value)).join(', ')}`);
    }
    return a;
  };
  const prompter: Prompter = {
    select: async (message, choices, opts) => next({ kind: 'select', message, choices, default: opts?.default }) as never,
    search: async (message, choices) => next({ kind: 'search', message, choices }) as never,
    confirm: async (message, opts) => next({ kind: 'confirm', message, choices: [], default: opts?.default }) as boolean,
  };
  return { prompter, asked };
}

/** Deps whose IO can prompt (a terminal, not CI), writing to buffers. */
function terminalDeps(settings: Partial<Deps['settings']> = {}, cwd = process.cwd()): { deps: Deps; stdout(): string; stderr(): string } {
  let out = '';
  let err = '';
  const sink = (append: (s: string) => void) => new Writable({ write(chunk, _e, done) { append(String(chunk)); done(); } });
  const io = makeIO({
    stdout: sink((s) => { out += s; }), stderr: sink((s) => { err += s; }), stdin: new PassThrough(),
    isStdoutTTY: true, isStderrTTY: true, isStdinTTY: true, color: false, ci: false,
  });
  const deps: Deps = {
    io, env: {}, cwd, now: () => new Date('2024-03-05T12:00:00Z'),
    settings: { output: 'table', color: false, verbose: false, timeoutMs: 30_000, insecure: false, ...settings },
    client: () => lazy(),
  };
  const lazy = lazyClient(deps, { retry: { baseDelayMs: 1, maxDelayMs: 5 } });
  return { deps, stdout: () => out, stderr: () => err };
}

/** The answers for the whole walk of JOB, in the order asked (see the first test). */
const WALK = [
  'unmapped', // Internal Notes (no suggestion)
  'accept', // Signup Date -> created_at (0.85)
  'accept', // Customer ID -> id (0.92)
  'accept', // E-mail Address -> email (0.96)
  'other', 'phone', // Tel: searched
  'accept', // Amount -> amount (1)
  'accept', // Country -> country (1)
  'keep', // First (pinned)
  'keep', // Last (pinned)
  'rich_text', // full_name: no type suggested for the pinned columns
  'number', // amount (0.88 < 0.9)
];

describe('reviewChoices', () => {
  it('asks every column, lowest confidence first and pinned columns last, then the types under the bar', async () => {
    const { job, resources, samples } = await loaded();
    const { prompter, asked } = scripted([...WALK]);
    const { deps, stderr } = terminalDeps();
    const choices = await reviewChoices(job, resources, samples, prompter, deps.io, { minConfidence: 0.9, redact: false });

    expect(asked.map((q) => `${q.kind} ${q.message}`)).toEqual([
      'select Map "Internal Notes" to',
      'select Map "Signup Date" to',
      'select Map "Customer ID" to',
      'select Map "E-mail Address" to',
      'select Map "Tel" to',
      'search Field for "Tel" (type to filter)',
      'select Map "Amount" to',
      'select Map "Country" to',
      'select Map "First" to',
      'select Map "Last" to',
      'select Data type of "full_name" (from First, Last)',
      'select Data type of "amount" (from Amount)',
    ]);
    expect(asked[0].choices.map((c) => c.name)).toEqual(['Leave unmapped (no suggestion)', 'Choose a field…']);
    expect(asked[1].choices.map((c) => c.name)).toEqual(['Accept created_at (0.85)', 'Choose another field…', 'Leave unmapped']);
    expect(asked[5].choices.map((c) => c.name)).toEqual([
      'id (also from Customer ID)', 'full_name', 'email (also from E-mail Address)', 'amount', 'country',
      'created_at (also from Signup Date)', 'phone (optional; suggested 0.96)',
    ]);
    expect(asked[8].choices.map((c) => c.name)).toEqual(['Keep full_name (pinned)', 'Choose another field…', 'Leave unmapped']);
    expect(asked[10].default).toBe('rich_text');
    expect(asked[11].choices.map((c) => c.name)).toEqual(['number (suggested, 0.88; expected by the pipeline)', 'rich_text', 'category', 'date_time']);

    expect(choices).toEqual({
      mapping: {
        'Internal Notes': null, 'Signup Date': 'created_at', 'Customer ID': 'id', 'E-mail Address': 'email', Tel: 'phone',
        Amount: 'amount', Country: 'country', First: 'full_name', Last: 'full_name',
      },
      dataTypes: { full_name: 'rich_text', amount: 'number' },
    });
    // What the person saw before the first question: samples, missing count, unique ratio, suggestion.
    expect(stderr()).toContain([
      'Column 2 of 9: Signup Date',
      '  samples:    "2024-03-05 14:22:10", "2024-03-06 09:00:00", "2024-03-07T08:15", "2024/03/08", "2024-03-09"',
      '  missing:    0 of 8 rows; unique ratio 0.88',
      '  suggested:  created_at (confidence 0.85)',
    ].join('\n'));
    expect(stderr()).toContain('  missing:    3 of 8 rows; unique ratio 0.63\n  suggested:  (no field)');
    expect(stderr()).toContain('  pinned:     full_name in job.yaml');
  });

  it('masks sample values with redact', async () => {
    const { job, resources, samples } = await loaded();
    const { prompter } = scripted([...WALK]);
    const { deps, stderr } = terminalDeps();
    await reviewChoices(job, resources, samples, prompter, deps.io, { minConfidence: 0.9, redact: true });
    expect(stderr()).toContain('Column 4 of 9: E-mail Address\n  samples:    "m******", "j*********", "l*********", "n******", "e******"');
    expect(stderr()).not.toContain('mary@example.com');
  });

  it('asks every mapped field\'s type with all, and none when there is no bar and every field has a suggestion', async () => {
    const { job, resources, samples } = await loaded(JOB.replace('    First: full_name     # first half of the name\n    Last: full_name\n', '    First: null\n'));
    const columns = ['Last', 'Internal Notes', 'Signup Date', 'Customer ID', 'E-mail Address', 'Tel', 'Amount', 'Country', 'First'];
    const mappingAnswers = ['unmapped', 'unmapped', 'accept', 'accept', 'accept', 'accept', 'accept', 'accept', 'keep'];
    const noBar = scripted([...mappingAnswers]);
    const { deps } = terminalDeps();
    const quiet = await reviewChoices(job, resources, samples, noBar.prompter, deps.io, { redact: false });
    expect(noBar.asked.map((q) => q.message)).toEqual(columns.map((c) => `Map "${c}" to`));
    expect(quiet.dataTypes).toBeUndefined();
    expect(quiet.mapping!.First).toBeNull();

    const all = scripted([...mappingAnswers, 'number', 'date_time', 'number', 'rich_text', 'rich_text', 'category']);
    const loud = await reviewChoices(job, resources, samples, all.prompter, deps.io, { redact: false, all: true });
    expect(all.asked.slice(columns.length).map((q) => q.message)).toEqual([
      'Data type of "amount" (from Amount)', 'Data type of "created_at" (from Signup Date)', 'Data type of "id" (from Customer ID)',
      'Data type of "email" (from E-mail Address)', 'Data type of "phone" (from Tel)', 'Data type of "country" (from Country)',
    ]);
    expect(loud.dataTypes).toEqual({ created_at: 'date_time', id: 'number', email: 'rich_text', phone: 'rich_text', amount: 'number', country: 'category' });
  });

  it('offers the suggestion beside a pin that differs, and asks impute suggestions under the bar', async () => {
    const { job, resources, samples } = await loaded(JOB.replace('    Last: full_name\n', '    Last: full_name\n    Signup Date: null\n'));
    resources.impute.imputeMethods = { country: { imputeMethod: 'fill', imputeMethodConfig: { fillValue: 'US' }, confidence: 0.5 } };
    const { prompter, asked } = scripted([
      'unmapped', 'accept', 'accept', 'accept', 'accept', 'accept', 'keep', 'keep', 'accept',
      'rich_text', 'number', { method: 'dropMissing' },
    ]);
    const { deps } = terminalDeps();
    const choices = await reviewChoices(job, resources, samples, prompter, deps.io, { minConfidence: 0.9, redact: false });
    const signup = asked.find((q) => q.message === 'Map "Signup Date" to')!;
    expect(signup.choices.map((c) => c.name)).toEqual(['Keep unmapped (pinned)', 'Use the suggestion created_at (0.85)', 'Choose a field…']);
    const impute = asked.at(-1)!;
    expect(impute.message).toBe('Missing values of "country"');
    expect(impute.choices.map((c) => c.name)).toEqual(['Accept: fill with "US" (0.50)', 'leave missing values as they are', 'drop the rows where it is missing']);
    expect(choices.mapping!['Signup Date']).toBe('created_at');
    expect(choices.impute).toEqual({ country: { method: 'dropMissing' } });
    expect(mergeChoices({ dataTypes: { id: 'number' }, impute: { x: { method: null } } }, choices)).toEqual({
      mapping: choices.mapping, dataTypes: { id: 'number', ...choices.dataTypes }, impute: { x: { method: null }, country: { method: 'dropMissing' } },
    });
  });
});

describe('reviewAndConfirm', () => {
  it('shows what changes in the job file, then asks; declining is exit 5', async () => {
    const { job, resources, samples } = await loaded();
    const { prompter, asked } = scripted([...WALK, false]);
    const { deps, stderr } = terminalDeps();
    const error = await reviewAndConfirm(job, resources, samples, prompter, deps.io, { minConfidence: 0.9, redact: false, question: 'Save?' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReviewRequiredError);
    expect((error as ReviewRequiredError).exitCode).toBe(5);
    expect((error as Error).message).toBe('Review declined; nothing was saved or run.');
    expect(asked.at(-1)).toMatchObject({ kind: 'confirm', message: 'Save?', default: true });
    expect(stderr()).toContain([
      'Your choices (+ newly pinned, ~ changed) for job.yaml:',
      '  mapping:',
      '    + Internal Notes: (unmapped)',
      '    + Signup Date: created_at',
      '    + Customer ID: id',
      '    + E-mail Address: email',
      '    + Tel: phone',
      '    + Amount: amount',
      '    + Country: country',
      '  dataTypes:',
      '    + full_name: rich_text',
      '    + amount: number',
      '  (2 already pinned in job.yaml, unchanged)',
    ].join('\n'));
  });
});

describe('samples', () => {
  it('reads a few distinct values per column with the missing count and unique ratio', async () => {
    const { job } = await loaded();
    const samples = await readColumnSamples(job, undefined, 2);
    expect(samples.rows).toBe(8);
    expect(samples.capped).toBe(false);
    expect(samples.columns.Country).toEqual({ values: ['us', 'GB'], missing: 2, uniqueRatio: 0.75 });
  });

  it('redacts to the first character and a length class', () => {
    expect(['', 'ab', 'abc', 'abcd', 'abcdefgh', 'abcdefghi', 'x'.repeat(16), 'x'.repeat(17), 'émile'].map(redactValue))
      .toEqual(['***', '***', '***', 'a***', 'a***', 'a******', 'x******', 'x*********', 'é***']);
  });

  it('filters search choices by every typed word', () => {
    const choices = ['id', 'phone (optional)', 'email'].map((name) => ({ value: name, name }));
    expect(filterChoices(choices, 'PHO').map((c) => c.value)).toEqual(['phone (optional)']);
    expect(filterChoices(choices, 'opt ph').map((c) => c.value)).toEqual(['phone (optional)']);
    expect(filterChoices(choices, '')).toHaveLength(3);
  });
});

describe('import review', () => {
  it('exits 2 without a terminal, naming the key and the flag, and writes nothing', async () => {
    const dir = await jobDir();
    const { deps, stdout, stderr } = fakeDeps({ cwd: dir });
    const code = await main(['node', 'import', 'review', 'job.yaml', '--save'], deps);
    expect(code).toBe(2);
    expect(stderr()).toBe('error: review needs a terminal; pin the mapping in job.yaml (config.mapping, config.dataTypes) or run `import run job.yaml --yes` in CI.\n');
    expect(stdout()).toBe('');
    expect(await readFile(join(dir, 'job.yaml'), 'utf8')).toBe(JOB);
    expect(await readdir(dir)).toEqual(['customers.csv', 'job.yaml']);
  });

  it('checks the terminal before reading the job file or calling the service', async () => {
    const { deps } = fakeDeps({ settings: { baseUrl: 'http://127.0.0.1:9' } });
    await expect(review({ jobFile: 'missing.yaml', save: false, dryRun: false, redact: false, all: false }, deps)).rejects.toThrow(/review needs a terminal/);
    const run = reviewForRun({ path: '/x/job.yaml' } as JobFile, {} as JobResources, deps, { redact: false });
    await expect(run).rejects.toBeInstanceOf(UsageError);
    await expect(run).rejects.toThrow('run --interactive needs a terminal');
  });

  it('rejects --job with --dry-run and a bad --min-confidence before anything else', async () => {
    const { deps } = terminalDeps();
    await expect(review({ jobFile: 'job.yaml', save: false, dryRun: true, job: 'J1', redact: false, all: false }, deps)).rejects.toThrow(/--job and --dry-run/);
    await expect(review({ jobFile: 'job.yaml', save: false, dryRun: true, redact: false, all: false, minConfidence: '80' }, deps)).rejects.toThrow(/--min-confidence "80"/);
  });

  it('saves the confirmed choices offline with --dry-run --save, keeping the comments', async () => {
    const dir = await jobDir();
    const { prompter } = scripted([...WALK, true]);
    const { deps, stdout, stderr } = terminalDeps({}, dir);
    await review({ jobFile: 'job.yaml', save: true, dryRun: true, redact: false, all: false }, deps, prompter);
    expect(stdout()).toBe('');
    expect(stderr()).toContain('Saved 9 choices to job.yaml.');
    expect(await readFile(join(dir, 'job.yaml'), 'utf8')).toBe(JOB.replace('    Last: full_name\n  allowColumnCombining: true\n', [
      '    Last: full_name',
      '    Internal Notes: null',
      '    Signup Date: created_at',
      '    Customer ID: id',
      '    E-mail Address: email',
      '    Tel: phone',
      '    Amount: amount',
      '    Country: country',
      '  allowColumnCombining: true',
      '  dataTypes:',
      '    full_name: rich_text',
      '    amount: number',
      '',
    ].join('\n')));
  });

  it('leaves the job file untouched when a prompt is cancelled (Ctrl-C)', async () => {
    const dir = await jobDir();
    const { prompter } = scripted(['unmapped', 'accept', new CancelledError('Cancelled at a prompt; nothing was saved.')]);
    const { deps } = terminalDeps({}, dir);
    await expect(review({ jobFile: 'job.yaml', save: true, dryRun: true, redact: false, all: false }, deps, prompter)).rejects.toBeInstanceOf(CancelledError);
    expect(await readFile(join(dir, 'job.yaml'), 'utf8')).toBe(JOB);
    expect(await readdir(dir)).toEqual(['customers.csv', 'job.yaml']);
  });

  it('reviewForRun returns complete sections to lay over the job file, and saves with save', async () => {
    const text = JOB.replace('  allowColumnCombining: true\n', '  allowColumnCombining: true\n  dataTypes:\n    id: number   # pinned\n');
    const { dir, job, resources } = await loaded(text);
    const { prompter, asked } = scripted([...WALK, true]);
    const { deps } = terminalDeps({}, dir);
    const sections = await reviewForRun(job, resources, deps, { minConfidence: 0.9, redact: false, save: true, prompter });
    expect(asked.at(-1)!.message).toBe('Save these choices to job.yaml and run the job?');
    expect(sections.dataTypes).toEqual({ id: 'number', full_name: 'rich_text', amount: 'number' });
    expect(sections.mapping).toMatchObject({ First: 'full_name', Tel: 'phone', 'Internal Notes': null });
    expect(Object.keys(sections)).toEqual(['mapping', 'dataTypes']);
    expect(await readFile(join(dir, 'job.yaml'), 'utf8')).toContain('  dataTypes:\n    id: number   # pinned\n    full_name: rich_text\n    amount: number\n');
  });

  describe('against the service', () => {
    let service: Emulator;
    beforeAll(async () => { service = await startEmulator({ schema: 'examples/customers/schema.yaml' }); });
    afterAll(async () => { await service.stop(); });

    it('starts the job, reviews its suggestions, and prints the job id on stdout for `run --job`', async () => {
      const dir = await jobDir();
      const { prompter, asked } = scripted([...WALK, true]);
      const { deps, stdout, stderr } = terminalDeps({ baseUrl: service.url, apiKey: 'k' }, dir);
      await review({ jobFile: 'job.yaml', save: false, dryRun: false, redact: false, all: false }, deps, prompter);
      const jobId = stdout().trim();
      expect(jobId).not.toBe('');
      expect(stdout()).toBe(`${jobId}\n`);
      expect(asked[1].message).toBe('Map "Signup Date" to');
      expect(stderr()).toContain(`Started job ${jobId}.`);
      expect(stderr()).toContain('Not saved: run again with --save to write these choices into job.yaml.');
      expect(stderr()).toContain(`run it with \`import run job.yaml --job ${jobId} --interactive\``);
      expect(await readFile(join(dir, 'job.yaml'), 'utf8')).toBe(JOB);
    });
  });
});
