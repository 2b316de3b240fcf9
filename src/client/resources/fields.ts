/** Fields: the column-to-field mapping. */
import type { FieldsRead, FieldsUpdate } from '../../contract/index.js';
import type { CallOptions } from '../client.js';
import { path } from '../path.js';
import { Resource } from '../resource.js';

/** GET and POST /fields/{jobId}. */
export class Fields extends Resource {
  /** The job's current column-to-field mapping (suggestions with confidence, or what an update set). */
  get(jobId: string, o?: CallOptions) { return this.client.get<FieldsRead>(path`/fields/${jobId}`, o); }
  /** Replaces the column-to-field mapping with a complete body (safe to repeat, so retried). */
  update(jobId: string, body: FieldsUpdate, o?: CallOptions) { return this.client.post<unknown>(path`/fields/${jobId}`, { body, expect: 'lenient', ...o }); }
}
