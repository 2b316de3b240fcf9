import { describe, expect, it } from 'vitest';
import { selectSheet } from '../../../src/engine/steps/select-sheet.js';
import { expectRows, makeConfig, makeContext, makeTable } from '../../support/rows.js';

describe('select-sheet step', () => {
  it('passes the rows of the sheet the reader opened through unchanged', async () => {
    const input = makeTable(['a'], [['1'], ['2']]);
    const out = await selectSheet.apply(input, makeConfig({ sheet: 'Data' }), makeContext());
    expect(out).toBe(input);
    await expectRows(out, [{ a: '1' }, { a: '2' }]);
  });
});
