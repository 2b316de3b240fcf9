// Development set C of the mapping-suggestion benchmark: the same public files as the other sets,
// imported into new target schemas named the way warehouses, APIs and vendors name fields
// (prefixes and suffixes such as `_nm`, `_cd`, `_id`, `_dt`, `_usd`, `_pct`, units in the names,
// camelCase, abbreviations, synonyms, reordered words). The truths were written by hand before the
// set was first run; the set was then used for tuning (like tuning.mjs). Same shape as held-out.mjs.

/** The cases of development set C. */
export const DEV_C = [
  {
    name: 'cars (dealer feed)',
    source: 'vega-datasets/data/cars.json',
    expected: [
      ['vehicle_name', 'rich_text'], ['fuel_economy_mpg', 'number'], ['num_cylinders', 'number'],
      ['engine_displacement_cu_in', 'number'], ['horsepower_hp', 'number'], ['curb_weight_lb', 'number'],
      ['accel_sec', 'number'], ['model_yr', 'number'], ['region_of_origin', 'category'],
    ],
    optional: [['list_price_usd', 'number'], ['body_style', 'category']],
    truth: [
      ['Name', 'vehicle_name'], ['Miles_per_Gallon', 'fuel_economy_mpg'], ['Cylinders', 'num_cylinders'],
      ['Displacement', 'engine_displacement_cu_in'], ['Horsepower', 'horsepower_hp'], ['Weight_in_lbs', 'curb_weight_lb'],
      ['Acceleration', 'accel_sec'], ['Year', 'model_yr'], ['Origin', 'region_of_origin'],
    ],
  },
  {
    name: 'world-countries (camelCase API)',
    source: 'world-countries/dist/countries.csv',
    expected: [
      ['countryName', 'rich_text'], ['officialName', 'rich_text'], ['isoCode2', 'category'], ['isoCode3', 'category'],
      ['isoNumericCode', 'category'], ['currencyCode', 'category'], ['capitalCity', 'rich_text'], ['continentName', 'category'],
      ['subRegionName', 'category'], ['areaSqKm', 'number'],
    ],
    optional: [
      ['isIndependent', 'category'], ['isUnMember', 'category'], ['isLandlocked', 'category'], ['internetTld', 'rich_text'],
      ['olympicCode', 'category'], ['phonePrefix', 'rich_text'], ['officialLanguages', 'rich_text'], ['demonym', 'rich_text'],
      ['borderCountries', 'rich_text'],
    ],
    truth: [
      ['name.common', 'countryName'], ['name.official', 'officialName'], ['cca2', 'isoCode2'], ['cca3', 'isoCode3'],
      ['ccn3', 'isoNumericCode'], ['currencies', 'currencyCode'], ['capital', 'capitalCity'], ['region', 'continentName'],
      ['subregion', 'subRegionName'], ['area', 'areaSqKm'], ['independent', 'isIndependent'], ['unMember', 'isUnMember'],
      ['landlocked', 'isLandlocked'], ['tld', 'internetTld'], ['cioc', 'olympicCode'], ['callingCodes', 'phonePrefix'],
      ['languages', 'officialLanguages'], [['demonyms.eng.m', 'demonyms.eng.f'], 'demonym'], ['borders', 'borderCountries'],
    ],
  },
  {
    name: 'airports (ops warehouse)',
    source: 'vega-datasets/data/airports.csv',
    expected: [
      ['airport_iata_cd', 'category'], ['airport_nm', 'rich_text'], ['city_nm', 'rich_text'], ['state_cd', 'category'],
      ['country_nm', 'category'], ['lat_deg', 'number'], ['long_deg', 'number'],
    ],
    optional: [['elev_ft', 'number'], ['timezone', 'category']],
    truth: [
      ['iata', 'airport_iata_cd'], ['name', 'airport_nm'], ['city', 'city_nm'], ['state', 'state_cd'], ['country', 'country_nm'],
      ['latitude', 'lat_deg'], ['longitude', 'long_deg'],
    ],
  },
  {
    name: 'zipcodes (CRM geo table)',
    source: 'vega-datasets/data/zipcodes.csv',
    expected: [
      ['postal_code', 'category'], ['latitude_dd', 'number'], ['longitude_dd', 'number'], ['city_name', 'rich_text'],
      ['state_code', 'category'], ['county', 'category'],
    ],
    optional: [['country_code', 'category']],
    truth: [
      ['zip_code', 'postal_code'], ['latitude', 'latitude_dd'], ['longitude', 'longitude_dd'], ['city', 'city_name'],
      ['state', 'state_code'], ['county', 'county'],
    ],
  },
  {
    name: 'weather (station observations)',
    source: 'vega-datasets/data/weather.csv',
    expected: [
      ['station', 'category'], ['obs_date', 'date_time'], ['precip_mm', 'number'], ['max_temp_c', 'number'],
      ['min_temp_c', 'number'], ['wind_speed_ms', 'number'], ['conditions', 'category'],
    ],
    optional: [['humidity_pct', 'number']],
    truth: [
      ['location', 'station'], ['date', 'obs_date'], ['precipitation', 'precip_mm'], ['temp_max', 'max_temp_c'],
      ['temp_min', 'min_temp_c'], ['wind', 'wind_speed_ms'], ['weather', 'conditions'],
    ],
  },
  {
    name: 'flights-2k (on-time table)',
    source: 'vega-datasets/data/flights-2k.json',
    expected: [
      ['flight_date', 'date_time'], ['dep_delay_min', 'number'], ['distance_miles', 'number'], ['origin_airport', 'category'],
      ['dest_airport', 'category'],
    ],
    optional: [['carrier_code', 'category'], ['flight_no', 'rich_text']],
    truth: [
      ['date', 'flight_date'], ['delay', 'dep_delay_min'], ['distance', 'distance_miles'], ['origin', 'origin_airport'],
      ['destination', 'dest_airport'],
    ],
  },
  {
    name: 'football (match results)',
    source: 'vega-datasets/data/football.json',
    expected: [
      ['match_date', 'date_time'], ['league', 'category'], ['home_club', 'category'], ['away_club', 'category'],
      ['home_goals', 'number'], ['away_goals', 'number'],
    ],
    optional: [['attendance', 'number'], ['referee', 'rich_text']],
    truth: [
      ['date', 'match_date'], ['division', 'league'], ['home_team', 'home_club'], ['away_team', 'away_club'],
      ['home_score', 'home_goals'], ['away_score', 'away_goals'],
    ],
  },
  {
    name: 'la-riots (victims register)',
    source: 'vega-datasets/data/la-riots.csv',
    expected: [
      ['victim_first_nm', 'rich_text'], ['victim_last_nm', 'rich_text'], ['victim_age', 'number'], ['victim_sex', 'category'],
      ['ethnicity', 'category'], ['date_of_death', 'date_time'], ['street_address', 'rich_text'], ['neighbourhood', 'category'],
      ['lon', 'number'], ['lat', 'number'],
    ],
    optional: [['zip', 'category']],
    truth: [
      ['first_name', 'victim_first_nm'], ['last_name', 'victim_last_nm'], ['age', 'victim_age'], ['gender', 'victim_sex'],
      ['race', 'ethnicity'], ['death_date', 'date_of_death'], ['address', 'street_address'], ['neighborhood', 'neighbourhood'],
      ['longitude', 'lon'], ['latitude', 'lat'],
    ],
  },
  {
    name: 'penguins (field survey)',
    source: 'vega-datasets/data/penguins.json',
    expected: [
      ['species_name', 'category'], ['island_name', 'category'], ['bill_length_mm', 'number'], ['bill_depth_mm', 'number'],
      ['flipper_len_mm', 'number'], ['body_mass_g', 'number'], ['sex', 'category'],
    ],
    optional: [['study_year', 'number']],
    truth: [
      ['Species', 'species_name'], ['Island', 'island_name'], ['Beak Length (mm)', 'bill_length_mm'],
      ['Beak Depth (mm)', 'bill_depth_mm'], ['Flipper Length (mm)', 'flipper_len_mm'], ['Body Mass (g)', 'body_mass_g'],
      ['Sex', 'sex'],
    ],
  },
  {
    name: 'movies (box office mart)',
    source: 'vega-datasets/data/movies.json',
    expected: [
      ['movie_title', 'rich_text'], ['domestic_gross_usd', 'number'], ['worldwide_gross_usd', 'number'],
      ['dvd_sales_usd', 'number'], ['budget_usd', 'number'], ['release_dt', 'date_time'], ['mpaa_rating', 'category'],
      ['runtime_min', 'number'], ['distributor_name', 'category'], ['source_material', 'category'], ['genre', 'category'],
      ['creative_type', 'category'], ['director_name', 'rich_text'], ['rt_score', 'number'], ['imdb_score', 'number'],
      ['imdb_vote_count', 'number'],
    ],
    optional: [['studio', 'category']],
    truth: [
      ['Title', 'movie_title'], ['US Gross', 'domestic_gross_usd'], ['Worldwide Gross', 'worldwide_gross_usd'],
      ['US DVD Sales', 'dvd_sales_usd'], ['Production Budget', 'budget_usd'], ['Release Date', 'release_dt'],
      ['MPAA Rating', 'mpaa_rating'], ['Running Time min', 'runtime_min'], ['Distributor', 'distributor_name'],
      ['Source', 'source_material'], ['Major Genre', 'genre'], ['Creative Type', 'creative_type'], ['Director', 'director_name'],
      ['Rotten Tomatoes Rating', 'rt_score'], ['IMDB Rating', 'imdb_score'], ['IMDB Votes', 'imdb_vote_count'],
    ],
  },
  {
    name: 'stocks (market data)',
    source: 'vega-datasets/data/stocks.csv',
    expected: [['ticker', 'category'], ['trade_date', 'date_time'], ['close_price_usd', 'number']],
    optional: [['exchange', 'category'], ['currency', 'category']],
    truth: [['symbol', 'ticker'], ['date', 'trade_date'], ['price', 'close_price_usd']],
  },
  {
    name: 'sp500-2000 (price bars)',
    source: 'vega-datasets/data/sp500-2000.csv',
    expected: [
      ['trade_dt', 'date_time'], ['open_px', 'number'], ['high_px', 'number'], ['low_px', 'number'], ['close_px', 'number'],
      ['adj_close_px', 'number'], ['volume_shares', 'number'],
    ],
    optional: [['vwap', 'number']],
    truth: [
      ['date', 'trade_dt'], ['open', 'open_px'], ['high', 'high_px'], ['low', 'low_px'], ['close', 'close_px'],
      ['adjclose', 'adj_close_px'], ['volume', 'volume_shares'],
    ],
  },
  {
    name: 'gapminder (indicators)',
    source: 'vega-datasets/data/gapminder.json',
    expected: [
      ['yr', 'number'], ['country_name', 'category'], ['cluster_id', 'category'], ['total_population', 'number'],
      ['life_expectancy_yrs', 'number'], ['fertility_rate', 'number'],
    ],
    optional: [['gdp_per_capita_usd', 'number']],
    truth: [
      ['year', 'yr'], ['country', 'country_name'], ['cluster', 'cluster_id'], ['pop', 'total_population'],
      ['life_expect', 'life_expectancy_yrs'], ['fertility', 'fertility_rate'],
    ],
  },
  {
    name: 'disasters (annual deaths)',
    source: 'vega-datasets/data/disasters.csv',
    expected: [['disaster_type', 'category'], ['event_year', 'number'], ['death_count', 'number']],
    optional: [['injured_count', 'number']],
    truth: [['Entity', 'disaster_type'], ['Year', 'event_year'], ['Deaths', 'death_count']],
  },
  {
    name: 'seattle-weather (daily)',
    source: 'vega-datasets/data/seattle-weather.csv',
    expected: [
      ['obs_date', 'date_time'], ['precipitation_in', 'number'], ['high_temp', 'number'], ['low_temp', 'number'],
      ['wind_mph', 'number'], ['weather_type', 'category'],
    ],
    optional: [['snowfall_in', 'number']],
    truth: [
      ['date', 'obs_date'], ['precipitation', 'precipitation_in'], ['temp_max', 'high_temp'], ['temp_min', 'low_temp'],
      ['wind', 'wind_mph'], ['weather', 'weather_type'],
    ],
  },
  {
    name: 'us-state-capitals (reference)',
    source: 'vega-datasets/data/us-state-capitals.json',
    expected: [['longitude', 'number'], ['latitude', 'number'], ['state_name', 'category'], ['capital', 'rich_text']],
    optional: [['state_abbr', 'category']],
    truth: [['lon', 'longitude'], ['lat', 'latitude'], ['state', 'state_name'], ['city', 'capital']],
  },
  {
    name: 'population-engineers-hurricanes (state facts)',
    source: 'vega-datasets/data/population_engineers_hurricanes.csv',
    expected: [
      ['state_name', 'category'], ['state_fips_code', 'category'], ['total_population', 'number'],
      ['num_engineers', 'number'], ['hurricane_count', 'number'],
    ],
    optional: [],
    truth: [
      ['state', 'state_name'], ['id', 'state_fips_code'], ['population', 'total_population'], ['engineers', 'num_engineers'],
      ['hurricanes', 'hurricane_count'],
    ],
  },
  {
    name: 'jobs (census occupations)',
    source: 'vega-datasets/data/jobs.json',
    expected: [
      ['occupation', 'category'], ['gender', 'category'], ['census_year', 'number'], ['worker_count', 'number'],
      ['share_pct', 'number'],
    ],
    optional: [],
    truth: [['job', 'occupation'], ['sex', 'gender'], ['year', 'census_year'], ['count', 'worker_count'], ['perc', 'share_pct']],
  },
  {
    name: 'iowa-electricity (generation)',
    source: 'vega-datasets/data/iowa-electricity.csv',
    expected: [['yr', 'number'], ['fuel_source', 'category'], ['net_gen_mwh', 'number']],
    optional: [['plant_id', 'category']],
    truth: [['year', 'yr'], ['source', 'fuel_source'], ['net_generation', 'net_gen_mwh']],
  },
  {
    name: 'political-contributions (FEC extract)',
    source: 'vega-datasets/data/political-contributions.json',
    expected: [
      ['candidate_id', 'category'], ['candidate_nm', 'rich_text'], ['party_cd', 'category'], ['party_abbr', 'category'],
      ['total_receipts_usd', 'number'], ['total_disbursements_usd', 'number'], ['candidate_state_cd', 'category'],
      ['district_num', 'category'], ['coverage_end_dt', 'date_time'], ['indiv_contributions_usd', 'number'],
      ['debts_owed_usd', 'number'],
    ],
    optional: [['election_yr', 'number']],
    truth: [
      ['Candidate_Identification', 'candidate_id'], ['Candidate_Name', 'candidate_nm'], ['Party_Code', 'party_cd'],
      ['Party_Affiliation', 'party_abbr'], ['Total_Receipts', 'total_receipts_usd'],
      ['Total_Disbursements', 'total_disbursements_usd'], ['Candidate_State', 'candidate_state_cd'],
      ['Candidate_District', 'district_num'], ['Coverage_End_Date', 'coverage_end_dt'],
      ['Total_Individual_Contributions', 'indiv_contributions_usd'], ['Debts_Owed_By', 'debts_owed_usd'],
    ],
  },
  {
    name: 'birdstrikes (FAA wildlife strikes)',
    source: 'vega-datasets/data/birdstrikes.csv',
    expected: [
      ['airport_nm', 'rich_text'], ['aircraft_make_model', 'category'], ['damage_level', 'category'], ['strike_date', 'date_time'],
      ['airline', 'category'], ['state', 'category'], ['flight_phase', 'category'], ['wildlife_size', 'category'],
      ['wildlife_species', 'category'], ['time_of_day', 'category'], ['other_cost_usd', 'number'],
      ['repair_cost_usd', 'number'], ['total_cost_usd', 'number'], ['indicated_airspeed_kts', 'number'],
    ],
    optional: [['altitude_ft', 'number']],
    truth: [
      ['Airport Name', 'airport_nm'], ['Aircraft Make Model', 'aircraft_make_model'], ['Effect Amount of damage', 'damage_level'],
      ['Flight Date', 'strike_date'], ['Aircraft Airline Operator', 'airline'], ['Origin State', 'state'],
      ['Phase of flight', 'flight_phase'], ['Wildlife Size', 'wildlife_size'], ['Wildlife Species', 'wildlife_species'],
      ['Time of day', 'time_of_day'], ['Cost Other', 'other_cost_usd'], ['Cost Repair', 'repair_cost_usd'],
      ['Cost Total $', 'total_cost_usd'], ['Speed IAS in knots', 'indicated_airspeed_kts'],
    ],
  },
  {
    name: 'unemployment-across-industries (BLS series)',
    source: 'vega-datasets/data/unemployment-across-industries.json',
    expected: [
      ['industry', 'category'], ['yr', 'number'], ['mo', 'number'], ['unemployed_count', 'number'],
      ['unemployment_rate', 'number'], ['period_date', 'date_time'],
    ],
    optional: [],
    truth: [
      ['series', 'industry'], ['year', 'yr'], ['month', 'mo'], ['count', 'unemployed_count'], ['rate', 'unemployment_rate'],
      ['date', 'period_date'],
    ],
  },
  {
    name: 'windvectors (grid)',
    source: 'vega-datasets/data/windvectors.csv',
    expected: [
      ['lon', 'number'], ['lat', 'number'], ['wind_dir_deg', 'number'], ['dir_category', 'category'], ['wind_speed', 'number'],
    ],
    optional: [],
    truth: [['longitude', 'lon'], ['latitude', 'lat'], ['dir', 'wind_dir_deg'], ['dirCat', 'dir_category'], ['speed', 'wind_speed']],
  },
  {
    name: 'species (habitat)',
    source: 'vega-datasets/data/species.csv',
    expected: [
      ['item_identifier', 'rich_text'], ['common_nm', 'rich_text'], ['scientific_nm', 'rich_text'], ['species_code', 'category'],
      ['county_code', 'category'], ['year_round_habitat_pct', 'number'],
    ],
    optional: [],
    truth: [
      ['item_id', 'item_identifier'], ['common_name', 'common_nm'], ['scientific_name', 'scientific_nm'],
      ['gap_species_code', 'species_code'], ['county_id', 'county_code'], ['habitat_yearround_pct', 'year_round_habitat_pct'],
    ],
  },
  {
    name: 'obesity (state rates)',
    source: 'vega-datasets/data/obesity.json',
    expected: [['state_fips', 'category'], ['obesity_rate_pct', 'number'], ['state_name', 'category']],
    optional: [],
    truth: [['id', 'state_fips'], ['rate', 'obesity_rate_pct'], ['state', 'state_name']],
  },
  {
    name: 'crimea (mortality)',
    source: 'vega-datasets/data/crimea.json',
    expected: [
      ['month_start', 'date_time'], ['wound_deaths', 'number'], ['other_deaths', 'number'], ['disease_deaths', 'number'],
      ['army_strength', 'number'],
    ],
    optional: [],
    truth: [
      ['date', 'month_start'], ['wounds', 'wound_deaths'], ['other', 'other_deaths'], ['disease', 'disease_deaths'],
      ['army_size', 'army_strength'],
    ],
  },
  {
    name: 'lookup-people (roster)',
    source: 'vega-datasets/data/lookup_people.csv',
    expected: [['person_name', 'rich_text'], ['age_years', 'number'], ['height_cm', 'number']],
    optional: [['weight_kg', 'number']],
    truth: [['name', 'person_name'], ['age', 'age_years'], ['height', 'height_cm']],
  },
  {
    name: 'burtin (antibiotics)',
    source: 'vega-datasets/data/burtin.json',
    expected: [
      ['bacterium', 'rich_text'], ['penicillin_mic', 'number'], ['streptomycin_mic', 'number'], ['neomycin_mic', 'number'],
      ['gram_stain', 'category'], ['genus', 'category'],
    ],
    optional: [],
    truth: [
      ['Bacteria', 'bacterium'], ['Penicillin', 'penicillin_mic'], ['Streptomycin', 'streptomycin_mic'],
      ['Neomycin', 'neomycin_mic'], ['Gram_Staining', 'gram_stain'], ['Genus', 'genus'],
    ],
  },
  {
    name: 'co2-concentration (Mauna Loa)',
    source: 'vega-datasets/data/co2-concentration.csv',
    expected: [['measurement_date', 'date_time'], ['co2_ppm', 'number'], ['co2_adjusted_ppm', 'number']],
    optional: [],
    truth: [['Date', 'measurement_date'], ['CO2', 'co2_ppm'], ['adjusted CO2', 'co2_adjusted_ppm']],
  },
  {
    name: 'github (commit activity)',
    source: 'vega-datasets/data/github.csv',
    expected: [['event_timestamp', 'date_time'], ['commit_count', 'number']],
    optional: [['repo_name', 'rich_text']],
    truth: [['time', 'event_timestamp'], ['count', 'commit_count']],
  },
  {
    name: 'barley (field trials)',
    source: 'vega-datasets/data/barley.json',
    expected: [['yield_bu_per_acre', 'number'], ['variety_name', 'category'], ['harvest_year', 'number'], ['site_name', 'category']],
    optional: [],
    truth: [['yield', 'yield_bu_per_acre'], ['variety', 'variety_name'], ['year', 'harvest_year'], ['site', 'site_name']],
  },
  {
    name: 'countries (fertility and life)',
    source: 'vega-datasets/data/countries.json',
    expected: [['yr', 'number'], ['fertility_rate', 'number'], ['life_expectancy', 'number'], ['country_nm', 'category']],
    optional: [['prev_fertility_rate', 'number'], ['next_life_expectancy', 'number']],
    truth: [
      ['year', 'yr'], ['fertility', 'fertility_rate'], ['life_expect', 'life_expectancy'], ['country', 'country_nm'],
      ['p_fertility', 'prev_fertility_rate'], ['n_life_expect', 'next_life_expectancy'],
    ],
  },
  // Abbreviation-heavy schemas (mainframe, NOAA, Bloomberg, BLS and GIS conventions), added second.
  {
    name: 'movies (abbreviated)',
    source: 'vega-datasets/data/movies.json',
    expected: [
      ['ttl', 'rich_text'], ['us_gross_amt', 'number'], ['ww_gross_amt', 'number'], ['dvd_rev_us', 'number'],
      ['prod_budget', 'number'], ['rel_dt', 'date_time'], ['rating_mpaa', 'category'], ['run_time_mins', 'number'],
      ['dist_co', 'category'], ['src', 'category'], ['genre_major', 'category'], ['creative_typ', 'category'],
      ['dir_name', 'rich_text'], ['rotten_tom_rating', 'number'], ['imdb_rtg', 'number'], ['imdb_num_votes', 'number'],
    ],
    optional: [],
    truth: [
      ['Title', 'ttl'], ['US Gross', 'us_gross_amt'], ['Worldwide Gross', 'ww_gross_amt'], ['US DVD Sales', 'dvd_rev_us'],
      ['Production Budget', 'prod_budget'], ['Release Date', 'rel_dt'], ['MPAA Rating', 'rating_mpaa'],
      ['Running Time min', 'run_time_mins'], ['Distributor', 'dist_co'], ['Source', 'src'], ['Major Genre', 'genre_major'],
      ['Creative Type', 'creative_typ'], ['Director', 'dir_name'], ['Rotten Tomatoes Rating', 'rotten_tom_rating'],
      ['IMDB Rating', 'imdb_rtg'], ['IMDB Votes', 'imdb_num_votes'],
    ],
  },
  {
    name: 'cars (mainframe extract)',
    source: 'vega-datasets/data/cars.json',
    expected: [
      ['VEH_DESC', 'rich_text'], ['MPG', 'number'], ['CYL_CNT', 'number'], ['DISPL_CI', 'number'], ['HP', 'number'],
      ['WT_LBS', 'number'], ['ACCEL_0_60', 'number'], ['MDL_YR', 'number'], ['ORIG_RGN', 'category'],
    ],
    optional: [['MSRP_AMT', 'number']],
    truth: [
      ['Name', 'VEH_DESC'], ['Miles_per_Gallon', 'MPG'], ['Cylinders', 'CYL_CNT'], ['Displacement', 'DISPL_CI'],
      ['Horsepower', 'HP'], ['Weight_in_lbs', 'WT_LBS'], ['Acceleration', 'ACCEL_0_60'], ['Year', 'MDL_YR'],
      ['Origin', 'ORIG_RGN'],
    ],
  },
  {
    name: 'world-countries (GIS layer)',
    source: 'world-countries/dist/countries.csv',
    expected: [
      ['country', 'rich_text'], ['country_official', 'rich_text'], ['iso_a2', 'category'], ['iso_a3', 'category'],
      ['iso_n3', 'category'], ['ccy_code', 'category'], ['capital', 'rich_text'], ['continent', 'category'],
      ['subcontinent', 'category'], ['area_sqkm', 'number'],
    ],
    optional: [
      ['landlocked_flag', 'category'], ['un_member_flag', 'category'], ['dial_code', 'rich_text'], ['cctld', 'rich_text'],
      ['languages_spoken', 'rich_text'], ['border_iso3_list', 'rich_text'], ['demonym_en', 'rich_text'], ['lat_lon', 'rich_text'],
    ],
    truth: [
      ['name.common', 'country'], ['name.official', 'country_official'], ['cca2', 'iso_a2'], ['cca3', 'iso_a3'],
      ['ccn3', 'iso_n3'], ['currencies', 'ccy_code'], ['capital', 'capital'], ['region', 'continent'],
      ['subregion', 'subcontinent'], ['area', 'area_sqkm'], ['landlocked', 'landlocked_flag'], ['unMember', 'un_member_flag'],
      ['callingCodes', 'dial_code'], ['tld', 'cctld'], ['languages', 'languages_spoken'], ['borders', 'border_iso3_list'],
      [['demonyms.eng.m', 'demonyms.eng.f'], 'demonym_en'], ['latlng', 'lat_lon'],
    ],
  },
  {
    name: 'zipcodes (USPS caps)',
    source: 'vega-datasets/data/zipcodes.csv',
    expected: [['ZIP5', 'category'], ['LATITUDE', 'number'], ['LONGITUDE', 'number'], ['CITY_NAME', 'rich_text'], ['ST', 'category'], ['COUNTY_NAME', 'category']],
    optional: [],
    truth: [
      ['zip_code', 'ZIP5'], ['latitude', 'LATITUDE'], ['longitude', 'LONGITUDE'], ['city', 'CITY_NAME'], ['state', 'ST'],
      ['county', 'COUNTY_NAME'],
    ],
  },
  {
    name: 'la-riots (case file)',
    source: 'vega-datasets/data/la-riots.csv',
    expected: [
      ['fname', 'rich_text'], ['lname', 'rich_text'], ['age_at_death', 'number'], ['sex', 'category'],
      ['race_ethnicity', 'category'], ['dod', 'date_time'], ['addr_line', 'rich_text'], ['nbhd', 'category'],
      ['incident_type', 'category'], ['lng', 'number'], ['lat', 'number'],
    ],
    optional: [],
    truth: [
      ['first_name', 'fname'], ['last_name', 'lname'], ['age', 'age_at_death'], ['gender', 'sex'], ['race', 'race_ethnicity'],
      ['death_date', 'dod'], ['address', 'addr_line'], ['neighborhood', 'nbhd'], ['type', 'incident_type'],
      ['longitude', 'lng'], ['latitude', 'lat'],
    ],
  },
  {
    name: 'flights-5k (BTS abbreviations)',
    source: 'vega-datasets/data/flights-5k.json',
    expected: [['fl_date', 'date_time'], ['arr_delay_mins', 'number'], ['dist_mi', 'number'], ['orig', 'category'], ['dest', 'category']],
    optional: [['carrier', 'category']],
    truth: [['date', 'fl_date'], ['delay', 'arr_delay_mins'], ['distance', 'dist_mi'], ['origin', 'orig'], ['destination', 'dest']],
  },
  {
    name: 'penguins (Palmer LTER names)',
    source: 'vega-datasets/data/penguins.json',
    expected: [
      ['spp', 'category'], ['isl', 'category'], ['culmen_length_mm', 'number'], ['culmen_depth_mm', 'number'],
      ['flipper_length_mm', 'number'], ['body_mass_g', 'number'], ['sex', 'category'],
    ],
    optional: [['sample_number', 'number']],
    truth: [
      ['Species', 'spp'], ['Island', 'isl'], ['Beak Length (mm)', 'culmen_length_mm'], ['Beak Depth (mm)', 'culmen_depth_mm'],
      ['Flipper Length (mm)', 'flipper_length_mm'], ['Body Mass (g)', 'body_mass_g'], ['Sex', 'sex'],
    ],
  },
  {
    name: 'airports (terse codes)',
    source: 'vega-datasets/data/airports.csv',
    expected: [
      ['arpt_cd', 'category'], ['arpt_nm', 'rich_text'], ['cty', 'rich_text'], ['st_cd', 'category'], ['ctry', 'category'],
      ['lat_dd', 'number'], ['lon_dd', 'number'],
    ],
    optional: [],
    truth: [
      ['iata', 'arpt_cd'], ['name', 'arpt_nm'], ['city', 'cty'], ['state', 'st_cd'], ['country', 'ctry'], ['latitude', 'lat_dd'],
      ['longitude', 'lon_dd'],
    ],
  },
  {
    name: 'weather (NOAA GHCN names)',
    source: 'vega-datasets/data/weather.csv',
    expected: [
      ['loc', 'category'], ['obs_dt', 'date_time'], ['prcp_mm', 'number'], ['tmax_c', 'number'], ['tmin_c', 'number'],
      ['awnd', 'number'], ['wx_desc', 'category'],
    ],
    optional: [['snow_mm', 'number']],
    truth: [
      ['location', 'loc'], ['date', 'obs_dt'], ['precipitation', 'prcp_mm'], ['temp_max', 'tmax_c'], ['temp_min', 'tmin_c'],
      ['wind', 'awnd'], ['weather', 'wx_desc'],
    ],
  },
  {
    name: 'gapminder-health-income (abbreviated)',
    source: 'vega-datasets/data/gapminder-health-income.csv',
    expected: [['country', 'category'], ['gdp_per_cap', 'number'], ['life_exp', 'number'], ['pop_total', 'number'], ['world_region', 'category']],
    optional: [],
    truth: [
      ['country', 'country'], ['income', 'gdp_per_cap'], ['health', 'life_exp'], ['population', 'pop_total'],
      ['region', 'world_region'],
    ],
  },
  {
    name: 'sp500 (Bloomberg fields)',
    source: 'vega-datasets/data/sp500.csv',
    expected: [['dt', 'date_time'], ['px_last', 'number']],
    optional: [['px_volume', 'number']],
    truth: [['date', 'dt'], ['price', 'px_last']],
  },
  {
    name: 'population (census tabulation)',
    source: 'vega-datasets/data/population.json',
    expected: [['yr', 'number'], ['age_grp', 'number'], ['gender', 'category'], ['pop_count', 'number']],
    optional: [],
    truth: [['year', 'yr'], ['age', 'age_grp'], ['sex', 'gender'], ['people', 'pop_count']],
  },
  {
    name: 'us-employment (BLS abbreviations)',
    source: 'vega-datasets/data/us-employment.csv',
    expected: [
      ['period', 'date_time'], ['total_nonfarm', 'number'], ['total_private', 'number'], ['mfg', 'number'], ['govt', 'number'],
      ['utils', 'number'], ['leisure_hospitality', 'number'], ['fin_activities', 'number'], ['educ_health_svcs', 'number'],
      ['prof_bus_svcs', 'number'], ['nonfarm_chg', 'number'],
    ],
    optional: [],
    truth: [
      ['month', 'period'], ['nonfarm', 'total_nonfarm'], ['private', 'total_private'], ['manufacturing', 'mfg'],
      ['government', 'govt'], ['utilities', 'utils'], ['leisure_and_hospitality', 'leisure_hospitality'],
      ['financial_activities', 'fin_activities'], ['education_and_health_services', 'educ_health_svcs'],
      ['professional_and_business_services', 'prof_bus_svcs'], ['nonfarm_change', 'nonfarm_chg'],
    ],
  },
  // CRM and spreadsheet conventions (Salesforce custom fields, Title Case with units, SCREAMING_SNAKE), added third.
  {
    name: 'airports (Salesforce custom object)',
    source: 'vega-datasets/data/airports.csv',
    expected: [
      ['Airport_Code__c', 'category'], ['Airport_Name__c', 'rich_text'], ['City__c', 'rich_text'], ['State__c', 'category'],
      ['Country__c', 'category'], ['Geo_Latitude__c', 'number'], ['Geo_Longitude__c', 'number'],
    ],
    optional: [['OwnerId', 'category'], ['Description', 'rich_text']],
    truth: [
      ['iata', 'Airport_Code__c'], ['name', 'Airport_Name__c'], ['city', 'City__c'], ['state', 'State__c'],
      ['country', 'Country__c'], ['latitude', 'Geo_Latitude__c'], ['longitude', 'Geo_Longitude__c'],
    ],
  },
  {
    name: 'movies (Title Case sheet)',
    source: 'vega-datasets/data/movies.json',
    expected: [
      ['Film', 'rich_text'], ['Domestic Box Office ($)', 'number'], ['Global Box Office ($)', 'number'],
      ['Home Video Sales ($)', 'number'], ['Budget ($)', 'number'], ['Released On', 'date_time'], ['Age Rating', 'category'],
      ['Runtime (Minutes)', 'number'], ['Distributed By', 'category'], ['Genre', 'category'], ['Directed By', 'rich_text'],
      ['Tomatometer', 'number'], ['IMDb Score', 'number'], ['IMDb Vote Count', 'number'],
    ],
    optional: [['Sequel?', 'category']],
    truth: [
      ['Title', 'Film'], ['US Gross', 'Domestic Box Office ($)'], ['Worldwide Gross', 'Global Box Office ($)'],
      ['US DVD Sales', 'Home Video Sales ($)'], ['Production Budget', 'Budget ($)'], ['Release Date', 'Released On'],
      ['MPAA Rating', 'Age Rating'], ['Running Time min', 'Runtime (Minutes)'], ['Distributor', 'Distributed By'],
      ['Major Genre', 'Genre'], ['Director', 'Directed By'], ['Rotten Tomatoes Rating', 'Tomatometer'],
      ['IMDB Rating', 'IMDb Score'], ['IMDB Votes', 'IMDb Vote Count'],
    ],
  },
  {
    name: 'penguins (Title Case with units)',
    source: 'vega-datasets/data/penguins.json',
    expected: [
      ['Penguin Species', 'category'], ['Island Name', 'category'], ['Bill Length (mm)', 'number'], ['Bill Depth (mm)', 'number'],
      ['Flipper (mm)', 'number'], ['Weight (g)', 'number'], ['Gender', 'category'],
    ],
    optional: [['Clutch Completion', 'category']],
    truth: [
      ['Species', 'Penguin Species'], ['Island', 'Island Name'], ['Beak Length (mm)', 'Bill Length (mm)'],
      ['Beak Depth (mm)', 'Bill Depth (mm)'], ['Flipper Length (mm)', 'Flipper (mm)'], ['Body Mass (g)', 'Weight (g)'],
      ['Sex', 'Gender'],
    ],
  },
  {
    name: 'world-countries (SCREAMING_SNAKE)',
    source: 'world-countries/dist/countries.csv',
    expected: [
      ['COUNTRY_NAME', 'rich_text'], ['OFFICIAL_NAME', 'rich_text'], ['ISO_ALPHA2', 'category'], ['ISO_ALPHA3', 'category'],
      ['ISO_NUM', 'category'], ['CURRENCY_CD', 'category'], ['CAPITAL_NAME', 'rich_text'], ['REGION_NAME', 'category'],
      ['SUBREGION_NAME', 'category'], ['AREA_SQ_KM', 'number'],
    ],
    optional: [['LANDLOCKED_IND', 'category'], ['UN_MEMBER_IND', 'category'], ['INDEPENDENT_IND', 'category'], ['INTL_DIAL_CODE', 'rich_text']],
    truth: [
      ['name.common', 'COUNTRY_NAME'], ['name.official', 'OFFICIAL_NAME'], ['cca2', 'ISO_ALPHA2'], ['cca3', 'ISO_ALPHA3'],
      ['ccn3', 'ISO_NUM'], ['currencies', 'CURRENCY_CD'], ['capital', 'CAPITAL_NAME'], ['region', 'REGION_NAME'],
      ['subregion', 'SUBREGION_NAME'], ['area', 'AREA_SQ_KM'], ['landlocked', 'LANDLOCKED_IND'], ['unMember', 'UN_MEMBER_IND'],
      ['independent', 'INDEPENDENT_IND'], ['callingCodes', 'INTL_DIAL_CODE'],
    ],
  },
  {
    name: 'flights-20k (ops dashboard)',
    source: 'vega-datasets/data/flights-20k.json',
    expected: [
      ['departureDate', 'date_time'], ['delayMinutes', 'number'], ['distanceMiles', 'number'], ['fromAirport', 'category'],
      ['toAirport', 'category'],
    ],
    optional: [['tailNumber', 'rich_text']],
    truth: [
      ['date', 'departureDate'], ['delay', 'delayMinutes'], ['distance', 'distanceMiles'], ['origin', 'fromAirport'],
      ['destination', 'toAirport'],
    ],
  },
];
