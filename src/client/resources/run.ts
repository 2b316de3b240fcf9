/** Running a job. */
import type { RunRequest } from '../../contract/index.js';
import { check } from '../../contract/check.js';
import { RunRequest as RunRequestSchema } from '../../contract/schemas.js';
import { UsageError } from '../../errors.js';
import type { CallOptions } from '../client.js';
import { path } from '../path.js';
import { Resource } from '../resource.js';

/** POST /run/{jobId}. */
export class Run extends Resource {
  /**
   * Runs the job with the run body (checked strictly first); never retried, since a repeat could
   * run it twice. The answer is JSON, text or nothing (seed: not shown), returned with its status
   * (a 202 accepts a job, it does not complete it) and URL; contract RunAnswer reads it.
   */
  send(jobId: string, body: RunRequest, o?: CallOptions) {
    const checked = check(RunRequestSchema, body);
    if (!checked.ok) throw new UsageError(`The run body is not in the seed's shape: ${checked.problem.path || 'the body'} ${checked.problem.problem}; nothing was sent.`);
    const webhook = checked.value.webhookUrl !== undefined ? ' or the run webhook sent to your webhook URL' : '';
    // The seed has no endpoint that shows a job's state, so the check is the run's effects.
    const unanswered = `job ${jobId} may have started and may still be running on the service, so check the pipeline's output destination${webhook} before running it again, which could run it twice`;
    return this.client.exchange<unknown>(path`/run/${jobId}`, { body: checked.value, method: 'POST', retry: false, expect: 'lenient', unanswered, ...o });
  }
}
