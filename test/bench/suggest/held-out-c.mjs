// Third held-out set of the mapping-suggestion benchmark ("held-out C"), written by an outside
// examiner (a separate session) from each file's header and a few rows only: the suggestion code
// and the other sets' truths were not read, truths were written before anything was run. It was
// scored against the code four times at the end of the second round (before the round: 0.98 /
// 0.90 / 0.93; after it, with and without pairing by elimination) and never tuned on then. In the
// fourth round its misses were read with every other set's and their causes fixed (not its cases):
// 0.981 / 0.929 / 0.968 -> 1.000 / 0.947 / 0.975; so it is no longer blind. Kept here so the
// README's figures can be reproduced; a new blind set judges the next round.

/** The cases of the outside examiner's set. */
export const HELD_OUT_C = [
  {
    name: 'airports_dim',
    source: 'vega-datasets/data/airports.csv',
    expected: [['airport_code', 'category'], ['airport_name'], ['city'], ['state_cd', 'category'], ['lat', 'number'], ['lng', 'number']],
    optional: [['country_cd', 'category'], ['elevation_ft', 'number'], ['tz_name']],
    truth: [
      ['iata', 'airport_code'], ['name', 'airport_name'], ['city', 'city'], ['state', 'state_cd'],
      ['country', 'country_cd'], ['latitude', 'lat'], ['longitude', 'lng'],
    ],
  },
  {
    name: 'bird_strike_incidents',
    source: 'vega-datasets/data/birdstrikes.csv',
    expected: [
      ['incident_dt', 'date_time'], ['airport_nm'], ['aircraft_model'], ['operator_name'],
      ['damage_severity', 'category'], ['flight_phase', 'category'], ['species_common_nm'],
      ['repair_cost_usd', 'number'], ['total_cost_usd', 'number'],
    ],
    optional: [
      ['wildlife_size_class', 'category'], ['light_condition', 'category'], ['src_state'],
      ['indicated_airspeed_kts', 'number'], ['altitude_ft', 'number'], ['num_birds_struck', 'number'],
    ],
    truth: [
      ['Flight Date', 'incident_dt'], ['Airport Name', 'airport_nm'], ['Aircraft Make Model', 'aircraft_model'],
      ['Aircraft Airline Operator', 'operator_name'], ['Effect Amount of damage', 'damage_severity'],
      ['Phase of flight', 'flight_phase'], ['Wildlife Species', 'species_common_nm'],
      ['Cost Repair', 'repair_cost_usd'], ['Cost Total $', 'total_cost_usd'],
      ['Wildlife Size', 'wildlife_size_class'], ['Time of day', 'light_condition'], ['Origin State', 'src_state'],
      ['Speed IAS in knots', 'indicated_airspeed_kts'],
      // 'Cost Other' stays unmapped.
    ],
  },
  {
    name: 'weather_daily',
    source: 'vega-datasets/data/weather.csv',
    expected: [['station_name', 'category'], ['obs_date', 'date_time'], ['precip_mm', 'number'], ['temp_high_c', 'number'], ['temp_low_c', 'number']],
    optional: [['wind_speed_mps', 'number'], ['weather_condition', 'category'], ['humidity_pct', 'number'], ['snow_depth_cm', 'number']],
    truth: [
      ['location', 'station_name'], ['date', 'obs_date'], ['precipitation', 'precip_mm'],
      ['temp_max', 'temp_high_c'], ['temp_min', 'temp_low_c'], ['wind', 'wind_speed_mps'],
      ['weather', 'weather_condition'],
    ],
  },
  {
    name: 'index_daily_prices',
    source: 'vega-datasets/data/sp500-2000.csv',
    expected: [['trade_dt', 'date_time'], ['open_px', 'number'], ['high_px', 'number'], ['low_px', 'number'], ['close_px', 'number'], ['volume_shares', 'number']],
    optional: [['adj_close_px', 'number'], ['ticker', 'category'], ['vwap', 'number']],
    truth: [
      ['date', 'trade_dt'], ['open', 'open_px'], ['high', 'high_px'], ['low', 'low_px'], ['close', 'close_px'],
      ['volume', 'volume_shares'], ['adjclose', 'adj_close_px'],
    ],
  },
  {
    name: 'film_financials',
    source: 'vega-datasets/data/movies.json',
    expected: [
      ['title'], ['release_dt', 'date_time'], ['domestic_box_office_usd', 'number'], ['worldwide_box_office_usd', 'number'],
      ['production_budget_usd', 'number'], ['mpaa_rating', 'category'],
    ],
    optional: [
      ['dvd_sales_us_usd', 'number'], ['runtime_min', 'number'], ['distributor'], ['genre', 'category'], ['director'],
      ['imdb_score', 'number'], ['imdb_num_votes', 'number'], ['rotten_tomatoes_pct', 'number'],
      ['studio_country'], ['sequel_flag', 'boolean'],
    ],
    truth: [
      ['Title', 'title'], ['Release Date', 'release_dt'], ['US Gross', 'domestic_box_office_usd'],
      ['Worldwide Gross', 'worldwide_box_office_usd'], ['Production Budget', 'production_budget_usd'],
      ['MPAA Rating', 'mpaa_rating'], ['US DVD Sales', 'dvd_sales_us_usd'], ['Running Time min', 'runtime_min'],
      ['Distributor', 'distributor'], ['Major Genre', 'genre'], ['Director', 'director'], ['IMDB Rating', 'imdb_score'],
      ['IMDB Votes', 'imdb_num_votes'], ['Rotten Tomatoes Rating', 'rotten_tomatoes_pct'],
      // 'Source' and 'Creative Type' stay unmapped.
    ],
  },
  {
    name: 'vehicle_specs',
    source: 'vega-datasets/data/cars.json',
    expected: [['modelName'], ['mpg', 'number'], ['cyl', 'number'], ['hp', 'number'], ['weightLbs', 'number'], ['modelYear', 'date_time']],
    optional: [['displacementCuIn', 'number'], ['accel0to60Sec', 'number'], ['originRegion', 'category'], ['msrpUsd', 'number']],
    truth: [
      ['Name', 'modelName'], ['Miles_per_Gallon', 'mpg'], ['Cylinders', 'cyl'], ['Horsepower', 'hp'],
      ['Weight_in_lbs', 'weightLbs'], ['Year', 'modelYear'], ['Displacement', 'displacementCuIn'],
      ['Acceleration', 'accel0to60Sec'], ['Origin', 'originRegion'],
    ],
  },
  {
    name: 'riot_fatalities',
    source: 'vega-datasets/data/la-riots.csv',
    expected: [
      ['firstName'], ['lastName'], ['ageYrs', 'number'], ['sex', 'category'], ['ethnicity', 'category'],
      ['dateOfDeath', 'date_time'], ['causeCategory', 'category'],
    ],
    optional: [['streetAddress'], ['neighborhoodName', 'category'], ['lat', 'number'], ['lng', 'number'], ['zipCode']],
    truth: [
      ['first_name', 'firstName'], ['last_name', 'lastName'], ['age', 'ageYrs'], ['gender', 'sex'],
      ['race', 'ethnicity'], ['death_date', 'dateOfDeath'], ['type', 'causeCategory'],
      ['address', 'streetAddress'], ['neighborhood', 'neighborhoodName'], ['latitude', 'lat'], ['longitude', 'lng'],
    ],
  },
  {
    name: 'zip_geo',
    source: 'vega-datasets/data/zipcodes.csv',
    expected: [['postal_cd'], ['city_nm'], ['state_abbr', 'category'], ['county_nm']],
    optional: [['centroid_lat', 'number'], ['centroid_lon', 'number'], ['population', 'number'], ['area_sq_km', 'number']],
    truth: [
      ['zip_code', 'postal_cd'], ['city', 'city_nm'], ['state', 'state_abbr'], ['county', 'county_nm'],
      ['latitude', 'centroid_lat'], ['longitude', 'centroid_lon'],
    ],
  },
  {
    name: 'penguin_measurements',
    source: 'vega-datasets/data/penguins.json',
    expected: [
      ['species', 'category'], ['island', 'category'], ['bill_length_mm', 'number'], ['bill_depth_mm', 'number'],
      ['flipper_len_mm', 'number'], ['body_wt_g', 'number'],
    ],
    optional: [['sex', 'category'], ['sample_yr', 'number'], ['nest_id']],
    truth: [
      ['Species', 'species'], ['Island', 'island'], ['Beak Length (mm)', 'bill_length_mm'],
      ['Beak Depth (mm)', 'bill_depth_mm'], ['Flipper Length (mm)', 'flipper_len_mm'],
      ['Body Mass (g)', 'body_wt_g'], ['Sex', 'sex'],
    ],
  },
  {
    name: 'match_results',
    source: 'vega-datasets/data/football.json',
    expected: [
      ['match_dt', 'date_time'], ['competition', 'category'], ['home_team_nm'], ['away_team_nm'],
      ['home_goals', 'number'], ['away_goals', 'number'],
    ],
    optional: [['attendance', 'number'], ['venue_nm'], ['season_yr', 'number']],
    truth: [
      ['date', 'match_dt'], ['division', 'competition'], ['home_team', 'home_team_nm'], ['away_team', 'away_team_nm'],
      ['home_score', 'home_goals'], ['away_score', 'away_goals'],
    ],
  },
  {
    name: 'flight_delays',
    source: 'vega-datasets/data/flights-10k.json',
    expected: [['dep_ts', 'date_time'], ['orig_airport_cd', 'category'], ['dest_airport_cd', 'category'], ['arr_delay_min', 'number']],
    optional: [['distance_mi', 'number'], ['carrier_cd', 'category'], ['flight_num'], ['cancelled', 'boolean']],
    truth: [
      ['date', 'dep_ts'], ['origin', 'orig_airport_cd'], ['destination', 'dest_airport_cd'],
      ['delay', 'arr_delay_min'], ['distance', 'distance_mi'],
    ],
  },
  {
    name: 'campaign_finance',
    source: 'vega-datasets/data/political-contributions.json',
    expected: [
      ['cand_id'], ['cand_name'], ['party', 'category'], ['state_cd', 'category'],
      ['total_receipts_usd', 'number'], ['total_disbursements_usd', 'number'], ['cash_on_hand_end_usd', 'number'],
    ],
    optional: [
      ['incumbency_status', 'category'], ['district_num', 'number'], ['cash_on_hand_begin_usd', 'number'],
      ['indiv_contrib_usd', 'number'], ['debts_usd', 'number'], ['report_period_end_dt', 'date_time'],
      ['pac_contrib_usd', 'number'], ['committee_id'],
    ],
    truth: [
      ['Candidate_Identification', 'cand_id'], ['Candidate_Name', 'cand_name'],
      [['Party_Affiliation', 'Party_Code'], 'party'], ['Candidate_State', 'state_cd'],
      ['Total_Receipts', 'total_receipts_usd'], ['Total_Disbursements', 'total_disbursements_usd'],
      ['Ending_Cash', 'cash_on_hand_end_usd'], ['Incumbent_Challenger_Status', 'incumbency_status'],
      ['Candidate_District', 'district_num'], ['Beginning_Cash', 'cash_on_hand_begin_usd'],
      ['Total_Individual_Contributions', 'indiv_contrib_usd'], ['Debts_Owed_By', 'debts_usd'],
      ['Coverage_End_Date', 'report_period_end_dt'],
      ['Contributions_from_Other_Political_Committees', 'pac_contrib_usd'],
      // Transfers, loans, refunds, party-committee contributions etc. stay unmapped.
    ],
  },
  {
    name: 'country_health_wealth',
    source: 'vega-datasets/data/gapminder-health-income.csv',
    expected: [['country_name'], ['gdp_per_capita_usd', 'number'], ['life_expectancy_yrs', 'number'], ['population', 'number']],
    optional: [['world_region', 'category'], ['iso3'], ['yr', 'number']],
    truth: [
      ['country', 'country_name'], ['income', 'gdp_per_capita_usd'], ['health', 'life_expectancy_yrs'],
      ['population', 'population'], ['region', 'world_region'],
    ],
  },
  {
    name: 'payroll_employment',
    source: 'vega-datasets/data/us-employment.csv',
    expected: [['ref_month', 'date_time'], ['total_nonfarm_k', 'number'], ['private_sector_k', 'number'], ['govt_k', 'number']],
    optional: [
      ['manufacturing_k', 'number'], ['construction_k', 'number'], ['retail_k', 'number'],
      ['leisure_hospitality_k', 'number'], ['mom_change_k', 'number'], ['unemployment_rate_pct', 'number'],
    ],
    truth: [
      ['month', 'ref_month'], ['nonfarm', 'total_nonfarm_k'], ['private', 'private_sector_k'], ['government', 'govt_k'],
      ['manufacturing', 'manufacturing_k'], ['construction', 'construction_k'], ['retail_trade', 'retail_k'],
      ['leisure_and_hospitality', 'leisure_hospitality_k'], ['nonfarm_change', 'mom_change_k'],
      // the other 14 sector columns stay unmapped.
    ],
  },
  {
    name: 'country_reference',
    source: 'world-countries/dist/countries.csv',
    expected: [['country_nm'], ['iso_alpha2', 'category'], ['iso_alpha3', 'category'], ['capital'], ['region', 'category'], ['area_km2', 'number']],
    optional: [
      ['official_nm'], ['iso_numeric'], ['subregion', 'category'], ['is_landlocked', 'boolean'], ['un_member', 'boolean'],
      ['currency_cd'], ['dial_prefix'], ['internet_tld'], ['centroid_latlng'], ['population', 'number'], ['gdp_usd', 'number'],
    ],
    truth: [
      ['name.common', 'country_nm'], ['cca2', 'iso_alpha2'], ['cca3', 'iso_alpha3'], ['capital', 'capital'],
      ['region', 'region'], ['area', 'area_km2'], ['name.official', 'official_nm'], ['ccn3', 'iso_numeric'],
      ['subregion', 'subregion'], ['landlocked', 'is_landlocked'], ['unMember', 'un_member'],
      ['currencies', 'currency_cd'], ['callingCodes', 'dial_prefix'], ['tld', 'internet_tld'], ['latlng', 'centroid_latlng'],
      // translations.*, demonyms.*, cioc, idd.*, altSpellings, borders, flag, status, independent, languages stay unmapped.
    ],
  },
  {
    name: 'industry_unemployment',
    source: 'vega-datasets/data/unemployment-across-industries.json',
    expected: [['industry_nm', 'category'], ['period_dt', 'date_time'], ['unemployed_k', 'number'], ['unemp_rate_pct', 'number']],
    optional: [['yr', 'number'], ['mo', 'number'], ['seasonally_adjusted', 'boolean']],
    truth: [
      ['series', 'industry_nm'], ['date', 'period_dt'], ['count', 'unemployed_k'], ['rate', 'unemp_rate_pct'],
      ['year', 'yr'], ['month', 'mo'],
    ],
  },
  {
    name: 'crimean_war_mortality',
    source: 'vega-datasets/data/crimea.json',
    expected: [
      ['month_start_dt', 'date_time'], ['deaths_disease', 'number'], ['deaths_wounds', 'number'],
      ['deaths_other', 'number'], ['avg_army_strength', 'number'],
    ],
    optional: [['theatre'], ['deaths_total', 'number']],
    truth: [
      ['date', 'month_start_dt'], ['disease', 'deaths_disease'], ['wounds', 'deaths_wounds'], ['other', 'deaths_other'],
      ['army_size', 'avg_army_strength'],
    ],
  },
  {
    name: 'species_habitat',
    source: 'vega-datasets/data/species.csv',
    expected: [['scientificName'], ['commonName'], ['speciesCode'], ['countyFips'], ['yearRoundHabitatPct', 'number']],
    optional: [['sourceItemId'], ['summerHabitatPct', 'number'], ['winterHabitatPct', 'number'], ['conservationStatus', 'category']],
    truth: [
      ['scientific_name', 'scientificName'], ['common_name', 'commonName'], ['gap_species_code', 'speciesCode'],
      ['county_id', 'countyFips'], ['habitat_yearround_pct', 'yearRoundHabitatPct'], ['item_id', 'sourceItemId'],
    ],
  },
  {
    name: 'household_income_dist',
    source: 'vega-datasets/data/income.json',
    expected: [['state_nm'], ['income_bracket', 'category'], ['hh_share_pct', 'number'], ['total_hh', 'number']],
    optional: [['census_region', 'category'], ['state_fips'], ['median_income_usd', 'number']],
    truth: [
      ['name', 'state_nm'], ['group', 'income_bracket'], ['pct', 'hh_share_pct'], ['total', 'total_hh'],
      ['region', 'census_region'], ['id', 'state_fips'],
    ],
  },
  {
    name: 'co2_monthly',
    source: 'vega-datasets/data/co2-concentration.csv',
    expected: [['measurement_dt', 'date_time'], ['co2_ppm', 'number']],
    optional: [['co2_deseasonalized_ppm', 'number'], ['station_cd'], ['uncertainty_ppm', 'number']],
    truth: [['Date', 'measurement_dt'], ['CO2', 'co2_ppm'], ['adjusted CO2', 'co2_deseasonalized_ppm']],
  },
  {
    name: 'disaster_deaths',
    source: 'vega-datasets/data/disasters.csv',
    expected: [['disaster_type', 'category'], ['yr', 'number'], ['fatalities', 'number']],
    optional: [['country_cd'], ['economic_loss_usd', 'number']],
    truth: [['Entity', 'disaster_type'], ['Year', 'yr'], ['Deaths', 'fatalities']],
  },
  {
    name: 'occupation_census',
    source: 'vega-datasets/data/jobs.json',
    expected: [['occupation', 'category'], ['gender', 'category'], ['census_yr', 'number'], ['worker_cnt', 'number']],
    optional: [['workforce_share', 'number'], ['median_wage_usd', 'number']],
    truth: [
      ['job', 'occupation'], ['sex', 'gender'], ['year', 'census_yr'], ['count', 'worker_cnt'], ['perc', 'workforce_share'],
    ],
  },
];
