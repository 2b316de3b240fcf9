/** Running a job. */
import type { RunRequest } from '../../contract/index.js';
import type { CallOptions } from '../client.js';
import { path } from '../path.js';
import { Resource } from '../resource.js';

/** POST /run/{jobId}. */
export class Run extends Resource {
  /** Runs the job; never retried, since a repeat could run it twice. The answer is JSON or text (seed: not shown). */
  send(jobId: string, body: RunRequest, o?: CallOptions) { return this.client.post<unknown>(path`/run/${jobId}`, { body, retry: false, expect: 'lenient', ...o }); }
}
