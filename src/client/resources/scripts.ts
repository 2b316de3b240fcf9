/** Scripts attached to a job (read only: they are attached by `start`). */
import type { CallOptions } from '../client.js';
import { path } from '../path.js';
import { Resource } from '../resource.js';

/** GET /scripts/{jobId}. */
export class Scripts extends Resource {
  /** The script ids that run before column mapping and after cleaning, read tolerantly. */
  get(jobId: string, o?: CallOptions) { return this.getWithBody(jobId, o).then((r) => r.value); }
  /** The same read, with the service's body as it was sent. */
  getWithBody(jobId: string, o?: CallOptions) { return this.client.read('scripts', path`/scripts/${jobId}`, o); }
}
