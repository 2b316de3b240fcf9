/** Text processing: regular-expression replacement and casing per field. */
import type { TextProcessingRead, TextProcessingUpdate } from '../../contract/index.js';
import type { CallOptions } from '../client.js';
import { path } from '../path.js';
import { Resource } from '../resource.js';

/** GET and POST /text-processing-methods/{jobId}. */
export class Text extends Resource {
  /** The job's current text processing methods (suggestions with confidence, or what an update set). */
  get(jobId: string, o?: CallOptions) { return this.client.get<TextProcessingRead>(path`/text-processing-methods/${jobId}`, o); }
  /** Replaces the text processing methods with a complete body (safe to repeat, so retried). */
  update(jobId: string, body: TextProcessingUpdate, o?: CallOptions) { return this.client.post<unknown>(path`/text-processing-methods/${jobId}`, { body, expect: 'lenient', ...o }); }
}
