/** Errors the local service answers with: a status and the JSON body `{"error": {"code", "message"}}`. */

/** Machine-readable error codes of the local service (the seed shows none: these are ours). */
export type ErrorCode =
  | 'invalid_body'
  | 'unauthorized'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'request_timeout'
  | 'too_large'
  | 'unsupported_media_type'
  | 'invalid_value'
  | 'invalid_input'
  | 'job_failed'
  | 'unavailable'
  | 'bad_gateway'
  | 'internal';

/** A request the service refuses, answered as `{"error": {"code", "message"}}` with `status`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** Extra members of the answer body, beside `error` (e.g. `jobId` and `status` of a failed run). */
    readonly extra: Record<string, unknown> = {},
    /** Extra response headers (e.g. `Allow` for 405). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** 400: the body is not JSON, or not of the seed's shape. */
export function invalidBody(message: string): HttpError {
  return new HttpError(400, 'invalid_body', message);
}

/** 422: a value the seed does not allow, or one that does not fit this job. */
export function invalidValue(message: string): HttpError {
  return new HttpError(422, 'invalid_value', message);
}

/** 404: no job with this id. */
export function jobNotFound(jobId: string): HttpError {
  return new HttpError(404, 'not_found', `No job ${JSON.stringify(jobId)} on this service; start one with POST /start.`);
}

/** 409: the job's state does not allow the call. */
export function conflict(message: string): HttpError {
  return new HttpError(409, 'conflict', message);
}

/** 413: the upload or body is over the limit. */
export function tooLarge(message: string): HttpError {
  return new HttpError(413, 'too_large', message);
}
