// Held-out cases of the mapping-suggestion benchmark: public datasets imported into target schemas
// written by hand, the way real pipelines name their fields. Written after the first round (whose
// held-out set is now held-out-b.mjs) and before the second round of changes; never tuned on: the
// figures on this set estimate real use.
// A case: `source` (a file of an npm package), `expected`/`optional` fields as [name, dataType?],
// and `truth` as [column, field] pairs (a column may be a list of equally right columns). Columns
// absent from `truth` should stay unmapped; fields absent from it have no column in the data.

/** The held-out cases. */
export const HELD_OUT = [
  {
    name: 'github',
    source: 'vega-datasets/data/github.csv',
    expected: [['commit_hour', 'date_time'], ['commits', 'number']],
    optional: [['repo', 'category'], ['author_email', 'rich_text']],
    truth: [['time', 'commit_hour'], ['count', 'commits']],
  },
  {
    name: 'lookup-people',
    source: 'vega-datasets/data/lookup_people.csv',
    expected: [['person_name', 'rich_text'], ['age_yrs', 'number'], ['height_cm', 'number']],
    optional: [['weight_kg', 'number'], ['dob', 'date_time']],
    truth: [['name', 'person_name'], ['age', 'age_yrs'], ['height', 'height_cm']],
  },
  {
    name: 'wheat',
    source: 'vega-datasets/data/wheat.json',
    expected: [['yr', 'number'], ['wheat_price_shillings', 'number'], ['weekly_wage', 'number']],
    optional: [['monarch', 'rich_text']],
    truth: [['year', 'yr'], ['wheat', 'wheat_price_shillings'], ['wages', 'weekly_wage']],
  },
  {
    name: 'london-centroids',
    source: 'vega-datasets/data/londonCentroids.json',
    expected: [['borough', 'rich_text'], ['centroid_lon', 'number'], ['centroid_lat', 'number']],
    optional: [['area_km2', 'number']],
    truth: [['name', 'borough'], ['cx', 'centroid_lon'], ['cy', 'centroid_lat']],
  },
  {
    name: 'unemployment-by-county',
    source: 'vega-datasets/data/unemployment.tsv',
    expected: [['county_fips', 'category'], ['unemployment_rate', 'number']],
    optional: [['labor_force', 'number']],
    truth: [['id', 'county_fips'], ['rate', 'unemployment_rate']],
  },
  {
    name: 'sp500-monthly',
    source: 'vega-datasets/data/sp500.csv',
    expected: [['month_end', 'date_time'], ['close_px', 'number']],
    optional: [['ticker', 'category'], ['vol', 'number']],
    truth: [['date', 'month_end'], ['price', 'close_px']],
  },
  {
    name: 'platformer-terrain',
    source: 'vega-datasets/data/platformer-terrain.json',
    expected: [
      ['x_pos', 'number'], ['y_pos', 'number'], ['luminance', 'number'], ['sat', 'number'], ['terrain_type', 'category'],
      ['tile_id', 'rich_text'], ['rgb', 'rich_text'], ['tile_key', 'rich_text'],
    ],
    optional: [],
    truth: [
      ['x', 'x_pos'], ['y', 'y_pos'], ['lumosity', 'luminance'], ['saturation', 'sat'], ['name', 'terrain_type'],
      ['id', 'tile_id'], ['color', 'rgb'], ['key', 'tile_key'],
    ],
  },
  {
    name: 'gapminder-countries',
    source: 'vega-datasets/data/countries.json',
    expected: [
      ['yr', 'number'], ['country_name', 'rich_text'], ['fertility_rate', 'number'], ['life_expectancy', 'number'],
      ['prev_fertility_rate', 'number'], ['next_fertility_rate', 'number'], ['prev_life_expectancy', 'number'],
      ['next_life_expectancy', 'number'],
    ],
    optional: [['source_note', 'rich_text']],
    truth: [
      ['year', 'yr'], ['country', 'country_name'], ['fertility', 'fertility_rate'], ['life_expect', 'life_expectancy'],
      ['p_fertility', 'prev_fertility_rate'], ['n_fertility', 'next_fertility_rate'], ['p_life_expect', 'prev_life_expectancy'],
      ['n_life_expect', 'next_life_expectancy'], ['_comment', 'source_note'],
    ],
  },
];
