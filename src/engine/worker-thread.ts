/**
 * Engine worker threads, each made with explicit heap limits. A thread's young generation is
 * most of what it costs beyond its live data: V8 grows it to its limit during any long run of
 * allocation (every batch makes short-lived rows), and keeps it while the thread lives.
 *
 * The limits go through `resourceLimits` only. V8's `--max-semi-space-size` flag, once set in a
 * process (`v8.setFlagsFromString`), overrides `resourceLimits` for every isolate made after it,
 * and does not change the main thread's, so nothing in this project sets it.
 */
import { availableParallelism } from 'node:os';
import { setFlagsFromString } from 'node:v8';
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

/**
 * On a machine of two cores or fewer, makes V8's young-generation collections run on the
 * collecting thread alone, process-wide from then on (V8 reads the flag at each collection).
 * V8 hands part of each such collection to helper threads; while the engine's two threads hold
 * both cores, the collecting thread waits for a helper to get one. Measured on 2 cores (1M-row
 * dry run, 10 in-turn pairs with the flag given on the command line): wall 0.969x, CPU 0.99x,
 * the same peak RSS. With more cores the helpers have their own, so nothing changes there.
 */
export function scavengeAloneOnTwoCores(): void {
  if (availableParallelism() <= 2) setFlagsFromString('--no-parallel-scavenge');
}

