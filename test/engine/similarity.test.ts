import { describe, expect, it } from 'vitest';
import { canonicalTokens, expressionTokens, nameSimilarity, nameTokens, normaliseName } from '../../src/engine/similarity.js';

describe('normaliseName', () => {
  it('lower-cases and splits on spaces, underscores, hyphens and camelCase', () => {
    expect(normaliseName('E-mail Address')).toBe('e_mail_address');
    expect(normaliseName('firstName')).toBe('first_name');
    expect(normaliseName('FIRST_NAME')).toBe('first_name');
    expect(normaliseName('HTTPStatusCode')).toBe('http_status_code');
    expect(normaliseName('  Order--Date  ')).toBe('order_date');
  });

  it('splits letters from digits and drops accents', () => {
    expect(normaliseName('address2')).toBe('address_2');
    expect(normaliseName('Teléfono')).toBe('telefono');
  });
});

describe('canonicalTokens', () => {
  it('rewrites abbreviations and synonyms to one spelling', () => {
    expect(canonicalTokens('E-mail Address')).toEqual(['email']);
    expect(canonicalTokens('Qty')).toEqual(['quantity']);
    expect(canonicalTokens('Mobile No.')).toEqual(['phone']);
    expect(canonicalTokens('DOB')).toEqual(['birth', 'date']);
    expect(canonicalTokens('Date of Birth')).toEqual(['birth', 'date']);
    expect(canonicalTokens('zipcode')).toEqual(['postal', 'code']);
    expect(canonicalTokens('created_at')).toEqual(['created']);
  });

  it('reads a name starting with `num` as a count of what follows', () => {
    expect(canonicalTokens('num_children')).toEqual(['count', 'children']);
    expect(canonicalTokens('NumEmployees')).toEqual(['count', 'employee']);
    expect(canonicalTokens('number_of_children')).toEqual(['count', 'children']);
    expect(canonicalTokens('num_1')).toEqual(['number', '1']);
    expect(nameSimilarity('num_children', 'children_count')).toBe(0.95);
  });

  it('strips English plurals', () => {
    expect(canonicalTokens('Emails')).toEqual(['email']);
    expect(canonicalTokens('Categories')).toEqual(['category']);
    expect(canonicalTokens('Addresses')).toEqual(['address']);
    expect(canonicalTokens('Status')).toEqual(['status']);
  });
});

describe('nameSimilarity', () => {
  it('scores names equal once normalised 1.0', () => {
    expect(nameSimilarity('firstName', 'first_name')).toBe(1);
    expect(nameSimilarity('FIRST NAME', 'first_name')).toBe(1);
    expect(nameSimilarity('E-mail', 'email')).toBe(1);
    expect(nameSimilarity('Country', 'country')).toBe(1);
  });

  it('scores names equal once synonyms are applied 0.95', () => {
    const pairs: [string, string][] = [
      ['E-mail Address', 'email'], ['Mail', 'email'], ['Qty', 'quantity'], ['Tel', 'phone'], ['Telephone', 'phone'],
      ['Mobile Number', 'phone'], ['Amt', 'amount'], ['DOB', 'birth_date'], ['Zip', 'postal_code'],
      ['fname', 'first_name'], ['lname', 'last_name'], ['Addr', 'address'], ['Desc', 'description'],
      ['Identifier', 'id'], ['Num', 'number'], ['Nation', 'country'], ['Created', 'created_at'],
      ['Phone No.', 'phone'], ['Surname', 'last_name'],
    ];
    for (const [column, field] of pairs) expect([column, field, nameSimilarity(column, field)]).toEqual([column, field, 0.95]);
  });

  it('reads a word that runs together prefixes of the other name\'s words (headers of statsmodels datasets)', () => {
    const pairs: [string, string][] = [
      ['TOTEMP', 'total_employment'], ['realcons', 'real_consumption'], ['ACIDCONC', 'acid_concentration'],
      ['foodexp', 'food_expenditure'], ['PERBLACK', 'pct_black'], ['SUNACTIVITY', 'sunspot_activity'], ['GNPDEFL', 'gnp_deflator'],
      // Initials among the parts (statsmodels and scikit-learn headers), and words in another order.
      ['tbilrate', 'treasury_bill_rate'], ['bmi', 'body_mass_index'], ['PTRATIO', 'pupil_teacher_ratio'], ['hinc', 'household_income'],
      ['invc', 'in_vehicle_cost'], ['MEDV', 'median_value'], ['PERPOVERTY', 'poverty_pct'],
      // A part may be the lexicon's abbreviation of the word (`wt` for weight).
      ['empcnt', 'employee_count'], ['bwt', 'birth_weight'],
    ];
    for (const [column, field] of pairs) {
      const score = nameSimilarity(column, field);
      expect([column, field, score >= 0.8 && score < 0.95]).toEqual([column, field, true]);
    }
    // Every part must begin a word, and the parts must cover the whole word.
    expect(nameSimilarity('TOTEMP', 'total_revenue')).toBeLessThan(0.5);
    expect(nameSimilarity('totempx', 'total_employment')).toBeLessThan(0.5);
    // Initials must spell the whole other name: FEC's `coh_cop` is not `Contributions from Other
    // Political Committees`.
    expect(nameSimilarity('cop', 'Contributions_from_Other_Political_Committees')).toBeLessThan(0.5);
    expect(nameSimilarity('Rank', 'rental_ask')).toBeLessThan(0.5);
    expect(nameSimilarity('bwt', 'birth_height')).toBeLessThan(0.5);
  });

  it('rates a name whose every word abbreviates a word of the other like one lying inside it', () => {
    // statsmodels' macrodata and the Boston housing data.
    expect(nameSimilarity('unemp', 'unemployment_rate')).toBeCloseTo(nameSimilarity('unemployment', 'unemployment_rate') * 0.86, 1);
    expect(nameSimilarity('infl', 'inflation_rate')).toBeGreaterThan(0.6);
    expect(nameSimilarity('CRIM', 'crime_rate')).toBeGreaterThan(0.6);
    expect(nameSimilarity('unemp', 'rate_of_employment')).toBeLessThan(0.5);
  });

  it('reads initials only in a name of one word (`pac` of `pac_contrib_usd` is no `Party_Code`)', () => {
    expect(nameSimilarity('Party_Code', 'pac_contrib_usd')).toBeLessThan(0.5);
  });

  it('reads a one-letter word as the initial of the other name\'s word at the same place', () => {
    expect(nameSimilarity('p_fertility', 'prev_fertility_rate')).toBeGreaterThan(nameSimilarity('p_fertility', 'next_fertility_rate') + 0.2);
    expect(nameSimilarity('n_fertility', 'next_fertility_rate')).toBeGreaterThan(nameSimilarity('n_fertility', 'prev_fertility_rate') + 0.2);
    expect(nameSimilarity('x_fertility', 'prev_fertility_rate')).toBe(nameSimilarity('x_fertility', 'next_fertility_rate'));
  });

  it('ignores token order', () => {
    expect(nameSimilarity('Name First', 'first_name')).toBe(0.95);
  });

  it('scores partial token overlap 0.9 times the weighted soft Dice coefficient', () => {
    // `name` is a generic word (weight 0.5): (0.5 + 0.5) / (1.5 + 1.5) = 1/3.
    expect(nameSimilarity('last_name', 'first_name')).toBeCloseTo(0.3, 10);
    // A number weighs 0.5 against a name without numbers: (1 + 1) / (1.5 + 2).
    expect(nameSimilarity('sales_2023', 'sales_total')).toBeCloseTo(0.9 * 2 / 3.5, 10);
  });

  it('rates a name lying inside the other halfway between Dice and 1', () => {
    // Dice 2/3, contained: (2/3 + 1) / 2.
    expect(nameSimilarity('Customer ID', 'id')).toBeCloseTo(0.75, 10);
    expect(nameSimilarity('delay', 'arr_delay_min')).toBeCloseTo(0.9 * (0.5 + 1) / 2, 10);
    expect(nameSimilarity('Effect Amount of damage', 'damage')).toBeCloseTo(0.9 * (0.5 + 1) / 2, 10);
  });

  it('rates names ending in the same word a third of the way from Dice to 1', () => {
    // Dice 1/2: 0.9 × (1/2 + 1/2 × 1/3).
    expect(nameSimilarity('Major Genre', 'primary_genre')).toBeCloseTo(0.6, 10);
    expect(nameSimilarity('Release Date', 'premiere_date')).toBeCloseTo(0.6, 10);
    // The same first word only: Dice alone.
    expect(nameSimilarity('genre_major', 'genre_primary')).toBeCloseTo(0.45, 10);
  });

  it('weighs units and generic words less', () => {
    expect(nameSimilarity('distance', 'distance_mi')).toBeGreaterThan(nameSimilarity('distance', 'distance_flown'));
    expect(nameSimilarity('state', 'state_name')).toBeGreaterThan(nameSimilarity('state', 'state_fips'));
  });

  it('gives related words partial credit', () => {
    expect(nameSimilarity('Date', 'created_at')).toBeCloseTo(0.72, 10);
    expect(nameSimilarity('Total', 'amount')).toBeCloseTo(0.72, 10);
  });

  it('tolerates typos and prefix abbreviations below synonym matches', () => {
    const typo = nameSimilarity('adress', 'address');
    expect(typo).toBeGreaterThan(0.5);
    expect(typo).toBeLessThan(0.95);
    expect(nameSimilarity('manuf', 'manufacturer')).toBeCloseTo(0.63, 10);
  });

  it('reads words sharing a stem (five letters and three quarters of the shorter) like a prefix', () => {
    expect(nameSimilarity('religious', 'religiosity_score')).toBeGreaterThan(0.5);
    expect(nameSimilarity('religious', 'religiosity')).toBeCloseTo(0.9 * 0.7, 10);
    expect(nameSimilarity('department', 'departure')).toBe(0);
    expect(nameSimilarity('smoking', 'smokers')).toBe(0);
  });

  it('never reads two words of the lexicon as typos of each other', () => {
    expect(nameSimilarity('height', 'weight')).toBe(0);
    expect(nameSimilarity('county', 'country')).toBe(0);
    expect(nameSimilarity('adress', 'address')).toBeGreaterThan(0.5); // `adress` is no word of it
  });

  it('reads letters kept in order as an abbreviation (0.6 of a word)', () => {
    // `ttl` is in the lexicon; `rcvd` / `received` is an abbreviation: (2 + 2 × 0.6) / 4.
    expect(nameSimilarity('ttl_rcvd', 'total_received')).toBeCloseTo(0.72, 10);
    expect(nameSimilarity('ttl', 'total')).toBe(0.95); // in the lexicon
    expect(nameSimilarity('mgmt', 'management')).toBeCloseTo(0.54, 10);
    expect(nameSimilarity('mgmt', 'government')).toBe(0); // another first letter
  });

  it('never reads a word of the lexicon as letters of a longer word (`age` is not `average`)', () => {
    expect(nameSimilarity('AGE', 'avg_monthly_spend_usd')).toBe(0);
    expect(nameSimilarity('AVGEXP', 'cardholder_age')).toBe(0);
    expect(nameSimilarity('INCOMESQ', 'is_homeowner')).toBe(0);
  });

  it('reads initials of consecutive words as an acronym only when both names are then fully matched', () => {
    expect(nameSimilarity('rt_score', 'Rotten Tomatoes Rating')).toBeGreaterThan(0.7);
    expect(nameSimilarity('cop', 'Contributions from Other Political Committees')).toBeLessThan(0.5);
    // One letter is the initial of one word: `n_life_expect` is `next_life_expectancy` more than `life_expectancy`.
    expect(nameSimilarity('n_life_expect', 'next_life_expectancy')).toBeGreaterThan(nameSimilarity('n_life_expect', 'life_expectancy'));
  });

  it('reads a word written as a run of the other name\'s words as those words', () => {
    expect(nameSimilarity('subregion', 'subRegionName')).toBeGreaterThan(0.8);
    expect(nameSimilarity('subregion', 'subRegionName')).toBeGreaterThan(nameSimilarity('region', 'subRegionName'));
    expect(nameSimilarity('habitat_yearround_pct', 'year_round_habitat_pct')).toBe(0.9);
    expect(nameSimilarity('region', 'subregion')).toBe(0); // a run of two words at least, never part of a word
  });

  it('matches numbered names only on the same number', () => {
    expect(nameSimilarity('address 1', 'address_2')).toBe(0);
    expect(nameSimilarity('sales_2023', 'sales 2024')).toBe(0);
    expect(nameSimilarity('address1', 'address_1')).toBe(1);
  });

  it('matches a numbered name whose numbers hold all of the other\'s (a year after a rate per 100k)', () => {
    expect(nameSimilarity('VC100k96', 'violent_crime_per_100k')).toBeGreaterThan(0.6);
    expect(nameSimilarity('VC100k96', 'violent_crime_per_1k')).toBe(0);
    expect(nameSimilarity('sales 2023 q1', 'sales_2023')).toBeGreaterThan(0.6);
  });

  it('scores unrelated names 0', () => {
    expect(nameSimilarity('Internal Notes', 'email')).toBe(0);
    expect(nameSimilarity('First', 'full_name')).toBe(0);
    expect(nameSimilarity('', 'email')).toBe(0);
  });
});

describe('nameTokens', () => {
  it('splits printable ASCII names exactly as the Unicode path does', () => {
    const alphabet = 'aAbBzZ09_ -#%.($';
    let seed = 3;
    const next = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
    for (let trial = 0; trial < 3000; trial++) {
      const name = Array.from({ length: 1 + Math.floor(next() * 12) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
      expect([name, nameTokens(name)]).toEqual([name, expressionTokens(name)]);
    }
    for (const name of ['HTTPStatusCode', 'iso3166Alpha2', 'Cost Total $', 'Beak Length (mm)', 'ABcDEf', 'x2Y', 'Order#']) {
      expect([name, nameTokens(name)]).toEqual([name, expressionTokens(name)]);
    }
  });
});
