// Validation cases of the mapping-suggestion benchmark: public datasets imported into target schemas
// written by hand, the way real pipelines name their fields. Written as the first held-out set,
// before any tuning; its totals were then watched while tuning, so it no longer estimates unseen
// data: held-out.mjs (written later, run only for the final figures) does.
// A case: `source` (a file of an npm package), `expected`/`optional` fields as [name, dataType?],
// and `truth` as [column, field] pairs (a column may be a list of equally right columns). Columns
// absent from `truth` should stay unmapped; fields absent from it have no column in the data.

/** The validation cases. */
export const VALIDATION = [
  {
    name: 'political-contributions',
    source: 'vega-datasets/data/political-contributions.json',
    // A campaign-finance mart that keeps the FEC bulk-file names (all-candidates summary), lower-cased.
    expected: [
      ['cand_id', 'rich_text'], ['cand_name', 'rich_text'], ['cand_ici', 'category'], ['cand_pty_affiliation', 'category'],
      ['ttl_receipts', 'number'], ['ttl_disb', 'number'], ['coh_bop', 'number'], ['coh_cop', 'number'],
      ['ttl_indiv_contrib', 'number'], ['cand_office_st', 'category'], ['cand_office_district', 'category'],
      ['cvg_end_dt', 'date_time'], ['debts_owed_by', 'number'],
    ],
    optional: [['cand_contrib', 'number'], ['cand_loans', 'number'], ['gen_election_pct', 'number']],
    truth: [
      ['Candidate_Identification', 'cand_id'], ['Candidate_Name', 'cand_name'], ['Incumbent_Challenger_Status', 'cand_ici'],
      ['Party_Affiliation', 'cand_pty_affiliation'], ['Total_Receipts', 'ttl_receipts'], ['Total_Disbursements', 'ttl_disb'],
      ['Beginning_Cash', 'coh_bop'], ['Ending_Cash', 'coh_cop'], ['Total_Individual_Contributions', 'ttl_indiv_contrib'],
      ['Candidate_State', 'cand_office_st'], ['Candidate_District', 'cand_office_district'], ['Coverage_End_Date', 'cvg_end_dt'],
      ['Debts_Owed_By', 'debts_owed_by'], ['Contributions_from_Candidate', 'cand_contrib'], ['Loans_from_Candidate', 'cand_loans'],
    ],
  },
  {
    name: 'football',
    source: 'vega-datasets/data/football.json',
    expected: [
      ['match_date', 'date_time'], ['competition', 'category'], ['home_club', 'category'], ['away_club', 'category'],
      ['home_goals', 'number'], ['away_goals', 'number'],
    ],
    optional: [['season', 'category'], ['attendance', 'number']],
    truth: [
      ['date', 'match_date'], ['division', 'competition'], ['home_team', 'home_club'], ['away_team', 'away_club'],
      ['home_score', 'home_goals'], ['away_score', 'away_goals'],
    ],
  },
  {
    name: 'unemployment-across-industries',
    source: 'vega-datasets/data/unemployment-across-industries.json',
    expected: [
      ['industry', 'category'], ['yr', 'number'], ['mo', 'number'], ['unemployed', 'number'],
      ['unemployment_rate', 'number'], ['ref_date', 'date_time'],
    ],
    optional: [],
    truth: [
      ['series', 'industry'], ['year', 'yr'], ['month', 'mo'], ['count', 'unemployed'], ['rate', 'unemployment_rate'],
      ['date', 'ref_date'],
    ],
  },
  {
    name: 'us-state-capitals',
    source: 'vega-datasets/data/us-state-capitals.json',
    expected: [['state_name', 'rich_text'], ['capital', 'rich_text'], ['latitude', 'number'], ['longitude', 'number']],
    optional: [['population', 'number']],
    truth: [['state', 'state_name'], ['city', 'capital'], ['lat', 'latitude'], ['lon', 'longitude']],
  },
  {
    name: 'sp500-2000',
    source: 'vega-datasets/data/sp500-2000.csv',
    // A market-data table in the PX_ style of terminal exports.
    expected: [
      ['trade_dt', 'date_time'], ['px_open', 'number'], ['px_high', 'number'], ['px_low', 'number'], ['px_close', 'number'],
      ['adj_close_px', 'number'], ['vol', 'number'],
    ],
    optional: [['ticker', 'category']],
    truth: [
      ['date', 'trade_dt'], ['open', 'px_open'], ['high', 'px_high'], ['low', 'px_low'], ['close', 'px_close'],
      ['adjclose', 'adj_close_px'], ['volume', 'vol'],
    ],
  },
  {
    name: 'la-riots',
    source: 'vega-datasets/data/la-riots.csv',
    expected: [
      ['given_name', 'rich_text'], ['surname', 'rich_text'], ['age_years', 'number'], ['sex', 'category'],
      ['ethnicity', 'category'], ['date_of_death', 'date_time'], ['street_address', 'rich_text'],
      ['neighbourhood', 'category'], ['cause', 'category'], ['lng', 'number'], ['lat', 'number'],
    ],
    optional: [],
    truth: [
      ['first_name', 'given_name'], ['last_name', 'surname'], ['age', 'age_years'], ['gender', 'sex'], ['race', 'ethnicity'],
      ['death_date', 'date_of_death'], ['address', 'street_address'], ['neighborhood', 'neighbourhood'], ['type', 'cause'],
      ['longitude', 'lng'], ['latitude', 'lat'],
    ],
  },
  {
    name: 'flights-10k',
    source: 'vega-datasets/data/flights-10k.json',
    expected: [
      ['dep_datetime', 'date_time'], ['arr_delay_min', 'number'], ['distance_mi', 'number'], ['origin_iata', 'category'],
      ['dest_iata', 'category'],
    ],
    optional: [['carrier', 'category'], ['tail_number', 'rich_text']],
    truth: [
      ['date', 'dep_datetime'], ['delay', 'arr_delay_min'], ['distance', 'distance_mi'], ['origin', 'origin_iata'],
      ['destination', 'dest_iata'],
    ],
  },
];
