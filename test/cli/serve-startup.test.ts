// `import serve` when it cannot start, and its stop: one sentence, the cli.md exit code, a prompt
// exit, nothing left behind. The process tests run the built CLI (`npm run build` first), each
// with its own TMPDIR so the temporary data dirs it makes (or must not leave) can be counted.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHost, startFailure } from '../../src/cli/commands/serve.js';
import { DataDirError } from '../../src/emulator/server.js';
import { NetworkError, UsageError } from '../../src/errors.js';
import { BIN, ROOT, runCli } from '../support/cli.js';

let work: string;
let held: Server;
let heldPort: number;

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist', 'main.js'))) throw new Error('these tests run the built CLI: run `npm run build` first');
  work = await mkdtemp(join(tmpdir(), 'serve-startup-'));
  // A port this test holds, so that it is taken when serve asks for it.
  held = createServer();
  await new Promise<void>((ready) => held.listen(0, '127.0.0.1', ready));
  heldPort = (held.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((done) => held?.close(done));
  await rm(work, { recursive: true, force: true });
});

/** A fresh TMPDIR for one run of serve. */
async function freshTmp(name: string): Promise<string> {
  const dir = join(work, name);
  await mkdir(dir, { recursive: true });
  return dir;
}

/** Runs `import serve ...args` expecting it not to start; `timeoutMs` catches a hang. */
function serveFails(args: string[], tmp: string) {
  return runCli(['serve', ...args], { env: { TMPDIR: tmp }, timeoutMs: 15_000 });
}

describe('import serve when it cannot start', () => {
  it('exits 1 at once with one sentence when the port is taken, leaving no temporary data dir', async () => {
    const tmp = await freshTmp('port-taken');
    const res = await serveFails(['--port', String(heldPort)], tmp);
    expect(res.timedOut).toBe(false);
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toBe(`error: Port ${heldPort} on 127.0.0.1 is already in use by another program; stop it, or pass another --port (0 picks a free one).\n`);
    expect(res.stdout).toBe('');
    expect(await readdir(tmp)).toEqual([]);
  }, 20_000);

  it('removes the --data-dir folders it created when the port is taken, and keeps what was there', async () => {
    const tmp = await freshTmp('port-taken-data-dir');
    const made = join(work, 'made-by-serve');
    let res = await serveFails(['--port', String(heldPort), '--data-dir', join(made, 'data')], tmp);
    expect(res.exitCode).toBe(1);
    expect(existsSync(made)).toBe(false);
    const kept = join(work, 'kept');
    await mkdir(kept);
    res = await serveFails(['--port', String(heldPort), '--data-dir', kept], tmp);
    expect(res.exitCode).toBe(1);
    expect(await readdir(kept)).toEqual([]);
  }, 30_000);

  it('exits 2 with one sentence, before any lookup, for a --host that is no address or name', async () => {
    const tmp = await freshTmp('bad-host');
    const res = await serveFails(['--port', '0', '--host', '0.0.0.0.0'], tmp);
    expect(res.timedOut).toBe(false);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toBe('error: --host "0.0.0.0.0" is not an IP address or a host name; pass e.g. 127.0.0.1 (this machine only), 0.0.0.0 (every interface), ::1 or localhost.\n');
    expect(await readdir(tmp)).toEqual([]);
  });

  it('exits 2 with one sentence when --data-dir is a regular file', async () => {
    const tmp = await freshTmp('data-dir-file');
    const file = join(work, 'a-file');
    await writeFile(file, 'not a folder\n');
    const res = await serveFails(['--port', '0', '--data-dir', file], tmp);
    expect(res.timedOut).toBe(false);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toBe(`error: --data-dir ${file} is a file, not a folder (or a part of its path is); pass a folder, which is made when missing.\n`);
    expect(res.stderr).not.toContain('bug in import');
    expect(await readdir(tmp)).toEqual([]);
  });
});

describe('import serve with a temporary data dir', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`removes it when stopped with ${signal}, and exits 0`, async () => {
      const tmp = await freshTmp(`stop-${signal}`);
      const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
        cwd: ROOT, env: { ...process.env, NO_COLOR: '1', CI: '1', TMPDIR: tmp }, stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      let stdout = '';
      let stderr = '';
      child.stderr.on('data', (d) => { stderr += d; });
      await new Promise<void>((listening, fail) => {
        child.stdout.on('data', (d) => { stdout += d; if (stdout.includes('Listening on')) listening(); });
        void exited.then(() => fail(new Error(`serve exited before listening:\n${stderr}`)));
      });
      const [made] = await readdir(tmp);
      expect(made).toMatch(/^import-serve-/);
      child.kill(signal);
      const code = await exited;
      clearTimeout(killer);
      expect(code).toBe(0);
      expect(stderr).toContain(`${signal} received: stopping (removing the temporary data dir and its jobs)`);
      expect(await readdir(tmp)).toEqual([]);
    }, 20_000);
  }
});

describe('startFailure', () => {
  const opts = { host: 'example.test', port: 8787, dataDir: 'data' };
  const errno = (code: string, syscall: string) => Object.assign(new Error(`${syscall} ${code}`), { code, syscall });

  it('makes a host that does not resolve a usage error (exit 2)', () => {
    const e = startFailure(errno('ENOTFOUND', 'getaddrinfo'), opts);
    expect(e).toBeInstanceOf(UsageError);
    expect((e as Error).message).toBe('--host example.test does not resolve to an address; pass an IP address such as 127.0.0.1 or a name of this machine such as localhost.');
  });

  it('makes a name service that does not answer, a taken port and a privileged port the environment (exit 1)', () => {
    expect(startFailure(errno('EAI_AGAIN', 'getaddrinfo'), opts)).toBeInstanceOf(NetworkError);
    expect(startFailure(errno('EADDRINUSE', 'listen'), opts)).toBeInstanceOf(NetworkError);
    const privileged = startFailure(errno('EACCES', 'listen'), { ...opts, port: 80 }) as Error;
    expect(privileged).toBeInstanceOf(NetworkError);
    expect(privileged.message).toBe('Cannot listen on example.test:80: ports below 1024 need privileges; pass --port 1024 or above (0 picks a free one).');
  });

  it('makes an address that is not this machine\'s a usage error (exit 2)', () => {
    expect(startFailure(errno('EADDRNOTAVAIL', 'listen'), opts)).toBeInstanceOf(UsageError);
  });

  it('names --data-dir when it cannot be written (exit 2), and TMPDIR when no temporary folder can be made (exit 1)', () => {
    const denied = startFailure(new DataDirError('/x/data', false, 'EACCES', { cause: errno('EACCES', 'mkdir') }), opts) as Error;
    expect(denied).toBeInstanceOf(UsageError);
    expect(denied.message).toBe('--data-dir data cannot be written (EACCES); pass a folder you may write to.');
    const temp = startFailure(new DataDirError('/tmp/import-serve-*', true, 'ENOSPC', { cause: errno('ENOSPC', 'mkdtemp') }), opts) as Error;
    expect(temp).toBeInstanceOf(NetworkError);
    expect(temp.message).toMatch(/^Cannot make a temporary data dir in .* \(ENOSPC\); set TMPDIR to a writable folder or pass --data-dir\.$/);
  });

  it('passes on what it does not know', () => {
    const other = new Error('something else');
    expect(startFailure(other, opts)).toBe(other);
  });
});

describe('parseHost', () => {
  it('accepts IP addresses and host names, and takes an IPv6 address out of URL brackets', () => {
    expect(parseHost('127.0.0.1')).toBe('127.0.0.1');
    expect(parseHost('0.0.0.0')).toBe('0.0.0.0');
    expect(parseHost('::1')).toBe('::1');
    expect(parseHost('[::1]')).toBe('::1');
    expect(parseHost('localhost')).toBe('localhost');
    expect(parseHost('build-01.corp.example')).toBe('build-01.corp.example');
  });

  it('refuses dotted numbers that are no IPv4 address, empty text and characters no host name has', () => {
    for (const bad of ['0.0.0.0.0', '256.1.1.1', '', 'my host', 'http://127.0.0.1', '-x.example']) {
      expect(() => parseHost(bad), bad).toThrow(UsageError);
    }
  });
});
