/** Error classes: code throws them, only `main` prints them and turns them into exit codes. */

/** Exit codes of cli.md, the one place they are defined. */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  review: 5,
  planChanges: 6,
  interrupted: 130,
  /** stdout was closed early (`import ... | head`): as other Unix tools, 128 + SIGPIPE. */
  stdoutClosed: 141,
} as const;

/** Base of every error we expect: a one-sentence message and the exit code it maps to. */
export class ImportError extends Error {
  readonly exitCode: number = EXIT.failure;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Bad flags, bad job file, invalid input or value: nothing was sent. */
export class UsageError extends ImportError {
  override readonly exitCode: number = EXIT.usage;
}

/** A job-file problem with a position; `location` is `file:line:col`. */
export class JobFileError extends UsageError {
  constructor(readonly location: string, readonly detail: string, readonly problems: JobFileProblem[] = []) {
    super(`${location}: ${detail}`);
  }
}

/** One problem found while validating a job file. */
export interface JobFileProblem { file: string; line: number; col: number; message: string }

/** The service answered with a non-2xx status (other than auth and not-found), or the job failed. */
export class ApiError extends ImportError {
  constructor(message: string, readonly status?: number, readonly serviceMessage?: string) {
    super(message);
  }
}

/** The network failed: connection refused, reset, timed out. */
export class NetworkError extends ImportError {}

/** 401/403. */
export class AuthError extends ApiError {
  override readonly exitCode: number = EXIT.auth;
}

/** 404: the job is unknown to the service. */
export class NotFoundError extends ApiError {
  override readonly exitCode: number = EXIT.notFound;
}

/** The review gate stopped the run, a review was declined, or a data-quality limit was passed. */
export class ReviewRequiredError extends ImportError {
  override readonly exitCode: number = EXIT.review;
}

/** Ctrl-C or an aborted prompt. */
export class CancelledError extends ImportError {
  override readonly exitCode: number = EXIT.interrupted;
}

/** Ends a command with a given exit code and no message (e.g. `plan --detailed-exitcode` → 6). */
export class SilentExit extends ImportError {
  constructor(override readonly exitCode: number) {
    super('');
  }
}

/** Control characters (C0, DEL, C1): a terminal acts on them (ESC starts an escape sequence). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * Text from outside (a service's answer) made safe to print: every control character is written
 * as its `\uXXXX` escape, so an answer can neither drive the terminal nor break a line.
 */
export function printable(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Names for a message: all of them when few, else the first ten and how many more (`""` for an empty name). */
export function nameList(names: readonly string[]): string {
  if (names.length === 0) return '(none)';
  const shown = names.slice(0, 10).map((n) => (n === '' ? '""' : n)).join(', ');
  return names.length > 10 ? `${shown} and ${names.length - 10} more` : shown;
}
