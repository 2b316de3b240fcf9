/**
 * Step 1, sheet selection (XLSX only). The sheet is chosen when the reader opens the input
 * (`InputSource.open({ sheet })`), so this step leaves rows alone; it exists so that the order of
 * steps is written in one place (steps/index.ts).
 */
import type { Step } from '../types.js';

/** Step 1: a no-op on rows; the reader has already opened the selected sheet. */
export const selectSheet: Step = {
  name: 'select-sheet',
  apply(input) {
    return input;
  },
};
