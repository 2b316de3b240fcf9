import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { jobFileJsonSchema, jobFileJsonSchemaText } from '../../src/jobfile/json-schema.js';
import { runCli, ROOT } from '../support/cli.js';

const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
const validate = ajv.compile(jobFileJsonSchema());

/** ajv's verdict on a job file's text: the errors, or [] when it validates. */
function errorsOf(text: string): string[] {
  if (validate(parse(text))) return [];
  return (validate.errors ?? []).map((e: { instancePath: string; message?: string }) => `${e.instancePath || '/'} ${e.message}`);
}

/** The README's example job file: the yaml block under "## Job file format". */
async function readmeJobFile(): Promise<string> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Job file format'));
  const block = /```yaml\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README has no yaml block under "## Job file format"');
  return block[1];
}

describe('the job file JSON Schema', () => {
  it('is draft 2020-12 and gives every key a description', () => {
    const schema = jobFileJsonSchema() as Record<string, any>;
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    const undescribed: string[] = [];
    const walk = (node: any, path: string) => {
      if (!node || typeof node !== 'object') return;
      for (const [key, value] of Object.entries<any>(node.properties ?? {})) {
        if (typeof value.description !== 'string' || value.description.length < 10) undescribed.push(`${path}.${key}`);
        walk(value, `${path}.${key}`);
      }
      for (const child of [...(node.anyOf ?? []), node.items, node.additionalProperties]) walk(child, path);
    };
    walk(schema, '');
    expect(undescribed).toEqual([]);
  });

  it('holds only JSON Schema keywords (ajv in strict mode compiles it)', () => {
    expect(() => new Ajv2020({ strict: true, allowUnionTypes: true }).compile(jobFileJsonSchema())).not.toThrow();
    expect(jobFileJsonSchemaText()).not.toMatch(/"(kind|whenMissing|whenEmpty|listOf|mappingOf|entryWhere|rule|regexKeys|ordered)"/);
  });

  it('accepts every example job file, the README job file and the full example of jobfile.md', async () => {
    const files = (await readdir(join(ROOT, 'examples'))).map((name) => join(ROOT, 'examples', name, 'job.yaml'));
    files.push(join(ROOT, 'test', 'fixtures', 'jobfiles', 'full.yaml'));
    const texts = await Promise.all(files.map(async (f) => [f, await readFile(f, 'utf8').catch(() => '')] as const));
    const examples = texts.filter(([, text]) => text !== '');
    expect(examples.length).toBeGreaterThanOrEqual(5);
    for (const [file, text] of examples) expect({ file, errors: errorsOf(text) }).toEqual({ file, errors: [] });
    expect(errorsOf(await readmeJobFile())).toEqual([]);
  });

  it('accepts method values in any case and ${NAME} references, as the validator does', () => {
    const text = 'version: 1\ninput: {file: a.csv}\noptions: {outputFileType: "${TYPE}"}\nconfig:\n  allowColumnCombining: true\n  combining: {a: {method: JSON}}\n  dataTypes: {b: Number}\n  text: {casing: {c: capitalize}}\n';
    expect(errorsOf(text)).toEqual([]);
  });

  it.each([
    ['an unknown top-level key', 'version: 1\ninput: {file: a.csv}\npipline: x\n'],
    ['an unknown key in config', 'version: 1\ninput: {file: a.csv}\nconfig: {mappings: {a: b}}\n'],
    ['a data type that is not one', 'version: 1\ninput: {file: a.csv}\nconfig: {dataTypes: {amount: text}}\n'],
    ['a casing that is not one', 'version: 1\ninput: {file: a.csv}\nconfig: {text: {casing: {a: sentence}}}\n'],
    ['an impute method that is not one', 'version: 1\ninput: {file: a.csv}\nconfig: {impute: {a: {method: mean}}}\n'],
    ['a missing version', 'input: {file: a.csv}\n'],
    ['version 2', 'version: 2\ninput: {file: a.csv}\n'],
    ['two inputs', 'version: 1\ninput: {file: a.csv, rowsFile: r.json}\n'],
    ['a confidence bar over 1', 'version: 1\ninput: {file: a.csv}\nreview: {minConfidence: 80}\n'],
    ['an empty pivot list', 'version: 1\ninput: {file: a.csv}\nconfig: {pivot: {pivotColumns: [], valueColumns: [v], indexColumns: [i]}}\n'],
  ])('rejects %s', (_what, text) => {
    expect(errorsOf(text).length).toBeGreaterThan(0);
  });

  it('is what `import schema` prints and what the build installs in dist/', async () => {
    const r = await runCli(['schema']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(jobFileJsonSchemaText());
    expect(await readFile(join(ROOT, 'dist', 'job-file.schema.json'), 'utf8')).toBe(r.stdout);
  });
});
