/** Pivot of the data. */
import type { PivotUpdate } from '../../contract/index.js';
import type { CallOptions } from '../client.js';
import { path } from '../path.js';
import { Resource } from '../resource.js';

/** GET and POST /pivot/{jobId}. */
export class Pivot extends Resource {
  /** The job's current pivot, read tolerantly (suggestions with confidence, or what an update set). */
  get(jobId: string, o?: CallOptions) { return this.getWithBody(jobId, o).then((r) => r.value); }
  /** The same read, with the service's body as it was sent (`get -o json` prints it unchanged). */
  getWithBody(jobId: string, o?: CallOptions) { return this.client.read('pivot', path`/pivot/${jobId}`, o); }
  /** Replaces the pivot with a complete body, checked strictly first (safe to repeat, so retried). */
  update(jobId: string, body: PivotUpdate, o?: CallOptions) { return this.client.update('pivot', path`/pivot/${jobId}`, body, o); }
}
