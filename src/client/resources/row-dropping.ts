/** Row dropping: constraints whose violating rows are dropped. */
import type { RowDroppingUpdate } from '../../contract/index.js';
import type { CallOptions } from '../client.js';
import { path } from '../path.js';
import { Resource } from '../resource.js';

/** GET and POST /row-dropping-methods/{jobId}. */
export class RowDropping extends Resource {
  /** The job's current row dropping methods, read tolerantly (suggestions with confidence, or what an update set). */
  get(jobId: string, o?: CallOptions) { return this.getWithBody(jobId, o).then((r) => r.value); }
  /** The same read, with the service's body as it was sent (`get -o json` prints it unchanged). */
  getWithBody(jobId: string, o?: CallOptions) { return this.client.read('rowDropping', path`/row-dropping-methods/${jobId}`, o); }
  /** Replaces the row dropping methods with a complete body, checked strictly first (safe to repeat, so retried). */
  update(jobId: string, body: RowDroppingUpdate, o?: CallOptions) { return this.client.update('rowDropping', path`/row-dropping-methods/${jobId}`, body, o); }
}
