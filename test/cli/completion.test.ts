import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeWords, splitLine } from '../../src/cli/complete.js';
import { buildProgram } from '../../src/cli/program.js';
import { BIN, ROOT, runCli } from '../support/cli.js';
import { fakeDeps } from '../support/fake-deps.js';

/** What completing `line` (cursor at its end) offers, through the resolver alone. */
async function offered(line: string, env: NodeJS.ProcessEnv = {}): Promise<string[] | 'files'> {
  const { deps } = fakeDeps({ env, cwd: ROOT });
  const { before, current } = splitLine(line);
  const result = await completeWords(buildProgram(deps), before, current, deps);
  return 'files' in result ? 'files' : result.candidates.map((c) => c.value).filter((v) => v.startsWith(current));
}

describe('completion candidates from the command tree', () => {
  it('offers commands, then subcommands', async () => {
    expect(await offered('import dr')).toEqual(['dry-run']);
    expect(await offered('import types ')).toEqual(['get', 'update']);
    expect(await offered('import ')).not.toContain('completion-server');
  });

  it('offers a command\'s flags and the global ones', async () => {
    const flags = await offered('import dry-run --');
    expect(flags).toEqual(expect.arrayContaining(['--out', '--lenient', '--output', '--profile']));
  });

  it('offers the fixed values of a flag, spaced or after =', async () => {
    expect(await offered('import fields get J -o ')).toEqual(['table', 'json', 'yaml']);
    expect(await offered('import fields get J --output=j')).toEqual(['--output=json']);
    expect(await offered('import types update J --type amount=')).toEqual(['amount=number', 'amount=rich_text', 'amount=category', 'amount=date_time']);
    expect(await offered('import text update J --case name=t')).toEqual(['name=title']);
    expect(await offered('import row-dropping update J --drop dup')).toEqual(['duplicateValues:']);
    expect(await offered('import completion ')).toEqual(['bash', 'zsh', 'fish']);
  });

  it('leaves job files and other paths to the shell', async () => {
    expect(await offered('import dry-run ')).toBe('files');
    expect(await offered('import dry-run job.yaml --out ')).toBe('files');
    expect(await offered('import init ')).toBe('files');
  });

  it('offers the profiles of the config file', async () => {
    const home = mkdtempSync(join(tmpdir(), 'import-complete-'));
    try {
      const dir = join(home, 'import');
      execFileSync('mkdir', ['-p', dir]);
      writeFileSync(join(dir, 'config.yaml'), 'profiles:\n  staging: {baseUrl: "http://127.0.0.1:1"}\n  prod: {}\n');
      expect(await offered('import --profile ', { XDG_CONFIG_HOME: home })).toEqual(['staging', 'prod']);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

/** A folder with an `import` on PATH that runs this checkout's CLI, as an installed package would. */
let shim: string;
beforeAll(() => {
  shim = mkdtempSync(join(tmpdir(), 'import-shim-'));
  writeFileSync(join(shim, 'import'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(shim, 'import'), 0o755);
});
afterAll(() => rmSync(shim, { recursive: true, force: true }));

function has(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;
}

/** COMP_WORDS as bash builds them: words at blanks, and `=` and `:` as words of their own. */
function compWords(line: string): string[] {
  const words: string[] = [];
  for (const blank of line.split(' ')) {
    const parts = blank.split(/([=:])/).filter((p, i, all) => p !== '' || i === all.length - 1);
    words.push(...(parts.length ? parts : ['']));
  }
  return words;
}

describe('the bash script in a real bash', () => {
  const BASH_COMPLETION = '/usr/share/bash-completion/bash_completion';

  /** Sources the script (after bash-completion when asked), drives the function with COMP_* for each line, returns `complete -p` and each COMPREPLY. */
  async function drive(lines: string[], withBashCompletion: boolean): Promise<{ registered: string; replies: string[][] }> {
    const script = (await runCli(['completion', 'bash'])).stdout;
    const dir = mkdtempSync(join(tmpdir(), 'import-bash-'));
    try {
      writeFileSync(join(dir, 'import.bash'), script);
      const calls = lines.map((line) => {
        const words = compWords(line);
        const quoted = words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
        return `COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; COMP_LINE='${line}'; COMP_POINT=${line.length}; COMPREPLY=(); _import_completion; printf '%s\\x1f' "\${COMPREPLY[@]}"; echo`;
      });
      const program = [
        withBashCompletion ? `source ${BASH_COMPLETION}` : '',
        `source ${join(dir, 'import.bash')}`,
        'complete -p import',
        `cd '${ROOT}'`,
        ...calls,
      ].join('\n');
      const out = execFileSync('bash', ['--norc', '--noprofile', '-c', program], { env: { ...process.env, PATH: `${shim}:${process.env.PATH}` }, encoding: 'utf8' });
      const [registered, ...replies] = out.trimEnd().split('\n');
      return { registered, replies: replies.map((r) => r.split('\x1f').filter((w) => w !== '')) };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  const LINES = ['import dry', 'import types update J --type amount=', 'import types update J --type amount=ca', 'import -o j', 'import row-dropping update J --drop miss', 'import dry-run '];

  function expectReplies(replies: string[][]): void {
    expect(replies[0]).toEqual(['dry-run']);
    // Readline replaces the text after `=`: the reply is that part alone.
    expect(replies[1]).toEqual(['number', 'rich_text', 'category', 'date_time']);
    expect(replies[2]).toEqual(['category']);
    expect(replies[3]).toEqual(['json']);
    expect(replies[4]).toEqual(['missingValues:']);
    // No candidates: `complete -o default` lets bash list file names.
    expect(replies[5]).toEqual([]);
  }

  it('registers and completes without the bash-completion package', async () => {
    const { registered, replies } = await drive(LINES, false);
    expect(registered).toBe('complete -o default -F _import_completion import');
    expectReplies(replies);
  });

  it('completes the same with the bash-completion package', async (ctx) => {
    if (!existsSync(BASH_COMPLETION)) {
      console.log(`skipped: ${BASH_COMPLETION} is absent (apt-get install bash-completion)`);
      ctx.skip();
    }
    const { replies } = await drive(LINES, true);
    expectReplies(replies);
  });
});

describe('the zsh script in a real zsh', () => {
  it('completes a command name at the line editor', async (ctx) => {
    if (!has('zsh')) {
      console.log('skipped: zsh is not installed (apt-get install zsh)');
      return ctx.skip();
    }
    const dir = mkdtempSync(join(tmpdir(), 'import-zsh-'));
    try {
      writeFileSync(join(dir, '_import'), (await runCli(['completion', 'zsh'])).stdout);
      const buffer = join(dir, 'buffer');
      // A real interactive zsh in a pseudo-terminal (zpty): type, press Tab, then a key bound to a
      // widget that writes the edited line to a file.
      const driver = `
zmodload zsh/zpty
for line in "import dry" "import types update J --type amount=nu" "import dry-run examples/customers/j"; do
  zpty -b z zsh -f -i
  zpty -w z 'PS1="> "; bindkey -e; export PATH="${shim}:$PATH"; fpath=("${dir}" $fpath); autoload -U compinit; compinit -u -d "${dir}/zcompdump"; show() { print -r -- "$BUFFER" >> "${buffer}" }; zle -N show; bindkey "^X" show; cd "${ROOT}"'
  sleep 1
  zpty -w -n z "$line"$'\\t'
  sleep 3
  zpty -w -n z $'\\C-x'
  sleep 0.5
  zpty -d z
done
`;
      spawnSync('zsh', ['-f', '-c', driver], { timeout: 30_000 });
      expect(readFileSync(buffer, 'utf8').split('\n')).toEqual([
        'import dry-run ', 'import types update J --type amount=number ', 'import dry-run examples/customers/job.yaml ', '',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the fish script in a real fish', () => {
  it('completes commands, flag values and job files', async (ctx) => {
    if (!has('fish')) {
      console.log('skipped: fish is not installed (apt-get install fish)');
      return ctx.skip();
    }
    const dir = mkdtempSync(join(tmpdir(), 'import-fish-'));
    try {
      writeFileSync(join(dir, 'import.fish'), (await runCli(['completion', 'fish'])).stdout);
      // A folder of its own: other tests write outputs beside the examples.
      execFileSync('mkdir', ['-p', join(dir, 'examples', 'customers')]);
      writeFileSync(join(dir, 'examples', 'customers', 'job.yaml'), 'version: 1\n');
      const out = execFileSync('fish', ['-N', '-c', [
        `source ${join(dir, 'import.fish')}`,
        `cd '${dir}'`,
        'complete -C "import dry"', 'echo ---',
        'complete -C "import --output="', 'echo ---',
        'complete -C "import dry-run examples/customers/j"',
      ].join('; ')], { env: { ...process.env, PATH: `${shim}:${process.env.PATH}` }, encoding: 'utf8' });
      const [commands, output, files] = out.split('---\n');
      expect(commands).toMatch(/^dry-run\trun a job file/);
      expect(output.split('\n').filter(Boolean)).toEqual(['--output=json', '--output=table', '--output=yaml']);
      expect(files.trim()).toBe('examples/customers/job.yaml');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
