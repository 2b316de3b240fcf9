/**
 * Update bodies for one resource at a time. A `--data` body is the seed's update body (a
 * `get -o json` body too: its read-only members are dropped), checked with the contract's strict
 * update schema; it replaces the resource, as the seed's update does. Flags are a job file's
 * `config` fragment laid over the `--data` body (or over the current value) by `desiredBodies` in
 * jobfile/translate.ts, so flags, `--data` and job files produce identical bodies.
 */
import { CASINGS, READ_ONLY_CASINGS, type JobConfig, type JobResources } from '../contract/index.js';
import { checkUpdate, pathOf, withoutReadOnly } from '../contract/check.js';
import { UsageError } from '../errors.js';
import { desiredBodies, type ResourceName } from '../jobfile/translate.js';
import type { JobFileConfig } from '../jobfile/types.js';
import { checkRegex } from './flags.js';

/** Read bodies with nothing in them: the base a single resource's read is laid over. */
export function emptyResources(): JobResources {
  return {
    sheet: null,
    fields: { expectedFields: [], optionalFields: [], inputColumns: [], columnFieldMapping: {} },
    combining: { columnsBeingCombined: {} },
    dataTypes: { fieldDataTypes: {}, expectedFieldDataTypes: {} },
    units: { fieldUnitConversions: {}, expectedFieldUnits: {} },
    impute: { imputeMethods: {}, expectedImputeMethods: {} },
    pivot: { pivot: null },
    rowDropping: { presetRowDroppingMethods: [], additionalRowDroppingMethods: [] },
    text: { textProcessingMethods: {} },
    scripts: { preColumnMapping: [], postClean: [] },
  };
}

/**
 * The read body of one resource, never null: the client's reads are already tolerant (every
 * member present), so this only turns "no sheet selection" (null, or `sheetSelection: null`) into an empty one.
 */
export function normalizeRead<K extends keyof JobResources>(name: K, read: JobResources[K] | { sheetSelection: null } | null | undefined): NonNullable<JobResources[K]> {
  if (read && (name !== 'sheet' || (read as { sheetSelection: unknown }).sheetSelection)) return read as NonNullable<JobResources[K]>;
  const empty: JobResources[keyof JobResources] = name === 'sheet' ? { sheetSelection: { selected: '', sheets: [] } } : emptyResources()[name];
  return empty as NonNullable<JobResources[K]>;
}

/** The complete update body of one resource: `base` (the current read, or `--data` over it) with the fragment laid over it by `desiredBodies`. */
export function updateBody<K extends ResourceName>(name: K, fragment: JobFileConfig, base: NonNullable<JobResources[K]>): Required<JobConfig>[K] {
  const resources = emptyResources();
  (resources as unknown as Record<string, unknown>)[name] = base;
  return desiredBodies(fragment, resources)[name];
}

/** A `--data` body, checked: the update body it holds, and warnings to print. */
export interface DataBody<K extends ResourceName = ResourceName> {
  body: Required<JobConfig>[K];
  /** `allowColumnCombining` when a fields body says it (update only, so not part of the read it replaces). */
  allowColumnCombining?: boolean;
  warnings: string[];
}

/**
 * Checks a `--data` body (`where` names its source: `--data`, `--data @body.json`) with the
 * contract's strict update schema, after dropping the read-only members a `get -o json` body has
 * (confidence, expectedFields, inputColumns, ...). Anything else that is not the seed's update
 * shape is a UsageError naming the member: nothing is sent.
 */
export function dataBody<K extends ResourceName>(name: K, data: unknown, where: string): DataBody<K> {
  const checked = checkUpdate(name, withoutReadOnly(name, data));
  if (!checked.ok) {
    const { path, problem } = checked.problem;
    throw new UsageError(`${where}: ${path || 'the body'} ${problem}.`);
  }
  const warnings: string[] = [];
  const value = checked.value as any;
  if (name === 'sheet') return { body: value.sheetSelection.selected, warnings } as DataBody<K>;
  if (name === 'text') {
    const methods = value.textProcessingMethods as NonNullable<JobConfig['text']>['textProcessingMethods'];
    for (const [field, rules] of Object.entries(methods.regexReplacement ?? {})) {
      const at = pathOf([{ key: 'textProcessingMethods' }, { key: 'regexReplacement' }, { key: field }]);
      for (const pattern of rules.keys()) checkRegex(pattern, `${where}: ${at}`);
    }
    for (const [field, casing] of Object.entries(methods.casing ?? {})) {
      if ((READ_ONLY_CASINGS as readonly string[]).includes(casing)) {
        warnings.push(`${where}: casing "${casing}" of field "${field}" is not in the seed's list of supported casings (${CASINGS.join(', ')}); sending it anyway.`);
      }
    }
  }
  if (name === 'fields') return { body: value, allowColumnCombining: value.allowColumnCombining, warnings } as DataBody<K>;
  return { body: value, warnings };
}

/** The read `--data` stands for: the current read with the update body's members in place of its own (read-only members kept). */
export function overlay<K extends ResourceName>(name: K, current: NonNullable<JobResources[K]>, body: Required<JobConfig>[K]): NonNullable<JobResources[K]> {
  if (name === 'sheet') {
    const selection = (current as JobResources['sheet'])?.sheetSelection;
    return { sheetSelection: { ...selection, sheets: selection?.sheets ?? [], selected: body as string } } as unknown as NonNullable<JobResources[K]>;
  }
  const { allowColumnCombining: _updateOnly, ...members } = body as Record<string, unknown>;
  return { ...current, ...members } as NonNullable<JobResources[K]>;
}
