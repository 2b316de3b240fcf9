/**
 * Checks of the names a client gives that become file names on this machine. A bad name is a 422
 * at `start`, never a failure at `run` (a 500 that would show a server path).
 */
import { invalidValue } from './http-error.js';

/**
 * Longest destinationFileName, in UTF-8 bytes: a file name may have 255, and the output's temp file
 * beside it (`.<name>.<pid>-<12 hex>.tmp`, write/atomic.ts) needs up to 26 more.
 */
export const MAX_OUTPUT_NAME_BYTES = 200;

/**
 * `destinationFileName`: a plain file name of at most 200 UTF-8 bytes, with no folder, no control
 * character (CR and LF included), and not starting with a dot: names starting with a dot are
 * where the service keeps its temporary files.
 */
export function checkDestinationFileName(name: string): string {
  const shown = JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}…` : name);
  const bytes = Buffer.byteLength(name);
  if (bytes > MAX_OUTPUT_NAME_BYTES) {
    throw invalidValue(`destinationFileName ${shown} is ${bytes} bytes long; the limit is ${MAX_OUTPUT_NAME_BYTES} bytes; give a shorter name.`);
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) {
    throw invalidValue(`destinationFileName ${shown} holds a control character (a line break or tab); give a plain file name such as customers.csv.`);
  }
  if (name.trim() === '' || name === '.' || name === '..' || /[/\\]/.test(name)) {
    throw invalidValue(`destinationFileName ${shown} is not a plain file name; give a name such as customers.csv, without folders.`);
  }
  if (name.startsWith('.')) {
    throw invalidValue(`destinationFileName ${shown} starts with a dot; such names are reserved for this service's temporary files, so give one such as customers.csv.`);
  }
  return name;
}
