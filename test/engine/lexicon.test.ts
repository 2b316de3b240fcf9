import { describe, expect, it } from 'vitest';
import { QUALIFIER_WEIGHTS, RELATED_PAIRS, STOPWORDS, SYNONYM_GROUPS } from '../../src/engine/lexicon.js';
import { canonicalTokens, nameSimilarity } from '../../src/engine/similarity.js';

describe('lexicon', () => {
  it('rewrites every spelling of a group to its canonical spelling', () => {
    for (const [canonical, ...variants] of SYNONYM_GROUPS) {
      const expected = canonicalTokens(canonical);
      for (const variant of variants) expect([variant, canonicalTokens(variant)]).toEqual([variant, expected]);
    }
  });

  it('keeps each canonical spelling as it is (a fixed point), stopwords aside', () => {
    for (const [canonical] of SYNONYM_GROUPS) {
      expect([canonical, canonicalTokens(canonical)]).toEqual([canonical, canonical.split(' ').filter((w) => !STOPWORDS.has(w))]);
    }
  });

  it('gives each spelling one meaning', () => {
    const groupOf = new Map<string, string>();
    for (const [canonical, ...variants] of SYNONYM_GROUPS) {
      for (const spelling of [canonical, ...variants]) {
        expect([spelling, groupOf.get(spelling) ?? canonical]).toEqual([spelling, canonical]);
        groupOf.set(spelling, canonical);
      }
    }
  });

  it('writes its words in lower case, singular, without punctuation', () => {
    const words = [...SYNONYM_GROUPS.flat(), ...RELATED_PAIRS.flat(), ...QUALIFIER_WEIGHTS.keys()].flatMap((w) => w.split(' '));
    for (const word of words) expect(word).toMatch(/^[a-z0-9]+$/);
  });

  it('relates only words that are not already synonyms', () => {
    for (const [a, b] of RELATED_PAIRS) expect([a, b, nameSimilarity(a, b)]).toEqual([a, b, expect.any(Number)]);
    for (const [a, b] of RELATED_PAIRS) expect(canonicalTokens(a)).not.toEqual(canonicalTokens(b));
  });

  it('knows the abbreviations and synonyms of issue 11', () => {
    const pairs: [string, string][] = [
      ['Miles_per_Gallon', 'mpg'], ['longitude', 'lng'], ['year', 'yr'], ['month', 'mo'], ['Demonym', 'nationality'],
      ['latitude', 'lat'], ['Horsepower', 'hp'], ['Cylinders', 'cyl'], ['Currencies', 'currency_code'],
      ['iso_alpha_2', 'ISO2'], ['alpha3', 'iso_alpha_3'], ['tld', 'top_level_domain'], ['Weight_in_lbs', 'weight_lbs'],
    ];
    for (const [a, b] of pairs) expect([a, b, nameSimilarity(a, b)]).toEqual([a, b, 0.95]);
    // Related, not equal: a partial match that values and the assignment settle.
    expect(nameSimilarity('Region', 'continent')).toBeCloseTo(0.72, 10);
  });
});

describe('lexicon of suppliers, codes, prefixes and periods', () => {
  it('equates the spellings pipelines use for one field', () => {
    const pairs: [string, string][] = [
      ['vendor_id', 'supplier_id'], ['mfr', 'manufacturer'], ['fx_rate', 'exchange_rate'], ['FY', 'fiscal_year'],
      ['phonePrefix', 'calling_code'], ['olympicCode', 'ioc_code'], ['isoCode2', 'iso_alpha_2'], ['isoCode3', 'ISO3'],
      ['prev_close', 'previous_close'], ['begin_date', 'start_date'], ['finish_date', 'end_date'], ['lang', 'language'],
      ['emp_count', 'headcount'], ['active_flag', 'active_indicator'], ['latlng', 'lat_lon'], ['cctld', 'tld'],
      ['TMAX', 'temp_max'], ['max_temp', 'tmax'], ['wx', 'weather'], ['spp', 'species'], ['life_expect', 'life_exp'],
      ['Beak Length (mm)', 'culmen_length_mm'], ['mfg', 'manufacturing'], ['govt', 'government'], ['ret', 'return'],
      ['died', 'death_date'], ['engine_size', 'Displacement'], ['fuel_efficiency', 'Miles_per_Gallon'], ['lifespan', 'life_expect'],
      ['airspeed', 'IAS'], ['daypart', 'Time of day'], ['released', 'Release Date'], ['global_gross', 'Worldwide Gross'],
      ['ISO_NUM', 'iso_numeric'], ['Global Box Office ($)', 'Worldwide Gross'], ['carrier', 'airline'], ['visitor_team', 'away_team'], ['home_pts', 'home_points'], ['movie', 'film'], ['car', 'vehicle'],
    ];
    for (const [a, b] of pairs) expect([a, b, nameSimilarity(a, b)]).toEqual([a, b, 0.95]);
  });

  it('spells each unit one way, and reads `mins` as minutes, not the minimum', () => {
    const pairs: [string, string][] = [
      ['Weight_in_lbs', 'weight_pounds'], ['speed_kmh', 'speed_kph'], ['temp_degC', 'temperature_celsius'],
      ['distance_km', 'distance_kilometers'], ['height_ft', 'height_feet'], ['price_usd', 'price_dollars'],
      ['duration_mins', 'duration_minute'],
    ];
    for (const [a, b] of pairs) expect([a, b, nameSimilarity(a, b)]).toEqual([a, b, 0.95]);
    expect(canonicalTokens('run_time_mins')).toEqual(['runtime', 'minute']);
    expect(canonicalTokens('temp_min')).toEqual(['temperature', 'min']);
  });

  it('keeps `alt` for altitude, not alternative', () => {
    expect(canonicalTokens('alt')).toEqual(['elevation']);
    expect(canonicalTokens('alternate_names')).toEqual(['alternative', 'name']);
  });

  it('relates highs to maxima and lows to minima, items to products', () => {
    expect(nameSimilarity('temp_max', 'high_temp')).toBeGreaterThan(nameSimilarity('temp_max', 'low_temp'));
    expect(nameSimilarity('temp_min', 'low_temp')).toBeGreaterThan(nameSimilarity('temp_min', 'high_temp'));
    // Dice 0.9, same last word: 0.9 × (0.9 + 0.1 / 3).
    expect(nameSimilarity('item_description', 'product_desc')).toBeCloseTo(0.9 * (0.9 + 0.1 / 3), 10);
  });

  it('weighs units of area, volume and energy as qualifiers, and `is`/`has`', () => {
    expect(nameSimilarity('area', 'area_sq_km')).toBeGreaterThan(0.8);
    expect(nameSimilarity('net_generation', 'net_generation_mwh')).toBeGreaterThan(0.8);
    expect(nameSimilarity('landlocked', 'isLandlocked')).toBeGreaterThan(0.8);
  });
});

describe('general header abbreviations', () => {
  it('equates the short spellings of statistics, surveys, health, retail and logistics headers', () => {
    const pairs: [string, string][] = [
      ['seq_no', 'sequence_number'], ['idx', 'index'], ['freq', 'frequency'], ['obs', 'observation'], ['est_value', 'estimated_value'],
      ['hh_size', 'household_size'], ['cmnt', 'comment'], ['msg', 'message'], ['stn_id', 'station_id'], ['mkt_cap', 'market_cap'],
      ['list_price', 'msrp'], ['pax', 'passengers'], ['flt_no', 'flight_number'], ['sku', 'stock_keeping_unit'], ['yob', 'year_of_birth'],
      ['chol', 'cholesterol'], ['tz', 'timezone'], ['gmt_offset', 'utc_offset'], ['wkly_sales', 'weekly_sales'],
      ['deseasonalized', 'seasonally_adjusted'], ['pac', 'political_action_committee'],
    ];
    for (const [a, b] of pairs) expect([a, b, nameSimilarity(a, b)]).toEqual([a, b, 0.95]);
    // Related, not equal: a list price is a price, seasonally adjusted is adjusted.
    expect(nameSimilarity('price', 'msrp_usd')).toBeGreaterThan(0.5);
    expect(nameSimilarity('adjusted CO2', 'co2_deseasonalized_ppm')).toBeGreaterThan(nameSimilarity('adjusted CO2', 'co2_ppm'));
  });
});

describe('lexicon words with plural endings', () => {
  it('relate and weigh words however their plural is stripped (`fips`)', () => {
    expect(nameSimilarity('county_id', 'county_fips')).toBeCloseTo(0.81, 10);
    expect(nameSimilarity('heading', 'heading_degrees')).toBeGreaterThan(nameSimilarity('heading', 'heading_true'));
  });
});
