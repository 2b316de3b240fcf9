/**
 * Writing a new job file (`import init`, `import pull`): the editor modeline on the first line,
 * `--write` that never replaces a file without `--force`, and `--schema-file` that writes the
 * JSON Schema beside it.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../errors.js';
import type { Deps } from './deps.js';
import type { NamedFile } from './distinct-files.js';

/** Where a new job file goes and how it points at the schema. */
export interface JobWriteOptions {
  /** `--write <path>`; stdout when absent. */
  write?: string;
  /** `--force`: replace an existing file. */
  force: boolean;
  /** `--schema-file [path]`: write the schema there (true: `job-file.schema.json` beside the job file). */
  schemaFile?: string | boolean;
  /** Files the command reads (`init`'s input and `--schema`): neither output may be one of them. */
  reads?: NamedFile[];
}

/**
 * Refuses (exit 2) a `--write` or `--schema-file` that is a file the command reads, or the other
 * output (`--write job.yaml --schema-file job.yaml`), however spelled, and a `--write` that exists
 * without `--force`; called before anything is read or requested.
 */
export async function checkJobWriteTargets(opts: JobWriteOptions, deps: Deps): Promise<void> {
  const target = opts.write !== undefined ? resolve(deps.cwd, opts.write) : undefined;
  const files: NamedFile[] = [...(opts.reads ?? [])];
  if (target) files.push({ path: target, label: `--write ${opts.write}`, fix: 'choose another --write path' });
  if (opts.schemaFile !== undefined && opts.schemaFile !== false) {
    const { JOB_FILE_SCHEMA_NAME } = await import('../jobfile/json-schema.js');
    const path = resolve(target ? dirname(target) : deps.cwd, typeof opts.schemaFile === 'string' ? opts.schemaFile : JOB_FILE_SCHEMA_NAME);
    files.push({ path, label: `--schema-file ${typeof opts.schemaFile === 'string' ? opts.schemaFile : relative(deps.cwd, path)}`, fix: 'give --schema-file another path' });
  }
  const { checkDistinctFiles } = await import('./distinct-files.js');
  await checkDistinctFiles(files, deps.cwd);
  if (target && !opts.force && existsSync(target)) {
    throw new UsageError(`${opts.write} already exists; pass --force to replace it, or choose another path with --write.`);
  }
}

/** Writes `body` (a job file without its modeline) to `--write` or stdout, once checkJobWriteTargets passed; returns the path written, if any. */
export async function writeJobFile(body: string, opts: JobWriteOptions, deps: Deps): Promise<string | undefined> {
  const target = opts.write !== undefined ? resolve(deps.cwd, opts.write) : undefined;
  const folder = target ? dirname(target) : deps.cwd;
  const { JOB_FILE_SCHEMA_NAME, JOB_FILE_SCHEMA_ID, jobFileJsonSchemaText } = await import('../jobfile/json-schema.js');
  let schemaPath: string;
  if (opts.schemaFile !== undefined && opts.schemaFile !== false) {
    schemaPath = resolve(folder, typeof opts.schemaFile === 'string' ? opts.schemaFile : JOB_FILE_SCHEMA_NAME);
    if (existsSync(schemaPath) && !opts.force && !(await readFile(schemaPath, 'utf8').catch(() => '')).includes(JOB_FILE_SCHEMA_ID)) {
      throw new UsageError(`${relative(deps.cwd, schemaPath)} already exists and is not this tool's job-file schema; pass --force to replace it, or give --schema-file another path.`);
    }
  } else {
    schemaPath = installedSchemaPath();
  }
  const text = `${modeline(schemaPath, folder)}\n${body}`;
  if (opts.schemaFile !== undefined && opts.schemaFile !== false) {
    await writeNew(schemaPath, jobFileJsonSchemaText(), deps);
    deps.io.status(`Wrote the job-file schema to ${relative(deps.cwd, schemaPath) || schemaPath}.`);
  }
  if (!target) {
    deps.io.out(text);
    return undefined;
  }
  await writeNew(target, text, deps);
  return target;
}

/** Writes a file atomically, creating its folder; a failure is one sentence naming the path. */
async function writeNew(path: string, text: string, deps: Deps): Promise<void> {
  const [{ writeAtomic }, { mkdir }] = await Promise.all([import('../engine/write/atomic.js'), import('node:fs/promises')]);
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeAtomic(path, (temp) => writeFile(temp, text));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'ENOTDIR' ? 'a part of the path is a file, not a folder' : code ?? (error as Error).message;
    throw new UsageError(`cannot write ${relative(deps.cwd, path) || path} (${why}); choose another path.`, { cause: error });
  }
}

/** The copy of the schema installed with the package (written by the build beside the compiled code). */
export function installedSchemaPath(): string {
  return fileURLToPath(new URL('../job-file.schema.json', import.meta.url));
}

/**
 * The first line that tells the YAML language server (VS Code, Neovim, ...) which schema checks
 * the file. A path inside the project (the schema file beside it, or the package installed in the
 * project's node_modules) is written relative to the job file, so the line works on every
 * checkout; anything else (a global install) is written absolute.
 */
export function modeline(schemaPath: string, jobFolder: string): string {
  const rel = relative(jobFolder, schemaPath);
  const portable = !isAbsolute(rel) && (!rel.startsWith('..') || rel.split(sep).includes('node_modules'));
  const shown = portable ? (rel.startsWith('.') ? rel : `./${rel}`) : schemaPath;
  return `# yaml-language-server: $schema=${shown.split(sep).join('/')}`;
}

/**
 * Styles a new job file's `schema` block as jobfile.md writes it: each list and field map on one
 * line, and each row-dropping rule on its own line.
 */
export function flowSchemaLists(schemaNode: any): void {
  for (const item of schemaNode.items) if (item.value?.items && item.key.value !== 'rowDropping') item.value.flow = true;
  for (const rule of schemaNode.get('rowDropping', true)?.items ?? []) rule.flow = true;
}
