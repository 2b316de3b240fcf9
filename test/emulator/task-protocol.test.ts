import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { InputLimitError } from '../../src/engine/read/limits.js';
import { TaskError, toFailure } from '../../src/emulator/task-protocol.js';

describe('task failures across the worker boundary', () => {
  it('carries the kind of failure import serve answers with: 413 for an input over a limit, 422 for the input, 500 for the service', () => {
    expect(toFailure(new InputLimitError('the header line is over 1 MiB', 'headerLine', 1))).toMatchObject({ kind: 'too_large', message: 'the header line is over 1 MiB' });
    expect(toFailure(new UsageError('no such column'))).toMatchObject({ kind: 'usage' });
    expect(toFailure(new Error('disk full'))).toMatchObject({ kind: 'internal' });
    expect(toFailure(new TaskError('ran longer than 2 s', 'timeout'))).toEqual({ message: 'ran longer than 2 s', kind: 'timeout' });
  });

  it('counts an input over a limit and a job over its time as the job\'s fault, a lost thread and a crash as the service\'s', () => {
    expect(['usage', 'too_large', 'timeout', 'lost', 'internal'].map((kind) => new TaskError('x', kind as never).isUsage)).toEqual([true, true, true, false, false]);
  });
});
