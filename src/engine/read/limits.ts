/**
 * Size limits of the readers: a header line or a row larger than these is refused rather than
 * held in memory (a file with no line break, a binary file named .csv, an unclosed quote).
 */
import { UsageError } from '../../errors.js';

/** Characters a CSV header line may have (4 MiB: 100,000 columns of 40-character names). */
export const HEADER_LINE_LIMIT = 4 * 1024 * 1024;
/** Characters a CSV row, and so any one field, may have (32 MiB). */
export const ROW_LIMIT = 32 * 1024 * 1024;

/**
 * An input line or field over a reader's size limit. A UsageError (exit 2); `import serve`
 * recognises it by class to answer 413/422 instead of a generic error.
 */
export class InputLimitError extends UsageError {
  constructor(message: string, readonly limit: 'headerLine' | 'row', readonly line: number) {
    super(message);
  }
}

/** `4 MiB`-style text for a character count that is a whole number of MiB. */
export function sizeText(chars: number): string {
  return `${chars / (1024 * 1024)} MiB`;
}
