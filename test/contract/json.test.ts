import { describe, expect, it } from 'vitest';
import { DuplicateKeyError, entriesInOrder, isIndexLikeKey, keysInOrder, orderedObject, parseJson, stringifyJson } from '../../src/contract/json.js';

describe('isIndexLikeKey', () => {
  it('is true only for canonical array indexes', () => {
    expect(['0', '9', '1962', '4294967294'].every(isIndexLikeKey)).toBe(true);
    expect(['', '01', '-1', '1.5', 'TQ', '4294967295', ' 1'].some(isIndexLikeKey)).toBe(false);
  });
});

describe('parseJson', () => {
  it('keeps the written order of integer-like keys', () => {
    const value = parseJson('{"TQ": 1, "1976": 2, "1962": 3}') as Record<string, number>;
    expect(Object.keys(value)).toEqual(['1962', '1976', 'TQ']); // what a JS object does
    expect(keysInOrder(value)).toEqual(['TQ', '1976', '1962']);
    expect(entriesInOrder(value)).toEqual([['TQ', 1], ['1976', 2], ['1962', 3]]);
  });

  it('keeps the order of nested rule maps and rows', () => {
    const value = parseJson('[{"a": {"9": "X", "0": "9"}}, {"2": null, "1": true}]') as any[];
    expect(keysInOrder(value[0].a)).toEqual(['9', '0']);
    expect(keysInOrder(value[1])).toEqual(['2', '1']);
    expect(value[1]['2']).toBeNull();
  });

  it('reads __proto__ as an own key, never as the prototype', () => {
    const value = parseJson('{"1": 0, "__proto__": {"polluted": true}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(value, '__proto__')).toBe(true);
    expect(keysInOrder(value)).toEqual(['1', '__proto__']);
    expect(({} as any).polluted).toBeUndefined();
  });

  it('keeps data numbers a double would change as written, and the rest as doubles', () => {
    const value = parseJson('[{"a":0.30000000000000000001,"b":1.50,"c":12345678901234.567,"d":1e-400,"e":1e400,"f":12345678901234567890,"g":6.022e23,"h":-0.000000000000000001,"i":0.1}]', { exactNumbers: true }) as Record<string, unknown>[];
    expect(value[0]).toEqual({ a: '0.30000000000000000001', b: 1.5, c: '12345678901234.567', d: '1e-400', e: '1e400', f: 12345678901234567890n, g: 6.022e23, h: -1e-18, i: 0.1 });
  });

  it('with uniqueKeys, refuses an object naming a key twice at the second one, however the text is spaced or escaped', () => {
    const error = (() => { try { parseJson('[{"a": 1, "b": {"a": 2}, "a" : 3}]', { uniqueKeys: true }); } catch (e) { return e; } })() as DuplicateKeyError;
    expect(error).toBeInstanceOf(DuplicateKeyError);
    expect([error.key, error.offset]).toEqual(['a', 25]);
    expect(() => parseJson('[{"a\\"": 1, "a": 2, "x": "\\"a\\": 1"}]', { uniqueKeys: true })).not.toThrow();
    expect(() => parseJson('{"\\u0061": 1, "a": 2}', { uniqueKeys: true })).toThrow(DuplicateKeyError);
    expect(parseJson('{"a": 1, "a": 2}')).toEqual({ a: 2 }); // without the option: JSON.parse's last value
  });

  it('gives the same values as JSON.parse and its errors', () => {
    const text = '{"b": [1, 2.5e3, -0.5, "x\\u00e9\\n"], "3": {"c": false}, "a": null}';
    expect(parseJson(text)).toEqual(JSON.parse(text));
    expect(() => parseJson('{"a": 1,}')).toThrow(SyntaxError);
  });
});

describe('stringifyJson', () => {
  it('writes keys in written order and Maps as objects', () => {
    const rules = new Map([['9', 'X'], ['0', '9']]);
    expect(stringifyJson({ regexReplacement: { phone: rules } })).toBe('{"regexReplacement":{"phone":{"9":"X","0":"9"}}}');
    const text = '{"TQ":1,"1976":2,"1962":3}';
    expect(stringifyJson(parseJson(text))).toBe(text);
  });

  it('indents like JSON.stringify', () => {
    const value = { a: [1, { b: new Map([['2', 1], ['1', 2]]) }], c: {} , d: [] };
    expect(stringifyJson(value, 2)).toBe(JSON.stringify({ a: [1, { b: { 2: 1, 1: 2 } }], c: {}, d: [] }, null, 2).replace('"1": 2,\n        "2": 1', '"2": 1,\n        "1": 2'));
  });

  it('is JSON.stringify for values without ordered members', () => {
    const value = { a: 1, b: [null, 'x'], c: undefined };
    expect(stringifyJson(value)).toBe(JSON.stringify(value));
  });
});

describe('orderedObject', () => {
  it('holds __proto__ and integer-like keys as own keys in the given order', () => {
    const o = orderedObject([['__proto__', 1], ['1962', 2], ['TQ', 3]]);
    expect(keysInOrder(o)).toEqual(['__proto__', '1962', 'TQ']);
    expect(o['__proto__']).toBe(1);
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
  });
});

describe('keysInOrder after a change', () => {
  it('leaves out a key deleted since the order was recorded and puts a key set since last', () => {
    const object = orderedObject([['b', 1], ['1962', 2], ['c', 3]]);
    delete object.b;
    Object.defineProperty(object, 'new', { value: 4, enumerable: true, writable: true, configurable: true });
    expect(keysInOrder(object)).toEqual(['1962', 'c', 'new']);
    expect(entriesInOrder(object)).toEqual([['1962', 2], ['c', 3], ['new', 4]]);
  });
});

describe('asOrderedMaps', () => {
  it('turns objects whose written order a JavaScript object would change, and Maps, into Maps for YAML', async () => {
    const { asOrderedMaps, parseJson } = await import('../../src/contract/json.js');
    const { stringify } = await import('yaml');
    const value = parseJson('{"text":{"code":{"9":"X","0":"9"}},"list":[{"b":1,"a":2}],"__proto__":{"x":1}}');
    expect(stringify(asOrderedMaps(value))).toBe('text:\n  code:\n    "9": X\n    "0": "9"\nlist:\n  - b: 1\n    a: 2\n__proto__:\n  x: 1\n');
    expect(stringify(asOrderedMaps({ rules: new Map([['9', 'X'], ['0', '9']]) }))).toBe('rules:\n  "9": X\n  "0": "9"\n');
  });
});
