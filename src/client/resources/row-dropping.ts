/** Row dropping: constraints whose violating rows are dropped. */
import type { RowDroppingRead, RowDroppingUpdate } from '../../contract/index.js';
import type { CallOptions } from '../client.js';
import { path } from '../path.js';
import { Resource } from '../resource.js';

/** GET and POST /row-dropping-methods/{jobId}. */
export class RowDropping extends Resource {
  /** The job's current row dropping methods (suggestions with confidence, or what an update set). */
  get(jobId: string, o?: CallOptions) { return this.client.get<RowDroppingRead>(path`/row-dropping-methods/${jobId}`, o); }
  /** Replaces the row dropping methods with a complete body (safe to repeat, so retried). */
  update(jobId: string, body: RowDroppingUpdate, o?: CallOptions) { return this.client.post<unknown>(path`/row-dropping-methods/${jobId}`, { body, expect: 'lenient', ...o }); }
}
