/**
 * A parallel run's worker thread: finds the split point, then runs the file's second part
 * (part.ts) and appends each batch's text and data to its spill file, sending the main thread
 * (run.ts) a small notice per batch.
 */
import { writeSync } from 'node:fs';
import { serialize } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import type { BatchMessage, CreditMessage, DoneMessage, SplitJob, SplitMessage, WorkerJob } from './protocol.js';
import { runPart } from './part.js';
import { splitPoint } from './split.js';

const port = parentPort!;

let inFlight = 0;
let wake: (() => void) | undefined;
port.on('message', (message: WorkerJob | CreditMessage | SplitJob) => {
  if ('split' in message) {
    splitPoint(message.split.path, message.split.size, message.split.share).then((at) => {
      const answer: SplitMessage = { split: at ?? null };
      port.postMessage(answer);
    }, (error: unknown) => setImmediate(() => { throw error; }));
  } else if ('credit' in message) {
    inFlight -= message.credit;
    wake?.();
    wake = undefined;
  } else {
    run(message).catch((error: unknown) => {
      // Rethrown outside the promise chain: the main thread sees it as the worker's 'error' event.
      setImmediate(() => { throw error; });
    });
  }
});

async function run(job: WorkerJob): Promise<void> {
  let bytes = 0;
  const part = runPart(job, (n) => { bytes = n; });
  for (;;) {
    const next = await part.next();
    if (next.done) {
      port.postMessage({ type: 'done', ...next.value } satisfies DoneMessage);
      return;
    }
    const { text, data } = next.value;
    writeAll(job.spill, text);
    const serialized = serialize(data);
    writeAll(job.spill, serialized);
    const message: BatchMessage = { type: 'batch', length: text.length, dataLength: serialized.length, bytes };
    port.postMessage(message);
    if (++inFlight >= job.maxInFlight) await new Promise<void>((resolve) => { wake = resolve; });
  }
}

/** Appends all of `bytes` to a file (at its descriptor's offset, which only this thread moves: the main thread reads at positions). */
function writeAll(fd: number, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
}
