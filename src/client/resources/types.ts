/** Data types of the output fields. */
import type { DataTypesRead, DataTypesUpdate } from '../../contract/index.js';
import type { CallOptions } from '../client.js';
import { path } from '../path.js';
import { Resource } from '../resource.js';

/** GET and POST /field-data-types/{jobId}. */
export class Types extends Resource {
  /** The job's current field data types (suggestions with confidence, or what an update set). */
  get(jobId: string, o?: CallOptions) { return this.client.get<DataTypesRead>(path`/field-data-types/${jobId}`, o); }
  /** Replaces the field data types with a complete body (safe to repeat, so retried). */
  update(jobId: string, body: DataTypesUpdate, o?: CallOptions) { return this.client.post<unknown>(path`/field-data-types/${jobId}`, { body, expect: 'lenient', ...o }); }
}
