/** Unit conversion per field. */
import type { UnitsUpdate } from '../../contract/index.js';
import type { CallOptions } from '../client.js';
import { path } from '../path.js';
import { Resource } from '../resource.js';

/** GET and POST /units/{jobId}. */
export class Units extends Resource {
  /** The job's current unit conversions, read tolerantly (suggestions with confidence, or what an update set). */
  get(jobId: string, o?: CallOptions) { return this.getWithBody(jobId, o).then((r) => r.value); }
  /** The same read, with the service's body as it was sent (`get -o json` prints it unchanged). */
  getWithBody(jobId: string, o?: CallOptions) { return this.client.read('units', path`/units/${jobId}`, o); }
  /** Replaces the unit conversions with a complete body, checked strictly first (safe to repeat, so retried). */
  update(jobId: string, body: UnitsUpdate, o?: CallOptions) { return this.client.update('units', path`/units/${jobId}`, body, o); }
}
