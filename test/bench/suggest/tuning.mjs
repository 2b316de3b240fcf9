// Tuning cases of the mapping-suggestion benchmark (the lexicon, detectors and calibration were
// adjusted while looking at these). Same shape as held-out.mjs.

/** The tuning cases. */
export const TUNING = [
  {
    name: 'cars',
    source: 'vega-datasets/data/cars.json',
    expected: [
      ['model', 'rich_text'], ['mpg', 'number'], ['cyl', 'number'], ['disp', 'number'], ['hp', 'number'],
      ['weight_lbs', 'number'], ['accel', 'number'], ['model_year', 'date_time'], ['origin_region', 'category'],
    ],
    optional: [['msrp', 'number']],
    truth: [
      ['Name', 'model'], ['Miles_per_Gallon', 'mpg'], ['Cylinders', 'cyl'], ['Displacement', 'disp'], ['Horsepower', 'hp'],
      ['Weight_in_lbs', 'weight_lbs'], ['Acceleration', 'accel'], ['Year', 'model_year'], ['Origin', 'origin_region'],
    ],
  },
  {
    name: 'world-countries',
    source: 'world-countries/dist/countries.csv',
    expected: [
      ['country', 'rich_text'], ['official_name', 'rich_text'], ['iso_alpha_2', 'category'], ['iso_alpha_3', 'category'],
      ['iso_numeric', 'category'], ['currency_code', 'category'], ['capital_city', 'rich_text'], ['continent', 'category'],
      ['sub_region', 'category'], ['nationality', 'rich_text'], ['area_km2', 'number'],
    ],
    optional: [
      ['is_landlocked', 'category'], ['un_member', 'category'], ['calling_code', 'rich_text'], ['top_level_domain', 'rich_text'],
      ['ioc_code', 'category'], ['population', 'number'],
    ],
    truth: [
      ['name.common', 'country'], ['name.official', 'official_name'], ['cca2', 'iso_alpha_2'], ['cca3', 'iso_alpha_3'],
      ['ccn3', 'iso_numeric'], ['currencies', 'currency_code'], ['capital', 'capital_city'], ['region', 'continent'],
      ['subregion', 'sub_region'], [['demonyms.eng.m', 'demonyms.eng.f'], 'nationality'], ['area', 'area_km2'],
      ['landlocked', 'is_landlocked'], ['unMember', 'un_member'], ['callingCodes', 'calling_code'], ['tld', 'top_level_domain'],
      ['cioc', 'ioc_code'],
    ],
  },
  {
    name: 'airports',
    source: 'vega-datasets/data/airports.csv',
    expected: [
      ['iata_code', 'category'], ['airport_name', 'rich_text'], ['city', 'rich_text'], ['state_code', 'category'],
      ['country', 'category'], ['lat', 'number'], ['lon', 'number'],
    ],
    optional: [['elevation_ft', 'number']],
    truth: [
      ['iata', 'iata_code'], ['name', 'airport_name'], ['city', 'city'], ['state', 'state_code'], ['country', 'country'],
      ['latitude', 'lat'], ['longitude', 'lon'],
    ],
  },
  {
    name: 'birdstrikes',
    source: 'vega-datasets/data/birdstrikes.csv',
    expected: [
      ['airport', 'rich_text'], ['aircraft_model', 'category'], ['damage', 'category'], ['incident_date', 'date_time'],
      ['operator', 'category'], ['state', 'category'], ['flight_phase', 'category'], ['species_size', 'category'],
      ['species', 'category'], ['time_of_day', 'category'], ['other_cost', 'number'], ['repair_cost', 'number'],
      ['total_cost_usd', 'number'], ['speed_kts', 'number'],
    ],
    optional: [],
    truth: [
      ['Airport Name', 'airport'], ['Aircraft Make Model', 'aircraft_model'], ['Effect Amount of damage', 'damage'],
      ['Flight Date', 'incident_date'], ['Aircraft Airline Operator', 'operator'], ['Origin State', 'state'],
      ['Phase of flight', 'flight_phase'], ['Wildlife Size', 'species_size'], ['Wildlife Species', 'species'],
      ['Time of day', 'time_of_day'], ['Cost Other', 'other_cost'], ['Cost Repair', 'repair_cost'],
      ['Cost Total $', 'total_cost_usd'], ['Speed IAS in knots', 'speed_kts'],
    ],
  },
  {
    name: 'zipcodes',
    source: 'vega-datasets/data/zipcodes.csv',
    expected: [
      ['zip', 'category'], ['lat', 'number'], ['lng', 'number'], ['city', 'rich_text'], ['state_abbr', 'category'],
      ['county_name', 'category'],
    ],
    optional: [],
    truth: [
      ['zip_code', 'zip'], ['latitude', 'lat'], ['longitude', 'lng'], ['city', 'city'], ['state', 'state_abbr'],
      ['county', 'county_name'],
    ],
  },
  {
    name: 'gapminder-health-income',
    source: 'vega-datasets/data/gapminder-health-income.csv',
    expected: [
      ['country_name', 'rich_text'], ['gdp_per_capita', 'number'], ['life_expectancy', 'number'], ['pop', 'number'],
      ['world_region', 'category'],
    ],
    optional: [],
    truth: [
      ['country', 'country_name'], ['income', 'gdp_per_capita'], ['health', 'life_expectancy'], ['population', 'pop'],
      ['region', 'world_region'],
    ],
  },
  {
    name: 'weather',
    source: 'vega-datasets/data/weather.csv',
    expected: [
      ['city', 'category'], ['obs_date', 'date_time'], ['precip_mm', 'number'], ['max_temp_c', 'number'],
      ['min_temp_c', 'number'], ['wind_speed', 'number'], ['conditions', 'category'],
    ],
    optional: [['humidity', 'number']],
    truth: [
      ['location', 'city'], ['date', 'obs_date'], ['precipitation', 'precip_mm'], ['temp_max', 'max_temp_c'],
      ['temp_min', 'min_temp_c'], ['wind', 'wind_speed'], ['weather', 'conditions'],
    ],
  },
  {
    name: 'penguins',
    source: 'vega-datasets/data/penguins.json',
    expected: [
      ['species', 'category'], ['island', 'category'], ['bill_length_mm', 'number'], ['bill_depth_mm', 'number'],
      ['flipper_length_mm', 'number'], ['body_mass_g', 'number'], ['sex', 'category'],
    ],
    optional: [['year', 'number']],
    truth: [
      ['Species', 'species'], ['Island', 'island'], ['Beak Length (mm)', 'bill_length_mm'], ['Beak Depth (mm)', 'bill_depth_mm'],
      ['Flipper Length (mm)', 'flipper_length_mm'], ['Body Mass (g)', 'body_mass_g'], ['Sex', 'sex'],
    ],
  },
  {
    name: 'movies',
    source: 'vega-datasets/data/movies.json',
    expected: [
      ['title', 'rich_text'], ['us_gross', 'number'], ['worldwide_gross', 'number'], ['dvd_sales', 'number'],
      ['budget', 'number'], ['release_dt', 'date_time'], ['mpaa', 'category'], ['runtime_min', 'number'],
      ['distributor', 'category'], ['genre', 'category'], ['director', 'rich_text'], ['rt_score', 'number'],
      ['imdb_rating', 'number'], ['imdb_votes', 'number'],
    ],
    optional: [['source_material', 'category'], ['creative_type', 'category']],
    truth: [
      ['Title', 'title'], ['US Gross', 'us_gross'], ['Worldwide Gross', 'worldwide_gross'], ['US DVD Sales', 'dvd_sales'],
      ['Production Budget', 'budget'], ['Release Date', 'release_dt'], ['MPAA Rating', 'mpaa'], ['Running Time min', 'runtime_min'],
      ['Distributor', 'distributor'], ['Major Genre', 'genre'], ['Director', 'director'], ['Rotten Tomatoes Rating', 'rt_score'],
      ['IMDB Rating', 'imdb_rating'], ['IMDB Votes', 'imdb_votes'], ['Source', 'source_material'], ['Creative Type', 'creative_type'],
    ],
  },
  {
    name: 'jobs',
    source: 'vega-datasets/data/jobs.json',
    expected: [['occupation', 'category'], ['gender', 'category'], ['yr', 'number'], ['workers', 'number'], ['share_pct', 'number']],
    optional: [],
    truth: [['job', 'occupation'], ['sex', 'gender'], ['year', 'yr'], ['count', 'workers'], ['perc', 'share_pct']],
  },
  {
    name: 'population-engineers-hurricanes',
    source: 'vega-datasets/data/population_engineers_hurricanes.csv',
    expected: [
      ['state_name', 'rich_text'], ['state_fips', 'category'], ['pop', 'number'], ['engineers_per_capita', 'number'],
      ['hurricane_count', 'number'],
    ],
    optional: [],
    truth: [
      ['state', 'state_name'], ['id', 'state_fips'], ['population', 'pop'], ['engineers', 'engineers_per_capita'],
      ['hurricanes', 'hurricane_count'],
    ],
  },
  {
    name: 'gapminder',
    source: 'vega-datasets/data/gapminder.json',
    expected: [
      ['yr', 'number'], ['country_name', 'rich_text'], ['region_cluster', 'category'], ['population', 'number'],
      ['life_expectancy', 'number'], ['fertility_rate', 'number'],
    ],
    optional: [['gdp_per_capita', 'number']],
    truth: [
      ['year', 'yr'], ['country', 'country_name'], ['cluster', 'region_cluster'], ['pop', 'population'],
      ['life_expect', 'life_expectancy'], ['fertility', 'fertility_rate'],
    ],
  },
  {
    name: 'ohlc',
    source: 'vega-datasets/data/ohlc.json',
    expected: [
      ['trade_date', 'date_time'], ['open_price', 'number'], ['high_price', 'number'], ['low_price', 'number'],
      ['close_price', 'number'], ['signal_type', 'category'], ['return_pct', 'number'],
    ],
    optional: [['volume', 'number']],
    truth: [
      ['date', 'trade_date'], ['open', 'open_price'], ['high', 'high_price'], ['low', 'low_price'], ['close', 'close_price'],
      ['signal', 'signal_type'], ['ret', 'return_pct'],
    ],
  },
  {
    name: 'income',
    source: 'vega-datasets/data/income.json',
    expected: [
      ['state', 'rich_text'], ['census_region', 'category'], ['state_id', 'category'], ['share_pct', 'number'],
      ['households', 'number'], ['income_bracket', 'category'],
    ],
    optional: [['median_income', 'number']],
    truth: [
      ['name', 'state'], ['region', 'census_region'], ['id', 'state_id'], ['pct', 'share_pct'], ['total', 'households'],
      ['group', 'income_bracket'],
    ],
  },
  {
    name: 'crimea',
    source: 'vega-datasets/data/crimea.json',
    expected: [
      ['month_start', 'date_time'], ['deaths_wounds', 'number'], ['deaths_other', 'number'], ['deaths_disease', 'number'],
      ['troop_strength', 'number'],
    ],
    optional: [],
    truth: [
      ['date', 'month_start'], ['wounds', 'deaths_wounds'], ['other', 'deaths_other'], ['disease', 'deaths_disease'],
      ['army_size', 'troop_strength'],
    ],
  },
  {
    name: 'stocks',
    source: 'vega-datasets/data/stocks.csv',
    expected: [['ticker', 'category'], ['price_date', 'date_time'], ['close_price', 'number']],
    optional: [['exchange', 'category'], ['currency', 'category']],
    truth: [['symbol', 'ticker'], ['date', 'price_date'], ['price', 'close_price']],
  },
  {
    name: 'iowa-electricity',
    source: 'vega-datasets/data/iowa-electricity.csv',
    expected: [['yr', 'date_time'], ['fuel_source', 'category'], ['net_gen_mwh', 'number']],
    optional: [['plant_count', 'number']],
    truth: [['year', 'yr'], ['source', 'fuel_source'], ['net_generation', 'net_gen_mwh']],
  },
  {
    name: 'seattle-weather-hourly-normals',
    source: 'vega-datasets/data/seattle-weather-hourly-normals.csv',
    expected: [['observed_at', 'date_time'], ['pressure_hpa', 'number'], ['temp_c', 'number'], ['wind_speed_ms', 'number']],
    optional: [['humidity_pct', 'number'], ['station_id', 'category']],
    truth: [['date', 'observed_at'], ['pressure', 'pressure_hpa'], ['temperature', 'temp_c'], ['wind', 'wind_speed_ms']],
  },
  {
    name: 'disasters',
    source: 'vega-datasets/data/disasters.csv',
    expected: [['disaster_type', 'category'], ['year', 'number'], ['fatalities', 'number']],
    optional: [['economic_damage_usd', 'number']],
    truth: [['Entity', 'disaster_type'], ['Year', 'year'], ['Deaths', 'fatalities']],
  },
  {
    name: 'obesity',
    source: 'vega-datasets/data/obesity.json',
    expected: [['fips_code', 'category'], ['obesity_rate', 'number'], ['state_abbr', 'category']],
    optional: [['country_code', 'category']],
    truth: [['id', 'fips_code'], ['rate', 'obesity_rate'], ['state', 'state_abbr']],
  },
  {
    name: 'us-employment',
    source: 'vega-datasets/data/us-employment.csv',
    expected: [
      ['period', 'date_time'], ['total_nonfarm', 'number'], ['private_sector', 'number'], ['construction_jobs', 'number'],
      ['manufacturing_jobs', 'number'], ['govt', 'number'],
    ],
    optional: [['unemployment_rate', 'number']],
    truth: [
      ['month', 'period'], ['nonfarm', 'total_nonfarm'], ['private', 'private_sector'], ['construction', 'construction_jobs'],
      ['manufacturing', 'manufacturing_jobs'], ['government', 'govt'],
    ],
  },
  {
    name: 'monarchs',
    source: 'vega-datasets/data/monarchs.json',
    expected: [['monarch', 'rich_text'], ['reign_start', 'number'], ['reign_end', 'number']],
    optional: [['house', 'category'], ['ordinal', 'number']],
    truth: [['name', 'monarch'], ['start', 'reign_start'], ['end', 'reign_end'], ['index', 'ordinal']],
  },
];
