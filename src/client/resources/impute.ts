/** Impute methods: what to do with missing values per field. */
import type { ImputeRead, ImputeUpdate } from '../../contract/index.js';
import type { CallOptions } from '../client.js';
import { path } from '../path.js';
import { Resource } from '../resource.js';

/** GET and POST /impute-methods/{jobId}. */
export class Impute extends Resource {
  /** The job's current impute methods (suggestions with confidence, or what an update set). */
  get(jobId: string, o?: CallOptions) { return this.client.get<ImputeRead>(path`/impute-methods/${jobId}`, o); }
  /** Replaces the impute methods with a complete body (safe to repeat, so retried). */
  update(jobId: string, body: ImputeUpdate, o?: CallOptions) { return this.client.post<unknown>(path`/impute-methods/${jobId}`, { body, expect: 'lenient', ...o }); }
}
