/** Printing data in the `-o` formats: table (default), json, yaml. */
import { asOrderedMaps, stringifyJson } from '../contract/json.js';
import type { IO } from './io.js';
import { UsageError } from '../errors.js';

export const FORMATS = ['table', 'json', 'yaml'] as const;
/** An output format of `-o`. */
export type Format = (typeof FORMATS)[number];

/** Parses `-o`; throws UsageError for anything else. */
export function parseFormat(value: string): Format {
  if ((FORMATS as readonly string[]).includes(value)) return value as Format;
  throw new UsageError(`Unknown output format "${value}"; use one of ${FORMATS.join(', ')}.`);
}

/**
 * Prints `data` as JSON or YAML, or through `table` for the table format. Keys come out in the
 * order they were written (a service's `"9"` before its `"0"`; regular-expression rules are Maps).
 */
export async function printData(io: IO, format: Format, data: unknown, table: (data: any) => string): Promise<void> {
  if (format === 'json') io.out(stringifyJson(data, 2));
  else if (format === 'yaml') {
    const { stringify } = await import('yaml');
    io.out(stringify(asOrderedMaps(data)));
  } else io.out(table(data));
}


/** A confidence as a number and a small bar: `0.62 ██████░░░░`. */
export function confidenceBar(confidence: number | undefined, color = false): string {
  if (confidence === undefined || confidence === null || Number.isNaN(confidence)) return '';
  const c = Math.max(0, Math.min(1, confidence));
  const filled = Math.round(c * 10);
  const text = `${c.toFixed(2)} ${'█'.repeat(filled)}${'░'.repeat(10 - filled)}`;
  if (!color) return text;
  // Colour codes inline: chalk is loaded only by commands that print tables on a TTY.
  const code = c >= 0.8 ? 32 : c >= 0.5 ? 33 : 31;
  return `\u001b[${code}m${text}\u001b[39m`;
}
