/** Pipeline schema files: one pipeline per YAML file (`id` + the keys of a job file's `schema` block). */
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { PipelineSchema } from '../contract/index.js';
import { UsageError } from '../errors.js';

/** Loads one schema file, validated with the job-file rules for a `schema` block. */
export async function loadSchemaFile(path: string, env: NodeJS.ProcessEnv): Promise<PipelineSchema> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (e) {
    throw new UsageError(`Cannot read the schema file ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); check the path.`);
  }
  // A schema file is a job file's `schema` block on its own: validate it as one, so the
  // rules (and the file:line:col of every problem) are the job file's.
  const { parseSchemaText } = await import('./load.js');
  return parseSchemaText(path, bytes, env);
}

/** Loads a schema file, or every .yaml/.yml file of a folder; pipelines keyed by id (file name when no id). */
export async function loadSchemas(fileOrDir: string, env: NodeJS.ProcessEnv): Promise<Map<string, PipelineSchema>> {
  let info;
  try { info = await stat(fileOrDir); } catch {
    throw new UsageError(`The schema path ${fileOrDir} does not exist; pass a YAML file or a folder of them to --schema.`);
  }
  const files = info.isDirectory()
    ? (await readdir(fileOrDir)).filter((f) => ['.yaml', '.yml'].includes(extname(f))).sort().map((f) => join(fileOrDir, f))
    : [fileOrDir];
  const schemas = new Map<string, PipelineSchema>();
  for (const file of files) {
    const schema = await loadSchemaFile(file, env);
    const id = schema.id ?? file.replace(/^.*\//, '').replace(/\.ya?ml$/, '');
    if (schemas.has(id)) throw new UsageError(`Pipeline "${id}" is defined twice (again in ${file}); give each schema file its own id.`);
    schemas.set(id, { ...schema, id });
  }
  return schemas;
}
