/** Impute methods: what to do with missing values per field. */
import type { ImputeUpdate } from '../../contract/index.js';
import type { CallOptions } from '../client.js';
import { path } from '../path.js';
import { Resource } from '../resource.js';

/** GET and POST /impute-methods/{jobId}. */
export class Impute extends Resource {
  /** The job's current impute methods, read tolerantly (suggestions with confidence, or what an update set). */
  get(jobId: string, o?: CallOptions) { return this.getWithBody(jobId, o).then((r) => r.value); }
  /** The same read, with the service's body as it was sent (`get -o json` prints it unchanged). */
  getWithBody(jobId: string, o?: CallOptions) { return this.client.read('impute', path`/impute-methods/${jobId}`, o); }
  /** Replaces the impute methods with a complete body, checked strictly first (safe to repeat, so retried). */
  update(jobId: string, body: ImputeUpdate, o?: CallOptions) { return this.client.update('impute', path`/impute-methods/${jobId}`, body, o); }
}
