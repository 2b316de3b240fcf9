/** Spreadsheet cell references, shared by the XLSX reader and writer. */

/** The letters of a 0-based column (0 -> A, 25 -> Z, 26 -> AA). */
export function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}
