// Build step: writes the job file's JSON Schema beside the compiled code (dist/job-file.schema.json),
// generated from the same declaration the validator uses, so `init` and `pull` can point editors at
// the copy installed with the package.
import { writeFileSync } from 'node:fs';

const { jobFileJsonSchemaText, JOB_FILE_SCHEMA_NAME } = await import('../dist/jobfile/json-schema.js');
writeFileSync(new URL(`../dist/${JOB_FILE_SCHEMA_NAME}`, import.meta.url), jobFileJsonSchemaText());
