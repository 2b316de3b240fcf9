// Mapping-suggestion quality on public datasets (test/bench/suggest/): precision, recall and the
// share of correct suggestions confident enough to pass without review, per set, plus per-case misses.
import { HELD_OUT } from './suggest/held-out.mjs';
import { CONFIDENT, scoreCases, TARGETS } from './suggest/score.mjs';
import { TUNING } from './suggest/tuning.mjs';
import { VALIDATION } from './suggest/validation.mjs';
import { line } from './lib.mjs';

const pct = (x) => x.toFixed(2);
const verbose = process.argv.includes('--verbose');

let failed = false;
const sets = [['tuning', TUNING], ['validation', VALIDATION], ['held-out', HELD_OUT]]
  .filter(([label]) => !process.argv.includes('--no-held-out') || label !== 'held-out');
for (const [label, cases] of sets) {
  const { perCase, total } = await scoreCases(cases);
  console.log(`\n${label}: ${cases.length} datasets, ${total.truePairs} true pairs, ${total.suggested} suggested`);
  for (const r of perCase) {
    const misses = [...r.wrong.map(([c, f, p]) => `${c}->${f} (${p}, wrong)`), ...r.missed.map(([c, f]) => `${c}->${f} (missed)`)];
    console.log(`  ${r.name.padEnd(32)} ${r.correct}/${r.truePairs} correct, ${r.suggested} suggested, ${r.confidentCorrect} >= ${CONFIDENT}${misses.length ? `; ${misses.join(', ')}` : ''}`);
    if (verbose) console.log(`    correct confidences: ${r.confidences.join(' ')}`);
  }
  console.log(line(`${label} precision`, pct(total.precision)));
  console.log(line(`${label} recall`, pct(total.recall)));
  console.log(line(`${label} confident-correct (of correct)`, `${pct(total.confidentCorrect)} (of true pairs: ${pct(total.confidentOfTrue)})`));
  console.log(line(`${label} wrong suggestions at >= 0.6`, String(total.confidentWrong)));
  if (label === 'held-out') {
    failed = total.precision < TARGETS.precision || total.recall < TARGETS.recall || total.confidentCorrect < TARGETS.confidentCorrect;
    console.log(line('held-out targets', `precision >= ${TARGETS.precision}, recall >= ${TARGETS.recall}, confident-correct >= ${TARGETS.confidentCorrect}: ${failed ? 'MISSED' : 'met'}`));
  }
}
process.exitCode = failed ? 1 : 0;
