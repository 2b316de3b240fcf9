/** Opens a job file's input for the embedded engine. */
import { UsageError } from '../errors.js';
import type { JobFile } from '../jobfile/types.js';
import { openInput } from '../engine/read/index.js';
import type { InputSource } from '../engine/types.js';

/** The job file's local input as an engine source; a Google Sheets link needs the service. */
export async function openJobInput(job: JobFile): Promise<InputSource> {
  const { input } = job;
  if (input.placeholder) {
    throw new UsageError(`input.file in ${job.path} is empty, a placeholder: set the path of the data file to read it offline.`);
  }
  if (input.file) return openInput({ file: input.file });
  if (input.rows) return openInput({ rows: input.rows });
  if (input.rowsFile) {
    // Seed: rows from a file travel as jsonData, so their metadata key is `jsonData` too.
    const source = await openInput({ file: input.rowsFile });
    return { ...source, name: 'jsonData', sheets: source.sheets.bind(source), open: source.open.bind(source) };
  }
  throw new UsageError(`${job.path}: a Google Sheets input cannot be read offline; run it against the service with \`import run ${job.path}\`.`);
}
