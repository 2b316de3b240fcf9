/** Read bodies shaped like the seed's examples, served by the recording server in command tests. */
export const KEY = 'sk-live-abcdef123456';

export const SHEET = { sheetSelection: { selected: 'Sheet1', confidence: 0.8, sheets: ['Sheet1', 'Q3 orders'] } };
export const FIELDS = {
  expectedFields: ['firstName', 'lastName', 'email'], optionalFields: ['phone'], inputColumns: ['First', 'Last', 'E-mail', 'Notes'],
  columnFieldMapping: { 'customers.csv': { First: { field: 'firstName', confidence: 0.95 }, Last: { field: 'lastName', confidence: 0.9 }, 'E-mail': { field: 'email', confidence: 0.55 } } },
};
export const COMBINING = { columnsBeingCombined: { name: { method: 'stringAppend', methodConfig: { separator: '' }, combiningOrder: ['First', 'Last'] } } };
export const TYPES = {
  fieldDataTypes: { amount: { dataType: 'rich_text', confidence: 0.4 }, name: { dataType: 'rich_text', confidence: 0.9 } },
  expectedFieldDataTypes: { amount: 'number', name: 'rich_text' },
};
export const UNITS = { fieldUnitConversions: { signup: { columnName: 'Signup', from: null, to: null, confidence: 0.3 } }, expectedFieldUnits: { signup: 'UTC_p0' } };
export const IMPUTE = { imputeMethods: { country: { imputeMethod: null, confidence: 0.6 } }, expectedImputeMethods: { country: 'fill' } };
export const PIVOT = {
  pivot: {
    pivotColumns: { columnNames: ['metric'], confidence: 0.7 }, valueColumns: { columnNames: ['value'], confidence: 0.7 },
    indexColumns: { columnNames: ['date'], aggregationMethod: 'first', confidence: 0.6 },
  },
};
export const ROWS = {
  presetRowDroppingMethods: [{ method: 'missingValues', methodConfig: { fields: ['email'] } }],
  additionalRowDroppingMethods: [{ method: 'duplicateValues', methodConfig: { fields: ['email'] }, confidence: 0.7 }],
};
export const TEXT = { textProcessingMethods: { regexReplacement: { phone: { '[^0-9]': '' } }, casing: { name: 'capitalize' } } };
export const SCRIPTS = { preColumnMapping: ['s1'], postClean: ['s2'] };

/** Each resource command: its noun, GET path, update path and read body. */
export const RESOURCES = [
  { noun: 'sheet', get: '/selected-sheet', update: '/fields', read: SHEET },
  { noun: 'fields', get: '/fields', update: '/fields', read: FIELDS },
  { noun: 'combining', get: '/column-combining-methods', update: '/column-combining-methods', read: COMBINING },
  { noun: 'types', get: '/field-data-types', update: '/field-data-types', read: TYPES },
  { noun: 'units', get: '/units', update: '/units', read: UNITS },
  { noun: 'impute', get: '/impute-methods', update: '/impute-methods', read: IMPUTE },
  { noun: 'pivot', get: '/pivot', update: '/pivot', read: PIVOT },
  { noun: 'row-dropping', get: '/row-dropping-methods', update: '/row-dropping-methods', read: ROWS },
  { noun: 'text', get: '/text-processing-methods', update: '/text-processing-methods', read: TEXT },
  { noun: 'scripts', get: '/scripts', update: undefined, read: SCRIPTS },
] as const;
