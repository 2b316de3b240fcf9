/**
 * Step 6, unit conversion: time-zone deltas (`UTC_p<n>`, `UTC_m<n>`) on date_time fields, and
 * physical units (length, mass, temperature, duration) on number fields.
 */
import { UsageError } from '../../errors.js';
import { formatShiftedDate, parseDate, shiftIsoDateTime } from '../parse.js';
import { countEmptiedCell, eachBatch, ownsRows, type Batch, type EngineConfig, type Step, type StepContext, type Table, type Value } from '../types.js';
import { fieldIndex } from './map.js';

/** What a unit measures; `timezone` is the seed's UTC delta. */
export type UnitDimension = 'timezone' | 'length' | 'mass' | 'temperature' | 'duration';

// Seed: "Unit strings other than UTC deltas: not shown." We add these, written exactly as listed
// (case-sensitive, like the seed's `UTC_p`), each as a factor to its dimension's base unit.
const LINEAR: Record<string, { dimension: UnitDimension; factor: number }> = {
  mm: { dimension: 'length', factor: 0.001 },
  cm: { dimension: 'length', factor: 0.01 },
  m: { dimension: 'length', factor: 1 },
  km: { dimension: 'length', factor: 1000 },
  in: { dimension: 'length', factor: 0.0254 },
  ft: { dimension: 'length', factor: 0.3048 },
  yd: { dimension: 'length', factor: 0.9144 },
  mi: { dimension: 'length', factor: 1609.344 },
  mg: { dimension: 'mass', factor: 0.001 },
  g: { dimension: 'mass', factor: 1 },
  kg: { dimension: 'mass', factor: 1000 },
  t: { dimension: 'mass', factor: 1_000_000 },
  oz: { dimension: 'mass', factor: 28.349523125 },
  lb: { dimension: 'mass', factor: 453.59237 },
  ms: { dimension: 'duration', factor: 0.001 },
  s: { dimension: 'duration', factor: 1 },
  min: { dimension: 'duration', factor: 60 },
  h: { dimension: 'duration', factor: 3600 },
  d: { dimension: 'duration', factor: 86400 },
};

// Temperature is affine, so it goes through Celsius instead of a factor.
// Multiplying first rounds as a person expects (`(x - 32) * 5 / 9`); near a double's limit that
// product overflows although the answer fits, so dividing first takes over there.
const TO_CELSIUS: Record<string, (x: number) => number> = {
  C: (x) => x,
  F: (x) => { const c = ((x - 32) * 5) / 9; return Number.isFinite(c) ? c : ((x - 32) / 9) * 5; },
  K: (x) => x - 273.15,
};
const FROM_CELSIUS: Record<string, (x: number) => number> = {
  C: (x) => x,
  F: (x) => { const f = (x * 9) / 5 + 32; return Number.isFinite(f) ? f : (x / 5) * 9 + 32; },
  K: (x) => x + 273.15,
};

/** The physical unit strings we convert between (besides the seed's `UTC_p<n>` / `UTC_m<n>`), grouped by dimension in listing order. */
export const KNOWN_UNITS: readonly string[] = [
  'mm', 'cm', 'm', 'km', 'in', 'ft', 'yd', 'mi',
  'mg', 'g', 'kg', 't', 'oz', 'lb',
  'C', 'F', 'K',
  'ms', 's', 'min', 'h', 'd',
];

/** Offsets outside UTC−14..UTC+14 exist nowhere; refusing them catches typos such as `UTC_p55`. */
const MAX_UTC_HOURS = 14;

/** The offset in hours of `UTC_p<n>` (+n) or `UTC_m<n>` (−n), `n` possibly decimal; `undefined` for any other string. */
export function utcOffsetHours(unit: string): number | undefined {
  if (!unit.startsWith('UTC_p') && !unit.startsWith('UTC_m')) return undefined;
  const digits = unit.slice(5);
  if (!/^\d+(\.\d+)?$/.test(digits)) return undefined;
  const n = Number(digits);
  if (n > MAX_UTC_HOURS) return undefined;
  return unit[4] === 'm' ? -n : n;
}

/**
 * The zone, in minutes east of UTC, named by one end (`from` or `to`) of a field's conversion in
 * `config.units`; undefined when that end is not a `UTC_p<n>`/`UTC_m<n>` zone.
 */
export function conversionZoneMinutes(config: EngineConfig, field: string, end: 'from' | 'to'): number | undefined {
  const unit = Object.hasOwn(config.units ?? {}, field) ? config.units?.[field]?.[end] : undefined;
  const hours = typeof unit === 'string' ? utcOffsetHours(unit) : undefined;
  return hours === undefined ? undefined : hours * 60;
}

/** The dimension of a unit string, or `undefined` when it is not a unit we know. */
export function unitDimension(unit: string): UnitDimension | undefined {
  if (utcOffsetHours(unit) !== undefined) return 'timezone';
  if (Object.hasOwn(TO_CELSIUS, unit)) return 'temperature';
  return Object.hasOwn(LINEAR, unit) ? LINEAR[unit].dimension : undefined;
}

const KNOWN_LIST = `UTC_p<n>, UTC_m<n> (n from 0 to ${MAX_UTC_HOURS}, decimals allowed), ${KNOWN_UNITS.join(', ')}`;

/**
 * The problem with a `{from, to}` conversion as one sentence fragment, or `undefined` when it is
 * valid: both null is "no conversion"; one null, an unknown unit, or two dimensions are problems.
 */
export function checkUnit(from: string | null | undefined, to: string | null | undefined): string | undefined {
  const hasFrom = from !== null && from !== undefined;
  const hasTo = to !== null && to !== undefined;
  if (!hasFrom && !hasTo) return undefined;
  if (!hasFrom || !hasTo) return `both "from" and "to" must be set (or both null), got from ${JSON.stringify(from ?? null)} and to ${JSON.stringify(to ?? null)}`;
  for (const unit of [from, to]) {
    if (typeof unit !== 'string' || unitDimension(unit) === undefined) {
      return `unit ${JSON.stringify(unit)} is not known; known units: ${KNOWN_LIST}`;
    }
  }
  const a = unitDimension(from as string);
  const b = unitDimension(to as string);
  if (a !== b) return `cannot convert from ${from} (${a}) to ${to} (${b})`;
  return undefined;
}

/**
 * The problem with converting a field of data type `type` (undefined: untyped text) between two
 * known units of one dimension, or `undefined`: a time-zone delta needs date_time (seed), a
 * physical unit number. Used by the step and by the job file's offline check.
 */
export function unitTypeProblem(from: string, to: string, type: string | undefined): string | undefined {
  const needs = unitDimension(from) === 'timezone' ? 'date_time' : 'number';
  if (type === needs) return undefined;
  return `needs data type ${needs}, but the field is ${type ?? 'untyped text'}; set its data type to ${needs} or remove the conversion`;
}

/** A function converting a number from one physical unit to another of the same dimension. */
export function numberConverter(from: string, to: string): (x: number) => number {
  if (from === to) return (x) => x;
  // Floating point turns 1 in → cm into 2.5399999999999996; rounding to 15 significant digits
  // (the precision a double always holds) gives the decimal answer a person expects.
  const round = (x: number) => (Number.isFinite(x) ? Number(x.toPrecision(15)) : x);
  if (Object.hasOwn(TO_CELSIUS, from)) {
    const toC = TO_CELSIUS[from];
    const fromC = FROM_CELSIUS[to];
    return (x) => round(fromC(toC(x)));
  }
  const factor = LINEAR[from].factor / LINEAR[to].factor;
  return (x) => round(x * factor);
}

interface Conversion { index: number; field: string; rule: string; kind: 'date' | 'number'; minutes: number; convert: (x: number) => number }

function validate(config: EngineConfig): void {
  for (const [field, conversion] of Object.entries(config.units ?? {})) {
    const problem = checkUnit(conversion?.from, conversion?.to);
    if (problem) throw new UsageError(`Unit conversion for field "${field}": ${problem}.`);
  }
}

function plan(input: Table, config: EngineConfig, ctx: StepContext): Conversion[] {
  validate(config);
  const conversions: Conversion[] = [];
  for (const [field, { from, to }] of Object.entries(config.units ?? {})) {
    if (from === null || to === null || from === undefined || to === undefined) continue;
    const index = fieldIndex(input.columns, field, ctx, `Unit conversion for field "${field}"`, { step: 'units', field });
    if (index < 0) continue;
    const type = input.types[index] ?? config.dataTypes?.[field];
    const wrongType = unitTypeProblem(from, to, type);
    if (wrongType) throw new UsageError(`Unit conversion ${from} → ${to} on field "${field}" ${wrongType}.`);
    const dimension = unitDimension(from);
    const rule = `${from} -> ${to}`;
    if (dimension === 'timezone') {
      // Seed: a time-zone delta converts date_time values; on text it has no meaning.
      const minutes = ((utcOffsetHours(to) as number) - (utcOffsetHours(from) as number)) * 60;
      if (minutes !== 0) conversions.push({ index, field, rule, kind: 'date', minutes, convert: (x) => x });
    } else {
      if (from !== to) conversions.push({ index, field, rule, kind: 'number', minutes: 0, convert: numberConverter(from, to) });
    }
  }
  return conversions;
}

/**
 * The value converted; undefined when the result cannot be written: a number past a double's range
 * (`1e308` km in mm), or a date shifted past year 9999 or before year 0000.
 */
function convertValue(value: Value, c: Conversion): Value | undefined {
  if (c.kind === 'number') {
    if (typeof value !== 'number') return value;
    const converted = c.convert(value);
    return Number.isFinite(converted) ? converted : undefined;
  }
  if (typeof value !== 'string') return value;
  // Values are already `YYYY-MM-DDTHH:mm:ss` from the data-type step, which parses back exactly;
  // most shifts stay within the day and take the fast path.
  const shifted = shiftIsoDateTime(value, c.minutes);
  if (shifted !== undefined) return shifted;
  const parts = parseDate(value, false);
  return parts ? formatShiftedDate(parts, c.minutes) : value;
}

/**
 * Step 6: shifts date_time fields by `to − from` hours and converts number fields between physical
 * units. A value whose result cannot be written becomes missing and is counted with the field's
 * coercion failures (and listed by `--rejects`), never written as something else.
 */
export const units: Step = {
  name: 'units',
  check(config) {
    validate(config);
  },
  apply(input, config, ctx) {
    const conversions = plan(input, config, ctx);
    if (conversions.length === 0) return input;
    // Every step that changes data says so: the values each conversion changed, in the report.
    const counts = conversions.map((c) => ({ rule: c.rule, field: c.field, count: 0 }));
    ctx.report.converted.push(...counts);
    const convertBatch = (batch: Batch): Batch => {
      const inPlace = ownsRows(batch, ctx);
      const rows = batch.rows.map((row, r) => {
        const out = inPlace ? row : row.slice();
        for (let k = 0; k < conversions.length; k++) {
          const c = conversions[k];
          const value = out[c.index];
          const converted = convertValue(value, c);
          if (converted !== undefined) {
            if (converted !== value) counts[k].count++;
            out[c.index] = converted;
            continue;
          }
          out[c.index] = null;
          countEmptiedCell(ctx, { field: c.field, rule: c.rule, origin: 'units', original: value, row: batch.rowNumbers[r], out });
        }
        return out;
      });
      return { rows, rowNumbers: batch.rowNumbers, owned: batch.owned };
    };
    return { columns: input.columns, types: input.types, batches: eachBatch(input.batches, convertBatch) };
  },
};
