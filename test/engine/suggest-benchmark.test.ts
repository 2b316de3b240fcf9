// The suggestion benchmark's scoring (test/bench/suggest/) as a test, so a regression of the mapping
// suggestions fails `npm test`. It runs the built engine (dist/, which `npm test` builds first) on
// the public datasets, as `npm run bench` does; the README's Performance section has the figures.
import { describe, expect, it } from 'vitest';
import { HELD_OUT_B } from '../bench/suggest/held-out-b.mjs';
import { HELD_OUT } from '../bench/suggest/held-out.mjs';
import { HELD_OUT_C } from '../bench/suggest/held-out-c.mjs';
import { HELD_OUT_D } from '../bench/suggest/held-out-d.mjs';
import { HELD_OUT_E } from '../bench/suggest/held-out-e.mjs';
import { scoreCases, TARGETS, type Totals } from '../bench/suggest/score.mjs';
import { VALIDATION } from '../bench/suggest/validation.mjs';

/** The figures that matter, rounded down to two decimals. */
function figures(total: Totals) {
  const floor2 = (x: number) => Math.floor(x * 100 + 1e-9) / 100;
  return { precision: floor2(total.precision), recall: floor2(total.recall), confidentCorrect: floor2(total.confidentCorrect) };
}

/** Fails unless each figure given in `floors` is at least that. */
function expectFloors(total: Totals, floors: Partial<ReturnType<typeof figures>>): void {
  const f = figures(total);
  for (const [name, floor] of Object.entries(floors) as [keyof typeof f, number][]) expect(f[name], name).toBeGreaterThanOrEqual(floor);
}

/** Fails unless the figures meet issue 11's targets. */
function expectTargets(total: Totals): void {
  expectFloors(total, TARGETS);
}

describe('mapping suggestions on the public-dataset benchmark', () => {
  it('meet the targets of issue 11 on validation set B (held out in the first round, scored there at 0.94 / 0.82 / 0.97)', async () => {
    expectTargets((await scoreCases(HELD_OUT_B)).total);
  }, 120_000);

  it('meet the targets of issue 11 on held-out set C, written by an outside examiner (scored at 0.975 / 0.923 / 0.968, then 0.981 / 0.929 / 0.968, then 1.000 / 0.947 / 0.975)', async () => {
    const { total } = await scoreCases(HELD_OUT_C);
    expectTargets(total);
    // Fourth round's figures as floors. Raise them when the figures improve.
    expectFloors(total, { precision: 0.99, recall: 0.94, confidentCorrect: 0.97 });
  }, 120_000);

  it('meet the targets of issue 11 on held-out set D, from other sources', async () => {
    // Scored before the third round at 0.964 / 0.782 / 0.944, after it at 0.978 / 0.883 / 0.940 and
    // after the fourth at 1.000 / 0.922 / 0.942 (24 datasets, 206 true pairs). Raise these floors
    // when the figures improve.
    const { total } = await scoreCases(HELD_OUT_D);
    expectTargets(total);
    expectFloors(total, { precision: 0.99, recall: 0.92, confidentCorrect: 0.94 });
  }, 120_000);

  it('meet the targets of issue 11 on held-out set E, written by a third outside examiner and never tuned on', async () => {
    // Scored on the third round's code at 1.000 / 0.897 / 0.924 and on the fourth round's (whose
    // helper never saw the set) at 1.000 / 0.902 / 0.929 (24 datasets, 234 true pairs). Raise these
    // floors when the figures improve; never tune on this set's misses while it is the blind one.
    const { total } = await scoreCases(HELD_OUT_E);
    expectTargets(total);
    expectFloors(total, { precision: 0.99, confidentCorrect: 0.92 });
  }, 120_000);

  it('do not fall under the figures measured on the held-out set, which misses the targets', async () => {
    // Measured when this test was written: 18 correct of 22 suggested for 32 true pairs, 14 of them
    // confident: precision 0.82, recall 0.56, confident-correct 0.78 (targets 0.97, 0.90, 0.80);
    // see the README. Raise these floors when the figures improve. Scored once more after the
    // second lexicon round (joined words, value evidence; no pairing by elimination, which engine.md's
    // "under 0.5 stays unmapped" rules out): 22 correct of 24 suggested, 17 of them confident. After
    // abbreviations run together and one-letter initials (p_fertility / prev_fertility_rate): 24 of
    // 24, 20 confident: 1.00 / 0.75 / 0.83.
    const { total } = await scoreCases(HELD_OUT);
    expect(figures(total)).toEqual({
      precision: expect.toSatisfy((x: number) => x >= 0.99),
      recall: expect.toSatisfy((x: number) => x >= 0.75),
      confidentCorrect: expect.toSatisfy((x: number) => x >= 0.83),
    });
    expect(total.confidentWrong).toBe(0);
  }, 120_000);

  it('keep every wrong suggestion under 0.6 and most correct ones at 0.8 or more (validation set)', async () => {
    const { perCase, total } = await scoreCases(VALIDATION);
    expect(perCase.flatMap((r) => r.wrong.filter(([, , confidence]) => confidence >= 0.6))).toEqual([]);
    expect(figures(total).confidentCorrect).toBeGreaterThanOrEqual(TARGETS.confidentCorrect);
    expect(figures(total).precision).toBeGreaterThanOrEqual(TARGETS.precision);
  }, 120_000);
});
