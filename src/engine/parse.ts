/**
 * Number and date parsing (engine.md step 5), shared by the data-type step and the suggestions'
 * type inference so both accept exactly the same text. Pure functions; hand-written character
 * scans rather than regular expressions because they run once per cell on million-row inputs.
 */
import { canonicalDecimal } from '../contract/json.js';
import { isWhitespace } from './missing.js';

const PLUS = 43;
const MINUS = 45;
const COMMA = 44;
const DOT = 46;
const PERCENT = 37;
const OPEN_PAREN = 40;
const CLOSE_PAREN = 41;
const ZERO = 48;
const NINE = 57;
const SLASH = 47;
const COLON = 58;
const SPACE = 32;

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

/** Currency signs accepted before a number: `$ € £ ¥`. */
function isCurrency(c: number): boolean {
  return c === 36 || c === 0x20ac || c === 0xa3 || c === 0xa5;
}

/** 10^0 .. 10^22: every one an exact double. */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));

/**
 * Parses number text as engine.md step 5 describes: trimmed; `-12.5`, `1e3`, thousands commas
 * `1,234.56`, a leading currency sign `$ € £ ¥` (also after a sign: `-$5`, or before it: `$-5`),
 * a trailing `%` (divided by 100), parentheses for negatives `(12)`, inside or outside a currency
 * sign (`($12)`, `$(12)`; not with a sign: `(-12)`, `-$(12)`). Returns `undefined` when the
 * text is not such a number.
 */
export function parseNumber(text: string): number | undefined {
  let i = 0;
  let end = text.length;
  // Fast path for plain integers (ids, counts), the commonest number text.
  if (end > 0 && end <= 15) {
    let n = 0;
    for (; i < end; i++) {
      const d = text.charCodeAt(i) - ZERO;
      if (d < 0 || d > 9) break;
      n = n * 10 + d;
    }
    if (i === end) return n;
    i = 0;
  }
  while (i < end && isWhitespace(text.charCodeAt(i))) i++;
  while (end > i && isWhitespace(text.charCodeAt(end - 1))) end--;
  if (i === end) return undefined;

  let negative = false;
  let percent = false;
  if (text.charCodeAt(i) === OPEN_PAREN) {
    if (text.charCodeAt(end - 1) !== CLOSE_PAREN) return undefined;
    negative = true;
    i++;
    end--;
  }
  let hasSign = false;
  let c = text.charCodeAt(i);
  if (c === MINUS || c === PLUS) {
    // `(-12)` would be a double negative; we refuse it rather than guess.
    if (negative) return undefined;
    negative = c === MINUS;
    hasSign = true;
    c = text.charCodeAt(++i);
  }
  if (isCurrency(c)) {
    c = text.charCodeAt(++i);
    if (!hasSign && !negative && (c === MINUS || c === PLUS)) {
      negative = c === MINUS;
      i++;
    } else if (!hasSign && !negative && c === OPEN_PAREN) {
      // Excel's accounting format shows `$(12)` as readily as `($12)`: the same negative, either side of the sign.
      if (text.charCodeAt(end - 1) !== CLOSE_PAREN) return undefined;
      negative = true;
      i++;
      end--;
    }
  }
  if (end > i && text.charCodeAt(end - 1) === PERCENT) {
    percent = true;
    end--;
  }

  // Body: digits with optional thousands commas, optional fraction, optional exponent.
  let p = i;
  let intDigits = 0;
  let hasComma = false;
  let groupLength = 0;
  /** Every digit of the mantissa as one integer (exact while there are at most 15 digits). */
  let digits = 0;
  while (p < end) {
    c = text.charCodeAt(p);
    if (isDigit(c)) {
      intDigits++;
      groupLength++;
      digits = digits * 10 + (c - ZERO);
    } else if (c === COMMA) {
      // Strict grouping (1-3 digits, then groups of exactly 3) so a decimal comma such as
      // `1,5` is refused instead of being read as fifteen.
      if (intDigits === 0 || (hasComma ? groupLength !== 3 : groupLength > 3)) return undefined;
      hasComma = true;
      groupLength = 0;
    } else break;
    p++;
  }
  if (hasComma && groupLength !== 3) return undefined;
  let fracDigits = 0;
  if (p < end && text.charCodeAt(p) === DOT) {
    p++;
    while (p < end && isDigit(c = text.charCodeAt(p))) { fracDigits++; digits = digits * 10 + (c - ZERO); p++; }
  }
  if (intDigits + fracDigits === 0) return undefined;
  const mantissaEnd = p;
  let exponent = 0;
  if (p < end && (text.charCodeAt(p) === 101 || text.charCodeAt(p) === 69)) {
    p++;
    let expNegative = false;
    c = text.charCodeAt(p);
    if (c === MINUS || c === PLUS) { expNegative = c === MINUS; p++; }
    const expStart = p;
    while (p < end && isDigit(text.charCodeAt(p))) { exponent = exponent * 10 + text.charCodeAt(p) - ZERO; p++; }
    if (p === expStart) return undefined;
    if (expNegative) exponent = -exponent;
  }
  if (p !== end) return undefined;

  const scale = fracDigits + (percent ? 2 : 0);
  if (exponent === 0 && intDigits + fracDigits <= 15 && scale <= 22) {
    // Both integers are exact doubles, so the division rounds once, to the same double as
    // Number() of the text: no text to slice and convert.
    const n = scale === 0 ? digits : digits / POWERS_OF_TEN[scale];
    if (n === 0) return 0;
    return negative ? -n : n;
  }
  let mantissa = text.slice(i, mantissaEnd);
  if (hasComma) mantissa = mantissa.replaceAll(',', '');
  // Dividing by 100 in floating point turns `1.1%` into 0.011000000000000001; moving the decimal
  // exponent instead lets the decimal-to-binary conversion round once, exactly as for `0.011`.
  if (percent) exponent -= 2;
  const n = exponent === 0 ? Number(mantissa) : Number(`${mantissa}e${exponent}`);
  // Past a double's range either way (`1e400`, or `1e-400`, which would become 0): not a number we can hold.
  if (!Number.isFinite(n)) return undefined;
  if (n === 0) {
    for (let k = 0; k < mantissa.length; k++) {
      const d = mantissa.charCodeAt(k);
      if (d > ZERO && d <= NINE) return undefined;
    }
    // -0 would print as `0` anyway; normalising keeps comparisons and JSON plain.
    return 0;
  }
  return negative ? -n : n;
}

/** True for text such as `00123` or `-007`: a leading zero before another digit, which marks a code rather than a quantity. */
export function isZeroPadded(text: string): boolean {
  let i = 0;
  const end = text.length;
  while (i < end && isWhitespace(text.charCodeAt(i))) i++;
  const c = text.charCodeAt(i);
  if (c === MINUS || c === PLUS) i++;
  return text.charCodeAt(i) === ZERO && i + 1 < end && isDigit(text.charCodeAt(i + 1));
}

/**
 * True for number text (any form parseNumber accepts) past 2^53 whose written digits the double
 * `n` it parses to does not keep: a double holds about 16 digits, so `12345678901234567890`,
 * `$12,345,678,901,234,567,890` or `9007199254740993e0` would be rounded (`12345678901234567000`).
 * Such a value is a code, not a quantity, and typed as a number it fails instead of being rounded
 * in silence. `6.022e23` or `1e308` keep their digits (the double reads back as written); below
 * 2^53 every integer is exact and fractions are doubles as anywhere (`0.1`).
 */
export function losesDigits(text: string, n: number): boolean {
  if (!Number.isFinite(n) || Math.abs(n) <= Number.MAX_SAFE_INTEGER) return false;
  // Rare (only past 2^53), so regular expressions are fine: the mantissa's digits, its fraction
  // digits and the exponent; a `%` moves the decimal point two places.
  const written = /(\d[\d,]*)?(?:\.(\d*))?(?:[eE]([-+]?\d+))?\s*(%?)\s*\)?\s*$/.exec(text);
  const held = /^(\d+)(?:\.(\d+))?(?:e([-+]\d+))?$/.exec(String(Math.abs(n)));
  if (!written || !held) return false;
  const decimal = (whole: string | undefined, fraction = '', exponent = '0', shift = 0) =>
    canonicalDecimal(`${(whole ?? '').replaceAll(',', '')}${fraction}`, Number(exponent) - fraction.length - shift);
  return decimal(written[1], written[2], written[3], written[4] ? 2 : 0) !== decimal(held[1], held[2], held[3]);
}

/** parseNumber, refusing text whose value the double would not hold (losesDigits): how a number field reads a value. */
export function parseExactNumber(text: string): number | undefined {
  const n = parseNumber(text);
  return n !== undefined && losesDigits(text, n) ? undefined : n;
}

/** A parsed date and time; `offsetMinutes` is the explicit UTC offset written in the text, or null. */
export interface DateParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  offsetMinutes: number | null;
}

/** How a `NN/NN/YYYY` value reads: which order it proves, or that it could be either. */
export type SlashDateOrder = 'dayFirst' | 'monthFirst' | 'ambiguous';

function digitsEnd(text: string, i: number, end: number): number {
  while (i < end && isDigit(text.charCodeAt(i))) i++;
  return i;
}

function intOf(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) n = n * 10 + text.charCodeAt(i) - ZERO;
  return n;
}

/** Days in a month of the proleptic Gregorian calendar. */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * For text of the form `N/N/YYYY` (one or two digits, then one or two, then four; optionally
 * followed by a time), the order it proves: `dayFirst` when the first part is over 12, `monthFirst`
 * when only the second is, else `ambiguous`. `undefined` for any other text (including `YYYY/MM/DD`).
 */
export function slashDateOrder(text: string): SlashDateOrder | undefined {
  let i = 0;
  const end = text.length;
  while (i < end && isWhitespace(text.charCodeAt(i))) i++;
  const a = digitsEnd(text, i, end);
  if (a - i < 1 || a - i > 2 || text.charCodeAt(a) !== SLASH) return undefined;
  const b = digitsEnd(text, a + 1, end);
  if (b - a - 1 < 1 || b - a - 1 > 2 || text.charCodeAt(b) !== SLASH) return undefined;
  const y = digitsEnd(text, b + 1, end);
  if (y - b - 1 !== 4) return undefined;
  const first = intOf(text, i, a);
  const second = intOf(text, a + 1, b);
  if (first > 12) return 'dayFirst';
  if (second > 12) return 'monthFirst';
  return 'ambiguous';
}

/** True when `text` is a `N/N/YYYY` date (with or without a time) whose day/month order matters. */
export function looksLikeSlashDate(text: string): boolean {
  return slashDateOrder(text) !== undefined;
}

/**
 * Decides a column's slash-date order from its values (engine.md step 5): day-first when any slash
 * value has a first part over 12, anywhere in the column; else month-first.
 */
export function detectDayFirst(values: Iterable<unknown>): boolean {
  for (const value of values) {
    if (typeof value === 'string' && slashDateOrder(value) === 'dayFirst') return true;
  }
  return false;
}

/** English month names, full and abbreviated (`sept` too), lower case, to their number. */
const MONTHS = new Map<string, number>();
['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december']
  .forEach((name, i) => { MONTHS.set(name, i + 1); MONTHS.set(name.slice(0, 3), i + 1); });
MONTHS.set('sept', 9);

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** The month an English month name in `text[from, to)` names, any case, or 0. */
function monthOf(text: string, from: number, to: number): number {
  const length = to - from;
  if (length < 3 || length > 9) return 0;
  return MONTHS.get(text.slice(from, to).toLowerCase()) ?? 0;
}

/** Where spaces starting at `i` end. */
function spacesEnd(text: string, i: number, end: number): number {
  while (i < end && text.charCodeAt(i) === SPACE) i++;
  return i;
}

/**
 * The date part of an English month-name date, or undefined: `Jun 12 1998`, `June 12, 1998`
 * (month first, spaces, an optional comma after the day), `12 Jun 1998`, `12 June 1998`,
 * `12-Jun-1998` (day first, spaces or hyphens). An abbreviation may end with a period (`Jun.`).
 */
function monthNameDate(text: string, i: number, end: number): { year: number; month: number; day: number; p: number } | undefined {
  let month: number;
  let day: number;
  let p: number;
  if (isLetter(text.charCodeAt(i))) {
    let m = i;
    while (m < end && isLetter(text.charCodeAt(m))) m++;
    month = monthOf(text, i, m);
    if (month === 0) return undefined;
    if (text.charCodeAt(m) === DOT && m - i <= 4) m++;
    const d = spacesEnd(text, m, end);
    if (d === m) return undefined;
    const e = digitsEnd(text, d, end);
    if (e - d < 1 || e - d > 2) return undefined;
    day = intOf(text, d, e);
    p = e;
    if (text.charCodeAt(p) === COMMA) p++;
    const y = spacesEnd(text, p, end);
    if (y === p) return undefined;
    p = y;
  } else {
    const e = digitsEnd(text, i, end);
    if (e - i < 1 || e - i > 2) return undefined;
    day = intOf(text, i, e);
    const hyphen = text.charCodeAt(e) === MINUS;
    const m = hyphen ? e + 1 : spacesEnd(text, e, end);
    if (m === e) return undefined;
    let n = m;
    while (n < end && isLetter(text.charCodeAt(n))) n++;
    month = monthOf(text, m, n);
    if (month === 0) return undefined;
    if (text.charCodeAt(n) === DOT && n - m <= 4) n++;
    if (hyphen) {
      if (text.charCodeAt(n) !== MINUS) return undefined;
      p = n + 1;
    } else {
      p = spacesEnd(text, n, end);
      if (p === n) return undefined;
    }
  }
  const e = digitsEnd(text, p, end);
  if (e - p !== 4) return undefined; // two-digit years are refused, as for slash dates
  return { year: intOf(text, p, e), month, day, p: e };
}

/**
 * Parses date text as engine.md step 5 describes: ISO 8601 (`2024-03-05`, `2024-03-05T14:22`,
 * `2024-03-05 14:22:10`, fractions, `Z` or `±hh:mm`), `YYYY/MM/DD`, and `MM/DD/YYYY` or
 * `DD/MM/YYYY` (per `dayFirst`), English month names (`Jun 12 1998`, `June 12, 1998`,
 * `12 Jun 1998`, `12-Jun-1998`, any case), each with an optional `HH:mm[:ss]`. Returns `undefined`
 * for other text and for dates the calendar does not have (`2024-02-30`).
 */
export function parseDate(text: string, dayFirst = false): DateParts | undefined {
  if (text.length === 19) {
    const parts = parseIsoDateTime(text);
    if (parts) return parts;
  }
  let i = 0;
  let end = text.length;
  while (i < end && isWhitespace(text.charCodeAt(i))) i++;
  while (end > i && isWhitespace(text.charCodeAt(end - 1))) end--;
  const e1 = digitsEnd(text, i, end);
  const n1 = e1 - i;
  if (e1 >= end) return undefined;
  const separator = text.charCodeAt(e1);
  let year: number;
  let month: number;
  let day: number;
  let p: number;
  if (n1 === 0 || ((n1 === 1 || n1 === 2) && (separator === SPACE || (separator === MINUS && isLetter(text.charCodeAt(e1 + 1)))))) {
    // English month names: `Jun 12 1998`, `12 June 1998`, `12-Jun-1998`.
    const named = monthNameDate(text, i, end);
    if (!named) return undefined;
    ({ year, month, day, p } = named);
  } else if (n1 === 4 && (separator === MINUS || separator === SLASH)) {
    // YYYY-MM-DD or YYYY/MM/DD; one-digit month and day are tolerated (`2024-3-5`).
    const e2 = digitsEnd(text, e1 + 1, end);
    if (e2 - e1 - 1 < 1 || e2 - e1 - 1 > 2 || text.charCodeAt(e2) !== separator) return undefined;
    const e3 = digitsEnd(text, e2 + 1, end);
    if (e3 - e2 - 1 < 1 || e3 - e2 - 1 > 2) return undefined;
    year = intOf(text, i, e1);
    month = intOf(text, e1 + 1, e2);
    day = intOf(text, e2 + 1, e3);
    p = e3;
  } else if ((n1 === 1 || n1 === 2) && separator === SLASH) {
    const e2 = digitsEnd(text, e1 + 1, end);
    if (e2 - e1 - 1 < 1 || e2 - e1 - 1 > 2 || text.charCodeAt(e2) !== SLASH) return undefined;
    const e3 = digitsEnd(text, e2 + 1, end);
    // Two-digit years are refused: which century they mean is a guess.
    if (e3 - e2 - 1 !== 4) return undefined;
    const first = intOf(text, i, e1);
    const second = intOf(text, e1 + 1, e2);
    if (dayFirst) { day = first; month = second; } else { month = first; day = second; }
    year = intOf(text, e2 + 1, e3);
    p = e3;
  } else {
    return undefined;
  }
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;

  let hour = 0;
  let minute = 0;
  let second = 0;
  let offsetMinutes: number | null = null;
  if (p < end) {
    const c = text.charCodeAt(p);
    if (c === 84 || c === 116) p++; // T or t
    else if (c === SPACE) { while (p < end && text.charCodeAt(p) === SPACE) p++; } else return undefined;
    const h = digitsEnd(text, p, end);
    if (h - p < 1 || h - p > 2 || text.charCodeAt(h) !== COLON) return undefined;
    hour = intOf(text, p, h);
    const m = digitsEnd(text, h + 1, end);
    if (m - h - 1 !== 2) return undefined;
    minute = intOf(text, h + 1, m);
    p = m;
    if (p < end && text.charCodeAt(p) === COLON) {
      const s = digitsEnd(text, p + 1, end);
      if (s - p - 1 !== 2) return undefined;
      second = intOf(text, p + 1, s);
      p = s;
      // Fractions of a second are accepted and dropped: the output has whole seconds.
      if (p < end && (text.charCodeAt(p) === DOT || text.charCodeAt(p) === COMMA)) {
        const f = digitsEnd(text, p + 1, end);
        if (f === p + 1) return undefined;
        p = f;
      }
    }
    if (hour > 23 || minute > 59 || second > 59) return undefined;
    if (p < end) {
      let o = text.charCodeAt(p);
      if (o === SPACE) { while (p < end && text.charCodeAt(p) === SPACE) p++; o = text.charCodeAt(p); }
      if ((o === 90 || o === 122) && p + 1 === end) { // Z or z
        offsetMinutes = 0;
        p++;
      } else if (o === PLUS || o === MINUS) {
        const oh = digitsEnd(text, p + 1, end);
        let offHours: number;
        let offMins = 0;
        if (oh - p - 1 === 4) { // +hhmm
          offHours = intOf(text, p + 1, p + 3);
          offMins = intOf(text, p + 3, p + 5);
          p = oh;
        } else if (oh - p - 1 === 2) { // +hh or +hh:mm
          offHours = intOf(text, p + 1, oh);
          p = oh;
          if (p < end && text.charCodeAt(p) === COLON) {
            const om = digitsEnd(text, p + 1, end);
            if (om - p - 1 !== 2) return undefined;
            offMins = intOf(text, p + 1, om);
            p = om;
          }
        } else return undefined;
        if (offHours > 23 || offMins > 59) return undefined;
        offsetMinutes = (o === MINUS ? -1 : 1) * (offHours * 60 + offMins);
      }
      if (p !== end) return undefined;
    }
  }
  return { year, month, day, hour, minute, second, offsetMinutes };
}

/** The value of the digit at `i`, or -1 when it is not an ASCII digit. */
function digitAt(text: string, i: number): number {
  const d = text.charCodeAt(i) - 48;
  return d >= 0 && d <= 9 ? d : -1;
}

/**
 * The second of the day of exactly `YYYY-MM-DD HH:mm:ss` or `YYYY-MM-DDTHH:mm:ss` text (a common
 * export form, and the engine's own output, which the units step reads back) that names a real date
 * and time, read at fixed positions without scanning; -1 for anything else, which the general path
 * then reads (or refuses).
 */
function isoSecondOfDay(text: string): number {
  const seconds = isoSeconds(text, false);
  return seconds === seconds ? seconds : -1;
}

/**
 * The seconds from 1970-01-01 00:00 to exactly `YYYY-MM-DDTHH:mm:ss` text, engine.md's date_time
 * output, read as a wall-clock time (validated as isoSecondOfDay does; a space or `t` before the
 * time is not that form); NaN for anything else.
 */
export function isoOutputSeconds(text: string): number {
  return text.charCodeAt(10) === 84 ? isoSeconds(text, true) : NaN;
}

/**
 * isoSecondOfDay's reading: the second of the day or, `withDay`, the seconds from 1970-01-01
 * (negative before it); NaN for text that is not such a date and time.
 */
function isoSeconds(text: string, withDay: boolean): number {
  const t = text.charCodeAt(10);
  if (text.length !== 19 || text.charCodeAt(4) !== MINUS || text.charCodeAt(7) !== MINUS || (t !== SPACE && t !== 84 && t !== 116)
    || text.charCodeAt(13) !== COLON || text.charCodeAt(16) !== COLON) return NaN;
  const y0 = digitAt(text, 0); const y1 = digitAt(text, 1); const y2 = digitAt(text, 2); const y3 = digitAt(text, 3);
  const mo0 = digitAt(text, 5); const mo1 = digitAt(text, 6); const d0 = digitAt(text, 8); const d1 = digitAt(text, 9);
  const h0 = digitAt(text, 11); const h1 = digitAt(text, 12); const mi0 = digitAt(text, 14); const mi1 = digitAt(text, 15);
  const s0 = digitAt(text, 17); const s1 = digitAt(text, 18);
  if ((y0 | y1 | y2 | y3 | mo0 | mo1 | d0 | d1 | h0 | h1 | mi0 | mi1 | s0 | s1) < 0) return NaN;
  const year = y0 * 1000 + y1 * 100 + y2 * 10 + y3;
  const month = mo0 * 10 + mo1;
  const day = d0 * 10 + d1;
  const hour = h0 * 10 + h1;
  const minute = mi0 * 10 + mi1;
  const second = s0 * 10 + s1;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) return NaN;
  const ofDay = hour * 3600 + minute * 60 + second;
  return withDay ? daysFromCivil(year, month, day) * 86_400 + ofDay : ofDay;
}

/** parseDate's fast path (see isoSecondOfDay): the parts of exactly `YYYY-MM-DD HH:mm:ss` text, or undefined. */
function parseIsoDateTime(text: string): DateParts | undefined {
  const seconds = isoSecondOfDay(text);
  if (seconds < 0) return undefined;
  return {
    year: intOf(text, 0, 4), month: intOf(text, 5, 7), day: intOf(text, 8, 10),
    hour: Math.floor(seconds / 3600), minute: Math.floor(seconds / 60) % 60, second: seconds % 60, offsetMinutes: null,
  };
}

/**
 * `YYYY-MM-DDTHH:mm:ss` made of the date of ISO text that isoSecondOfDay accepted and the time
 * `seconds` after its midnight (0 to 86399): formatDate's text for that date and time, built
 * without parts.
 */
function isoTextAt(text: string, seconds: number): string {
  const hour = Math.floor(seconds / 3600);
  const minute = Math.floor(seconds / 60) % 60;
  const second = seconds % 60;
  return String.fromCharCode(
    text.charCodeAt(0), text.charCodeAt(1), text.charCodeAt(2), text.charCodeAt(3), MINUS,
    text.charCodeAt(5), text.charCodeAt(6), MINUS, text.charCodeAt(8), text.charCodeAt(9), 84,
    48 + Math.floor(hour / 10), 48 + (hour % 10), COLON, 48 + Math.floor(minute / 10), 48 + (minute % 10), COLON,
    48 + Math.floor(second / 10), 48 + (second % 10));
}

/**
 * shiftDate and formatDate of exactly `YYYY-MM-DD HH:mm:ss` text, when the shift stays within its
 * day (the common case, and the only one that needs no calendar): no parts, one string. undefined
 * otherwise; the caller then takes the general path.
 */
export function shiftIsoDateTime(text: string, minutes: number): string | undefined {
  const seconds = isoSecondOfDay(text);
  if (seconds < 0) return undefined;
  const shifted = seconds + Math.round(minutes * 60);
  return shifted >= 0 && shifted < 86400 ? isoTextAt(text, shifted) : undefined;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** Writes date parts as engine.md's output text `YYYY-MM-DDTHH:mm:ss` (any offset is ignored). */
export function formatDate(parts: DateParts): string {
  const y = parts.year;
  if (y >= 1000 && y <= 9999) {
    // One flat string from its character codes: the template below makes a chain of pieces per value.
    const { month, day, hour, minute, second } = parts;
    return String.fromCharCode(
      48 + Math.floor(y / 1000), 48 + (Math.floor(y / 100) % 10), 48 + (Math.floor(y / 10) % 10), 48 + (y % 10), MINUS,
      48 + Math.floor(month / 10), 48 + (month % 10), MINUS, 48 + Math.floor(day / 10), 48 + (day % 10), 84,
      48 + Math.floor(hour / 10), 48 + (hour % 10), COLON, 48 + Math.floor(minute / 10), 48 + (minute % 10), COLON,
      48 + Math.floor(second / 10), 48 + (second % 10));
  }
  const year = y >= 1000 ? String(y) : String(y).padStart(4, '0');
  return `${year}-${pad2(parts.month)}-${pad2(parts.day)}T${pad2(parts.hour)}:${pad2(parts.minute)}:${pad2(parts.second)}`;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The wall-clock date parts `minutes` later (earlier when negative), crossing days, months and years. */
export function shiftDate(parts: DateParts, minutes: number): DateParts {
  if (minutes === 0) return parts;
  // Integer arithmetic instead of a Date per cell: this runs once per value of a converted column.
  const total = (daysFromCivil(parts.year, parts.month, parts.day) * 86400
    + parts.hour * 3600 + parts.minute * 60 + parts.second) + Math.round(minutes * 60);
  const days = Math.floor(total / 86400);
  let rest = total - days * 86400;
  const hour = Math.floor(rest / 3600);
  rest -= hour * 3600;
  const minute = Math.floor(rest / 60);
  const second = rest - minute * 60;
  const { year, month, day } = civilFromDays(days);
  return { year, month, day, hour, minute, second, offsetMinutes: parts.offsetMinutes };
}

/** The proleptic Gregorian date of a day number (days since 1970-01-01), as Date counts: civil_from_days (H. Hinnant). */
export function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/**
 * Parses date text and writes it as `YYYY-MM-DDTHH:mm:ss`. A value with an explicit offset is
 * moved to the zone `zoneOffsetMinutes` (UTC+n hours as minutes) when given, else its wall time is
 * kept as written. `undefined` when the text is not a date.
 */
export function normalizeDate(text: string, dayFirst: boolean, zoneOffsetMinutes?: number): string | undefined {
  // ISO text with no offset is its own output once the separator is `T`: no parts, often no new string.
  const seconds = isoSecondOfDay(text);
  if (seconds >= 0) return text.charCodeAt(10) === 84 ? text : isoTextAt(text, seconds);
  const parts = parseDate(text, dayFirst);
  if (!parts) return undefined;
  if (parts.offsetMinutes !== null && zoneOffsetMinutes !== undefined) {
    return formatShiftedDate(parts, zoneOffsetMinutes - parts.offsetMinutes);
  }
  return formatDate(parts);
}

/**
 * formatDate of the date `minutes` later (shiftDate); undefined when that leaves years 0000-9999,
 * which `YYYY-MM-DDTHH:mm:ss` cannot write (`9999-12-31T23:00:00` five hours on).
 */
export function formatShiftedDate(parts: DateParts, minutes: number): string | undefined {
  const shifted = shiftDate(parts, minutes);
  return shifted.year < 0 || shifted.year > 9999 ? undefined : formatDate(shifted);
}
