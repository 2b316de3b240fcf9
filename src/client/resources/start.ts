/** Starting a job: the multipart form with the input. */
import type { StartForm } from '../../contract/index.js';
import { ApiError } from '../../errors.js';
import type { CallOptions } from '../client.js';
import { multipartBody, startFields, type UploadFile } from '../multipart.js';
import { Resource } from '../resource.js';

/** What `start` sends: the form's text fields and at most one file. */
export interface StartUpload {
  form: StartForm;
  file?: UploadFile;
  /** File bytes sent so far (for a progress bar). */
  onProgress?: (bytes: number) => void;
}

/** POST /start. */
export class Start extends Resource {
  /** Starts a job and returns its id; never retried, since a repeat could create a second job. */
  async send(upload: StartUpload, o?: CallOptions): Promise<string> {
    const raw = multipartBody(startFields(upload.form), upload.file, upload.onProgress);
    const text = await this.client.post<string>('/start', { raw, retry: false, expect: 'text', ...o });
    return parseJobId(text, this.client.urlOf('/start'));
  }
}

/**
 * The job id in the answer to start. Seed: the raw answer is not shown, so we accept a JSON
 * object with `jobId`, a bare JSON string, or the id as plain text.
 */
export function parseJobId(text: string, url = '/start'): string {
  const trimmed = text.trim();
  let value: unknown = trimmed;
  try { value = JSON.parse(trimmed); } catch { /* plain text id */ }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const id = (value as Record<string, unknown>).jobId ?? (value as Record<string, unknown>).job_id;
    if (typeof id === 'string' && id !== '') return id;
    if (typeof id === 'number') return String(id);
  } else if (typeof value === 'string' && value !== '' && !/[\s<>{}]/.test(value)) {
    return value;
  } else if (typeof value === 'number') {
    return String(value);
  }
  const shown = trimmed.length > 200 ? trimmed.slice(0, 200) + '…' : trimmed;
  throw new ApiError(`The service's answer to POST ${url} holds no job id ("${shown.replace(/\s+/g, ' ')}"); expected {"jobId": "..."}.`);
}
