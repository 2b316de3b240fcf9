/**
 * Which parts of a parallel run are taken, shared by the main thread and the worker: both take
 * the next part in file order, so the main thread can merge the worker's parts as they come, in
 * between its own, instead of all of them after its own. Whichever thread is slower (the
 * machine's other load decides that, not the code) simply takes fewer parts. One Int32, the
 * next part's index, moved only by Atomics.add, so no part is taken twice.
 */

/** Claims on parts of which the first `taken` are the main thread's already. */
export function newClaims(taken: number): SharedArrayBuffer {
  const claims = new SharedArrayBuffer(4);
  new Int32Array(claims)[0] = taken;
  return claims;
}

/** Takes the next part: its index, or -1 when none of the `count` parts is left. */
export function claimNext(claims: SharedArrayBuffer, count: number): number {
  const taken = Atomics.add(new Int32Array(claims), 0, 1);
  return taken < count ? taken : -1;
}
