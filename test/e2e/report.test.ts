/**
 * `import dry-run --report`: the HTML file opened in a real headless browser (Debian's chromium,
 * driven by playwright-core): no console error, nothing fetched, the expected headings and numbers
 * in the DOM, and a screenshot. REPORT_SCREENSHOT=<path> keeps the screenshot (the README's
 * docs/report.png is made that way: the run is in a copy of examples/customers, so paths are short).
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyExample, ROOT, runCli } from '../support/cli.js';

const CHROMIUM = '/usr/bin/chromium';
let dir: string;
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'import-e2e-report-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

describe('dry-run --report', () => {
  it('writes one self-contained file: no script, nothing to fetch', async () => {
    const r = await runCli(['dry-run', 'examples/customers/job.yaml', '--out', join(dir, 'out.csv'), '--report', join(dir, 'report.html')]);
    expect(r.exitCode).toBe(0);
    const html = await readFile(join(dir, 'report.html'), 'utf8');
    expect(html).not.toMatch(/<script|<link|<img|@import|url\(|https?:\/\//i);
    // Values from the data are escaped: a note with markup shows as text.
    expect(html).toContain('Ana García');
  });

  it('leaves a date the calendar does not have out of a column\'s range, never rolling it over into the next month', async () => {
    const work = join(dir, 'impossible-date');
    await mkdir(work);
    await writeFile(join(work, 'in.csv'), 'id,d\n1,2023-01-15\n2,2023-02-10\n3,2023-02-28\n');
    // A text rule runs after the types: it turns the valid 2023-02-28 into 2023-02-29, which the output holds as written.
    await writeFile(join(work, 'job.yaml'), 'version: 1\ninput:\n  file: ./in.csv\nconfig:\n  dataTypes: {d: date_time}\n  text:\n    regexReplacement:\n      d: {"-28T": "-29T"}\n');
    const r = await runCli(['dry-run', 'job.yaml', '--out', 'out.csv', '--report', 'report.html'], { cwd: work });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await readFile(join(work, 'out.csv'), 'utf8')).toContain('3,2023-02-29T00:00:00\n');
    const html = await readFile(join(work, 'report.html'), 'utf8');
    expect(html).toContain('<dt>range</dt><dd>2023-01-15T00:00:00 – 2023-02-10T00:00:00</dd>');
    expect(html).not.toContain('2023-03-01');
  });

  it('lists the run\'s warnings, escaped, as stderr gives them, and has no such section when there are none', async () => {
    const work = join(dir, 'warnings');
    await mkdir(work);
    // A header cell repeated and a text rule on a number field: two warnings, one holding markup-like text.
    await writeFile(join(work, 'in.csv'), 'id,<b>x</b>,<b>x</b>\n1,a,b\n2,c,d\n');
    await writeFile(join(work, 'job.yaml'), 'version: 1\ninput:\n  file: ./in.csv\nconfig:\n  dataTypes: {id: number}\n  text:\n    casing: {id: upper}\n');
    const r = await runCli(['dry-run', 'job.yaml', '--out', 'out.csv', '--report', 'report.html'], { cwd: work });
    expect(r.exitCode, r.stderr).toBe(0);
    const warnings = r.stderr.split('\n').filter((line) => line.startsWith('warning: ')).map((line) => line.slice('warning: '.length));
    expect(warnings.length).toBeGreaterThanOrEqual(2);
    const html = await readFile(join(work, 'report.html'), 'utf8');
    expect(html).toContain('<h2>Warnings</h2>');
    for (const w of warnings) expect(html).toContain(`<li>${w.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')}</li>`);
    expect(html).not.toContain('<b>x</b>');

    await writeFile(join(work, 'clean.csv'), 'id,name\n1,a\n2,b\n');
    await writeFile(join(work, 'clean.yaml'), 'version: 1\ninput:\n  file: ./clean.csv\n');
    const clean = await runCli(['dry-run', 'clean.yaml', '--out', 'clean.out.csv', '--report', 'clean.html'], { cwd: work });
    expect(clean.exitCode, clean.stderr).toBe(0);
    expect(clean.stderr).not.toContain('warning:');
    expect(await readFile(join(work, 'clean.html'), 'utf8')).not.toContain('<h2>Warnings</h2>');
  });

  it('reads well in a real browser: headings, numbers, no console error, nothing fetched', async (ctx) => {
    if (!existsSync(CHROMIUM)) {
      console.log(`skipped: ${CHROMIUM} is absent (apt-get install chromium)`);
      return ctx.skip();
    }
    const work = join(dir, 'customers');
    await copyExample('customers', work);
    const report = join(work, 'report.html');
    const r = await runCli(['dry-run', 'job.yaml', '--out', 'out.csv', '--report', 'report.html', '--rejects', 'rejects.csv'], { cwd: work });
    expect(r.exitCode).toBe(0);
    const { chromium } = await import('playwright-core');
    const profile = await mkdtemp(join(tmpdir(), 'import-chromium-'));
    const browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
      viewport: { width: 1200, height: 900 },
    });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      const requests: string[] = [];
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('request', (q) => requests.push(q.url()));
      const url = pathToFileURL(report).href;
      await page.goto(url, { waitUntil: 'load' });
      await page.screenshot({ path: process.env.REPORT_SCREENSHOT ? resolve(ROOT, process.env.REPORT_SCREENSHOT) : join(dir, 'report.png'), fullPage: true });

      expect(errors).toEqual([]);
      expect(requests).toEqual([url]);
      expect(await page.locator('h1').innerText()).toBe('Dry run of job.yaml');
      expect(await page.locator('h2').allInnerTexts()).toEqual(['Mapping', 'Rows', 'Fields', 'Fills and coercion failures', 'Unit conversions', 'Text rules']);
      const cards = await page.locator('.card').allInnerTexts();
      expect(cards.map((c) => c.replace(/\s+/g, ' ').trim())).toEqual(['8 rows in', '5 rows out', '3 rows dropped', '2 cells filled', '1 cell emptied (not the type)']);
      const mapping = await page.locator('table').first().locator('tbody tr').allInnerTexts();
      expect(mapping.find((row) => row.startsWith('E-mail Address'))).toMatch(/E-mail Address\s+→\s+email\s+0\.96/);
      expect(mapping.find((row) => row.startsWith('Internal Notes'))).toMatch(/unmapped.*pinned in job file/s);
      expect(await page.locator('section.field h3').allInnerTexts()).toEqual(['id number', 'full_name rich_text', 'email rich_text', 'amount number', 'country category', 'created_at date_time', 'phone rich_text']);
      expect(await page.locator('section.field svg[aria-label^="histogram"]').count()).toBe(3);
      const rows = await page.locator('h2:text("Rows") + table tr').allInnerTexts();
      expect(rows.map((row) => row.replace(/\s+/g, ' ').trim())).toEqual([
        'Rows in 8', 'Dropped by missingValues: id (preset) rows 6 1', 'Dropped by duplicateValues: id rows 4 1', 'Dropped by missingValues: email rows 3 1', 'Rows out 5',
      ]);
      const conversions = await page.locator('h2:text("Unit conversions") + table tbody tr').allInnerTexts();
      expect(conversions.map((row) => row.replace(/\s+/g, ' ').trim())).toEqual(['created_at UTC_m5 -> UTC_p0 8']);
      const text = await page.locator('h2:text("Text rules") + table tbody tr').allInnerTexts();
      expect(text[0]).toMatch(/^phone\s+regex \[\^0-9\+\]\s+6\s+"\(555\) 123-4567" → "5551234567"/);
    } finally {
      await browser.close();
      await rm(profile, { recursive: true, force: true });
    }
  }, 60_000);
});
