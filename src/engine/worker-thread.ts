/**
 * Engine worker threads, each made with explicit heap limits. A thread's young generation is
 * most of what it costs beyond its live data: V8 grows it to its limit during any long run of
 * allocation (every batch makes short-lived rows), and keeps it while the thread lives.
 *
 * The limits go through `resourceLimits` only. V8's `--max-semi-space-size` flag, once set in a
 * process (`v8.setFlagsFromString`), overrides `resourceLimits` for every isolate made after it,
 * and does not change the main thread's, so nothing in this project sets it. The V8 flags this
 * module does set are about V8's helper threads on two cores (leaveV8HelpersOutOnTwoCores).
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
 * On a machine of two cores or fewer, where the engine's two threads hold both cores, V8's own
 * helper threads wait for a core while the thread that needs their work waits for them. So,
 * process-wide from then on:
 * - young-generation collections run on the collecting thread alone (V8 reads the flag at each
 *   collection: `--trace-gc-nvp` shows `background.scavenge.parallel=0`);
 * - threads started afterwards, the worker made next among them, optimise code on their own
 *   thread instead of handing it to a helper (read when a thread starts: `--trace-opt` shows the
 *   worker's compiles as kSynchronous; the main thread keeps its helper).
 * Measured on 2 cores, 1M-row dry run, in-turn pairs: the first 0.978x and 0.985x of the wall
 * time (12 and 10 pairs; on the command line 0.969x), the second 0.971x more (10 pairs, CPU 0.97x),
 * the same peak RSS. With more cores the helpers have cores of their own, so nothing changes.
 */
export function leaveV8HelpersOutOnTwoCores(): void {
  if (availableParallelism() > 2) return;
  setFlagsFromString('--no-parallel-scavenge');
  setFlagsFromString('--no-concurrent-recompilation');
}
