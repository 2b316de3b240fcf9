/**
 * `run` validates the configuration before processing begins (seed: "run validates the
 * configuration and begins processing"). The engine's own checks run here against the job's
 * columns over an empty table, so the answer is the engine's reason, without reading the input.
 */
import type { JobConfig, JobResources, PipelineSchema } from '../contract/index.js';
import { STEPS } from '../engine/steps/index.js';
import { emptyReport, type Batch, type StepContext, type Table } from '../engine/types.js';
import { engineConfig } from '../contract/translate.js';

/** Throws the engine's UsageError when the configuration does not fit the job's columns; returns its warnings. */
export async function checkConfiguration(resources: JobResources, bodies: Required<JobConfig>, schema: PipelineSchema | null): Promise<string[]> {
  const warnings: string[] = [];
  const config = engineConfig(resources, bodies);
  const ctx: StepContext = {
    schema: schema ?? { expectedFields: [], optionalFields: [], fieldDataTypes: {}, fieldUnits: {}, imputeMethods: {}, rowDropping: [] },
    report: emptyReport(),
    // preColumnMapping scripts ran before the columns were known; postClean ones cannot be set here.
    loadScript: async () => undefined,
    strictScripts: true,
    warn: (message) => warnings.push(message),
  };
  const rest = STEPS.slice(STEPS.findIndex((s) => s.name === 'map'));
  const columns = resources.fields.inputColumns;
  for (const step of rest) step.check?.(config, columns, ctx);
  let table: Table = { columns: [...columns], types: columns.map(() => undefined), batches: noBatches() };
  for (const step of rest) table = await step.apply(table, config, ctx);
  for await (const _ of table.batches) { /* steps that plan lazily fail here */ }
  return warnings;
}

async function* noBatches(): AsyncGenerator<Batch> { /* an input with no rows */ }
