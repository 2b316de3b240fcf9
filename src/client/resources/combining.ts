/** Column combining: how several columns mapped to one field are joined. */
import type { ColumnCombiningRead, ColumnCombiningUpdate } from '../../contract/index.js';
import type { CallOptions } from '../client.js';
import { path } from '../path.js';
import { Resource } from '../resource.js';

/** GET and POST /column-combining-methods/{jobId}. */
export class Combining extends Resource {
  /** The job's current column combining methods (suggestions with confidence, or what an update set). */
  get(jobId: string, o?: CallOptions) { return this.client.get<ColumnCombiningRead>(path`/column-combining-methods/${jobId}`, o); }
  /** Replaces the column combining methods with a complete body (safe to repeat, so retried). */
  update(jobId: string, body: ColumnCombiningUpdate, o?: CallOptions) { return this.client.post<unknown>(path`/column-combining-methods/${jobId}`, { body, expect: 'lenient', ...o }); }
}
