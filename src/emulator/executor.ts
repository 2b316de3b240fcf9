/**
 * Where engine tasks run: a small pool of worker threads, so a job processing a large file never
 * blocks the event loop that answers requests; or the calling thread, when the service runs from
 * TypeScript sources (vitest), where a worker cannot load the `.ts` modules.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { engineWorker } from '../engine/worker-thread.js';
import { TaskError, toFailure, type Task, type TaskFailure, type TaskResult } from './task-protocol.js';

/** Runs engine tasks. */
export interface Executor {
  /** `worker` (a thread pool) or `inline` (the calling thread). */
  readonly mode: 'worker' | 'inline';
  /**
   * Performs a task; rejects with a TaskError when it fails, or a StoppedError once closed. With
   * `timeoutMs`, a task still running then is stopped (its thread ends) and rejects with kind
   * `timeout` (worker mode only: work in the calling thread cannot be stopped). With `freshThread`,
   * the task runs on a thread that has run nothing before, ended after it, unless another such task
   * holds one: then it shares the pool's threads (worker mode only).
   */
  perform(task: Task, options?: { timeoutMs?: number; freshThread?: boolean }): Promise<TaskResult>;
  /** Starts loading a fresh thread for a `freshThread` task to come, unless one is ready (worker mode only). */
  prepareFreshThread(): void;
  /** Stops every worker; tasks in flight reject with StoppedError. */
  close(): Promise<void>;
}

/** A task abandoned because the service is stopping. */
export class StoppedError extends Error {
  constructor() {
    super('the service is stopping');
    this.name = 'StoppedError';
  }
}

/** Options of `createExecutor`. */
export interface ExecutorOptions {
  /** `auto`: workers when the compiled worker script exists beside this module, else inline. */
  mode?: 'auto' | 'worker' | 'inline';
  /** Most worker threads (default: the CPU count, at least 2 and at most 4). */
  threads?: number;
  /** Old-generation heap limit of each worker, in MiB (default 1024). */
  workerMemoryMb?: number;
}

/**
 * Default heap limit of an engine worker. Besides bounding a runaway job, a limit makes V8 collect
 * sooner: the 1M-row reference run peaks near 200 MiB RSS with it, near 300 MiB with Node's
 * default limit (a quarter of the machine's memory), at the same speed.
 */
export const DEFAULT_WORKER_MEMORY_MB = 1024;

/**
 * Semi-space of a large run's own engine thread (MiB; `freshThread`, the spare included): V8's
 * default, as the dry run's main thread has. At 8 its young generation is collected twice as often,
 * which cost the 1M-row run about 20% more CPU (5.1 s at 16, 6.3 s at 8, in turn on this 2-core
 * machine) for about 12 MiB less peak RSS: on a busy machine the CPU is the wall time.
 */
const RUN_SEMI_SPACE_MB = 16;

/**
 * Semi-space of the pool's shared threads (MiB), which take every task but large runs: starts,
 * updates and small runs. V8 grows a young generation up to its limit as a thread allocates and
 * does not give it back, so at 16 the shared threads' heaps crept up with the job count: after
 * 10,000 small jobs (`serve-jobs` bench) the server's RSS was 217 MiB, 1.27x that after 1,000; at 4
 * it is 175 MiB, 1.07x, at the same jobs/s.
 */
const SHARED_SEMI_SPACE_MB = 4;

/**
 * Runs of inputs at least this large get a fresh engine thread (`freshThread`). V8 sizes a thread's
 * heap from its history: a thread that has worked and then idled (an earlier job, this job's start,
 * then the wait for `run`) went into about half of the 1M-row reference runs collecting its old
 * generation every ~0.15 s (25-28 mark-compacts instead of 3, scavenges twice as dear: ~1 s more
 * CPU, 6.0-6.4 s instead of 5.0-5.3 s for the whole run, in turn, 15 runs), while a thread that
 * had only loaded the engine, idle 3 or 12 s, did not (1 of 9 mildly: 6). Starting a thread costs
 * ~0.16 s of CPU and ~19 MiB while it waits, spent beforehand (the spare is made when a job of this
 * size starts, and again after each such run): worth it for long runs only; smaller jobs share the pool's threads.
 */
export const FRESH_THREAD_MIN_BYTES = 8 << 20;

/** The compiled worker script, when this module runs from the build. */
function workerScript(): string | undefined {
  const url = new URL('./worker.js', import.meta.url);
  if (!import.meta.url.endsWith('.js')) return undefined;
  const path = fileURLToPath(url);
  return existsSync(path) ? path : undefined;
}

/** Creates the executor: a worker pool from the build, the calling thread from sources. */
export function createExecutor(options: ExecutorOptions = {}): Executor {
  const mode = options.mode ?? 'auto';
  const script = mode === 'inline' ? undefined : workerScript();
  if (mode === 'worker' && !script) throw new Error('worker threads need the built service (npm run build)');
  if (!script) return new InlineExecutor();
  const threads = options.threads ?? Math.max(2, Math.min(4, availableParallelism()));
  return new WorkerPool(script, threads, options.workerMemoryMb ?? DEFAULT_WORKER_MEMORY_MB);
}

class InlineExecutor implements Executor {
  readonly mode = 'inline' as const;
  private closed = false;

  async perform(task: Task): Promise<TaskResult> {
    if (this.closed) throw new StoppedError();
    try {
      // Loaded on first use: in worker mode the request thread never loads the engine's readers and writers.
      const { performTask } = await import('./tasks.js');
      return await performTask(task);
    } catch (e) {
      const failure = toFailure(e);
      throw new TaskError(failure.message, failure.kind);
    }
  }

  prepareFreshThread(): void {}

  async close(): Promise<void> {
    this.closed = true;
  }
}

interface Pending { resolve: (r: TaskResult) => void; reject: (e: Error) => void }
/** A thread: `shared` by tasks (the pool), the `spare` kept fresh for the next large run, or that `run`'s own. */
interface PoolWorker { worker: Worker; active: Map<number, Pending>; role: 'shared' | 'spare' | 'run' }
type Reply = { id: number; ok: true; result: TaskResult } | { id: number; ok: false; failure: TaskFailure };

/**
 * Worker threads created on demand up to `threads`. A task goes to an idle worker, else a new
 * one, else the least busy: a worker interleaves its tasks between batches, so a short task
 * (suggestions for a new job) is never queued behind a long run. A `freshThread` task takes the
 * spare thread (or a new one) for itself, when no other one holds such a thread; the thread ends
 * with it and a new spare is made.
 */
class WorkerPool implements Executor {
  readonly mode = 'worker' as const;
  private readonly workers: PoolWorker[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly script: string, private readonly threads: number, private readonly memoryMb: number) {
    // The first thread starts with the service: loading the engine in it takes 0.3-0.6 s of CPU,
    // which the first job's start would otherwise wait for.
    this.spawn('shared');
  }

  prepareFreshThread(): void {
    if (!this.closed && !this.workers.some((w) => w.role === 'spare')) this.spawn('spare');
  }

  perform(task: Task, options: { timeoutMs?: number; freshThread?: boolean } = {}): Promise<TaskResult> {
    if (this.closed) return Promise.reject(new StoppedError());
    // One run thread at a time: with several large runs at once the cores are busy anyway, and a
    // thread each took 8 runs of 200k rows from 463 to 725 MiB peak RSS and 5.0 to 7.5 s.
    const fresh = options.freshThread && !this.workers.some((w) => w.role === 'run');
    if (!fresh) return this.performOn(this.pick(), task, options.timeoutMs);
    const target = this.workers.find((w) => w.role === 'spare') ?? this.spawn('run');
    target.role = 'run';
    const done = () => {
      // Out of the pool at once, so the next large run may take a fresh thread before this one has exited.
      this.retire(target, new StoppedError());
      void target.worker.terminate();
      // The next spare loads after this run, not during it (the run has both cores' worth of work).
      this.prepareFreshThread();
    };
    const performed = this.performOn(target, task, options.timeoutMs);
    performed.then(done, done);
    return performed;
  }

  private performOn(target: PoolWorker, task: Task, ms: number | undefined): Promise<TaskResult> {
    const id = this.nextId++;
    return new Promise<TaskResult>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => { if (timer) clearTimeout(timer); };
      target.active.set(id, { resolve: (r) => { done(); resolve(r); }, reject: (e) => { done(); reject(e); } });
      target.worker.postMessage({ id, task });
      if (ms && ms > 0) {
        timer = setTimeout(() => this.expire(target, id, ms), ms);
        timer.unref();
      }
    });
  }

  /**
   * A task over its time: it cannot be stopped inside its thread (a regular expression or a
   * script may never yield), so the thread ends; the other tasks it held fail as `lost`.
   */
  private expire(target: PoolWorker, id: number, ms: number): void {
    const pending = target.active.get(id);
    if (!pending) return;
    target.active.delete(id);
    pending.reject(new TaskError(`ran longer than this service's limit of ${formatMs(ms)} (--job-timeout) and was stopped`, 'timeout'));
    this.retire(target, new TaskError('its engine thread was stopped under it (another job on the thread ran past its time limit)', 'lost'));
    void target.worker.terminate();
  }

  /** Takes a worker out of the pool and fails the tasks it held. */
  private retire(entry: PoolWorker, error: Error): void {
    const index = this.workers.indexOf(entry);
    if (index >= 0) this.workers.splice(index, 1);
    for (const pending of entry.active.values()) pending.reject(this.closed ? new StoppedError() : error);
    entry.active.clear();
  }

  private pick(): PoolWorker {
    const shared = this.workers.filter((w) => w.role === 'shared');
    const idle = shared.find((w) => w.active.size === 0);
    if (idle) return idle;
    if (shared.length < this.threads) return this.spawn('shared');
    return shared.reduce((a, b) => (b.active.size < a.active.size ? b : a));
  }

  private spawn(role: PoolWorker['role']): PoolWorker {
    const semiSpaceMb = role === 'shared' ? SHARED_SEMI_SPACE_MB : RUN_SEMI_SPACE_MB;
    const worker = engineWorker(this.script, { semiSpaceMb, maxOldGenerationSizeMb: this.memoryMb });
    const entry: PoolWorker = { worker, active: new Map(), role };
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const pending = entry.active.get(reply.id);
      if (!pending) return;
      entry.active.delete(reply.id);
      if (reply.ok) pending.resolve(reply.result);
      else pending.reject(new TaskError(reply.failure.message, reply.failure.kind));
    });
    // A crashed worker (out of memory, a bug) fails its tasks, not the service; they may run again.
    const fail = (error: Error) => this.retire(entry, error);
    worker.on('error', (error: Error & { code?: string }) => fail(new TaskError(error.code === 'ERR_WORKER_OUT_OF_MEMORY'
      ? `the job needs more memory than an engine worker may use (${this.memoryMb} MiB); start the service with a larger --worker-memory`
      : `the engine worker failed: ${error.message}`, 'lost')));
    worker.on('exit', (code) => fail(new TaskError(`the engine worker exited (code ${code})`, 'lost')));
    this.workers.push(entry);
    return entry;
  }

  async close(): Promise<void> {
    this.closed = true;
    const workers = this.workers.splice(0);
    for (const w of workers) {
      for (const pending of w.active.values()) pending.reject(new StoppedError());
      w.active.clear();
    }
    await Promise.all(workers.map((w) => w.worker.terminate()));
  }
}

/** A duration as people write it: `90 s`, `30 min`, `1.5 h`. */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000) return `${Math.round(ms / 100) / 10} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 6000) / 10} min`;
  return `${Math.round(ms / 360_000) / 10} h`;
}
