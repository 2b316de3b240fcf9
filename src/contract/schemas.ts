/**
 * The seed's wire shapes, each declared once as a valibot schema; the types in index.ts are
 * inferred from these. Reads are tolerant: absent, `null` or `{}` means "not set", unknown members
 * are ignored, a confidence may be a numeric string, method values may be in any case (read in
 * the seed's spelling). Update and run bodies are strict: exactly the seed's update members.
 * Loaded only where a command talks to the service or `import serve` answers (never at start-up).
 */
import * as v from 'valibot';
import {
  AGGREGATION_METHODS, CASINGS, COMBINING_METHODS, DATA_TYPES, IMPUTE_METHODS, OUTPUT_FILE_TYPES, READ_ONLY_CASINGS,
  jobIdProblem, ROW_DROPPING_METHODS, spellingOf,
} from './index.js';
import { isPlainObject, keyed, keyedRead, orderedMap } from './keyed.js';

/** `expected` of the issues that are about a value (422 in `import serve`), not the body's shape (400). */
export const VALUE_ISSUE = 'an allowed value';

/** A short description of a JSON value for messages. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value);
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

// ---- building blocks ----

type Entries = v.ObjectEntries;

/** A JSON object with these members; unknown members are ignored (reads). */
function tolerantObject<T extends Entries>(entries: T) {
  return v.pipe(v.custom<Record<string, unknown>>(isPlainObject, 'must be a JSON object'), v.object(entries));
}

/** A JSON object with exactly these members (update bodies): an unknown member is an error naming it. */
function strictObject<T extends Entries>(entries: T) {
  const allowed = Object.keys(entries);
  return v.pipe(
    v.custom<Record<string, unknown>>(isPlainObject, 'must be a JSON object'),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const unknown = Object.keys(dataset.value).find((key) => !allowed.includes(key));
      if (unknown !== undefined) addIssue({ message: `has an unknown member ${JSON.stringify(unknown)}; it takes ${allowed.join(', ')}` });
    }),
    v.object(entries),
  );
}

/** A value issue (422 in `import serve`) with this message. */
function valueIssue(addIssue: (info: { message: string; expected: string }) => void, message: string): void {
  addIssue({ message, expected: VALUE_ISSUE });
}

/** A string from `list`, in any case; read in the list's spelling. `extra` names other allowed values in messages. */
function oneOf<const T extends string>(list: readonly T[], extra: string[] = []) {
  return v.pipe(
    v.string(),
    v.rawTransform<string, T>(({ dataset, addIssue, NEVER }) => {
      // Seed leaves the case of method values open (its update example writes `JSON`); any case is accepted.
      const match = spellingOf(list, dataset.value);
      if (match !== undefined) return match;
      valueIssue(addIssue, `is ${describeValue(dataset.value)}; use one of ${[...list, ...extra].join(', ')}`);
      return NEVER;
    }),
  );
}

const Names = v.array(v.string());
/** A list of names in a read: absent or null is an empty list. */
const NamesRead = v.nullish(Names, () => []);

/** A confidence in a read: a number from 0 to 1, or its text ("0.8"); absent or null is unknown (`undefined`). */
const Confidence = v.optional(v.pipe(
  v.unknown(),
  v.rawTransform<unknown, number | undefined>(({ dataset, addIssue, NEVER }) => {
    const raw = dataset.value;
    if (raw === null || raw === undefined) return undefined;
    const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
    if (Number.isFinite(n) && n >= 0 && n <= 1) return n;
    valueIssue(addIssue, `is ${describeValue(raw)}, not a confidence from 0 to 1`);
    return NEVER;
  }),
));

/** `T` with the members that may be `undefined` made optional. */
type Compact<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] }
  & { [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined> } extends infer U ? { [K in keyof U]: U[K] } : never;

/** Members of an object whose value is `undefined` left out (a read's "not set" members). */
function compact<T extends object>(value: T): Compact<T> {
  for (const key of Object.keys(value)) if ((value as Record<string, unknown>)[key] === undefined) delete (value as Record<string, unknown>)[key];
  return value as unknown as Compact<T>;
}

/** A whole read body: `null` (or an empty answer the client read as JSON null) is a body with nothing set. */
function readBody<T extends Entries>(entries: T) {
  return v.pipe(v.unknown(), v.transform((value) => value ?? {}), tolerantObject(entries));
}

// ---- sheet selection ----

/**
 * A sheet selection in a read: absent, null, `{}` or one naming no sheet at all is none (not a
 * workbook). One that names a selected sheet must list `sheets` (seed: returned on read), with the
 * selected one among them: read as "the selected one only", a sheet name would be checked against
 * a list the service never gave.
 */
const SheetSelectionMember = v.pipe(
  v.nullish(tolerantObject({ selected: v.nullish(v.string()), confidence: Confidence, sheets: v.nullish(Names) }), null),
  v.rawTransform(({ dataset, addIssue, NEVER }): { selected: string; confidence?: number; sheets: string[] } | null => {
    const s = dataset.value;
    if (!s || (s.selected == null && !s.sheets?.length)) return null;
    if (s.sheets == null) {
      addIssue({
        message: `is ${s.sheets === null ? 'null' : 'absent'} though a selected sheet is named; getSelectedSheet must list the workbook's sheets, or no sheet name can be checked against them`,
        path: [{ type: 'object', origin: 'value', input: s, key: 'sheets', value: s.sheets }],
      });
      return NEVER;
    }
    if (s.selected != null && !s.sheets.includes(s.selected)) {
      addIssue({
        message: `does not hold the selected sheet ${JSON.stringify(s.selected)}; getSelectedSheet's selected sheet must be one of the workbook's sheets`,
        path: [{ type: 'object', origin: 'value', input: s, key: 'sheets', value: s.sheets }],
      });
      return NEVER;
    }
    return compact({ selected: s.selected ?? '', confidence: s.confidence, sheets: s.sheets });
  }),
);
/** getSelectedSheet: `sheetSelection` null when the job has none (not a workbook). */
export const SheetSelectionRead = readBody({ sheetSelection: SheetSelectionMember });
/** updateSelectedSheet (sent to the fields path, seed note 6). */
export const SheetSelectionUpdate = strictObject({ sheetSelection: strictObject({ selected: v.string() }) });

// ---- fields ----

/** One column's mapping in a read: `null`, `{}` or no field means the column is unmapped. */
const FieldMappingRead = v.pipe(
  v.nullish(tolerantObject({ field: v.nullish(v.string()), confidence: Confidence })),
  v.transform((m): { field: string; confidence?: number } | undefined =>
    (m && m.field != null && m.field !== '' ? compact({ field: m.field, confidence: m.confidence }) : undefined)),
);
/** data source name -> column name -> mapping; a column absent from the map is unmapped. */
export const ColumnFieldMappingRead = keyedRead(keyedRead(FieldMappingRead));
/**
 * getFields. `expectedFields` must be there (a list, empty when the pipeline expects no field):
 * the seed lists it in every getFields answer and, unlike units, impute or pivot, never says it is
 * "not set by default"; read as "no field expected" it would let a job run with a required field
 * empty. The other members are tolerant (absent `optionalFields` is none optional, the stricter reading).
 */
export const FieldsRead = v.pipe(
  readBody({
    expectedFields: v.nullish(Names),
    optionalFields: NamesRead,
    inputColumns: NamesRead,
    columnFieldMapping: v.nullish(ColumnFieldMappingRead, () => ({})),
  }),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const { expectedFields, ...rest } = dataset.value;
    if (expectedFields == null) {
      addIssue({
        message: `is ${expectedFields === null ? 'null' : 'absent'}; getFields must list the fields the pipeline expects (an empty list when none), or the required fields cannot be checked`,
        path: [{ type: 'object', origin: 'value', input: dataset.value, key: 'expectedFields', value: expectedFields }],
      });
      return NEVER;
    }
    return { expectedFields, ...rest };
  }),
);
/** updateFields: only `field` per column. */
export const FieldsUpdate = strictObject({
  columnFieldMapping: keyed(keyed(strictObject({ field: v.pipe(v.string(), v.rawCheck(({ dataset, addIssue }) => {
    if (dataset.typed && dataset.value.trim() === '') valueIssue(addIssue, 'is empty; name a field, or leave the column out to unmap it');
  })) }))),
  allowColumnCombining: v.optional(v.boolean()),
});

// ---- column combining ----

const CombiningEntryRead = v.pipe(
  v.nullish(tolerantObject({
    method: v.nullish(oneOf(COMBINING_METHODS)),
    methodConfig: v.nullish(tolerantObject({ separator: v.nullish(v.string()) })),
    combiningOrder: v.nullish(Names),
  })),
  v.transform((c) => (c
    ? compact({
      method: c.method ?? undefined,
      methodConfig: c.methodConfig ? compact({ separator: c.methodConfig.separator ?? undefined }) : undefined,
      combiningOrder: c.combiningOrder ?? undefined,
    })
    : undefined)),
);
/** getColumnCombiningMethods. */
export const ColumnCombiningRead = readBody({ columnsBeingCombined: v.nullish(keyedRead(CombiningEntryRead), () => ({})) });
/** One field's combining in an update: every member optional (seed rule 1: unspecified members take the default). */
export const CombiningConfig = strictObject({
  method: v.optional(oneOf(COMBINING_METHODS)),
  methodConfig: v.optional(strictObject({ separator: v.optional(v.string()) })),
  combiningOrder: v.optional(Names),
});
/** updateColumnCombiningMethods. */
export const ColumnCombiningUpdate = strictObject({ columnsBeingCombined: keyed(CombiningConfig) });

// ---- data types ----

const DataTypeRead = oneOf(DATA_TYPES);
/** getDataTypes. */
export const DataTypesRead = readBody({
  fieldDataTypes: v.nullish(keyedRead(v.pipe(
    v.nullish(tolerantObject({ dataType: v.nullish(DataTypeRead), confidence: Confidence })),
    v.transform((t) => (t?.dataType ? compact({ dataType: t.dataType, confidence: t.confidence }) : undefined)),
  )), () => ({})),
  expectedFieldDataTypes: v.nullish(keyedRead(DataTypeRead), () => ({})),
});
/** updateDataTypes: only `dataType` per field. */
export const DataTypesUpdate = strictObject({ fieldDataTypes: keyed(strictObject({ dataType: oneOf(DATA_TYPES) })) });

// ---- units ----

/** getUnits. `from`/`to` absent are null (no conversion). */
export const UnitsRead = readBody({
  fieldUnitConversions: v.nullish(keyedRead(v.pipe(
    v.nullish(tolerantObject({ columnName: v.nullish(v.string()), to: v.nullish(v.string(), null), from: v.nullish(v.string(), null), confidence: Confidence })),
    v.transform((u) => (u ? compact({ columnName: u.columnName ?? undefined, to: u.to, from: u.from, confidence: u.confidence }) : undefined)),
  )), () => ({})),
  expectedFieldUnits: v.nullish(keyed(v.nullish(v.string(), null)), () => ({})),
});
/** updateUnits: `from` and `to` both set or both null (seed rule 1). */
export const UnitsUpdate = strictObject({
  fieldUnitConversions: keyed(v.pipe(
    strictObject({ from: v.nullable(v.string()), to: v.nullable(v.string()) }),
    v.rawCheck(({ dataset, addIssue }) => {
      if (dataset.typed && (dataset.value.from === null) !== (dataset.value.to === null)) {
        valueIssue(addIssue, 'needs "from" and "to" both set (a conversion) or both null (none)');
      }
    }),
  )),
});

// ---- impute ----

/** An impute method in any case; `null` (or "null") leaves the data unchanged. */
const ImputeMethod = v.nullable(v.pipe(
  v.string(),
  v.rawTransform<string, 'fill' | 'dropMissing' | null>(({ dataset, addIssue, NEVER }) => {
    if (dataset.value.toLowerCase() === 'null') return null;
    const match = spellingOf(IMPUTE_METHODS, dataset.value);
    if (match !== undefined) return match;
    valueIssue(addIssue, `is ${describeValue(dataset.value)}; use one of ${[...IMPUTE_METHODS, 'null'].join(', ')}`);
    return NEVER;
  }),
));
/** getImputeMethods. */
export const ImputeRead = readBody({
  imputeMethods: v.nullish(keyedRead(v.pipe(
    v.nullish(tolerantObject({
      imputeMethod: v.nullish(ImputeMethod, null),
      imputeMethodConfig: v.nullish(tolerantObject({ fillValue: v.optional(v.unknown()) })),
      confidence: Confidence,
    })),
    v.transform((m) => (m
      ? compact({ imputeMethod: m.imputeMethod, imputeMethodConfig: m.imputeMethodConfig ?? undefined, confidence: m.confidence })
      : undefined)),
  )), () => ({})),
  expectedImputeMethods: v.nullish(keyed(v.nullish(ImputeMethod, null)), () => ({})),
});
/** One field's impute method in an update; `fill` needs a fill value. */
export const ImputeConfig = v.pipe(
  strictObject({ imputeMethod: ImputeMethod, imputeMethodConfig: v.optional(strictObject({ fillValue: v.optional(v.unknown()) })) }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed || dataset.value.imputeMethod !== 'fill') return;
    const fill = dataset.value.imputeMethodConfig?.fillValue;
    if (fill === undefined || fill === null || (typeof fill === 'string' && fill.trim() === '')) {
      valueIssue(addIssue, 'uses imputeMethod fill, which needs imputeMethodConfig.fillValue (a value that is not empty)');
    }
  }),
);
/** updateImputeMethods. */
export const ImputeUpdate = strictObject({ imputeMethods: keyed(ImputeConfig) });

// ---- pivot ----

const PivotColumnsRead = v.nullish(tolerantObject({ columnNames: NamesRead, confidence: Confidence }));
/** getPivot: `pivot` null when not set, which includes `{}` and a pivot without pivot or value columns. */
export const PivotRead = readBody({
  pivot: v.pipe(
    v.nullish(tolerantObject({
      pivotColumns: PivotColumnsRead,
      valueColumns: PivotColumnsRead,
      indexColumns: v.nullish(tolerantObject({
        columnNames: NamesRead,
        aggregationMethod: v.nullish(oneOf(AGGREGATION_METHODS), 'first'),
        confidence: Confidence,
      })),
    }), null),
    v.transform((p) => {
      if (!p || !p.pivotColumns?.columnNames.length || !p.valueColumns?.columnNames.length) return null;
      const index = p.indexColumns ?? { columnNames: [], aggregationMethod: 'first' as const, confidence: undefined };
      return {
        pivotColumns: compact({ columnNames: p.pivotColumns.columnNames, confidence: p.pivotColumns.confidence }),
        valueColumns: compact({ columnNames: p.valueColumns.columnNames, confidence: p.valueColumns.confidence }),
        indexColumns: compact({ columnNames: index.columnNames, aggregationMethod: index.aggregationMethod, confidence: index.confidence }),
      };
    }),
  ),
});
/** The pivot of an update (`confidence` is read only). */
export const PivotConfig = v.pipe(
  strictObject({
    pivotColumns: strictObject({ columnNames: Names }),
    valueColumns: strictObject({ columnNames: Names }),
    // Seed: `first` is the only aggregation method, so it is the default when left out.
    indexColumns: strictObject({ columnNames: Names, aggregationMethod: v.optional(oneOf(AGGREGATION_METHODS), 'first') }),
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const p = dataset.value;
    if (!p.pivotColumns.columnNames.length) return valueIssue(addIssue, 'has no pivot columns; a pivot needs at least one (pivotColumns.columnNames)');
    if (!p.valueColumns.columnNames.length) return valueIssue(addIssue, 'has no value columns; a pivot needs at least one (valueColumns.columnNames)');
    const all = [...p.indexColumns.columnNames, ...p.pivotColumns.columnNames, ...p.valueColumns.columnNames];
    const twice = all.find((c, i) => all.indexOf(c) !== i);
    if (twice !== undefined) valueIssue(addIssue, `names column ${JSON.stringify(twice)} twice; a column has one role (index, pivot or value)`);
  }),
);
/** updatePivot: `null` removes the pivot. */
export const PivotUpdate = strictObject({ pivot: v.nullable(PivotConfig) });

// ---- row dropping ----

const RowDroppingRuleRead = v.pipe(
  v.nullish(tolerantObject({
    method: oneOf(ROW_DROPPING_METHODS),
    methodConfig: v.nullish(tolerantObject({ fields: NamesRead })),
    confidence: Confidence,
  })),
  v.transform((r) => (r ? compact({ method: r.method, methodConfig: { fields: r.methodConfig?.fields ?? [] }, confidence: r.confidence }) : undefined)),
);
const RulesRead = v.pipe(v.nullish(v.array(RowDroppingRuleRead), () => []), v.transform((list) => list.filter((r) => r !== undefined)));
/** getRowDroppingMethods. */
export const RowDroppingRead = readBody({ presetRowDroppingMethods: RulesRead, additionalRowDroppingMethods: RulesRead });
/** One row dropping rule of an update, with at least one field. */
export const RowDroppingRule = strictObject({
  method: oneOf(ROW_DROPPING_METHODS),
  methodConfig: strictObject({ fields: v.pipe(Names, v.rawCheck(({ dataset, addIssue }) => {
    if (dataset.typed && dataset.value.length === 0) valueIssue(addIssue, 'is empty; list the fields the rule constrains');
  })) }),
});
/** updateRowDroppingMethods: the additional methods (the presets are the pipeline's). */
export const RowDroppingUpdate = strictObject({ additionalRowDroppingMethods: v.array(RowDroppingRule) });

// ---- text processing ----

const CASING_VALUES = [...CASINGS, ...READ_ONLY_CASINGS];
/** getTextProcessingMethods. Rules keep their written order (a Map per field); `capitalize` is read as the seed's example shows it. */
export const TextProcessingRead = readBody({
  textProcessingMethods: v.pipe(
    v.nullish(tolerantObject({
      regexReplacement: v.nullish(keyedRead(orderedMap(v.string(), true))),
      casing: v.nullish(keyedRead(oneOf(CASING_VALUES))),
    }), null),
    v.transform((t) => (t ? compact({ regexReplacement: t.regexReplacement ?? undefined, casing: t.casing ?? undefined }) : {})),
  ),
});
/** The text processing of an update: per field, ordered rules and a casing. */
export const TextProcessingConfig = strictObject({
  regexReplacement: v.optional(keyed(orderedMap(v.string()))),
  casing: v.optional(keyed(oneOf(CASING_VALUES))),
});
/** updateTextProcessingMethods. */
export const TextProcessingUpdate = strictObject({ textProcessingMethods: TextProcessingConfig });

// ---- scripts ----

/** getScripts. */
export const ScriptsRead = readBody({ preColumnMapping: NamesRead, postClean: NamesRead });

// ---- start and run ----

/** The start form's fields before they become multipart text parts (the file is a part of its own). */
export const StartForm = strictObject({
  pipelineId: v.optional(v.union([v.string(), Names])),
  jobName: v.optional(v.string()),
  gsUrl: v.optional(v.string()),
  gsSheetName: v.optional(v.string()),
  jsonData: v.optional(v.array(v.custom<Record<string, unknown>>(isPlainObject, 'must be a row object'))),
  destinationFileName: v.optional(v.string()),
  useFullData: v.optional(v.boolean()),
  useVariableFields: v.optional(v.boolean()),
  scripts: v.optional(strictObject({ preColumnMapping: Names })),
  webhookUrl: v.optional(v.string()),
  outputFileType: v.optional(oneOf(OUTPUT_FILE_TYPES)),
});

/**
 * The answer to `start` over raw HTTP, as text. Seed: not shown (the client library returns the
 * jobId), so a JSON object with `jobId`, a bare JSON string and a plain-text id are all accepted.
 */
export const StartAnswer = v.pipe(
  v.string(),
  v.rawTransform<string, { jobId: string }>(({ dataset, addIssue, NEVER }) => {
    const text = dataset.value.trim();
    let value: unknown = text;
    try { value = JSON.parse(text); } catch { /* a plain-text id */ }
    let id: unknown = value;
    if (isPlainObject(value)) id = value.jobId ?? value.job_id;
    if (typeof id === 'number' && Number.isFinite(id)) id = String(id);
    if (typeof id === 'string' && id !== '' && (isPlainObject(value) || !/[\s<>{}]/.test(id))) {
      // The id goes into every later path and onto the terminal: the rule for an id the user types.
      const problem = jobIdProblem(id);
      if (problem === undefined) return { jobId: id };
      addIssue({ message: `gives the job id ${JSON.stringify(id.length > 60 ? id.slice(0, 60) + '…' : id)}, which ${problem}, so no later command can use it` });
      return NEVER;
    }
    addIssue({ message: 'holds no job id; expected {"jobId": "..."}' });
    return NEVER;
  }),
);

/** The run body: only the options given (an empty body is `{}`); a null webhookUrl is none. */
export const RunRequest = v.pipe(
  v.unknown(),
  v.transform((value) => value ?? {}),
  strictObject({ webhookUrl: v.nullish(v.string()), returnWhenComplete: v.optional(v.boolean()) }),
  v.transform((r): { webhookUrl?: string; returnWhenComplete?: boolean } => compact({ webhookUrl: r.webhookUrl ?? undefined, returnWhenComplete: r.returnWhenComplete })),
);

/**
 * Words of a `status`/`state` member that say a job has not finished yet (in any case, `-`, `_`
 * or a space between words). Seed: the run answer is not shown, and `returnWhenComplete: true`
 * returns "once the whole job is complete": the call's return is the completion, so a waited-for
 * answer is complete unless it says otherwise in one of these words (or fails, RUN_FAILURE_WORDS).
 * Another word (`completed`, `processed`, a number) does not contradict the return.
 */
export const RUN_PENDING_WORDS = [
  'running', 'pending', 'queued', 'processing', 'in_progress', 'inprogress', 'started', 'starting',
  'accepted', 'waiting', 'scheduled', 'submitted', 'created', 'new', 'validating',
] as const;

/** Words of a `status`/`state` member that say a job failed, waited for or not (in any case). */
export const RUN_FAILURE_WORDS = ['failed', 'failure', 'error', 'errored', 'cancelled', 'canceled', 'aborted', 'rejected'] as const;

/** Text answers that open with one of these words report a failure (`FAILED: ...`, `Error - ...`). */
const FAILURE_TEXT = /^(failed|failure|errored|error)(?![\w-])/i;

/** What an answer says went wrong: the member that says it and the service's words (when it gave any). */
export interface ReportedFailure { member: string; words?: string }

/** The message of an error member: a string, `{message}`, or a list of either. */
function wordsOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (Array.isArray(value)) {
    const all = value.map(wordsOf).filter((w): w is string => w !== undefined);
    return all.length ? all.join('; ') : undefined;
  }
  if (isPlainObject(value)) {
    const message = wordsOf(value.message) ?? wordsOf(value.detail);
    return message !== undefined && typeof value.code === 'string' ? `${message} (${value.code})` : message;
  }
  return undefined;
}

/**
 * Whether a 2xx answer (of an update or of `run`) reports a failure anyway: an `error` member,
 * `success: false`, a non-empty `errors` list, a status/state that is a failure word, or a text
 * that opens with failed/failure/error. Seed: update and run answers are not shown; an answer that
 * says it failed is taken at its word.
 */
export function reportedFailure(answer: unknown): ReportedFailure | undefined {
  if (typeof answer === 'string') return FAILURE_TEXT.test(answer.trim()) ? { member: 'the body', words: answer.trim() } : undefined;
  if (!isPlainObject(answer)) return undefined;
  const words = wordsOf(answer.error) ?? wordsOf(answer.errors) ?? wordsOf(answer.message);
  const { error, errors } = answer;
  if (error !== undefined && error !== null && error !== false && error !== '') return { member: 'error', words };
  if (answer.success === false) return { member: 'success', words };
  if (Array.isArray(errors) && errors.length > 0) return { member: 'errors', words };
  const [member, state] = stateOf(answer);
  if (typeof state === 'string' && spellingOf(RUN_FAILURE_WORDS, state.trim()) !== undefined) return { member, words: words ?? state };
  return undefined;
}

/** The `status` member of an answer, else its `state`. */
function stateOf(answer: Record<string, unknown>): ['status' | 'state', unknown] {
  return answer.status !== undefined && answer.status !== null ? ['status', answer.status] : ['state', answer.state];
}

/** What a run answer says: the job completed (waited), was accepted (not waited), failed, or did not complete. */
export type RunOutcome =
  | { outcome: 'completed' | 'accepted' }
  | { outcome: 'failed'; member: string; words?: string }
  | { outcome: 'incomplete'; member: string; value: string };

/**
 * The answer to `run` with its HTTP status, and whether the run waited (`returnWhenComplete:
 * true`). Seed: the answer is not shown; any form is accepted (an object, text, nothing), but:
 * - an answer that reports a failure (`reportedFailure`) is a failed job, waited for or not;
 * - when waiting, a 202, or a `status`/`state` that is one of RUN_PENDING_WORDS, is a job that did
 *   not complete; anything else is complete (the call returned, which the seed says it does once
 *   the job is complete);
 * - without waiting, anything else is an acceptance.
 */
export const RunAnswer = v.pipe(
  v.object({ status: v.number(), body: v.unknown(), waited: v.boolean() }),
  v.transform(({ status, body, waited }): RunOutcome => {
    const failure = reportedFailure(body);
    if (failure) return { outcome: 'failed', ...failure };
    if (!waited) return { outcome: 'accepted' };
    if (status === 202) return { outcome: 'incomplete', member: 'its HTTP status', value: '202 Accepted' };
    if (isPlainObject(body)) {
      const [member, state] = stateOf(body);
      if (typeof state === 'string' && spellingOf(RUN_PENDING_WORDS, state.trim().replace(/[\s-]+/g, '_')) !== undefined) {
        return { outcome: 'incomplete', member: `its member ${member}`, value: describeValue(state) };
      }
    }
    return { outcome: 'completed' };
  }),
);

// ---- webhooks ----

/** The start webhook's body (seed "Start webhook body"). */
export const StartWebhookBody = strictObject({
  jobId: v.string(),
  dataLength: keyed(v.number()),
  inputColumns: keyed(Names),
  expectedFields: Names,
  columnFieldMapping: keyed(keyed(strictObject({ field: v.string(), confidence: v.optional(v.number()) }))),
  expectedFieldDataTypes: keyed(oneOf(DATA_TYPES)),
  fieldDataTypes: keyed(strictObject({ dataType: oneOf(DATA_TYPES), confidence: v.optional(v.number()) })),
  uniqueRatio: keyed(keyed(v.number())),
  missingRowIndices: keyed(keyed(v.array(v.number()))),
});

/** The run webhook's body: the first row of `dataTable` holds the column names. */
export const RunWebhookBody = strictObject({
  jobId: v.string(),
  dataTable: v.array(v.array(v.union([v.string(), v.number(), v.null()]))),
  dataTypes: keyed(oneOf(DATA_TYPES)),
});

// ---- by resource ----

/** Each configuration resource's read schema, by its JobResources member. */
export const READS = {
  sheet: SheetSelectionRead, fields: FieldsRead, combining: ColumnCombiningRead, dataTypes: DataTypesRead, units: UnitsRead,
  impute: ImputeRead, pivot: PivotRead, rowDropping: RowDroppingRead, text: TextProcessingRead, scripts: ScriptsRead,
} as const;

/** Each updatable resource's update schema. */
export const UPDATES = {
  sheet: SheetSelectionUpdate, fields: FieldsUpdate, combining: ColumnCombiningUpdate, dataTypes: DataTypesUpdate, units: UnitsUpdate,
  impute: ImputeUpdate, pivot: PivotUpdate, rowDropping: RowDroppingUpdate, text: TextProcessingUpdate,
} as const;

/**
 * The read-only members of each resource (the seed: "returned on read", "read only"), by where
 * they sit in a read body: what `<resource> update --data` drops from a `get -o json` body.
 * `*` stands for every key of a keyed map, `[]` for every item of a list.
 */
export const READ_ONLY_MEMBERS: Record<keyof typeof UPDATES, string[]> = {
  sheet: ['sheetSelection.confidence', 'sheetSelection.sheets'],
  fields: ['expectedFields', 'optionalFields', 'inputColumns', 'columnFieldMapping.*.*.confidence'],
  combining: [],
  dataTypes: ['expectedFieldDataTypes', 'fieldDataTypes.*.confidence'],
  units: ['expectedFieldUnits', 'fieldUnitConversions.*.columnName', 'fieldUnitConversions.*.confidence'],
  impute: ['expectedImputeMethods', 'imputeMethods.*.confidence'],
  pivot: ['pivot.pivotColumns.confidence', 'pivot.valueColumns.confidence', 'pivot.indexColumns.confidence'],
  rowDropping: ['presetRowDroppingMethods', 'additionalRowDroppingMethods.[].confidence'],
  text: [],
};
