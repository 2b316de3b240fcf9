/** `import schema`: prints the JSON Schema (draft 2020-12) of the job file, generated from the validator's declaration. */
import { Command } from 'commander';
import type { Deps } from '../deps.js';
import { withExamples } from '../program.js';

/** Prints the schema to stdout. */
export async function schema(_opts: Record<string, never>, deps: Deps): Promise<void> {
  const { jobFileJsonSchemaText } = await import('../../jobfile/json-schema.js');
  deps.io.stdout.write(jobFileJsonSchemaText());
}

/** The `schema` command. */
export function schemaCommand(deps: Deps, run = schema): Command {
  const command = new Command('schema')
    .description('print the JSON Schema (draft 2020-12) of the job file, for editors and other validators')
    .action(async () => run({}, deps));
  return withExamples(command, [
    'import schema > job-file.schema.json',
    'import schema | jq \'.properties.config.anyOf[0].properties | keys\'',
  ]);
}
