/** Writing to an open file descriptor: the one loop every writer uses (a write may take fewer bytes than given). */
import { writeSync } from 'node:fs';

/** Writes all of `bytes`: at `position`, or at the descriptor's own offset when none is given. */
export function writeAll(fd: number, bytes: Uint8Array, position?: number): void {
  for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done, position === undefined ? null : position + done);
}
