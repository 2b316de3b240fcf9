/**
 * The JSON Schema (draft 2020-12) of the job file, generated from the one declaration in
 * format.ts with @valibot/to-json-schema: `import schema` prints it, the build writes it to
 * dist/job-file.schema.json, and `init`/`pull` point editors at it with a modeline.
 */
import { toJsonSchema, type JsonSchema } from '@valibot/to-json-schema';
import { JobFileDeclaration, type FormatMeta } from './format.js';

/** The schema's `$id` (a URN: nothing is fetched from it). */
export const JOB_FILE_SCHEMA_ID = 'urn:import-jobs:job-file:v1';

/** The file name of the installed copy, and the default of `--schema-file`. */
export const JOB_FILE_SCHEMA_NAME = 'job-file.schema.json';

/** Matches a string holding a `${NAME}` reference, which the validator substitutes before checking. */
const ENV_REFERENCE = '.*\\$\\{[A-Za-z_][A-Za-z0-9_]*\\}.*';

/** The job file's JSON Schema. */
export function jobFileJsonSchema(): JsonSchema {
  const schema = toJsonSchema(JobFileDeclaration, {
    target: 'draft-2020-12',
    overrideSchema: ({ valibotSchema }) => {
      const s = valibotSchema as { type: string; options?: string[] };
      if (s.type !== 'picklist' || !s.options) return undefined;
      // Values are matched case-insensitively (`JSON` is `json`): editors offer the enum,
      // and the pattern accepts any case (and a `${NAME}` to be substituted).
      return { anyOf: [{ enum: [...s.options] }, { type: 'string', pattern: `^(?:${s.options.map(anyCase).join('|')}|${ENV_REFERENCE})$` }] };
    },
    overrideAction: ({ valibotAction, jsonSchema }) => {
      const action = valibotAction as { type: string; metadata?: FormatMeta & Record<string, unknown> };
      if (action.type !== 'metadata' || !action.metadata) return undefined;
      // The validator's metadata is not JSON Schema: take it out, keep only what the format asks for.
      const out: Record<string, unknown> = { ...jsonSchema };
      for (const key of Object.keys(action.metadata)) delete out[key];
      const meta = action.metadata;
      if (meta.kind === 'text') {
        delete out.anyOf;
        out.type = ['string', 'number'];
        if (!meta.allowEmpty) out.minLength = 1;
      } else if (meta.kind === 'scalar') {
        delete out.anyOf;
        out.type = ['string', 'number', 'boolean'];
      }
      return { ...out, ...meta.jsonSchema } as JsonSchema;
    },
  });
  const { $schema, ...rest } = schema as Record<string, unknown>;
  return {
    $schema: $schema ?? 'https://json-schema.org/draft/2020-12/schema',
    $id: JOB_FILE_SCHEMA_ID,
    title: 'import job file, version 1',
    ...rest,
  } as JsonSchema;
}

/** A regular expression that matches `word` in any case: `json` -> `[jJ][sS][oO][nN]`. */
function anyCase(word: string): string {
  return [...word].map((c) => {
    const lower = c.toLowerCase();
    const upper = c.toUpperCase();
    if (lower !== upper) return `[${lower}${upper}]`;
    return c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  }).join('');
}

/** The schema as the text `import schema` prints and the build writes. */
export function jobFileJsonSchemaText(): string {
  return JSON.stringify(jobFileJsonSchema(), null, 2) + '\n';
}
