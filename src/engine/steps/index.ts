/** The engine's steps in engine.md's order ("Steps, in this order"): the one place the order is decided. */
import type { Step } from '../types.js';
import { combine } from './combine.js';
import { dropRows } from './drop-rows.js';
import { impute } from './impute.js';
import { map } from './map.js';
import { pivot } from './pivot.js';
import { postCleanScripts, preColumnMappingScripts } from './scripts.js';
import { selectSheet } from './select-sheet.js';
import { text } from './text.js';
import { types } from './types.js';
import { units } from './units.js';

/** Each step on its own, for tests and for callers that run one step. */
export { combine, dropRows, impute, map, pivot, postCleanScripts, preColumnMappingScripts, selectSheet, text, types, units };

/** Every step, in the order the engine applies them. */
export const STEPS: Step[] = [
  selectSheet,
  preColumnMappingScripts,
  map,
  combine,
  types,
  units,
  impute,
  text,
  dropRows,
  pivot,
  postCleanScripts,
];
