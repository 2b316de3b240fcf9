/** Column combining: how several columns mapped to one field are joined. */
import type { ColumnCombiningUpdate } from '../../contract/index.js';
import type { CallOptions } from '../client.js';
import { path } from '../path.js';
import { Resource } from '../resource.js';

/** GET and POST /column-combining-methods/{jobId}. */
export class Combining extends Resource {
  /** The job's current column combining methods, read tolerantly (suggestions with confidence, or what an update set). */
  get(jobId: string, o?: CallOptions) { return this.getWithBody(jobId, o).then((r) => r.value); }
  /** The same read, with the service's body as it was sent (`get -o json` prints it unchanged). */
  getWithBody(jobId: string, o?: CallOptions) { return this.client.read('combining', path`/column-combining-methods/${jobId}`, o); }
  /** Replaces the column combining methods with a complete body, checked strictly first (safe to repeat, so retried). */
  update(jobId: string, body: ColumnCombiningUpdate, o?: CallOptions) { return this.client.update('combining', path`/column-combining-methods/${jobId}`, body, o); }
}
