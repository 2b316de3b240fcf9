/** Pivot of the data. */
import type { PivotRead, PivotUpdate } from '../../contract/index.js';
import type { CallOptions } from '../client.js';
import { path } from '../path.js';
import { Resource } from '../resource.js';

/** GET and POST /pivot/{jobId}. */
export class Pivot extends Resource {
  /** The job's current pivot (suggestions with confidence, or what an update set). */
  get(jobId: string, o?: CallOptions) { return this.client.get<PivotRead>(path`/pivot/${jobId}`, o); }
  /** Replaces the pivot with a complete body (safe to repeat, so retried). */
  update(jobId: string, body: PivotUpdate, o?: CallOptions) { return this.client.post<unknown>(path`/pivot/${jobId}`, { body, expect: 'lenient', ...o }); }
}
