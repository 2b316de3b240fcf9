/** Deps over in-memory streams, for command tests that call `main()` or a command's `run` directly. */
import { PassThrough, Writable } from 'node:stream';
import { lazyClient, type Deps } from '../../src/cli/deps.js';
import { makeIO } from '../../src/cli/io.js';
import type { Settings } from '../../src/cli/settings.js';
import type { ClientOptions } from '../../src/client/client.js';

/** Deps plus what was written. */
export interface FakeDeps { deps: Deps; stdout(): string; stderr(): string }

/** Builds deps writing to buffers; `settings` are laid over table/no colour/30 s; stdin gets `input`. */
export function fakeDeps(o: { settings?: Partial<Settings>; env?: NodeJS.ProcessEnv; cwd?: string; input?: string; tty?: boolean; ci?: boolean; client?: Partial<ClientOptions> } = {}): FakeDeps {
  let out = '';
  let err = '';
  const sink = (append: (s: string) => void) => new Writable({ write(chunk, _enc, done) { append(String(chunk)); done(); } });
  const stdin = new PassThrough();
  stdin.end(o.input ?? '');
  const tty = o.tty ?? false;
  const io = makeIO({
    stdout: sink((s) => { out += s; }), stderr: sink((s) => { err += s; }), stdin,
    isStdoutTTY: tty, isStderrTTY: tty, isStdinTTY: tty, color: false, ci: o.ci ?? true,
  });
  const deps: Deps = {
    io,
    env: o.env ?? {},
    cwd: o.cwd ?? process.cwd(),
    now: () => new Date('2024-03-05T12:00:00Z'),
    settings: { output: 'table', color: false, verbose: false, timeoutMs: 30_000, insecure: false, ...o.settings },
    client: () => lazy(),
  };
  const lazy = lazyClient(deps, { retry: { baseDelayMs: 1, maxDelayMs: 5 }, ...o.client });
  return { deps, stdout: () => out, stderr: () => err };
}
