/** A progress bar on stderr for long reads and uploads; silent when stderr is not a terminal. */
import type { IO } from './io.js';

/** Inputs larger than this get a progress bar. */
export const PROGRESS_MIN_BYTES = 10 * 1024 * 1024;

/** A started progress bar. */
export interface Progress { update(done: number): void; finish(): void }

/** Starts a progress bar for `total` bytes labelled `label`; a no-op off a TTY or for small totals. */
export function startProgress(io: IO, label: string, total: number, minBytes = PROGRESS_MIN_BYTES): Progress {
  if (!io.isStderrTTY || total < minBytes) return { update() {}, finish() {} };
  const started = Date.now();
  let last = 0;
  const draw = (done: number) => {
    const ratio = Math.min(1, done / total);
    const width = 30;
    const filled = Math.round(ratio * width);
    const seconds = Math.max(0.001, (Date.now() - started) / 1000);
    const rate = done / seconds / 1024 / 1024;
    io.stderr.write(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(ratio * 100).toFixed(0).padStart(3)}% ${rate.toFixed(1)} MB/s`);
  };
  return {
    update(done) {
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      draw(done);
    },
    finish() {
      draw(total);
      io.stderr.write('\n');
    },
  };
}
