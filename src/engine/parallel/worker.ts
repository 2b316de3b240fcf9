/**
 * A parallel run's worker thread: finds where the file's parts start, then runs parts (part.ts),
 * taking the next part in file order as the main thread (run.ts) does (claims.ts), and appends
 * each batch's text and data to its spill file, sending the main thread a small notice per batch.
 */
import { serialize } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { claimNext } from './claims.js';
import type { BatchMessage, DoneMessage, EndMessage, SplitJob, SplitMessage, WorkerJob } from './protocol.js';
import { runPart } from './part.js';
import { splitPoints } from './split.js';
import { writeAll } from '../write/fd.js';

const port = parentPort!;

port.on('message', (message: WorkerJob | SplitJob) => {
  if ('split' in message) {
    split(message.split).catch((error: unknown) => setImmediate(() => { throw error; }));
  } else {
    run(message).catch((error: unknown) => {
      // Rethrown outside the promise chain: the main thread sees it as the worker's 'error' event.
      setImmediate(() => { throw error; });
    });
  }
});

/** Sends where the second part starts as soon as it is found, then every part's start. */
async function split({ path, size, aims }: SplitJob['split']): Promise<void> {
  const first = await splitPoints(path, size, aims.slice(0, 1));
  port.postMessage({ type: 'split', points: first, complete: first.length === 0 } satisfies SplitMessage);
  if (first.length === 0) return;
  const rest = await splitPoints(path, size, aims.slice(1), first[0]);
  port.postMessage({ type: 'split', points: [...first, ...rest], complete: true } satisfies SplitMessage);
}

async function run(job: WorkerJob): Promise<void> {
  /** Bytes of the parts this worker finished. */
  let before = 0;
  for (let index = claimNext(job.claims, job.parts.length); index >= 0; index = claimNext(job.claims, job.parts.length)) {
    const range = job.parts[index];
    let bytes = before;
    const part = runPart({ ...job, part: range }, (n) => { bytes = before + n; });
    for (;;) {
      const next = await part.next();
      if (next.done) {
        port.postMessage({ type: 'done', part: index, ...next.value } satisfies DoneMessage);
        break;
      }
      const { text, data } = next.value;
      // Appended at the descriptor's offset, which only this thread moves (the main thread reads at positions).
      writeAll(job.spill, text);
      const serialized = serialize(data);
      writeAll(job.spill, serialized);
      const message: BatchMessage = { type: 'batch', part: index, length: text.length, dataLength: serialized.length, bytes };
      port.postMessage(message);
    }
    before += range.end - range.start;
  }
  port.postMessage({ type: 'end' } satisfies EndMessage);
}
