/** Worker-thread entry of the local service: performs engine tasks posted by executor.ts, off the request thread. */
import { parentPort } from 'node:worker_threads';
import { toFailure, type Task } from './task-protocol.js';
import { performTask } from './tasks.js';

/** A task as posted to the worker. */
export interface TaskMessage { id: number; task: Task }

const port = parentPort;
if (!port) throw new Error('worker.js must run in a worker thread');

port.on('message', (message: TaskMessage) => {
  // Several tasks may be in flight: the engine is asynchronous and yields between batches.
  performTask(message.task).then(
    (result) => port.postMessage({ id: message.id, ok: true, result }),
    (error: unknown) => port.postMessage({ id: message.id, ok: false, failure: toFailure(error) }),
  );
});
