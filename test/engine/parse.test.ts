import { describe, expect, it } from 'vitest';
import {
  detectDayFirst, formatDate, isZeroPadded, looksLikeSlashDate, normalizeDate, parseDate, parseExactNumber, parseNumber, shiftDate, slashDateOrder,
} from '../../src/engine/parse.js';
import { mulberry32 } from '../../src/engine/prng.js';

describe('parseNumber', () => {
  it('reads decimal text to the very double Number() gives, up to 15 digits and beyond', () => {
    const random = mulberry32(7);
    for (let i = 0; i < 20_000; i++) {
      const digits = Array.from({ length: 1 + Math.floor(random() * 18) }, () => String(Math.floor(random() * 10))).join('');
      const point = Math.floor(random() * (digits.length + 1));
      const text = `${digits.slice(0, point) || '0'}.${digits.slice(point)}`;
      expect(parseNumber(text), text).toBe(Number(text));
      expect(parseNumber(`-${text}%`), `-${text}%`).toBe(Number(`-${text}e-2`) || 0);
    }
    expect(parseNumber('1,234.56')).toBe(1234.56);
    expect(parseNumber('1.1%')).toBe(0.011);
  });

  it('reads plain, signed, decimal and exponent numbers', () => {
    expect(parseNumber('42')).toBe(42);
    expect(parseNumber('-12.5')).toBe(-12.5);
    expect(parseNumber('+3')).toBe(3);
    expect(parseNumber('1e3')).toBe(1000);
    expect(parseNumber('2.5E-2')).toBe(0.025);
    expect(parseNumber('.5')).toBe(0.5);
    expect(parseNumber('5.')).toBe(5);
  });

  it('trims surrounding whitespace', () => {
    expect(parseNumber('  7 \t')).toBe(7);
  });

  it('reads thousands commas, so 1,234.50 becomes 1234.5', () => {
    expect(parseNumber('1,234.50')).toBe(1234.5);
    expect(String(parseNumber('1,234.50'))).toBe('1234.5');
    expect(parseNumber('1,234,567')).toBe(1234567);
  });

  it('refuses commas that are not thousands groups', () => {
    expect(parseNumber('1,5')).toBeUndefined();
    expect(parseNumber('12,34,567')).toBeUndefined();
    expect(parseNumber(',123')).toBeUndefined();
    expect(parseNumber('1234,567')).toBeUndefined();
  });

  it('reads a leading currency sign, also after or before a minus sign', () => {
    expect(parseNumber('$5')).toBe(5);
    expect(parseNumber('€1,200.00')).toBe(1200);
    expect(parseNumber('£3.5')).toBe(3.5);
    expect(parseNumber('¥100')).toBe(100);
    expect(parseNumber('-$5')).toBe(-5);
    expect(parseNumber('$-5')).toBe(-5);
  });

  it('divides a trailing percent by 100 without floating-point noise', () => {
    expect(parseNumber('12.5%')).toBe(0.125);
    expect(parseNumber('1.1%')).toBe(0.011);
    expect(parseNumber('7%')).toBe(0.07);
    expect(parseNumber('1e2%')).toBe(1);
  });

  it('reads parentheses as a negative number', () => {
    expect(parseNumber('(12)')).toBe(-12);
    expect(parseNumber('($1,000.50)')).toBe(-1000.5);
  });

  it('reads parentheses after a currency sign as the same negative as around it', () => {
    expect(parseNumber('$(12)')).toBe(-12);
    expect(parseNumber('($12)')).toBe(-12);
    expect(parseNumber(' €(1,000.50) ')).toBe(-1000.5);
    expect(parseNumber('$(12%)')).toBe(-0.12);
    for (const text of ['$(12', '$12)', '$(-12)', '-$(12)', '+$(12)', '($(12))', '$()', '$ (12)']) expect(parseNumber(text), text).toBeUndefined();
  });

  it('refuses text that is not a number', () => {
    for (const text of ['', '   ', 'abc', '12abc', '1 000', '0x10', 'Infinity', 'NaN', '1e', '$', '-', '.', '(12', '(-12)', '--1', '1e400', '5 %', '12$']) {
      expect(parseNumber(text), text).toBeUndefined();
    }
  });

  it('returns 0 rather than -0', () => {
    expect(Object.is(parseNumber('-0'), 0)).toBe(true);
  });

  it('refuses a number too small for a double instead of making it 0, as it refuses one too large', () => {
    for (const text of ['1e-400', '-2.5e-330', '0.1e-323']) expect(parseNumber(text), text).toBeUndefined();
    expect(parseNumber('0e-400')).toBe(0);
    expect(parseNumber('0.000e5')).toBe(0);
    expect(parseNumber('5e-324')).toBe(5e-324); // the smallest double is still a double
  });
});

describe('parseExactNumber', () => {
  it('refuses values past 2^53 whose digits a double would round, whatever their form', () => {
    for (const text of [
      '12345678901234567890', '$12345678901234567890', '(12345678901234567890)', '12345678901234567890.0',
      '9007199254740993e0', '1234567890123456789%', '12,345,678,901,234,567,890', '-9007199254740993', '123456789012345678901234567890e-10',
    ]) {
      expect(parseNumber(text), text).toBeDefined();
      expect(parseExactNumber(text), text).toBeUndefined();
    }
  });

  it('keeps numbers whose written digits the double holds, however large', () => {
    expect(parseExactNumber('6.022e23')).toBe(6.022e23);
    expect(parseExactNumber('1e308')).toBe(1e308);
    expect(parseExactNumber('9007199254740992')).toBe(2 ** 53);
    expect(parseExactNumber('100000000000000000000')).toBe(1e20);
    expect(parseExactNumber('$1,000,000,000,000,000,000,000')).toBe(1e21);
    expect(parseExactNumber('0.1234567890123456789')).toBe(0.12345678901234568); // a fraction below 2^53: a double, as anywhere
  });
});

describe('isZeroPadded', () => {
  it('marks codes with leading zeros but not zero itself or decimals', () => {
    expect(isZeroPadded('00123')).toBe(true);
    expect(isZeroPadded('-007')).toBe(true);
    expect(isZeroPadded('0')).toBe(false);
    expect(isZeroPadded('0.5')).toBe(false);
    expect(isZeroPadded('123')).toBe(false);
  });
});

describe('parseDate', () => {
  const text = (value: string, dayFirst = false) => {
    const parts = parseDate(value, dayFirst);
    return parts ? formatDate(parts) : undefined;
  };

  it('reads ISO dates and date-times, dropping fractions', () => {
    expect(text('2024-03-05')).toBe('2024-03-05T00:00:00');
    expect(text('2024-03-05T14:22')).toBe('2024-03-05T14:22:00');
    expect(text('2024-03-05 14:22:10')).toBe('2024-03-05T14:22:10');
    expect(text('2024-03-05T14:22:10.123456')).toBe('2024-03-05T14:22:10');
  });

  it('reads full 19-character date-times as the general rules do, calendar and clock checked', () => {
    expect(parseDate('2024-03-05 14:22:10')).toEqual({ year: 2024, month: 3, day: 5, hour: 14, minute: 22, second: 10, offsetMinutes: null });
    expect(text('2024-03-05t14:22:10')).toBe('2024-03-05T14:22:10');
    expect(text('0999-12-31T23:59:59')).toBe('0999-12-31T23:59:59');
    expect(text('2024-02-29 00:00:00')).toBe('2024-02-29T00:00:00');
    for (const bad of ['2023-02-29 00:00:00', '2024-13-01 00:00:00', '2024-00-10 00:00:00', '2024-01-00 00:00:00',
      '2024-01-01 24:00:00', '2024-01-01 23:60:00', '2024-01-01 23:59:60', '2024-01-01x23:59:59', '2024-01-0a 23:59:59']) {
      expect(parseDate(bad), bad).toBeUndefined();
    }
    // Same length, other forms: the general rules still read them.
    expect(text('2024-3-5 14:22:10Z ')).toBe('2024-03-05T14:22:10');
    expect(text('  2024-03-05 14:22 ')).toBe('2024-03-05T14:22:00');
  });

  it('reads explicit offsets and Z', () => {
    expect(parseDate('2024-03-05T14:22:10Z')?.offsetMinutes).toBe(0);
    expect(parseDate('2024-03-05T14:22:10+05:30')?.offsetMinutes).toBe(330);
    expect(parseDate('2024-03-05T14:22:10-0800')?.offsetMinutes).toBe(-480);
    expect(parseDate('2024-03-05T14:22-02')?.offsetMinutes).toBe(-120);
    expect(parseDate('2024-03-05T14:22:10')?.offsetMinutes).toBeNull();
  });

  it('reads YYYY/MM/DD', () => {
    expect(text('2024/03/05')).toBe('2024-03-05T00:00:00');
    expect(text('2024/3/5 9:05')).toBe('2024-03-05T09:05:00');
  });

  it('reads slash dates month-first or day-first as told, with an optional time', () => {
    expect(text('03/05/2024')).toBe('2024-03-05T00:00:00');
    expect(text('03/05/2024', true)).toBe('2024-05-03T00:00:00');
    expect(text('3/5/2024 14:22')).toBe('2024-03-05T14:22:00');
    expect(text('25/12/2024 08:15:30', true)).toBe('2024-12-25T08:15:30');
  });

  it('refuses dates the calendar does not have', () => {
    expect(parseDate('2024-02-30')).toBeUndefined();
    expect(parseDate('2023-02-29')).toBeUndefined();
    expect(text('2024-02-29')).toBe('2024-02-29T00:00:00');
    expect(parseDate('2024-13-01')).toBeUndefined();
    expect(parseDate('25/12/2024')).toBeUndefined();
    expect(parseDate('2024-03-05T24:00')).toBeUndefined();
  });

  it('refuses text that is not a supported date', () => {
    for (const value of ['', 'yesterday', '2024', '2024-03', '05-03-2024', '5/3/24', '2024-03-05T', '2024-03-05T14', '2024-03-05 14:22 foo', '20240305']) {
      expect(parseDate(value), value).toBeUndefined();
    }
  });
});

describe('slash date order', () => {
  it('tells day-first, month-first and ambiguous values apart', () => {
    expect(slashDateOrder('25/03/2024')).toBe('dayFirst');
    expect(slashDateOrder('03/25/2024')).toBe('monthFirst');
    expect(slashDateOrder('03/04/2024 10:00')).toBe('ambiguous');
    expect(slashDateOrder('2024/03/04')).toBeUndefined();
    expect(looksLikeSlashDate('1/2/2024')).toBe(true);
    expect(looksLikeSlashDate('2024-01-02')).toBe(false);
  });

  it('detects day-first when any value has a first part over 12, anywhere, else month-first', () => {
    expect(detectDayFirst(['01/02/2024', null, '25/02/2024'])).toBe(true);
    expect(detectDayFirst(['01/02/2024', '02/25/2024', '25/02/2024'])).toBe(true);
    expect(detectDayFirst(['12/25/2024', '01/02/2024'])).toBe(false);
    expect(detectDayFirst(['01/02/2024', '03/04/2024'])).toBe(false);
  });
});

describe('normalizeDate and shiftDate', () => {
  it('keeps the wall time of an offset value when no zone is given', () => {
    expect(normalizeDate('2024-03-05T14:22:10+02:00', false)).toBe('2024-03-05T14:22:10');
  });

  it('refuses a value its offset moves past year 9999 or before year 0000', () => {
    expect(normalizeDate('9999-12-31T23:00:00-05:00', false, 0)).toBeUndefined();
    expect(normalizeDate('0000-01-01T01:00:00+05:00', false, 0)).toBeUndefined();
    expect(normalizeDate('9999-12-31T23:00:00-05:00', false)).toBe('9999-12-31T23:00:00');
  });

  it('moves an offset value into the given zone', () => {
    expect(normalizeDate('2024-03-05T14:22:10+02:00', false, 0)).toBe('2024-03-05T12:22:10');
    expect(normalizeDate('2024-03-05T01:00:00Z', false, -300)).toBe('2024-03-04T20:00:00');
  });

  it('shifts across month and year ends, by fractional hours too', () => {
    const parts = parseDate('2023-12-31T23:30:00')!;
    expect(formatDate(shiftDate(parts, 60))).toBe('2024-01-01T00:30:00');
    expect(formatDate(shiftDate(parts, 5.5 * 60))).toBe('2024-01-01T05:00:00');
  });

  it('agrees with Date arithmetic over leap days and centuries', () => {
    const starts = ['1900-02-28T23:00:00', '2000-02-28T22:15:00', '2024-02-29T00:30:00', '2023-03-01T00:00:00', '1999-12-31T12:00:00'];
    for (const start of starts) {
      for (const minutes of [-1440 * 400, -90, -30, 45, 5.5 * 60, 1440 * 366, 1440 * 36525]) {
        const expected = new Date(Date.parse(`${start}Z`) + minutes * 60_000).toISOString().slice(0, 19);
        expect(formatDate(shiftDate(parseDate(start)!, minutes)), `${start} ${minutes}`).toBe(expected);
      }
    }
  });
});

describe('English month names', () => {
  it.each([
    ['Jun 12 1998', '1998-06-12T00:00:00'],
    ['June 12, 1998', '1998-06-12T00:00:00'],
    ['Jun 12, 1998', '1998-06-12T00:00:00'],
    ['12 Jun 1998', '1998-06-12T00:00:00'],
    ['12 June 1998', '1998-06-12T00:00:00'],
    ['12-Jun-1998', '1998-06-12T00:00:00'],
    ['jan 1 2000', '2000-01-01T00:00:00'],
    ['SEPTEMBER 30, 2001 23:59', '2001-09-30T23:59:00'],
    ['Sept 5 2001', '2001-09-05T00:00:00'],
    ['Sep. 5, 2001 08:07:06', '2001-09-05T08:07:06'],
    ['1-dec-1999 10:30', '1999-12-01T10:30:00'],
    ['  May  1  2000  ', '2000-05-01T00:00:00'],
  ])('reads %j', (text, expected) => {
    expect(normalizeDate(text, false)).toBe(expected);
    expect(normalizeDate(text, true)).toBe(expected); // the slash order does not apply
  });

  it.each(['Feb 30 2000', 'Jun 12 98', 'Junee 12 1998', 'Ju 12 1998', '12 Jun, 1998', 'Jun-12-1998', 'Jun 12,1998', '12-Jun 1998', 'June', 'Jun 123 1998', 'Jun 12 1998 25:00', 'Mon Jun 12 1998'])(
    'refuses %j', (text) => {
      expect(parseDate(text)).toBeUndefined();
    });
});

