/** Building request paths: ids are always encoded, so a job id can never change the path. */
import { UsageError } from '../errors.js';

/**
 * Tagged template for API paths: every interpolated value is one encoded path segment
 * (`path\`/fields/${jobId}\`` with `a/b c` gives `/fields/a%2Fb%20c`).
 */
export function path(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  let out = strings[0];
  values.forEach((value, i) => {
    out += encodeSegment(String(value)) + strings[i + 1];
  });
  return out;
}

/** One path segment, percent-encoded; empty and dot segments are refused because no encoding keeps them one segment. */
export function encodeSegment(value: string): string {
  if (value === '') throw new UsageError('The job id is empty; pass the id printed by `import start`.');
  // `.` and `..` are "this/parent folder" to URL parsers and proxies, and encodeURIComponent leaves dots alone.
  if (value === '.' || value === '..') throw new UsageError(`The job id "${value}" is not a valid id; pass the id printed by \`import start\`.`);
  return encodeURIComponent(value);
}
