import { describe, expect, it } from 'vitest';
import { expectedShapes, measureShapes, type Shape } from '../../src/engine/value-shapes.js';
import { canonicalTokens, nameTokens } from '../../src/engine/similarity.js';
import { COUNTRY_NAMES } from '../../src/engine/country-names.js';
import codes from 'i18n-iso-countries/codes.json' with { type: 'json' };

/** The share of `values` having `shape`. */
function share(values: string[], shape: Shape): number {
  return measureShapes(values).get(shape) ?? 0;
}

describe('measureShapes', () => {
  it('recognises ISO 3166 alpha-2 and alpha-3 country codes, in any case', () => {
    expect(share(['AW', 'HN', 'de', 'US', 'UK'], 'countryAlpha2')).toBe(1);
    expect(share(['AW', 'QQ', 'ZZ', 'XX'], 'countryAlpha2')).toBe(0.25);
    expect(share(['ABW', 'HND', 'deu', 'USA'], 'countryAlpha3')).toBe(1);
    expect(share(['ATL', 'LAX', 'SFO', 'USA'], 'countryAlpha3')).toBe(0.25);
    expect(share(['Aruba', 'A1', 'A'], 'countryAlpha2')).toBe(0);
  });

  it('recognises ISO 3166 numeric codes and English country names', () => {
    expect(share(['533', '004', '4', '840'], 'countryNumeric')).toBe(1);
    expect(share(['999', '1000', '0', 'x'], 'countryNumeric')).toBe(0);
    expect(share(['Aruba', 'honduras', 'Côte d’Ivoire', 'Myanmar', 'United States', 'Narnia'], 'countryName')).toBeCloseTo(5 / 6, 10);
  });

  it('has an English name for every ISO 3166-1 code i18n-iso-countries lists (else run scripts/country-names.mjs)', () => {
    expect(COUNTRY_NAMES.map(([code]) => code)).toEqual((codes as string[][]).map(([alpha2]) => alpha2));
    expect(COUNTRY_NAMES.every(([code, name]) => name.length > 0 && name !== code)).toBe(true);
  });

  it('recognises ISO 4217 currency codes', () => {
    expect(share(['USD', 'EUR', 'jpy', 'AWG'], 'currency')).toBe(1);
    // Fund units, metals and withdrawn currencies, which ICU does not format.
    expect(share(['XAU', 'CHE', 'BOV', 'LTL', 'VEF', 'XXX'], 'currency')).toBe(1);
    expect(share(['USD', 'ABC', 'XYZ', 'US$'], 'currency')).toBe(0.25);
  });

  it('recognises latitudes and longitudes by their ranges', () => {
    const lats = ['45.125', '-33.9', '89.99', '0'];
    expect(share(lats, 'latitude')).toBe(1);
    expect(share(['-118.27', '151.2', '179.9', '-0.12'], 'latitude')).toBe(0.25);
    expect(share(['-118.27', '151.2', '179.9', '-0.12'], 'longitude')).toBe(1);
    expect(share(['181', '-200', '12'], 'longitude')).toBeCloseTo(1 / 3, 10);
  });

  it('recognises dates starting with the name of their month', () => {
    expect(share(['Jan 1 2000', 'February 3, 2001', '2000-01-01', '12 June 1998'], 'date')).toBe(1);
    expect(share(['January', 'Jan', 'June 12'], 'date')).toBe(0);
  });

  it('recognises years and months', () => {
    expect(share(['1970', '2001', '1880', '1999.0'], 'year')).toBe(1);
    expect(share(['70', '20010', '1970-03-05', '12345'], 'year')).toBe(0);
    expect(share(['1', '12', 'Jan', 'September', 'Sept.', '2024-03'], 'month')).toBe(1);
    expect(share(['0', '13', '1.5', 'Janu'], 'month')).toBe(0);
  });

  it('recognises emails, phones, booleans and percentages', () => {
    expect(share(['a@example.com', 'b.c@d.org', 'not an @ email'], 'email')).toBeCloseTo(2 / 3, 10);
    expect(share(['+1 (555) 010-9999', '555-0100', '5550109999', '12'], 'phone')).toBe(0.75);
    expect(share(['true', 'False', 'yes', 'N', '0', '1', 'maybe'], 'boolean')).toBeCloseTo(6 / 7, 10);
    expect(share(['12%', '0.5', '99', '-3', '150'], 'percent')).toBe(0.6);
  });

  it('reads any column of two values at most as flags', () => {
    expect(share(['Active', 'Inactive', 'active', 'Active'], 'boolean')).toBe(1);
    expect(share(['X', 'X'], 'boolean')).toBe(1);
    expect(share(['20.43', '5.86', '20.25'], 'boolean')).toBe(0);
  });

  it('recognises continents and short codes', () => {
    expect(share(['Africa', 'Americas', 'south_america', 'Oceania', 'Narnia'], 'continent')).toBe(0.8);
    expect(share(['ATL', 'SFO', 'A1', 'abc', 'TOOLONGCODE'], 'code')).toBe(0.6);
  });

  it('counts numbers and dates as the type inference reads them', () => {
    expect(share(['1,234.5', '$12', '(3)', 'x'], 'number')).toBe(0.75);
    expect(share(['2024-03-05', '2024-03-05T14:22', '05/03/2024', 'soon'], 'date')).toBe(0.75);
  });
});

describe('US states', () => {
  it('are state names or postal codes', () => {
    expect(share(['Alabama', 'new york', 'District of Columbia', 'TX', 'PR'], 'usState')).toBe(1);
    expect(share(['Georgia (country)', 'tx', 'Ontario', 'XX'], 'usState')).toBe(0);
  });

  it('are asked for by a state field, not by one for its FIPS number, id, code or abbreviation', () => {
    const of = (field: string) => expectedShapes(canonicalTokens(field), undefined);
    expect(of('state')).toEqual(['usState']);
    expect(of('state_name')).toEqual(['usState']);
    for (const field of ['state_fips', 'state_id', 'state_code', 'state_abbr']) expect(of(field)).not.toContain('usState');
  });

  it('are postal codes alone for a field of state codes or abbreviations', () => {
    // Candidate_State and Party_Code of the FEC's candidate summary (vega-datasets political-contributions).
    expect(share(['CA', 'NY', 'TX', 'DC', 'PR'], 'usStateCode')).toBe(1);
    expect(share(['California', 'DEM', 'REP', 'ca'], 'usStateCode')).toBe(0);
    const of = (field: string) => expectedShapes(canonicalTokens(field), 'category');
    for (const field of ['state_code', 'state_cd', 'state_abbr', 'StateAbbrev']) expect(of(field)).toContain('usStateCode');
    for (const field of ['state', 'state_fips', 'state_id']) expect(of(field)).not.toContain('usStateCode');
  });
});

describe('counts', () => {
  it('are numbers never under 0, whole or not (a population in millions)', () => {
    // statsmodels longley POP, macrodata pop, and a change in employment.
    expect(share(['107608', '1,234', '177.146', '0'], 'count')).toBe(1);
    expect(share(['-2.5', '3', 'n/a', '-1'], 'count')).toBe(0.25);
  });
});

describe('abbreviations', () => {
  it('are short and have letters: in capitals, or at most three', () => {
    expect(share(['CA', 'DEM', 'Inc', 'U.S.', 'AT&T'], 'abbreviation')).toBe(1);
    expect(share(['Iowa', 'California', '1', 'Democratic'], 'abbreviation')).toBe(0);
  });
});

describe('time zones', () => {
  it('are IANA names, or offsets from UTC in hours', () => {
    expect(share(['Pacific/Port_Moresby', 'America/New_York', 'Etc/GMT+5', 'UTC', 'EST', '10'], 'timeZone')).toBeCloseTo(4 / 6, 10);
    expect(share(['10', '-5', '5.5', '+05:30', 'UTC-8', '-0800', '15', 'America/New_York'], 'utcOffset')).toBe(0.75);
  });
});

describe('expectedShapes', () => {
  const shapes = (field: string, type?: 'number' | 'date_time' | 'category' | 'rich_text') => expectedShapes(canonicalTokens(field), type);

  it('asks for the shape a field is named after', () => {
    expect(shapes('iso_alpha_2')).toEqual(['countryAlpha2']);
    expect(shapes('iso3')).toEqual(['countryAlpha3']);
    expect(shapes('country_code')).toEqual(['countryAlpha2', 'countryAlpha3', 'code']);
    expect(shapes('currency_code')).toEqual(['currency']);
    expect(shapes('currency_name')).toEqual([]);
    expect(shapes('lat')).toEqual(['latitude']);
    expect(shapes('lng')).toEqual(['longitude']);
    expect(shapes('Contact E-mail')).toEqual(['email']);
    expect(shapes('fax')).toEqual(['phone']);
    expect(shapes('is_active')).toEqual(['boolean']);
    expect(shapes('share_pct')).toEqual(['percent']);
    expect(shapes('continent')).toEqual(['continent']);
    expect(shapes('country')).toEqual(['countryName']);
    expect(shapes('iso_numeric')).toEqual(['countryNumeric']);
    expect(shapes('state_abbr')).toEqual(['usStateCode', 'code', 'abbreviation']);
    expect(shapes('state_cd')).toEqual(['usStateCode', 'code']);
    expect(shapes('unemployment_rate', 'number')).toEqual(['percent', 'number']);
    expect(shapes('population', 'number')).toEqual(['count']);
    expect(shapes('num_children', 'number')).toEqual(['count']);
    expect(shapes('worker_cnt', 'number')).toEqual(['count']);
    expect(shapes('state_fips')).toEqual(['number']);
    expect(shapes('iana_timezone')).toEqual(['timeZone']);
    expect(shapes('tz')).toEqual(['timeZone', 'utcOffset']);
    expect(shapes('utc_offset_hrs', 'number')).toEqual(['utcOffset']);
  });

  it('adds the shape of the schema type, and of date words when there is no type', () => {
    expect(shapes('model_year', 'date_time')).toEqual(['year', 'date']);
    expect(shapes('yr', 'number')).toEqual(['year']);
    expect(shapes('lat', 'number')).toEqual(['latitude']);
    expect(shapes('amount', 'number')).toEqual(['number']);
    expect(shapes('created_at')).toEqual(['date']);
    expect(shapes('notes', 'rich_text')).toEqual([]);
    // A name for money or with a unit asks for numbers when the schema gives no type, not against it.
    expect(shapes('price')).toEqual(['number']);
    expect(shapes('body_mass_g')).toEqual(['number']);
    expect(shapes('amount_usd')).toEqual(['number']);
    expect(shapes('price', 'category')).toEqual([]);
  });

  it('reads a name with `years` or `yrs`, or a rate per year, as a duration, not a year', () => {
    const withWords = (field: string) => expectedShapes(canonicalTokens(field), 'number', nameTokens(field));
    expect(withWords('life_expectancy_yrs')).toEqual(['number']);
    expect(withWords('age_years')).toEqual(['number']);
    expect(withWords('years_married')).toEqual(['number']);
    expect(withWords('yrs_since_2000')).toEqual(['number']);
    expect(withWords('affairs_per_yr')).toEqual(['number']);
    expect(withWords('model_year')).toEqual(['year']);
    expect(withWords('fiscal_yr')).toEqual(['year']);
  });

  it('reads the first day of a year as that year', () => {
    expect(share(['2001-01-01', '1970-01-01T00:00:00', '1999', '2001-03-01'], 'year')).toBe(0.75);
  });
});
