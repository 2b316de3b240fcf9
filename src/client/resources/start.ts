/** Starting a job: the multipart form with the input. */
import type { StartForm } from '../../contract/index.js';
import { check } from '../../contract/check.js';
import { StartAnswer, StartForm as StartFormSchema } from '../../contract/schemas.js';
import { ApiError, printable, UsageError } from '../../errors.js';
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
    const form = check(StartFormSchema, upload.form);
    if (!form.ok) throw new UsageError(`The start form is not in the seed's shape: ${form.problem.path || 'the form'} ${form.problem.problem}; nothing was sent.`);
    const raw = multipartBody(startFields(form.value), upload.file, upload.onProgress);
    const webhook = form.value.webhookUrl !== undefined ? ' or in the start webhook sent to your webhook URL' : '';
    // This CLI has no command that lists jobs (the seed has no such endpoint), so the check is on the service.
    const unanswered = `${MAY_HAVE_CREATED} though its id never came back, so look for it there${webhook} before starting again, which would create a second job`;
    const text = await this.client.post<string>('/start', { raw, retry: false, expect: 'text', unanswered, ...o });
    return parseJobId(text, this.client.urlOf('/start'));
  }
}

/** What a start sent but not (usably) answered may have done. */
const MAY_HAVE_CREATED = 'a job may have been created on the service';

/**
 * The job id in the answer to start (contract StartAnswer: a JSON object with `jobId`, a bare JSON
 * string, or the id as plain text; seed: the raw answer is not shown).
 */
export function parseJobId(text: string, url = '/start'): string {
  const answer = check(StartAnswer, text);
  if (answer.ok) return answer.value.jobId;
  const trimmed = text.trim();
  const shown = printable(trimmed.length > 200 ? trimmed.slice(0, 200) + '…' : trimmed);
  // The start was sent and answered 2xx: the service may well have created a job.
  const created = `${MAY_HAVE_CREATED}; check there before starting again`;
  if (answer.problem.problem.startsWith('gives the job id')) {
    throw new ApiError(`The service's answer to POST ${url} cannot be used: it ${printable(answer.problem.problem)}; ${created}.`);
  }
  throw new ApiError(`The service's answer to POST ${url} holds no job id ("${shown.replace(/\s+/g, ' ')}"); expected {"jobId": "..."}; ${created}.`);
}
