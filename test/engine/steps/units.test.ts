import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { checkUnit, KNOWN_UNITS, numberConverter, units, unitDimension, utcOffsetHours } from '../../../src/engine/steps/units.js';
import type { DataType } from '../../../src/contract/index.js';
import type { EngineConfig, Value } from '../../../src/engine/types.js';
import { expectRows, makeConfig, makeContext, makeTable } from '../../support/rows.js';

function run(type: DataType, values: Value[], extra: Partial<EngineConfig>) {
  const config = makeConfig({ dataTypes: { f: type }, ...extra });
  const ctx = makeContext();
  units.check!(config, ['f'], ctx);
  return units.apply(makeTable(['f'], values.map((v) => [v]), { types: [type], freeze: true }), config, ctx);
}

describe('units step', () => {
  it('adds 5 hours for from UTC_m5 to UTC_p0', async () => {
    await expectRows(run('date_time', ['2024-03-05T20:30:00', null], { units: { f: { from: 'UTC_m5', to: 'UTC_p0' } } }), [
      { f: '2024-03-06T01:30:00' }, { f: null },
    ]);
  });

  it('shifts by decimal hours, backwards too', async () => {
    await expectRows(run('date_time', ['2024-03-05T00:00:00'], { units: { f: { from: 'UTC_p5.5', to: 'UTC_p0' } } }), [{ f: '2024-03-04T18:30:00' }]);
  });

  it('makes a result it cannot write missing and counts it: a number past a double, a date past 9999', async () => {
    const config = makeConfig({ dataTypes: { f: 'number' }, units: { f: { from: 'km', to: 'mm' } } });
    const ctx = makeContext();
    await expectRows(units.apply(makeTable(['f'], [[1e308], [2]], { types: ['number'], freeze: true }), config, ctx), [{ f: null }, { f: 2_000_000 }]);
    expect(ctx.report.coercionFailures).toEqual({ f: 1 });
    const dates = makeConfig({ dataTypes: { f: 'date_time' }, units: { f: { from: 'UTC_m5', to: 'UTC_p0' } } });
    const dateCtx = makeContext();
    await expectRows(units.apply(makeTable(['f'], [['9999-12-31T23:00:00'], ['9999-12-31T18:00:00']], { types: ['date_time'], freeze: true }), dates, dateCtx), [
      { f: null }, { f: '9999-12-31T23:00:00' },
    ]);
    expect(dateCtx.report.coercionFailures).toEqual({ f: 1 });
  });

  it('converts temperatures near a double\'s limit without overflowing on the way', async () => {
    await expectRows(run('number', [1e308], { units: { f: { from: 'F', to: 'C' } } }), [{ f: 5.55555555555556e307 }]);
    await expectRows(run('number', [1.5e308], { units: { f: { from: 'C', to: 'F' } } }), [{ f: null }]);
    await expectRows(run('number', [1e307], { units: { f: { from: 'C', to: 'F' } } }), [{ f: 1.8e307 }]);
  });

  it('changes nothing when from and to are both null', async () => {
    await expectRows(run('date_time', ['2024-03-05T00:00:00'], { units: { f: { from: null, to: null } } }), [{ f: '2024-03-05T00:00:00' }]);
  });

  it('refuses a conversion with only one of from and to', () => {
    expect(() => units.check!(makeConfig({ units: { f: { from: 'UTC_p1', to: null } } }), ['f'], makeContext())).toThrow(UsageError);
    expect(() => units.check!(makeConfig({ units: { f: { from: 'UTC_p1', to: null } } }), ['f'], makeContext())).toThrow(/Unit conversion for field "f": both "from" and "to" must be set/);
  });

  it('converts lengths, masses, durations and temperatures on number fields', async () => {
    await expectRows(run('number', [1, 2.5, null], { units: { f: { from: 'in', to: 'cm' } } }), [{ f: 2.54 }, { f: 6.35 }, { f: null }]);
    await expectRows(run('number', [1], { units: { f: { from: 'lb', to: 'kg' } } }), [{ f: 0.45359237 }]);
    await expectRows(run('number', [90], { units: { f: { from: 'min', to: 'h' } } }), [{ f: 1.5 }]);
    await expectRows(run('number', [100, -40, 0], { units: { f: { from: 'C', to: 'F' } } }), [{ f: 212 }, { f: -40 }, { f: 32 }]);
    await expectRows(run('number', [0], { units: { f: { from: 'K', to: 'C' } } }), [{ f: -273.15 }]);
  });

  it('refuses a conversion across dimensions, naming the field and both units', () => {
    const config = makeConfig({ units: { weight: { from: 'kg', to: 'm' } } });
    expect(() => units.check!(config, ['weight'], makeContext())).toThrow('Unit conversion for field "weight": cannot convert from kg (mass) to m (length).');
  });

  it('refuses an unknown unit, listing the known ones', () => {
    const config = makeConfig({ units: { f: { from: 'furlong', to: 'm' } } });
    expect(() => units.check!(config, ['f'], makeContext())).toThrow(UsageError);
    expect(() => units.check!(config, ['f'], makeContext())).toThrow(/unit "furlong" is not known; known units: UTC_p<n>, UTC_m<n>.*mm, cm, m, km/);
  });

  it('refuses a time-zone conversion on a field that is not date_time', () => {
    expect(() => run('number', [1], { units: { f: { from: 'UTC_p1', to: 'UTC_p0' } } })).toThrow(/needs data type date_time/);
    expect(() => run('date_time', ['2024-01-01T00:00:00'], { units: { f: { from: 'kg', to: 'g' } } })).toThrow(/needs data type number/);
  });

  it('refuses a conversion for a field that is not a column', () => {
    const config = makeConfig({ units: { nope: { from: 'kg', to: 'g' } } });
    expect(() => units.apply(makeTable(['f'], []), config, makeContext())).toThrow(UsageError);
  });
});

describe('unit helpers', () => {
  it('reads UTC deltas', () => {
    expect(utcOffsetHours('UTC_p0')).toBe(0);
    expect(utcOffsetHours('UTC_m5')).toBe(-5);
    expect(utcOffsetHours('UTC_p5.5')).toBe(5.5);
    expect(utcOffsetHours('UTC_p15')).toBeUndefined();
    expect(utcOffsetHours('UTC+5')).toBeUndefined();
  });

  it('knows the dimension of each known unit', () => {
    expect(KNOWN_UNITS.every((u) => unitDimension(u) !== undefined)).toBe(true);
    expect(unitDimension('toString')).toBeUndefined();
    expect(checkUnit('UTC_m5', 'UTC_p0')).toBeUndefined();
    expect(checkUnit(null, null)).toBeUndefined();
    expect(checkUnit('ft', 'mi')).toBeUndefined();
  });

  it('rounds away floating-point noise', () => {
    expect(numberConverter('in', 'cm')(1)).toBe(2.54);
    expect(numberConverter('C', 'F')(37)).toBe(98.6);
  });
});
