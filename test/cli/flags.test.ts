import { describe, expect, it } from 'vitest';
import {
  checkRegex, fillValueOf, parseAggregation, parseCase, parseCombiningMethod, parseDrop, parseImpute, parseJobId, parseList,
  parseMap, parseOutputFileType, parseType, parseUnit, parseUrl,
} from '../../src/cli/flags.js';
import { UsageError } from '../../src/errors.js';

function usage(fn: () => unknown): string {
  try { fn(); } catch (e) { expect(e).toBeInstanceOf(UsageError); return (e as Error).message; }
  throw new Error('expected a UsageError');
}

describe('--map', () => {
  it('splits at the last "=" so column names may contain "="', () => {
    expect(parseMap('First Name=firstName')).toEqual({ column: 'First Name', field: 'firstName' });
    expect(parseMap('a=b=c')).toEqual({ column: 'a=b', field: 'c' });
  });
  it('names the flag, the value and the form when malformed', () => {
    const m = usage(() => parseMap('nofield'));
    expect(m).toBe('--map "nofield" is not of the form <column>=<field>; e.g. --map "First Name=firstName".');
    usage(() => parseMap('col='));
    usage(() => parseMap('=field'));
  });
});

describe('--type', () => {
  it('accepts the seed types in any case', () => {
    expect(parseType('amount=number')).toEqual({ field: 'amount', dataType: 'number' });
    expect(parseType('when=DATE_TIME')).toEqual({ field: 'when', dataType: 'date_time' });
  });
  it('lists the allowed types for an unknown one', () => {
    expect(usage(() => parseType('amount=numbr'))).toContain('use one of number, rich_text, category, date_time');
    usage(() => parseType('amount'));
  });
});

describe('--unit', () => {
  it('reads field=from:to', () => {
    expect(parseUnit('time=UTC_m5:UTC_p0')).toEqual({ field: 'time', from: 'UTC_m5', to: 'UTC_p0' });
  });
  it('needs both units', () => {
    expect(usage(() => parseUnit('time=UTC_m5:'))).toContain('--clear-unit time');
    usage(() => parseUnit('time=UTC_m5'));
    usage(() => parseUnit('UTC_m5:UTC_p0'));
  });
});

describe('--impute', () => {
  it('reads fill with a value, dropMissing and none', () => {
    expect(parseImpute('country=fill:US')).toEqual({ field: 'country', method: 'fill', value: 'US' });
    expect(parseImpute('amount=fill:0')).toEqual({ field: 'amount', method: 'fill', value: 0 });
    expect(parseImpute('note=fill:a=b')).toEqual({ field: 'note', method: 'fill', value: 'a=b' });
    expect(parseImpute('note=fill:')).toEqual({ field: 'note', method: 'fill', value: '' });
    expect(parseImpute('email=dropMissing')).toEqual({ field: 'email', method: 'dropMissing' });
    expect(parseImpute('x=none')).toEqual({ field: 'x', method: null });
  });
  it('rejects other methods with the expected forms', () => {
    expect(usage(() => parseImpute('x=mean'))).toContain('<field>=fill:<value>, <field>=dropMissing or <field>=none');
    usage(() => parseImpute('x'));
  });
  it('types fill values like a YAML job file would', () => {
    expect(fillValueOf('1.5')).toBe(1.5);
    expect(fillValueOf('true')).toBe(true);
    expect(fillValueOf('"0"')).toBe('0');
    expect(fillValueOf('N/A')).toBe('N/A');
    expect(fillValueOf('007x')).toBe('007x');
  });
});

describe('--drop', () => {
  it('reads method:fields', () => {
    expect(parseDrop('duplicateValues:email,id')).toEqual({ method: 'duplicateValues', fields: ['email', 'id'] });
  });
  it('rejects unknown methods and missing fields', () => {
    expect(usage(() => parseDrop('unique:email'))).toContain('missingValues or duplicateValues');
    usage(() => parseDrop('missingValues:'));
    usage(() => parseDrop('missingValues'));
  });
});

describe('--case', () => {
  it('reads the supported casings', () => {
    expect(parseCase('name=title')).toEqual({ field: 'name', casing: 'title' });
  });
  it('accepts capitalize with a warning', () => {
    const c = parseCase('name=capitalize');
    expect(c.casing).toBe('capitalize');
    expect(c.warning).toContain('not in the seed');
  });
  it('rejects other casings', () => {
    expect(usage(() => parseCase('name=camel'))).toContain('use one of upper, lower, title, swap');
  });
});

describe('lists and single values', () => {
  it('splits comma lists and refuses empty items', () => {
    expect(parseList('--order', 'a, b,c')).toEqual(['a', 'b', 'c']);
    expect(parseList('--order', '')).toEqual([]);
    usage(() => parseList('--order', 'a,,b'));
  });
  it('checks aggregation, combining method, output file type and URLs', () => {
    expect(parseAggregation('first')).toBe('first');
    usage(() => parseAggregation('last'));
    expect(parseCombiningMethod('JSON')).toBe('json');
    expect(parseCombiningMethod('stringappend')).toBe('stringAppend');
    usage(() => parseCombiningMethod('concat'));
    expect(parseOutputFileType('excel')).toBe('excel');
    usage(() => parseOutputFileType('parquet'));
    expect(parseUrl('--webhook-url', 'https://x.example/h')).toBe('https://x.example/h');
    usage(() => parseUrl('--webhook-url', 'ftp://x'));
  });
  it('accepts any job id but empty or dots', () => {
    expect(parseJobId('a/b c')).toBe('a/b c');
    usage(() => parseJobId(''));
    usage(() => parseJobId('..'));
    expect(usage(() => parseJobId('j1\n\u001b[2J'))).toBe('The job id "j1\\n\\u001b[2J" holds control characters (a line break or a terminal escape); pass the id printed by `import start`.');
  });
  it('checks that a regular expression compiles', () => {
    checkRegex('^[0-9]+$', 'x');
    expect(usage(() => checkRegex('([a-z', '--data: textProcessingMethods.regexReplacement.name'))).toContain('does not compile');
  });
});
