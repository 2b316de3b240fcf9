// Writes src/engine/country-names.ts: the English name of each ISO 3166-1 country that
// i18n-iso-countries lists, as the ICU data built into Node gives it (Intl.DisplayNames). Run it
// again (node scripts/country-names.mjs) when i18n-iso-countries adds codes.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const codes = createRequire(import.meta.url)('i18n-iso-countries/codes.json');
const english = new Intl.DisplayNames(['en'], { type: 'region' });
const pairs = codes.flatMap(([alpha2]) => {
  const name = english.of(alpha2);
  return name ? [[alpha2, name]] : [];
});
const target = new URL('../src/engine/country-names.ts', import.meta.url);
const text = `/**
 * English country names by ISO 3166-1 alpha-2 code, as Intl.DisplayNames gives them with the ICU ${process.versions.icu} data
 * of Node ${process.versions.node}, for the codes i18n-iso-countries lists. Written by scripts/country-names.mjs: kept as
 * data because making them at run time loads ICU's locale data, about 5 MiB of resident memory for a dry run.
 */
export const COUNTRY_NAMES: readonly (readonly [alpha2: string, name: string])[] = [
${pairs.map(([code, name]) => `  [${JSON.stringify(code)}, ${JSON.stringify(name)}],`).join('\n')}
];
`;
const before = (() => { try { return readFileSync(target, 'utf8'); } catch { return ''; } })();
writeFileSync(target, text);
console.log(`${pairs.length} names${before === text ? ' (unchanged)' : ''}`);
