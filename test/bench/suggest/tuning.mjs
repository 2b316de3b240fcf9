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
];
