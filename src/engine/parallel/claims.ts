/**
 * Which parts of a parallel run are taken, shared by the main thread and the worker: the main
 * thread takes parts from the front (it merges in file order, so its own parts need no spilling),
 * the worker from the back. Whichever thread is slower (the machine's other load decides that,
 * not the code) simply takes fewer parts, and both end within about one part of each other.
 * One Int32: the next front part (low 16 bits) and the end of the parts left (high 16 bits),
 * changed only by compare-and-swap, so no part is taken twice.
 */

/** Most parts a run may have (the 16 bits of a claim). */
export const MAX_PARTS = 0xffff;

/** Claims on `count` parts of which the first `taken` are the main thread's already. */
export function newClaims(count: number, taken: number): SharedArrayBuffer {
  if (count > MAX_PARTS) throw new RangeError(`At most ${MAX_PARTS} parts`);
  const claims = new SharedArrayBuffer(4);
  new Int32Array(claims)[0] = taken | (count << 16);
  return claims;
}

/** Takes the first part left (the main thread's way): its index, or -1 when none is left. */
export function claimFront(claims: SharedArrayBuffer): number {
  return claim(new Int32Array(claims), true);
}

/** Takes the last part left (the worker's way): its index, or -1 when none is left. */
export function claimBack(claims: SharedArrayBuffer): number {
  return claim(new Int32Array(claims), false);
}

function claim(word: Int32Array, front: boolean): number {
  for (;;) {
    const value = Atomics.load(word, 0);
    const next = value & 0xffff;
    const end = value >>> 16;
    if (next >= end) return -1;
    const taken = front ? next : end - 1;
    const after = front ? (next + 1) | (end << 16) : next | ((end - 1) << 16);
    if (Atomics.compareExchange(word, 0, value, after) === value) return taken;
  }
}
