/** Text processing: regular-expression replacement and casing per field. */
import type { TextProcessingUpdate } from '../../contract/index.js';
import type { CallOptions } from '../client.js';
import { path } from '../path.js';
import { Resource } from '../resource.js';

/** GET and POST /text-processing-methods/{jobId}. */
export class Text extends Resource {
  /** The job's current text processing methods, read tolerantly (suggestions with confidence, or what an update set). */
  get(jobId: string, o?: CallOptions) { return this.getWithBody(jobId, o).then((r) => r.value); }
  /** The same read, with the service's body as it was sent (`get -o json` prints it unchanged). */
  getWithBody(jobId: string, o?: CallOptions) { return this.client.read('text', path`/text-processing-methods/${jobId}`, o); }
  /** Replaces the text processing methods with a complete body, checked strictly first (safe to repeat, so retried). */
  update(jobId: string, body: TextProcessingUpdate, o?: CallOptions) { return this.client.update('text', path`/text-processing-methods/${jobId}`, body, o); }
}
