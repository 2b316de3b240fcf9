/** Scripts attached to a job (read only: they are attached by `start`). */
import type { ScriptsRead } from '../../contract/index.js';
import type { CallOptions } from '../client.js';
import { path } from '../path.js';
import { Resource } from '../resource.js';

/** GET /scripts/{jobId}. */
export class Scripts extends Resource {
  /** The script ids that run before column mapping and after cleaning. */
  get(jobId: string, o?: CallOptions) { return this.client.get<ScriptsRead>(path`/scripts/${jobId}`, o); }
}
