/** Data types of the output fields. */
import type { DataTypesUpdate } from '../../contract/index.js';
import type { CallOptions } from '../client.js';
import { path } from '../path.js';
import { Resource } from '../resource.js';

/** GET and POST /field-data-types/{jobId}. */
export class Types extends Resource {
  /** The job's current field data types, read tolerantly (suggestions with confidence, or what an update set). */
  get(jobId: string, o?: CallOptions) { return this.getWithBody(jobId, o).then((r) => r.value); }
  /** The same read, with the service's body as it was sent (`get -o json` prints it unchanged). */
  getWithBody(jobId: string, o?: CallOptions) { return this.client.read('dataTypes', path`/field-data-types/${jobId}`, o); }
  /** Replaces the field data types with a complete body, checked strictly first (safe to repeat, so retried). */
  update(jobId: string, body: DataTypesUpdate, o?: CallOptions) { return this.client.update('dataTypes', path`/field-data-types/${jobId}`, body, o); }
}
