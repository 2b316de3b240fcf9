/**
 * Parity with an independent reference: `import dry-run` and a pandas implementation of engine.md
 * (test/parity/reference.py) process public datasets (the `vega-datasets` npm package) with the
 * same job, and their outputs must agree cell by cell. Skipped, saying why, when no python3 with
 * pandas is installed (Debian: python3-pandas).
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../support/cli.js';
import { findPython, noPythonReason } from '../support/python.js';

const DATA = join(ROOT, 'node_modules', 'vega-datasets', 'data');

/** One dataset's job: the input column -> field mapping (fields in output order), types, casings, row dropping. */
interface Spec {
  file: string;
  /** The file's text, for a small file of our own written to the temp folder (rather than a vega dataset). */
  content?: string;
  fields: [column: string, field: string][];
  types?: Record<string, 'number' | 'date_time' | 'category' | 'rich_text'>;
  casing?: Record<string, 'upper' | 'lower' | 'title'>;
  rowDropping?: { method: 'missingValues' | 'duplicateValues'; fields: string[] }[];
}

const SPECS: Record<string, Spec> = {
  cars: {
    file: 'cars.json',
    fields: [['Name', 'name'], ['Miles_per_Gallon', 'mpg'], ['Cylinders', 'cylinders'], ['Horsepower', 'hp'], ['Acceleration', 'acceleration'], ['Year', 'year'], ['Origin', 'origin']],
    types: { mpg: 'number', cylinders: 'number', hp: 'number', acceleration: 'number', year: 'date_time', origin: 'category', name: 'rich_text' },
    casing: { name: 'title', origin: 'lower' },
    rowDropping: [{ method: 'missingValues', fields: ['mpg'] }, { method: 'duplicateValues', fields: ['name', 'year'] }],
  },
  movies: {
    file: 'movies.json',
    fields: [['Title', 'title'], ['US Gross', 'us_gross'], ['Worldwide Gross', 'worldwide_gross'], ['Release Date', 'released'], ['MPAA Rating', 'rating'], ['IMDB Rating', 'imdb'], ['Major Genre', 'genre']],
    types: { us_gross: 'number', worldwide_gross: 'number', released: 'date_time', imdb: 'number', rating: 'category', title: 'rich_text', genre: 'category' },
    casing: { title: 'title', rating: 'upper', genre: 'lower' },
    rowDropping: [{ method: 'missingValues', fields: ['released'] }, { method: 'duplicateValues', fields: ['title'] }],
  },
  airports: {
    file: 'airports.csv',
    fields: [['iata', 'code'], ['name', 'name'], ['city', 'city'], ['state', 'state'], ['latitude', 'lat'], ['longitude', 'lng']],
    types: { lat: 'number', lng: 'number', code: 'rich_text', name: 'rich_text', city: 'rich_text', state: 'category' },
    casing: { code: 'lower', name: 'title', state: 'lower' },
    rowDropping: [{ method: 'duplicateValues', fields: ['city', 'state'] }],
  },
  birdstrikes: {
    file: 'birdstrikes.csv',
    fields: [['Airport Name', 'airport'], ['Flight Date', 'date'], ['Wildlife Species', 'species'], ['Cost Total $', 'cost'], ['Speed IAS in knots', 'speed'], ['Origin State', 'state']],
    types: { date: 'date_time', cost: 'number', speed: 'number', airport: 'rich_text', species: 'rich_text', state: 'category' },
    casing: { airport: 'title', species: 'upper' },
    rowDropping: [{ method: 'missingValues', fields: ['speed'] }],
  },
  zipcodes: {
    file: 'zipcodes.csv',
    fields: [['zip_code', 'zip'], ['latitude', 'lat'], ['longitude', 'lng'], ['city', 'city'], ['state', 'state'], ['county', 'county']],
    types: { zip: 'rich_text', lat: 'number', lng: 'number', city: 'rich_text', state: 'category', county: 'rich_text' },
    casing: { city: 'title', county: 'upper' },
    rowDropping: [{ method: 'duplicateValues', fields: ['city', 'state'] }],
  },
  countries: {
    file: 'countries.json',
    fields: [['country', 'country'], ['year', 'year'], ['fertility', 'fertility'], ['life_expect', 'life_expectancy'], ['p_fertility', 'previous_fertility']],
    types: { year: 'number', fertility: 'number', life_expectancy: 'number', previous_fertility: 'number', country: 'category' },
    casing: { country: 'upper' },
    rowDropping: [{ method: 'missingValues', fields: ['previous_fertility'] }],
  },
  stocks: {
    file: 'stocks.csv',
    fields: [['symbol', 'symbol'], ['date', 'date'], ['price', 'price']],
    types: { symbol: 'category', date: 'date_time', price: 'number' },
    casing: { symbol: 'lower' },
    rowDropping: [{ method: 'duplicateValues', fields: ['symbol', 'date'] }],
  },
  'seattle-weather': {
    file: 'seattle-weather.csv',
    fields: [['date', 'date'], ['precipitation', 'precipitation'], ['temp_max', 'temp_max'], ['temp_min', 'temp_min'], ['weather', 'weather']],
    types: { date: 'date_time', precipitation: 'number', temp_max: 'number', temp_min: 'number', weather: 'category' },
    casing: { weather: 'title' },
  },
};

/**
 * What Python's str.strip() takes as whitespace decides "missing" (engine.md leaves "whitespace"
 * undefined): the information separators U+001C..U+001F are whitespace, a U+FEFF is not; numbers
 * and dates are trimmed the same way, and `$(12)` is the accounting negative `($12)` is.
 */
SPECS.whitespace = {
  file: 'whitespace.csv',
  content: [
    'id,note,amount,when,must',
    '1,\u001c,$(12),2024-03-05,x',
    '2,"\u001f \t",($12),\u001e2024-03-05\u001d,x',
    '3,\ufeff,\u001c12\u001f,2024-03-05\u0085,x',
    '4,plain,\u00a01,,\u001e\u001f',
    '5,\u001dtext\u001c,-$1,2024-03-05,x',
  ].join('\n') + '\n',
  fields: [['id', 'id'], ['note', 'note'], ['amount', 'amount'], ['when', 'when'], ['must', 'must']],
  types: { id: 'number', note: 'rich_text', amount: 'number', when: 'date_time', must: 'rich_text' },
  rowDropping: [{ method: 'missingValues', fields: ['must'] }],
};

const python = findPython(['pandas']);
if (!python) console.warn(`parity tests ${noPythonReason(['pandas'], 'python3-pandas')}`);

let dir: string;
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'import-parity-')); });
afterAll(async () => { if (dir) await rm(dir, { recursive: true, force: true }); });

/** Where a spec's input file is: a vega dataset, or one of our own in the temp folder. */
function inputPath(spec: Spec): string {
  return spec.content === undefined ? join(DATA, spec.file) : join(dir, spec.file);
}

/** The job file for the dry run. */
function jobYaml(spec: Spec): string {
  const q = JSON.stringify;
  const lines = ['version: 1', 'input:', `  file: ${q(inputPath(spec))}`, 'config:', '  mapping:'];
  for (const [column, field] of spec.fields) lines.push(`    ${q(column)}: ${q(field)}`);
  if (spec.casing) {
    lines.push('  text:', '    casing:');
    for (const [field, casing] of Object.entries(spec.casing)) lines.push(`      ${q(field)}: ${casing}`);
  }
  if (spec.rowDropping) {
    lines.push('  rowDropping:');
    for (const rule of spec.rowDropping) lines.push(`    - {method: ${rule.method}, fields: [${rule.fields.map((f) => q(f)).join(', ')}]}`);
  }
  lines.push('schema:', `  expectedFields: [${spec.fields.map(([, f]) => q(f)).join(', ')}]`);
  if (spec.types) lines.push(`  fieldDataTypes: {${Object.entries(spec.types).map(([f, t]) => `${q(f)}: ${t}`).join(', ')}}`);
  return lines.join('\n') + '\n';
}

/** The job for the reference. */
function jobJson(spec: Spec): string {
  return JSON.stringify({
    input: inputPath(spec),
    mapping: Object.fromEntries(spec.fields),
    expectedFields: spec.fields.map(([, f]) => f),
    dataTypes: spec.types ?? {},
    casing: spec.casing ?? {},
    rowDropping: spec.rowDropping ?? [],
  });
}

function parse(text: string): string[][] {
  return Papa.parse<string[]>(text, { delimiter: ',', newline: '\n' }).data.filter((row) => !(row.length === 1 && row[0] === ''));
}

/** Cell-by-cell differences, at most `limit` of them, as readable lines. */
function differences(ours: string[][], reference: string[][], limit = 10): string[] {
  const out: string[] = [];
  if (ours.length !== reference.length) out.push(`rows: ours ${ours.length - 1}, reference ${reference.length - 1}`);
  const header = reference[0] ?? [];
  for (let r = 0; r < Math.min(ours.length, reference.length) && out.length < limit; r++) {
    for (let c = 0; c < Math.max(ours[r].length, reference[r].length) && out.length < limit; c++) {
      if (ours[r][c] !== reference[r][c]) out.push(`row ${r}, ${header[c]}: ours ${JSON.stringify(ours[r][c])}, reference ${JSON.stringify(reference[r][c])}`);
    }
  }
  return out;
}

describe.skipIf(!python).each(Object.keys(SPECS))('parity with pandas on vega-datasets %s', (name) => {
  it('gives the same output, cell by cell', async () => {
    const spec = SPECS[name];
    const yamlPath = join(dir, `${name}.yaml`);
    const jsonPath = join(dir, `${name}.json`);
    const oursPath = join(dir, `${name}.ours.csv`);
    const referencePath = join(dir, `${name}.reference.csv`);
    if (spec.content !== undefined) await writeFile(inputPath(spec), spec.content);
    await writeFile(yamlPath, jobYaml(spec));
    await writeFile(jsonPath, jobJson(spec));
    const run = await runCli(['dry-run', yamlPath, '--out', oursPath], { timeoutMs: 60_000 });
    expect(run.exitCode, run.stderr).toBe(0);
    const ref = spawnSync(python!, [join(ROOT, 'test', 'parity', 'reference.py'), jsonPath, referencePath], { encoding: 'utf8', timeout: 120_000 });
    expect(ref.status, ref.stderr).toBe(0);
    const ours = parse(await readFile(oursPath, 'utf8'));
    const reference = parse(await readFile(referencePath, 'utf8'));
    expect(ours.length).toBeGreaterThan(1);
    expect(differences(ours, reference)).toEqual([]);
  }, 180_000);
});
