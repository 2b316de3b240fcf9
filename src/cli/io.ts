/** Terminal I/O: data to stdout, status and errors to stderr, colour and TTY decisions in one place. */
import type { Writable } from 'node:stream';

/** Where a command writes, and what the terminal allows. */
export interface IO {
  stdout: Writable;
  stderr: Writable;
  stdin: NodeJS.ReadableStream;
  isStdoutTTY: boolean;
  isStderrTTY: boolean;
  isStdinTTY: boolean;
  /** Colour allowed (not NO_COLOR, not --no-color, stdout a TTY). */
  color: boolean;
  /** Writes data to stdout. */
  out(text: string): void;
  /** Writes a status line to stderr. */
  status(text: string): void;
  /** Writes a warning line to stderr. */
  warn(text: string): void;
  /** Prompts are possible: stdin and stderr are terminals and we are not in CI. */
  canPrompt(): boolean;
}

/** The process's real I/O. */
export function systemIO(env: NodeJS.ProcessEnv = process.env): IO {
  const isStdoutTTY = Boolean(process.stdout.isTTY);
  const color = isStdoutTTY && !('NO_COLOR' in env && env.NO_COLOR !== '');
  return makeIO({
    stdout: process.stdout, stderr: process.stderr, stdin: process.stdin,
    isStdoutTTY, isStderrTTY: Boolean(process.stderr.isTTY), isStdinTTY: Boolean(process.stdin.isTTY), color,
    ci: Boolean(env.CI && env.CI !== 'false' && env.CI !== '0'),
  });
}

/** Builds an IO over any streams (tests pass buffers). */
export function makeIO(o: {
  stdout: Writable; stderr: Writable; stdin: NodeJS.ReadableStream;
  isStdoutTTY: boolean; isStderrTTY: boolean; isStdinTTY: boolean; color: boolean; ci?: boolean;
}): IO {
  const io: IO = {
    stdout: o.stdout, stderr: o.stderr, stdin: o.stdin,
    isStdoutTTY: o.isStdoutTTY, isStderrTTY: o.isStderrTTY, isStdinTTY: o.isStdinTTY, color: o.color,
    out: (text) => { o.stdout.write(text.endsWith('\n') ? text : text + '\n'); },
    status: (text) => { o.stderr.write(text.endsWith('\n') ? text : text + '\n'); },
    warn: (text) => { o.stderr.write(`warning: ${text}\n`); },
    canPrompt: () => o.isStdinTTY && o.isStderrTTY && !o.ci,
  };
  return io;
}

/** A count with its noun, singular for one: `1 row`, `2 rows`. */
export function countOf(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}
