/** Unit conversion per field. */
import type { UnitsRead, UnitsUpdate } from '../../contract/index.js';
import type { CallOptions } from '../client.js';
import { path } from '../path.js';
import { Resource } from '../resource.js';

/** GET and POST /units/{jobId}. */
export class Units extends Resource {
  /** The job's current unit conversions (suggestions with confidence, or what an update set). */
  get(jobId: string, o?: CallOptions) { return this.client.get<UnitsRead>(path`/units/${jobId}`, o); }
  /** Replaces the unit conversions with a complete body (safe to repeat, so retried). */
  update(jobId: string, body: UnitsUpdate, o?: CallOptions) { return this.client.post<unknown>(path`/units/${jobId}`, { body, expect: 'lenient', ...o }); }
}
