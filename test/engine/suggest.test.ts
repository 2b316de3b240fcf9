import { describe, expect, it } from 'vitest';
import type { DataType, PipelineSchema } from '../../src/contract/index.js';
import { inferDataType, suggestResources, suggestSheet } from '../../src/engine/suggest.js';
import type { Row, SheetInfo } from '../../src/engine/types.js';

function schemaOf(expectedFields: string[], more: Partial<PipelineSchema> = {}): PipelineSchema {
  return { expectedFields, optionalFields: [], fieldDataTypes: {}, fieldUnits: {}, imputeMethods: {}, rowDropping: [], ...more };
}

/** The column → {field, confidence} mapping suggested for `in.csv`. */
function mappingOf(columns: string[], schema?: PipelineSchema, sample: Row[] = []) {
  return suggestResources({ sourceName: 'in.csv', columns, sample, schema }).fields.columnFieldMapping['in.csv'];
}

/** The type suggested for one column of values (no schema type). */
function typeOf(values: (string | null)[], schemaType?: DataType) {
  return inferDataType(values.map((v) => [v]), 0, schemaType);
}

const repeat = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

describe('suggestResources: mapping', () => {
  it('maps a column whose normalised name equals a field with confidence 1', () => {
    expect(mappingOf(['ID', 'Full Name', 'createdAt'], schemaOf(['id', 'full_name', 'created_at']))).toEqual({
      ID: { field: 'id', confidence: 1 },
      'Full Name': { field: 'full_name', confidence: 1 },
      createdAt: { field: 'created_at', confidence: 1 },
    });
  });

  it('maps synonyms and abbreviations with confidence 0.95', () => {
    const schema = schemaOf(['email', 'quantity', 'phone', 'first_name']);
    expect(mappingOf(['E-mail Address', 'Qty', 'Tel', 'firstName'], schema)).toEqual({
      'E-mail Address': { field: 'email', confidence: 0.95 },
      Qty: { field: 'quantity', confidence: 0.95 },
      Tel: { field: 'phone', confidence: 0.95 },
      firstName: { field: 'first_name', confidence: 1 },
    });
  });

  it('scores columns against optional fields too', () => {
    const schema = schemaOf(['id'], { optionalFields: ['phone'] });
    expect(mappingOf(['id', 'Mobile'], schema)).toEqual({
      id: { field: 'id', confidence: 1 },
      Mobile: { field: 'phone', confidence: 0.95 },
    });
  });

  it('lifts a near miss over the bar when its values fit the field, and sinks it when they do not', () => {
    const schema = schemaOf(['created_at'], { fieldDataTypes: { created_at: 'date_time' } });
    const dates = repeat(10, (i) => [`2024-03-${String(i + 1).padStart(2, '0')}`]);
    const words = repeat(10, (i) => [`word ${i}`]);
    // `Order Date` vs `created_at` scores 0.48 on its name alone, 0.5 + 0.48 / 4 with dates (a
    // column of dates for a date field); with no rival, calibration raises it to 0.85.
    expect(mappingOf(['Order Date'], schema, dates)).toEqual({ 'Order Date': { field: 'created_at', confidence: 0.85 } });
    expect(mappingOf(['Order Date'], schema, words)).toEqual({});
  });

  it('maps a column of email addresses to an email field on its values alone', () => {
    const schema = schemaOf(['email', 'name']);
    const sample = repeat(20, (i) => [`user${i}@example.com`, `User ${i}`]);
    // 0.6 on values alone, raised by calibration: no other column holds emails.
    expect(mappingOf(['Contact', 'Name'], schema, sample)).toEqual({
      Contact: { field: 'email', confidence: 0.81 },
      Name: { field: 'name', confidence: 1 },
    });
  });

  it('prefers a column whose name matches over one whose values alone match', () => {
    const schema = schemaOf(['email']);
    const sample = repeat(20, (i) => [`a${i}@example.com`, `b${i}@example.com`]);
    expect(mappingOf(['Contact', 'Email'], schema, sample)).toEqual({ Email: { field: 'email', confidence: 1 } });
  });

  it('never lets values push an inexact name to 1', () => {
    const schema = schemaOf(['email']);
    const sample = repeat(5, (i) => [`a${i}@example.com`]);
    // Values raise a score in proportion to the room left: 0.95 + 0.2 × 0.05 / 0.7.
    expect(mappingOf(['E-mail Address'], schema, sample)).toEqual({ 'E-mail Address': { field: 'email', confidence: 0.96 } });
  });

  it('gives each column its best free field, one column per field', () => {
    const schema = schemaOf(['phone', 'mobile_phone']);
    // `Mobile` scores 0.95 for phone, but `Phone` takes it with 1; `Mobile` falls back to mobile_phone
    // (0.9), which no other column wants: calibration raises it to 0.94.
    expect(mappingOf(['Mobile', 'Phone'], schema)).toEqual({
      Phone: { field: 'phone', confidence: 1 },
      Mobile: { field: 'mobile_phone', confidence: 0.94 },
    });
  });

  it('chooses the pairs with the best total rather than breaking ties by column order', () => {
    // `Total` is as good for `total_amount` as `Amount Total`; taking pairs best-first in column
    // order would give it `total_amount` and leave `Amount Total` with nothing.
    const schema = schemaOf(['total_amount', 'total']);
    expect(mappingOf(['Total', 'Amount Total'], schema)).toEqual({
      Total: { field: 'total', confidence: 1 },
      'Amount Total': { field: 'total_amount', confidence: 0.95 },
    });
    const byValues = schemaOf(['subtotal', 'total_usd']);
    expect(Object.values(mappingOf(['total', 'Sub Total'], byValues)).map((m) => m.field)).toEqual(['total_usd', 'subtotal']);
  });

  it('maps the abbreviations and synonyms of real schemas confidently', () => {
    const columns = ['Miles_per_Gallon', 'longitude', 'year', 'month', 'Demonym', 'Horsepower'];
    const schema = schemaOf(['mpg', 'lng', 'yr', 'mo', 'nationality', 'hp']);
    const sample = repeat(20, (i) => [String(15 + i), String(-120 + i / 3), String(1970 + i), String((i % 12) + 1), 'Aruban', String(100 + i)]);
    const mapping = mappingOf(columns, schema, sample);
    expect(Object.entries(mapping).map(([c, m]) => [c, m.field])).toEqual(columns.map((c, i) => [c, schema.expectedFields[i]]));
    for (const m of Object.values(mapping)) expect(m.confidence).toBeGreaterThanOrEqual(0.8);
  });

  it('maps codes and country names that only the values reveal', () => {
    const schema = schemaOf(['iso_alpha_2', 'iso_alpha_3', 'currency_code', 'country']);
    const countries = [['AW', 'ABW', 'AWG', 'Aruba'], ['HN', 'HND', 'HNL', 'Honduras'], ['DE', 'DEU', 'EUR', 'Germany'], ['JP', 'JPN', 'JPY', 'Japan']];
    const sample = repeat(20, (i) => countries[i % 4]);
    expect(mappingOf(['cca2', 'cca3', 'currencies', 'name'], schema, sample)).toEqual({
      cca2: { field: 'iso_alpha_2', confidence: 0.81 },
      cca3: { field: 'iso_alpha_3', confidence: 0.81 },
      currencies: { field: 'currency_code', confidence: 0.96 },
      name: { field: 'country', confidence: 0.81 },
    });
  });

  it('maps a column of US state names to a state field on its values alone', () => {
    const sample = repeat(20, (i) => [['Alabama', 'Alaska', 'Ohio', 'Texas'][i % 4], `g${i}`]);
    expect(mappingOf(['name', 'group'], schemaOf([], { optionalFields: ['state'] }), sample)).toEqual({
      name: { field: 'state', confidence: 0.81 },
    });
  });

  it('does not map a column on its values alone when its name says it is something else', () => {
    // US state codes are mostly country codes too (`CA`, `DE`, `IN`...).
    const sample = repeat(20, (i) => [['CA', 'DE', 'IN', 'GA', 'AL'][i % 5]]);
    expect(mappingOf(['state'], schemaOf([], { optionalFields: ['country_code'] }), sample)).toEqual({});
    expect(mappingOf(['cca2'], schemaOf([], { optionalFields: ['country_code'] }), sample)).toEqual({
      cca2: { field: 'country_code', confidence: 0.81 },
    });
  });

  it('maps a column named only for a kind of value (`code`) on its values alone', () => {
    const sample = repeat(20, (i) => [['AED', 'AFN', 'XAU', 'CHE', 'EUR'][i % 5]]);
    expect(mappingOf(['code'], schemaOf(['currency_cd']), sample)).toEqual({ code: { field: 'currency_cd', confidence: 0.81 } });
  });

  it('sinks a name match whose values are not the abbreviations or FIPS numbers the field holds', () => {
    const names = repeat(20, (i) => [['Alabama', 'California', 'Delaware', 'Georgia'][i % 4]]);
    const fips = repeat(20, (i) => [String(i + 1)]);
    const optional = (field: string) => schemaOf([], { optionalFields: [field] });
    expect(mappingOf(['state'], optional('state_fips'), names).state?.confidence ?? 0).toBeLessThan(0.8);
    expect(mappingOf(['state'], optional('state_fips'), fips).state.confidence).toBeGreaterThanOrEqual(0.8);
    expect(mappingOf(['state'], optional('state_abbr'), names).state?.confidence ?? 0).toBeLessThan(0.8);
  });

  it('tells time zone names from offsets in hours by their values (OpenFlights airports)', () => {
    const rows = repeat(20, (i) => [String([10, -5, 5.5, 1][i % 4]), ['Pacific/Port_Moresby', 'America/New_York', 'Asia/Kolkata', 'Europe/Paris'][i % 4]]);
    const schema = schemaOf(['utc_offset_hrs', 'iana_timezone'], { fieldDataTypes: { utc_offset_hrs: 'number' } });
    const mapping = mappingOf(['timezone', 'tz'], schema, rows);
    expect(Object.entries(mapping).map(([c, m]) => [c, m.field, (m.confidence ?? 0) >= 0.8])).toEqual([
      ['timezone', 'utc_offset_hrs', true], ['tz', 'iana_timezone', true],
    ]);
  });

  it('does not raise a unique name match whose values plainly are not what the field holds', () => {
    const names = repeat(20, (i) => [['Alabama', 'California', 'Delaware', 'Georgia'][i % 4]]);
    const codes = repeat(20, (i) => [['AL', 'CA', 'DE', 'GA'][i % 4]]);
    const optional = (field: string) => schemaOf([], { optionalFields: [field] });
    expect(mappingOf(['state'], optional('state_abbr'), names).state?.confidence ?? 0).toBeLessThan(0.6);
    expect(mappingOf(['state'], optional('state_abbr'), codes).state.confidence).toBeGreaterThanOrEqual(0.8);
  });

  it('gives a state-code field the column of US postal codes, not another column of codes (FEC candidate summary)', () => {
    const rows = repeat(20, (i) => [String((i % 3) + 1), ['AL', 'AR', 'AZ', 'CA', 'CO'][i % 5]]);
    const mapping = mappingOf(['Party_Code', 'Candidate_State'], schemaOf(['state_cd'], { fieldDataTypes: { state_cd: 'category' } }), rows);
    expect(Object.entries(mapping).map(([c, m]) => [c, m.field])).toEqual([['Candidate_State', 'state_cd']]);
  });

  it('reads X and Y of a GIS export as longitude and latitude when the values are in range', () => {
    // Points as ArcGIS writes them to CSV (X, Y first), here London borough centroids.
    const rows: Row[] = [['-0.1278', '51.5074', 'Camden'], ['-0.0877', '51.5155', 'City'], ['0.0648', '51.5441', 'Newham']];
    const schema = schemaOf(['latitude', 'longitude', 'borough'], { fieldDataTypes: { latitude: 'number', longitude: 'number' } });
    const mapping = mappingOf(['X', 'Y', 'borough'], schema, repeat(10, (i) => rows[i % 3]));
    expect(Object.entries(mapping).map(([c, m]) => [c, m.field])).toEqual([['X', 'longitude'], ['Y', 'latitude'], ['borough', 'borough']]);
    // Screen coordinates (vega-datasets platformer-terrain) are no latitudes.
    const pixels = repeat(20, (i) => [String(i * 48)]);
    expect(mappingOf(['y'], schemaOf(['latitude'], { fieldDataTypes: { latitude: 'number' } }), pixels).y?.confidence ?? 0).toBeLessThan(0.6);
  });

  it('never gives a swap between equally good pairs a confident score', () => {
    // `a_` and `b_` say nothing of prev/next: either way round scores the same.
    const schema = schemaOf(['prev_fertility_rate', 'next_fertility_rate']);
    const mapping = mappingOf(['a_fertility', 'b_fertility'], schema);
    for (const m of Object.values(mapping)) expect(m.confidence).toBeLessThanOrEqual(0.6);
  });

  it('reads `p_` and `n_` as the initials of prev and next (gapminder countries.json)', () => {
    const schema = schemaOf(['prev_fertility_rate', 'next_fertility_rate']);
    const mapping = mappingOf(['p_fertility', 'n_fertility'], schema);
    expect(Object.entries(mapping).map(([c, m]) => [c, m.field])).toEqual([
      ['p_fertility', 'prev_fertility_rate'], ['n_fertility', 'next_fertility_rate'],
    ]);
  });

  it('never gives a tie between two columns a confident score', () => {
    const schema = schemaOf(['nationality']);
    const mapping = mappingOf(['demonym_f', 'demonym_m'], schema);
    expect(Object.keys(mapping)).toEqual(['demonym_f']);
    expect(mapping.demonym_f.confidence).toBeLessThanOrEqual(0.6);
  });

  it('sinks a name match whose values cannot be what the field holds', () => {
    const schema = schemaOf(['lat'], { fieldDataTypes: { lat: 'number' } });
    // `latitude_ish` scores 0.75 for `lat` by name; latitudes raise it, values beyond ±90 sink it
    // under the bar (coordinates out of range overrule the name).
    const inRange = repeat(20, (i) => [String(40 + i / 7)]);
    const outOfRange = repeat(20, (i) => [String(100 + i)]);
    expect(mappingOf(['latitude_ish'], schema, inRange)).toEqual({ latitude_ish: { field: 'lat', confidence: 0.92 } });
    expect(mappingOf(['latitude_ish'], schema, outOfRange)).toEqual({});
  });

  it('leaves the second of two equally good columns unmapped', () => {
    expect(mappingOf(['email', 'EMAIL'], schemaOf(['email']))).toEqual({ email: { field: 'email', confidence: 1 } });
  });

  it('leaves a column unmapped when its best score is under 0.5', () => {
    const schema = schemaOf(['first_name', 'email']);
    expect(mappingOf(['last_name', 'Internal Notes', 'first_name'], schema)).toEqual({
      first_name: { field: 'first_name', confidence: 1 },
    });
  });

  it('leaves a column whose best score is under 0.5 unmapped, even when it and a field are the last of their kind (engine.md)', () => {
    const sample = repeat(20, (i) => [String(1990 + i), `job ${i % 3}`, String(100 * i)]);
    const schema = schemaOf(['yr', 'occupation', 'workers'], { fieldDataTypes: { yr: 'number', workers: 'number' } });
    const mapping = mappingOf(['year', 'job', 'count'], schema, sample);
    expect(Object.entries(mapping).map(([column, m]) => [column, m.field])).toEqual([['year', 'yr'], ['job', 'occupation']]);
    expect(mappingOf(['reading'], schemaOf(['label']), repeat(20, (i) => [String(3 * i)]))).toEqual({});
  });

  it('maps each column to a field of its own name with confidence 1 when there is no schema', () => {
    const expected = { 'E-mail': { field: 'E-mail', confidence: 1 }, qty: { field: 'qty', confidence: 1 } };
    expect(mappingOf(['E-mail', 'qty'])).toEqual(expected);
    expect(mappingOf(['E-mail', 'qty'], schemaOf([]))).toEqual(expected);
  });

  it('lists the expected, optional and input columns and keys the mapping by the source name', () => {
    const r = suggestResources({ sourceName: 'customers.csv', columns: ['a', 'b'], sample: [], schema: schemaOf(['a'], { optionalFields: ['c'] }) });
    expect(r.fields).toEqual({
      expectedFields: ['a'],
      optionalFields: ['c'],
      inputColumns: ['a', 'b'],
      columnFieldMapping: { 'customers.csv': { a: { field: 'a', confidence: 1 } } },
    });
  });
});

describe('suggestResources: data types', () => {
  it('takes the schema type, with the share of values that convert as confidence', () => {
    const schema = schemaOf(['amount', 'note'], { fieldDataTypes: { amount: 'number', note: 'category' } });
    const sample = [['1', 'x'], ['2.5', 'y'], ['n/a', 'z'], [null, null]];
    const r = suggestResources({ sourceName: 'in.csv', columns: ['amount', 'note'], sample, schema });
    expect(r.dataTypes).toEqual({
      fieldDataTypes: { amount: { dataType: 'number', confidence: 0.67 }, note: { dataType: 'category', confidence: 1 } },
      expectedFieldDataTypes: { amount: 'number', note: 'category' },
    });
  });

  it('infers types for mapped fields only, keyed by field', () => {
    const schema = schemaOf(['amount']);
    const r = suggestResources({ sourceName: 'in.csv', columns: ['Amt', 'junk'], sample: [['1', 'a'], ['2', 'b']], schema });
    expect(r.dataTypes.fieldDataTypes).toEqual({ amount: { dataType: 'number', confidence: 1 } });
  });

  it('infers number when at least 95% of non-missing values parse', () => {
    expect(typeOf([...repeat(19, (i) => `$${i + 1},000.50`), 'oops', null, '  '])).toEqual({ dataType: 'number', confidence: 0.95 });
  });

  it('does not infer number under 95%, and says how unsure the text type is', () => {
    expect(typeOf([...repeat(18, (i) => String(i)), 'oops', 'nope'])).toEqual({ dataType: 'rich_text', confidence: 0.1 });
  });

  it('never infers number for zero-padded codes', () => {
    expect(typeOf(repeat(20, (i) => String(1000 + i).padStart(6, '0')))).toEqual({ dataType: 'rich_text', confidence: 1 });
    expect(typeOf([...repeat(19, (i) => String(100 + i)), '00123'])).toEqual({ dataType: 'rich_text', confidence: 1 });
  });

  it('infers date_time when at least 95% of values parse as dates', () => {
    expect(typeOf(['2024-03-05', '2024-03-05T14:22', '2024/12/31', '2024-03-05 14:22:10Z'])).toEqual({ dataType: 'date_time', confidence: 1 });
  });

  it('reads slash dates day-first when the column proves it', () => {
    // Month-first, `25/12/2024` would not parse; the column proves day-first with it.
    expect(typeOf(['01/02/2024', '25/12/2024', '13/01/2024'])).toEqual({ dataType: 'date_time', confidence: 1 });
    expect(typeOf(['12/25/2024', '01/13/2024', '02/03/2024'])).toEqual({ dataType: 'date_time', confidence: 1 });
  });

  it('infers category when values repeat and distinct values are at most max(2, 20%) of them (and at most 50)', () => {
    expect(typeOf(repeat(20, (i) => ['US', 'UK', 'FR', 'DE'][i % 4]))).toEqual({ dataType: 'category', confidence: 1 });
    expect(typeOf(repeat(20, (i) => ['US', 'UK', 'FR', 'DE', 'ES'][i % 5]))).toEqual({ dataType: 'rich_text', confidence: 1 });
    expect(typeOf(['yes', 'no', 'yes'])).toEqual({ dataType: 'category', confidence: 1 });
    expect(typeOf(['Ann', 'Bob'])).toEqual({ dataType: 'rich_text', confidence: 1 });
    expect(typeOf(repeat(1000, (i) => `v${i % 51}`))).toEqual({ dataType: 'rich_text', confidence: 1 });
    expect(typeOf(repeat(1000, (i) => `v${i % 50}`))).toEqual({ dataType: 'category', confidence: 1 });
  });

  it('suggests rich_text with confidence 1 for a column with no values', () => {
    expect(typeOf([null, '', ' '])).toEqual({ dataType: 'rich_text', confidence: 1 });
  });
});

describe('suggestResources: other resources', () => {
  const schema: PipelineSchema = {
    expectedFields: ['id', 'country'],
    optionalFields: [],
    fieldDataTypes: { id: 'number', country: 'category' },
    fieldUnits: { created_at: 'UTC_p0' },
    imputeMethods: { country: 'fill', id: null, email: 'dropMissing' },
    rowDropping: [{ method: 'missingValues', methodConfig: { fields: ['id'] } }],
  };
  const r = suggestResources({ sourceName: 'in.csv', columns: ['id', 'country'], sample: [['1', 'US']], schema, scripts: { preColumnMapping: ['tidy'] } });

  it('sets no unit conversion and lists the expected units', () => {
    expect(r.units).toEqual({ fieldUnitConversions: {}, expectedFieldUnits: { created_at: 'UTC_p0' } });
  });

  it("suggests the schema's non-null impute methods with confidence 1", () => {
    expect(r.impute).toEqual({
      imputeMethods: { country: { imputeMethod: 'fill', confidence: 1 }, email: { imputeMethod: 'dropMissing', confidence: 1 } },
      expectedImputeMethods: { country: 'fill', id: null, email: 'dropMissing' },
    });
  });

  it("sets no pivot, combining or text processing, and presets the schema's row dropping", () => {
    expect(r.pivot).toEqual({ pivot: null });
    expect(r.combining).toEqual({ columnsBeingCombined: {} });
    expect(r.text).toEqual({ textProcessingMethods: {} });
    expect(r.rowDropping).toEqual({ presetRowDroppingMethods: schema.rowDropping, additionalRowDroppingMethods: [] });
    expect(r.rowDropping.presetRowDroppingMethods).not.toBe(schema.rowDropping);
  });

  it('lists the preColumnMapping scripts given to start', () => {
    expect(r.scripts).toEqual({ preColumnMapping: ['tidy'], postClean: [] });
  });

  it('has a sheet selection only for workbooks', () => {
    expect(r.sheet).toBeNull();
    const sheet = { selected: 'Data', confidence: 0.9, sheets: ['Notes', 'Data'] };
    expect(suggestResources({ sourceName: 'in.xlsx', columns: [], sample: [], sheet }).sheet).toEqual({ sheetSelection: sheet });
  });

  it('answers empty bodies with no schema', () => {
    const bare = suggestResources({ sourceName: 'x', columns: [], sample: [] });
    expect(bare.dataTypes.expectedFieldDataTypes).toEqual({});
    expect(bare.impute).toEqual({ imputeMethods: {}, expectedImputeMethods: {} });
    expect(bare.rowDropping.presetRowDroppingMethods).toEqual([]);
    expect(bare.scripts).toEqual({ preColumnMapping: [], postClean: [] });
  });
});

describe('suggestResources: determinism and speed', () => {
  const columns = repeat(50, (i) => `column_${i}`);
  const sample: Row[] = repeat(10_000, (r) => columns.map((_, c) => {
    switch (c % 5) {
      case 0: return String(r * 1.5);
      case 1: return `2024-03-${String((r % 28) + 1).padStart(2, '0')}`;
      case 2: return `some text ${r}`;
      case 3: return ['a', 'b', 'c'][r % 3];
      default: return `user${r}@example.com`;
    }
  }));
  const schema = schemaOf(['column_3', 'email', 'amount'], { fieldDataTypes: { amount: 'number' } });

  it('gives the same output for the same input', () => {
    const a = suggestResources({ sourceName: 'in.csv', columns, sample: sample.slice(0, 200), schema });
    const b = suggestResources({ sourceName: 'in.csv', columns, sample: sample.slice(0, 200), schema });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it('infers types over a 10,000-row sample of 50 columns', () => {
    const r = suggestResources({ sourceName: 'in.csv', columns, sample });
    suggestResources({ sourceName: 'in.csv', columns, sample, schema });
    expect(r.dataTypes.fieldDataTypes.column_0).toEqual({ dataType: 'number', confidence: 1 });
    expect(r.dataTypes.fieldDataTypes.column_1).toEqual({ dataType: 'date_time', confidence: 1 });
    expect(r.dataTypes.fieldDataTypes.column_3).toEqual({ dataType: 'category', confidence: 1 });
  });
});

describe('suggestResources: very wide inputs', () => {
  it('maps 80,000 columns by shared words and equal names without scoring every pair', () => {
    const columns = repeat(80_000, (i) => `col_${i}`);
    const sample: Row[] = repeat(3, (r) => columns.map((_, c) => String(r + c)));
    const schema = schemaOf(['COL_79999', 'col 40000', 'email', 'created_at', 'total_amount']);
    // 400,000 pairs of which only the linked ones are scored; values alone make no pair past 10,000 columns.
    expect(mappingOf(columns, schema, sample)).toEqual({
      col_40000: { field: 'col 40000', confidence: 1 },
      col_79999: { field: 'COL_79999', confidence: 1 },
    });
  });

  it('falls back to equal names when even the linked pairs are too many', () => {
    // 10,000 columns x 201 email fields that values may fill: 2,010,000 pairs, past the 2,000,000 limit.
    const columns = repeat(10_000, (i) => `c_${i}`);
    // `c_7` scores 0.79 for `c 7 value` by name, so only the fallback leaves it out.
    const schema = schemaOf([...repeat(201, (i) => `email_${i}`), 'C_5', 'c 7 value']);
    expect(mappingOf(columns, schema)).toEqual({ c_5: { field: 'C_5', confidence: 1 } });
  });
});

describe('suggestSheet', () => {
  const schema = schemaOf(['id', 'email', 'amount']);
  const sheet = (name: string, columns: string[], rowCount: number): SheetInfo => ({ name, columns, rowCount });

  it('selects the sheet whose header matches the expected fields best', () => {
    const sheets = [sheet('Notes', ['note'], 500), sheet('Customers', ['ID', 'E-mail Address', 'Total'], 10)];
    // (1 + 0.95 + 0.72) / 3 expected fields
    expect(suggestSheet(sheets, schema)).toEqual({ selected: 'Customers', confidence: 0.89, sheets: ['Notes', 'Customers'] });
  });

  it('counts only required fields towards the match quality', () => {
    const withOptional = schemaOf(['id', 'email'], { optionalFields: ['email'] });
    expect(suggestSheet([sheet('A', ['id'], 1)], withOptional).confidence).toBe(1);
  });

  it('breaks ties by more rows, then by order', () => {
    const same = ['id', 'email', 'amount'];
    expect(suggestSheet([sheet('Jan', same, 10), sheet('Feb', same, 20)], schema).selected).toBe('Feb');
    expect(suggestSheet([sheet('Jan', same, 10), sheet('Feb', same, 10)], schema)).toEqual({ selected: 'Jan', confidence: 1, sheets: ['Jan', 'Feb'] });
  });

  it("with no schema selects the sheet with most rows, confident in proportion to its share of rows", () => {
    const sheets = [sheet('Cover', ['title'], 1), sheet('Data', ['a', 'b'], 3), sheet('Empty', [], 0)];
    expect(suggestSheet(sheets)).toEqual({ selected: 'Data', confidence: 0.75, sheets: ['Cover', 'Data', 'Empty'] });
    expect(suggestSheet([sheet('Only', ['a'], 5)]).confidence).toBe(1);
    expect(suggestSheet([sheet('A', [], 0), sheet('B', [], 0)])).toEqual({ selected: 'A', confidence: 0.5, sheets: ['A', 'B'] });
  });

  it('is 0 confident when no sheet matches any field', () => {
    expect(suggestSheet([sheet('X', ['foo'], 3)], schema)).toEqual({ selected: 'X', confidence: 0, sheets: ['X'] });
  });
});
