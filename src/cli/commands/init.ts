/** `import init <input-file or Google Sheets link>`: a job-file skeleton for an input, the engine's suggestions filled in with their confidence as comments. */
import { basename, dirname, extname, relative, resolve } from 'node:path';
import { Command, Option } from 'commander';
import type { Deps } from '../deps.js';
import { withExamples } from '../program.js';
import { UsageError } from '../../errors.js';
import type { JobResources, PipelineSchema } from '../../contract/index.js';
import { entriesInOrder, getOwn } from '../../contract/json.js';

/** The review bar a new job file starts with. */
const REVIEW_BAR = 0.8;

/** Options of `import init`. */
export interface InitOptions {
  input: string;
  pipeline?: string;
  schema?: string;
  write?: string;
  sheet?: string;
  force?: boolean;
  schemaFile?: string | boolean;
  lenient?: boolean;
}

/** Writes the skeleton to stdout or to `--write` (never over an existing file without `--force`). */
export async function init(opts: InitOptions, deps: Deps): Promise<void> {
  const [{ openInput }, { analyzeJob }, { loadSchemaFile }, { writeJobFile, checkJobWriteTargets }] = await Promise.all([
    import('../../engine/read/index.js'), import('../../engine/pipeline.js'), import('../../jobfile/schema-file.js'), import('../job-write.js'),
  ]);
  const target = opts.write ? resolve(deps.cwd, opts.write) : undefined;
  // A URL is a Google Sheets link: its whole workbook is read, so the sheet is suggested as in a workbook file.
  const link = /^[a-z][a-z\d+.-]*:\/\//i.test(opts.input) ? opts.input : undefined;
  const reads = [
    ...(link ? [] : [{ path: resolve(deps.cwd, opts.input), label: `the input ${opts.input}` }]),
    ...(opts.schema ? [{ path: resolve(deps.cwd, opts.schema), label: `--schema ${opts.schema}` }] : []),
  ];
  const writeOptions = { write: opts.write, force: Boolean(opts.force), schemaFile: opts.schemaFile, reads };
  // Before the input is read: --write over the input itself is refused even with --force.
  // Before the input is read: nothing is analysed for a file that will not be written.
  await checkJobWriteTargets(writeOptions, deps);
  const schema = opts.schema ? await loadSchemaFile(resolve(deps.cwd, opts.schema), deps.env) : undefined;
  const inputPath = resolve(deps.cwd, opts.input);
  let source;
  if (link) {
    const [{ downloadGoogleSheet }, { googleWorkbookSource }] = await Promise.all([import('../job-input.js'), import('../../engine/read/google-sheet.js')]);
    const book = await downloadGoogleSheet(link, deps, 'run `import init` on the file');
    source = googleWorkbookSource(book, book.id);
  } else {
    source = await openInput({ file: inputPath });
    if (opts.sheet !== undefined && !(await source.sheets())) throw new UsageError(`--sheet is for workbooks and Google Sheets links, and ${opts.input} is not a workbook; drop --sheet.`);
  }
  const analysis = await analyzeJob({ input: source, schema, sheet: opts.sheet, lenient: opts.lenient, warn: (m) => deps.io.warn(m) });
  const baseDir = target ? dirname(target) : deps.cwd;
  const text = await renderSkeleton({
    inputRef: './' + relative(baseDir, inputPath).split('\\').join('/'),
    googleSheet: link,
    isSheetChosen: opts.sheet !== undefined,
    name: link ? analysis.resources.sheet?.sheetSelection.selected ?? 'sheet' : basename(inputPath, extname(inputPath)),
    pipeline: opts.pipeline ?? schema?.id,
    resources: analysis.resources,
    schema,
    today: deps.now().toISOString().slice(0, 10),
  });
  const written = await writeJobFile(text, writeOptions, deps);
  if (written) deps.io.status(`Wrote ${relative(deps.cwd, written) || written}; check it with \`import dry-run ${relative(deps.cwd, written)}\`.`);
}

/** Builds the job file text with the yaml Document API so suggestions carry their confidence as comments. */
export async function renderSkeleton(o: {
  inputRef: string; name: string; pipeline?: string; resources: JobResources; schema?: PipelineSchema; today: string;
  /** A Google Sheets link: the input is `googleSheet: {url, sheet}`, with the selected sheet. */
  googleSheet?: string;
  /** The sheet was chosen with --sheet rather than suggested. */
  isSheetChosen?: boolean;
}): Promise<string> {
  const [YAML, { schemaToJobFile }, { flowSchemaLists }, { yamlKey }] = await Promise.all([
    import('yaml'), import('../../jobfile/translate.js'), import('../job-write.js'), import('../../jobfile/check.js'),
  ]);
  const { resources } = o;
  // Maps, not objects: column and field names are the user's (`__proto__`, "1962"), in column order.
  const mapping = new Map<string, string | null>();
  const mappingComments = new Map<string, string>();
  const suggested = Object.values(resources.fields.columnFieldMapping)[0] ?? {};
  for (const column of resources.fields.inputColumns) {
    const m = getOwn(suggested, column);
    if (m?.field === '') {
      // A JSON key "" read as a field: a job file cannot name the field "" (validate refuses it).
      mapping.set(column, null);
      mappingComments.set(column, ' no field: the suggested field "" cannot be named in a job file; map the column to a named field');
      continue;
    }
    mapping.set(column, m ? m.field : null);
    mappingComments.set(column, m ? ` suggested, confidence ${m.confidence?.toFixed(2) ?? 'unknown'}` : ' no field suggested');
  }
  const dataTypes = new Map<string, string>();
  const typeComments = new Map<string, string>();
  for (const [field, t] of entriesInOrder(resources.dataTypes.fieldDataTypes)) {
    if (field === '') continue;
    dataTypes.set(field, t.dataType);
    typeComments.set(field, ` ${getOwn(o.schema?.fieldDataTypes, field) ? 'from the schema' : 'inferred'}, confidence ${t.confidence?.toFixed(2) ?? 'unknown'}`);
  }
  const job: Record<string, unknown> = { version: 1 };
  if (o.pipeline) job.pipeline = o.pipeline;
  job.name = o.name;
  const sheet = resources.sheet?.sheetSelection;
  job.input = o.googleSheet ? { googleSheet: { url: o.googleSheet, sheet: sheet?.selected } } : { file: o.inputRef };
  const config: Record<string, unknown> = {};
  // A suggested sheet under the review bar stays a comment, as the mapping's do: run stops at
  // the gate and review asks about it until someone has looked (a link names its own sheet).
  const sheetUnderBar = !!sheet && !o.googleSheet && !o.isSheetChosen && (sheet.confidence === undefined || sheet.confidence < REVIEW_BAR);
  if (sheet && !o.googleSheet && !sheetUnderBar) config.sheet = sheet.selected;
  config.mapping = mapping;
  config.dataTypes = dataTypes;
  job.config = config;
  job.review = { minConfidence: REVIEW_BAR };
  if (o.schema) {
    const schema = schemaToJobFile(o.schema);
    if (schema.size) job.schema = schema;
  }
  const doc = new YAML.Document(job);
  doc.commentBefore = ` Job file for ${o.googleSheet ? `the Google Sheet "${sheet?.selected}"` : basename(o.inputRef)}, written by \`import init\` on ${o.today}.\n Suggestions are filled in with their confidence; those under the review bar stay as\n comments until confirmed with \`import review <this file> --save\`. Edit what is wrong,\n then \`import dry-run <this file>\` shows the result. Format: jobfile.md (version 1).`;
  const configNode = doc.get('config', true) as any;
  const sheetComment = sheet && ` ${o.isSheetChosen ? 'chosen with --sheet' : `suggested, confidence ${sheet.confidence?.toFixed(2) ?? 'unknown'}`}; sheets: ${sheet.sheets.join(', ')}`;
  if (sheet && !sheetUnderBar) {
    const node = o.googleSheet ? (doc.getIn(['input', 'googleSheet', 'sheet'], true) as any) : configNode.get('sheet', true);
    node.comment = sheetComment;
  }
  const mappingNode = configNode.get('mapping', true) as any;
  mappingNode.commentBefore = ' input column: output field (null leaves the column out)';
  if (sheet && sheetUnderBar) {
    const line = `${new YAML.Document({ sheet: sheet.selected }).toString().trim()} #${sheetComment?.replace(/;/, `: under ${REVIEW_BAR}, review it;`)}`;
    configNode.items[0].key.commentBefore = ` ${line}`;
  }
  for (const item of mappingNode.items) item.value.comment = mappingComments.get(String(item.key.value ?? item.key));
  const typesNode = configNode.get('dataTypes', true) as any;
  for (const item of typesNode.items) item.value.comment = typeComments.get(String(item.key.value ?? item.key));
  // Suggestions under the review bar are not pinned: they stay as comments, so `import run`
  // stops at the review gate until someone confirms them (`import review --save`).
  // A required field no column is suggested for would be an empty column: say so where the
  // mapping is, in the words `import run` stops with (exit 5) until a column is mapped to it.
  const suggestedFields = new Set(Object.values(suggested).map((m) => m.field));
  const optional = new Set(o.schema?.optionalFields ?? []);
  const unmapped = resources.fields.inputColumns.filter((c) => !getOwn(suggested, c));
  const emptyRequired = (o.schema?.expectedFields ?? []).filter((f) => !optional.has(f) && !suggestedFields.has(f)).map((f) => {
    const example = unmapped.length ? `, e.g. "${yamlKey(unmapped[0])}: ${yamlKey(f)}"` : '';
    return ` required field ${f} has no column: map one to it here${example}; until then \`import run\` stops (exit 5), as ${f} would be empty in every row`;
  });
  const confidenceOf = {
    mapping: (key: string) => getOwn(suggested, key)?.confidence,
    dataTypes: (key: string) => getOwn(resources.dataTypes.fieldDataTypes, key)?.confidence,
  };
  for (const [name, node] of [['mapping', mappingNode], ['dataTypes', typesNode]] as const) {
    const kept: any[] = [];
    let pending: string[] = [];
    for (const item of node.items) {
      const key = String(item.key.value ?? item.key);
      const confidence = confidenceOf[name](key);
      if (confidence !== undefined && confidence < REVIEW_BAR) {
        pending.push(` ${new YAML.Document({ [key]: item.value.value }).toString().trim()} #${item.value.comment}: under ${REVIEW_BAR}, review it`);
        continue;
      }
      if (pending.length) {
        item.key = doc.createNode(key);
        item.key.commentBefore = pending.join('\n');
        pending = [];
      }
      kept.push(item);
    }
    node.items = kept;
    if (name === 'mapping') pending.push(...emptyRequired);
    if (pending.length) node.comment = pending.join('\n');
  }
  const reviewNode = doc.get('review', true) as any;
  reviewNode.commentBefore = ' suggestions the file does not pin need review when under this confidence (exit 5 in CI)';
  const schemaNode = doc.get('schema', true) as any;
  if (schemaNode) flowSchemaLists(schemaNode);
  return doc.toString({ lineWidth: 0 });
}

/** The `init` command. */
export function initCommand(deps: Deps, run = init): Command {
  const command = new Command('init')
    .description('write a job-file skeleton for an input file or a Google Sheets link, with the suggestions and their confidence')
    .argument('<input-file>', 'CSV, TSV, XLSX or JSON input, or a Google Sheets link shared as "anyone with the link"')
    .option('--sheet <name>', 'the sheet to read (a workbook or a Google Sheets link; default: the suggested sheet)')
    .option('--pipeline <id>', 'pipeline id to put in the job file')
    .option('--schema <schema.yaml>', 'pipeline schema (expected fields, types) to suggest against')
    .option('--write <path>', 'write the job file there instead of stdout (never replaces a file without --force)')
    .option('--force', 'replace the file given to --write', false)
    .addOption(new Option('--schema-file [path]', 'also write the JSON Schema there (default: job-file.schema.json beside the job file) and point the editor modeline at it'))
    .option('--lenient', 'pad or cut rows with the wrong number of cells instead of failing', false)
    .action(async (input: string, o: Omit<InitOptions, 'input'>) => {
      if (o.write !== undefined && o.write === '') throw new UsageError('--write needs a path.');
      return run({ input, ...o }, deps);
    });
  return withExamples(command, [
    'import init data/customers.csv --schema schema.yaml --write customers.yaml',
    'import init export.xlsx > job.yaml',
    'import init "https://docs.google.com/spreadsheets/d/<id>/edit?usp=sharing" --sheet Orders --write orders.yaml',
  ]);
}
