/** `import pull <jobId> [--write PATH]`: a job file that reproduces a job's current configuration. */
import { writeFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { Command } from 'commander';
import type { JobResources } from '../../contract/index.js';
import type { Deps } from '../deps.js';
import { parseJobId } from '../flags.js';
import { withExamples } from '../program.js';

/** Options of `import pull`. */
export interface PullOptions { jobId: string; write?: string }

/** Reads every resource of the job and writes the job file to stdout or `--write`. */
export async function pull(opts: PullOptions, deps: Deps): Promise<void> {
  const { fetchResources } = await import('../job-session.js');
  const client = await deps.client();
  const resources = await fetchResources(client, opts.jobId);
  const text = await renderPulled(opts.jobId, resources, deps.now().toISOString().slice(0, 10));
  if (opts.write) {
    const target = resolve(deps.cwd, opts.write);
    const { writeAtomic } = await import('../../engine/write/atomic.js');
    await writeAtomic(target, (temp) => writeFile(temp, text));
    deps.io.status(`Wrote ${relative(deps.cwd, target)}; \`import run ${relative(deps.cwd, target)} --job ${opts.jobId}\` finds nothing to update.`);
  } else {
    deps.io.out(text);
  }
}

/** The job file text: the configuration as the job has it, confidence as comments. */
export async function renderPulled(jobId: string, resources: JobResources, today: string): Promise<string> {
  const YAML = await import('yaml');
  const { configFromResources } = await import('../../jobfile/translate.js');
  const config = configFromResources(resources);
  const doc = new YAML.Document({
    version: 1,
    // Seed: the start form (input, pipeline) cannot be read back; the input is a placeholder.
    input: { file: './input.csv' },
    config,
  });
  doc.commentBefore = ` Configuration of job ${jobId}, written by \`import pull\` on ${today}.\n The service does not return the job's input or pipeline: set input (and pipeline) before\n starting a new job with this file; \`import run <this file> --job ${jobId}\` reuses the job.`;
  const mappingNode = doc.getIn(['config', 'mapping'], true) as any;
  const mapped = Object.values(resources.fields.columnFieldMapping ?? {})[0] ?? {};
  for (const item of mappingNode?.items ?? []) {
    const m = mapped[String(item.key.value ?? item.key)];
    if (m && typeof m.confidence === 'number') item.value.comment = ` confidence ${m.confidence.toFixed(2)}`;
  }
  const typesNode = doc.getIn(['config', 'dataTypes'], true) as any;
  for (const item of typesNode?.items ?? []) {
    const t = resources.dataTypes.fieldDataTypes[String(item.key.value ?? item.key)];
    if (t && typeof t.confidence === 'number') item.value.comment = ` confidence ${t.confidence.toFixed(2)}`;
  }
  return doc.toString({ lineWidth: 0 });
}

/** The `pull` command. */
export function pullCommand(deps: Deps, run = pull): Command {
  const command = new Command('pull')
    .description("write a job file that reproduces a job's current configuration")
    .argument('<jobId>', 'job id')
    .option('--write <path>', 'write the job file there instead of stdout')
    .action(async (jobId: string, o: { write?: string }) => run({ jobId: parseJobId(jobId), write: o.write }, deps));
  return withExamples(command, ['import pull "$JOB" --write job.yaml', 'import pull "$JOB" > job.yaml']);
}
