/**
 * Engine worker threads, each made with explicit heap limits. A thread's young generation is
 * most of what it costs beyond its live data: V8 grows it to its limit during any long run of
 * allocation (every batch makes short-lived rows), and keeps it while the thread lives.
 *
 * The limits go through `resourceLimits` only. V8's `--max-semi-space-size` flag, once set in a
 * process (`v8.setFlagsFromString`), overrides `resourceLimits` for every isolate made after it,
 * and does not change the main thread's, so nothing in this project sets it.
 */
import { Worker } from 'node:worker_threads';

/** Heap limits of an engine thread. */
export interface EngineThreadLimits {
  /** One semi-space of the young generation, in MiB (the main thread's default is 16). */
  semiSpaceMb: number;
  /** Old-generation limit in MiB (Node's default, a share of the machine's memory, when absent). */
  maxOldGenerationSizeMb?: number;
}

/** Starts an engine worker thread running `script`. */
export function engineWorker(script: string | URL, limits: EngineThreadLimits): Worker {
  return new Worker(script, {
    resourceLimits: {
      // V8 sizes the young generation as two semi-spaces plus a new large-object space of one.
      maxYoungGenerationSizeMb: limits.semiSpaceMb * 3,
      ...(limits.maxOldGenerationSizeMb ? { maxOldGenerationSizeMb: limits.maxOldGenerationSizeMb } : {}),
    },
  });
}
