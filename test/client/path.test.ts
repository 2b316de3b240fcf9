import { describe, expect, it } from 'vitest';
import { encodeSegment, path } from '../../src/client/path.js';
import { UsageError } from '../../src/errors.js';

describe('path', () => {
  it('encodes each interpolated value as one path segment', () => {
    expect(path`/fields/${'abc'}`).toBe('/fields/abc');
    expect(path`/fields/${'a/b c'}`).toBe('/fields/a%2Fb%20c');
    expect(path`/run/${'x?y#z%'}`).toBe('/run/x%3Fy%23z%25');
  });

  it('keeps unicode ids intact as UTF-8 percent-encoding', () => {
    expect(path`/units/${'jöb'}`).toBe('/units/j%C3%B6b');
  });

  it('refuses empty and dot segments, which no encoding keeps as one segment', () => {
    expect(() => encodeSegment('')).toThrow(UsageError);
    expect(() => encodeSegment('..')).toThrow(UsageError);
    expect(() => encodeSegment('.')).toThrow(UsageError);
    expect(encodeSegment('%2e%2E')).toBe('%252e%252E');
    expect(encodeSegment('...')).toBe('...');
  });
});
