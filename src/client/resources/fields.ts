/** Fields: the column-to-field mapping. */
import type { FieldsUpdate } from '../../contract/index.js';
import type { CallOptions } from '../client.js';
import { path } from '../path.js';
import { Resource } from '../resource.js';

/** GET and POST /fields/{jobId}. */
export class Fields extends Resource {
  /** The job's current column-to-field mapping, read tolerantly (suggestions with confidence, or what an update set). */
  get(jobId: string, o?: CallOptions) { return this.getWithBody(jobId, o).then((r) => r.value); }
  /** The same read, with the service's body as it was sent (`get -o json` prints it unchanged). */
  getWithBody(jobId: string, o?: CallOptions) { return this.client.read('fields', path`/fields/${jobId}`, o); }
  /** Replaces the column-to-field mapping with a complete body, checked strictly first (safe to repeat, so retried). */
  update(jobId: string, body: FieldsUpdate, o?: CallOptions) { return this.client.update('fields', path`/fields/${jobId}`, body, o); }
}
