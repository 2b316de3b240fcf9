/**
 * What a column's values look like, for mapping suggestions (engine.md "Suggestions", mapping):
 * the share of values that are emails, phones, numbers, dates, years, months, booleans (or any of two values),
 * percentages, latitudes, longitudes, ISO 3166 country codes (alpha-2, alpha-3, numeric) and
 * English country names, ISO 4217 currency codes, continents, US states (names or postal codes) and
 * their postal codes alone, counts (numbers never under 0), abbreviations or short codes, and which
 * of these shapes a field's name and type ask for.
 */
import { createRequire } from 'node:module';
import type { DataType } from '../contract/index.js';
import { COUNTRY_NAMES } from './country-names.js';
import { isMissing } from './missing.js';
import { detectDayFirst, parseDate, parseNumber } from './parse.js';
import type { Value } from './types.js';

/** A kind of value a column may hold. */
export type Shape =
  | 'email' | 'phone' | 'number' | 'date' | 'year' | 'month' | 'boolean' | 'percent' | 'latitude' | 'longitude'
  | 'countryAlpha2' | 'countryAlpha3' | 'countryNumeric' | 'countryName' | 'currency' | 'continent' | 'code'
  | 'abbreviation' | 'usState' | 'usStateCode' | 'count' | 'timeZone' | 'utcOffset';

/** Share of a column's values having each shape (0 to 1). */
export type ShapeShares = ReadonlyMap<Shape, number>;

/**
 * Shapes rare enough by chance that values alone identify the field: a column at least
 * VALUE_ONLY_SHARE of whose values have the shape scores this much for a field asking for it,
 * whatever its name (`cca2` holding `AW`, `HN`... for `iso_alpha_2`).
 */
export const VALUE_ONLY_SCORES: ReadonlyMap<Shape, number> = new Map<Shape, number>([
  ['email', 0.6], ['countryAlpha2', 0.6], ['countryAlpha3', 0.6], ['countryNumeric', 0.6], ['countryName', 0.6], ['currency', 0.6],
  ['usState', 0.6], ['usStateCode', 0.6],
  // Dates are common, but a column of them for a date field is worth a look (at the bar): when it
  // is the only one, calibration raises it; when several are, they tie and stay low.
  ['date', 0.5],
]);
/** Share of values a column needs for a value-only match. */
export const VALUE_ONLY_SHARE = 0.9;

/**
 * Shapes whose absence counts against a name match (a `latitude` column of 200s is not one). The
 * others only add: a `region` field may hold continents, or anything else.
 */
export const MISFIT_COUNTS: ReadonlySet<Shape> = new Set<Shape>([
  'email', 'phone', 'number', 'date', 'year', 'month', 'latitude', 'longitude', 'countryAlpha2', 'countryAlpha3',
  'countryNumeric', 'currency', 'abbreviation', 'usStateCode', 'count', 'boolean', 'timeZone', 'utcOffset',
]);

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE_CHARS = /^\+?[\d\s().\-/]+$/;
const LETTERS_2 = /^[A-Za-z]{2}$/;
const LETTERS_3 = /^[A-Za-z]{3}$/;
const CODE = /^(?=.*[A-Z])[A-Z0-9]{2,6}$/;
const ABBREVIATION = /^(?=.*[A-Za-z])(?:[A-Z0-9.&-]{1,6}|[A-Za-z0-9.]{1,3})$/;
const DIGITS_3 = /^\d{1,3}$/;
const YEAR_MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
// IANA time zone names (`America/New_York`, `Etc/GMT+5`, `UTC`) and offsets from UTC (`+05:30`, `UTC-8`, `-0800`).
const TIME_ZONE = /^(?:(?:Africa|America|Antarctica|Arctic|Asia|Atlantic|Australia|Europe|Indian|Pacific|Etc)\/[A-Za-z0-9_+\-/]+|UTC|GMT)$/;
const UTC_OFFSET = /^(?:UTC|GMT)?\s?[+\-\u2212](?:0?\d|1[0-4])(?::?[0-5]\d)?$/;
const YEAR_START = /^[12]\d{3}-01-01(?:[T ]00:00(?::00(?:\.0+)?)?Z?)?$/;
const BOOLEANS = new Set(['true', 'false', 'yes', 'no', 'y', 'n', 't', 'f', '0', '1']);
const MONTH_NAMES = new Set([
  'jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec', 'january', 'february',
  'march', 'april', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
]);
const CONTINENTS = new Set([
  'africa', 'america', 'americas', 'north america', 'south america', 'latin america', 'central america', 'asia',
  'europe', 'oceania', 'australia', 'antarctica', 'antarctic', 'middle east', 'australia and oceania',
]);

// The states of the USA, DC and Puerto Rico, by name and by postal code.
const US_STATES = new Set([
  'alabama', 'alaska', 'arizona', 'arkansas', 'california', 'colorado', 'connecticut', 'delaware', 'florida', 'georgia',
  'hawaii', 'idaho', 'illinois', 'indiana', 'iowa', 'kansas', 'kentucky', 'louisiana', 'maine', 'maryland',
  'massachusetts', 'michigan', 'minnesota', 'mississippi', 'missouri', 'montana', 'nebraska', 'nevada', 'new hampshire',
  'new jersey', 'new mexico', 'new york', 'north carolina', 'north dakota', 'ohio', 'oklahoma', 'oregon', 'pennsylvania',
  'rhode island', 'south carolina', 'south dakota', 'tennessee', 'texas', 'utah', 'vermont', 'virginia', 'washington',
  'west virginia', 'wisconsin', 'wyoming', 'district of columbia', 'puerto rico',
]);
const US_STATE_CODES = new Set([
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD',
  'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC',
  'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY', 'DC', 'PR',
]);

/** Every shape. */
export const ALL_SHAPES: ReadonlySet<Shape> = new Set<Shape>([
  'email', 'phone', 'number', 'date', 'year', 'month', 'boolean', 'percent', 'latitude', 'longitude', 'countryAlpha2',
  'countryAlpha3', 'countryNumeric', 'countryName', 'currency', 'continent', 'code', 'abbreviation', 'usState', 'usStateCode',
  'count', 'timeZone', 'utcOffset',
]);

/**
 * Measures the shapes of some values (the first non-missing values of a column, as text); only the
 * `wanted` shapes are measured (the others cost time on wide inputs and are reported as 0).
 */
export function measureShapes(texts: readonly string[], wanted: ReadonlySet<Shape> = ALL_SHAPES): ShapeShares {
  const counts = new Map<Shape, number>();
  const add = (shape: Shape) => counts.set(shape, (counts.get(shape) ?? 0) + 1);
  const want = (shape: Shape) => wanted.has(shape);
  const dayFirst = want('date') ? detectDayFirst(texts) : false;
  const codes = isoCodes();
  const numeric = ['number', 'percent', 'latitude', 'longitude', 'year', 'month', 'count', 'utcOffset'].some((s) => wanted.has(s as Shape));
  for (const raw of texts) {
    const text = raw.trim();
    if (text.includes('@')) {
      if (want('email') && EMAIL.test(text)) add('email');
      continue;
    }
    const lower = text.toLowerCase();
    if (want('boolean') && BOOLEANS.has(lower)) add('boolean');
    if (want('month') && (MONTH_NAMES.has(lower.replace(/\.$/, '')) || YEAR_MONTH.test(text))) add('month');
    if (want('continent') && CONTINENTS.has(lower.replace(/_/g, ' '))) add('continent');
    if (want('usState') && (US_STATES.has(lower) || US_STATE_CODES.has(text))) add('usState');
    if (want('usStateCode') && US_STATE_CODES.has(text)) add('usStateCode');
    if (want('timeZone') && TIME_ZONE.test(text)) add('timeZone');
    if (want('utcOffset') && UTC_OFFSET.test(text)) add('utcOffset');
    if (want('code') && CODE.test(text)) add('code');
    if (want('abbreviation') && ABBREVIATION.test(text)) add('abbreviation');
    if (want('countryAlpha2') && LETTERS_2.test(text) && codes.alpha2.has(text.toUpperCase())) add('countryAlpha2');
    if (want('countryNumeric') && DIGITS_3.test(text) && codes.numeric.has(text.padStart(3, '0'))) add('countryNumeric');
    if (want('countryName') && text.length > 3 && codes.names.has(plainName(text))) add('countryName');
    if ((want('countryAlpha3') || want('currency')) && LETTERS_3.test(text)) {
      const upper = text.toUpperCase();
      if (codes.alpha3.has(upper)) add('countryAlpha3');
      if (codes.currencies.has(upper)) add('currency');
    }
    const number = numeric && mayStartNumber(text) ? parseNumber(text) : undefined;
    if (number !== undefined) {
      add('number');
      if (number >= 0) add('count');
      if (text.endsWith('%') || (number >= 0 && number <= 100)) add('percent');
      if (number >= -90 && number <= 90) add('latitude');
      if (want('utcOffset') && number >= -12 && number <= 14 && !UTC_OFFSET.test(text)) add('utcOffset');
      if (number >= -180 && number <= 180) add('longitude');
      if (Number.isInteger(number)) {
        if (number >= 1000 && number <= 2999 && /^\d{4}(\.0+)?$/.test(text)) add('year');
        if (number >= 1 && number <= 12) add('month');
      }
    }
    // The first day of a year stands for the year (`2001-01-01` in a `year` column).
    if (want('year') && YEAR_START.test(text)) add('year');
    // A number may also be a date (`20240305`) or a phone (`5550109999`); a date may start with
    // the name of its month (`Jan 1 2000`).
    if (want('date') && (startsWithDigit(text) || MONTH_NAMES.has(lower.slice(0, 3))) && parseDate(text, dayFirst) !== undefined) add('date');
    else if (want('phone') && looksLikePhone(text)) add('phone');
  }
  const n = texts.length;
  // Any column of two values at most is a flag (`Y`/`N`, `Active`/`Inactive`, `1`/`2`).
  if (want('boolean') && hasAtMostTwoValues(texts)) counts.set('boolean', n);
  return new Map([...counts].filter(([shape]) => wanted.has(shape)).map(([shape, count]) => [shape, count / n]));
}

/**
 * The shapes a field's values should have, from its canonical name tokens (similarity.ts), its
 * normalised words before synonyms (`words`, for plurals) and its schema type: `email` for an
 * email field, `latitude` for `lat`, `countryAlpha2` for `iso_alpha_2`, `number` for a number
 * field, and so on. Empty when nothing is known.
 */
export function expectedShapes(tokens: readonly string[], type: DataType | undefined, words: readonly string[] = []): Shape[] {
  const has = (t: string) => tokens.includes(t);
  // A name with `years` or `yrs` counts years (`life_expectancy_yrs`, `years_married`): a duration, not
  // a year; so is a rate per year (`affairs_per_yr`).
  const duration = words.some((w, i) => DURATION_WORDS.has(w) || (i > 0 && words[i - 1] === 'per'));
  const shapes: Shape[] = [];
  if (has('email')) shapes.push('email');
  if (has('phone') || has('fax')) shapes.push('phone');
  if (has('latitude')) shapes.push('latitude');
  if (has('longitude')) shapes.push('longitude');
  if (has('year') && !duration) shapes.push('year');
  if (has('month')) shapes.push('month');
  if (has('iso2')) shapes.push('countryAlpha2');
  if (has('iso3')) shapes.push('countryAlpha3');
  if (has('numeric') && (has('iso') || has('country'))) shapes.push('countryNumeric');
  else if (has('country') && has('code') && !has('iso2') && !has('iso3')) shapes.push('countryAlpha2', 'countryAlpha3');
  else if (has('country') && !has('iso2') && !has('iso3') && !has('code') && !has('id')) shapes.push('countryName');
  if (has('currency') && !has('name') && !has('symbol')) shapes.push('currency');
  if (has('continent') || has('region')) shapes.push('continent');
  // A time zone by name (`Pacific/Port_Moresby`) or as hours from UTC (`10`, `+05:30`).
  if (has('utcoffset')) shapes.push('utcOffset');
  else if (has('timezone')) {
    shapes.push('timeZone');
    if (!['iana', 'olson', 'id'].some(has)) shapes.push('utcOffset');
  }
  // A state by name or postal code; a field for its code or abbreviation asks for postal codes (`CA`),
  // one for its FIPS number or id for that.
  const stateCode = has('code') || has('abbreviation');
  if (has('state') && !['fip', 'id', 'number'].some(has)) shapes.push(stateCode ? 'usStateCode' : 'usState');
  if (['is', 'has', 'can', 'was'].includes(tokens[0] ?? '') || has('indicator')) shapes.push('boolean');
  if (has('percent') || has('share') || has('ratio') || has('rate')) shapes.push('percent');
  // A count of things is a number never under 0 (`population`, `num_children`, `worker_cnt`).
  if (COUNT_WORDS.some(has) || (tokens[0] === 'number' && tokens.length > 1)) shapes.push('count');

  if (has('code') || has('iata') || has('ioc') || has('abbreviation') || has('symbol')) shapes.push('code');
  // An abbreviation has letters, in capitals or at most three (`CA`, `DEM`, `Inc`), not `Iowa` or `1`.
  if (has('abbreviation')) shapes.push('abbreviation');
  // FIPS codes are numbers (`06`), not state names.
  if (has('fip')) shapes.push('number');
  // A number field named for a kind of number asks for that kind: latitudes, not any number. A field
  // without a type named for money or with a unit asks for numbers (`price`, `amount_usd`, `weight_kg`).
  const number = type === 'number' || (type === undefined && tokens.some((t) => NUMBER_WORDS.has(t)));
  if (number && !shapes.some((s) => NUMBER_KINDS.has(s))) shapes.push('number');
  if (type === 'date_time') shapes.push('date');
  if (type === undefined && tokens.some((t) => DATE_WORDS.has(t))) shapes.push('date');
  return shapes;
}

const DURATION_WORDS = new Set(['years', 'yrs']);
const DATE_WORDS = new Set(['date', 'time', 'timestamp', 'created', 'updated', 'birth']);
// Percentages are numbers too: `percent` only adds, so a percentage field also asks for `number`.
const NUMBER_KINDS = new Set<Shape>(['latitude', 'longitude', 'year', 'month', 'count', 'utcOffset']);
const COUNT_WORDS = ['count', 'quantity', 'population', 'people', 'headcount'];
const NUMBER_WORDS = new Set([
  'price', 'amount', 'cost', 'revenue', 'salary', 'wage', 'income', 'balance', 'usd', 'eur', 'gbp', 'mm', 'cm', 'km', 'kg',
  'lb', 'g', 'mi', 'ft', 'celsius', 'fahrenheit', 'mph', 'kmh', 'sqkm', 'sqmi', 'ppm',
]);

interface IsoCodes { alpha2: Set<string>; alpha3: Set<string>; numeric: Set<string>; names: Set<string>; currencies: Set<string> }
let iso: IsoCodes | undefined;

/**
 * ISO 3166-1 country codes (from i18n-iso-countries), English country names (country-names.ts,
 * made from the ICU data built into Node) and ISO 4217 currency codes (from that ICU data, with
 * OTHER_CURRENCIES), loaded on first use. `UK`, `EU` and `XK` (Kosovo) are not ISO 3166-1 codes but
 * stand for countries in much real data; so do the older names listed.
 */
function isoCodes(): IsoCodes {
  if (!iso) {
    const codes = createRequire(import.meta.url)('i18n-iso-countries/codes.json') as [string, string, string, string][];
    // `Myanmar (Burma)` is also written `Myanmar`.
    const names = COUNTRY_NAMES.flatMap(([, name]) => [plainName(name), plainName(name.replace(/\s*\(.*\)$/, ''))]);
    iso = {
      alpha2: new Set([...codes.map((c) => c[0]), 'UK', 'EU', 'XK']),
      alpha3: new Set([...codes.map((c) => c[1]), 'XKX']),
      numeric: new Set(codes.map((c) => c[2])),
      names: new Set([...names, ...OTHER_COUNTRY_NAMES]),
      currencies: new Set([...Intl.supportedValuesOf('currency'), ...OTHER_CURRENCIES]),
    };
  }
  return iso;
}

// ISO 4217 codes that ICU does not format: fund units, precious metals, bond and testing units (list
// one), and currencies withdrawn since 1999 that old data still holds (list three).
const OTHER_CURRENCIES = [
  'BOV', 'CHE', 'CHW', 'CLF', 'COU', 'MXV', 'USN', 'USS', 'UYI', 'UYW', 'XAG', 'XAU', 'XBA', 'XBB', 'XBC', 'XBD', 'XPD', 'XPT',
  'XTS', 'XUA', 'XXX', 'XFU', 'XEU', 'BYR', 'LTL', 'LVL', 'MRO', 'STD', 'VEF', 'VED', 'EEK', 'SKK', 'ZWD', 'CYP', 'MTL', 'SIT',
  'TRL', 'ROL', 'GHC', 'ZMK', 'MZM', 'AZM', 'TMM', 'SDD', 'CSD', 'YUM', 'DEM', 'FRF', 'ITL', 'ESP', 'NLG', 'BEF', 'ATS', 'PTE',
  'FIM', 'IEP', 'GRD', 'LUF', 'ADP',
];

const OTHER_COUNTRY_NAMES = [
  'united states of america', 'russian federation', 'czech republic', 'ivory coast', 'cape verde', 'swaziland',
  'macedonia', 'turkey', 'burma', 'kosovo', 'vatican', 'holland', 'great britain', 'england', 'scotland', 'wales',
];

/** A name lower-cased, without accents, with plain apostrophes. */
function plainName(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[\u2019`]/g, "'").toLowerCase().trim();
}

/** Cheap test before the full number parse: digit, sign, dot, `(`, or a currency sign (or any non-ASCII: left to the parser). */
export function mayStartNumber(text: string): boolean {
  const c = text.charCodeAt(0);
  return (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46 || c === 40 || c === 36 || c > 127;
}

function startsWithDigit(text: string): boolean {
  const c = text.charCodeAt(0);
  return (c >= 48 && c <= 57) || c > 127;
}

function hasAtMostTwoValues(texts: readonly string[]): boolean {
  const seen = new Set<string>();
  for (const text of texts) {
    seen.add(text.trim().toLowerCase());
    if (seen.size > 2) return false;
  }
  return true;
}

/** 7 to 15 digits with the usual phone punctuation (`+1 (555) 010-9999`). */
function looksLikePhone(text: string): boolean {
  if (!PHONE_CHARS.test(text)) return false;
  let digits = 0;
  for (let i = 0; i < text.length; i++) { const c = text.charCodeAt(i); if (c >= 48 && c <= 57) digits++; }
  return digits >= 7 && digits <= 15;
}

/** How many rows under the first are read to tell whether the first is a second header row. */
const HEADER_CHECK_ROWS = 200;

/**
 * A note when the first row under the header looks like a second header row: pandas writes one
 * for MultiIndex columns (`a,a,b` then `x,y,x`), and some exports put units or labels there. It
 * does when none of its cells is a number or a date, it has text in at least half the columns,
 * and in at least half the columns (the same ones) that text sits above values that are numbers
 * or dates (90% or more of at least 3). The row is read as data all the same: the note says so
 * rather than guess which it is.
 */
export function secondHeaderNote(columns: readonly string[], rows: readonly (readonly Value[])[], display: string): string[] {
  if (rows.length < 4 || columns.length === 0) return [];
  const isValue = (v: Value | undefined): boolean =>
    typeof v === 'number' || (typeof v === 'string' && (parseNumber(v) !== undefined || parseDate(v.trim()) !== undefined));
  const first = rows[0];
  let texts = 0;
  for (let k = 0; k < columns.length; k++) {
    if (isValue(first[k])) return [];
    if (!isMissing(first[k])) texts++;
  }
  if (texts * 2 < columns.length) return [];
  const above: string[] = [];
  const end = Math.min(rows.length, HEADER_CHECK_ROWS + 1);
  for (let k = 0; k < columns.length; k++) {
    if (isMissing(first[k])) continue;
    let present = 0;
    let values = 0;
    for (let i = 1; i < end; i++) {
      const v = rows[i][k];
      if (isMissing(v)) continue;
      present++;
      if (isValue(v)) values++;
    }
    if (present >= 3 && values >= 0.9 * present) above.push(`${JSON.stringify(first[k])} in ${JSON.stringify(columns[k])}`);
  }
  if (above.length === 0 || above.length * 2 < columns.length) return [];
  const shown = above.length > 5 ? [...above.slice(0, 5), `${above.length - 5} more`] : above;
  return [`The first row under the header of ${display} looks like a second header row (${shown.join(', ')}: text above numbers or dates); it is read as data. If it is a header (pandas writes two header rows for MultiIndex columns), delete that line or join it into the first, and run again.`];
}
