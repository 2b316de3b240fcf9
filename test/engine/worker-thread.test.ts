import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { engineWorker } from '../../src/engine/worker-thread.js';

// Allocates a steady stream of short-lived objects (as the engine's batches do), then reports
// how large V8 let the young generation grow.
const ALLOCATE = new URL(`data:text/javascript,${encodeURIComponent(`
  import { parentPort } from 'node:worker_threads';
  import { getHeapSpaceStatistics } from 'node:v8';
  let keep = [];
  for (let i = 0; i < 2e6; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 50000) keep = []; }
  parentPort.postMessage(getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);
`)}`);

async function youngGenerationMb(semiSpaceMb: number): Promise<number> {
  const worker = engineWorker(ALLOCATE, { semiSpaceMb });
  const [bytes] = (await once(worker, 'message')) as [number];
  await worker.terminate();
  return bytes / 1048576;
}

describe('engineWorker', () => {
  it('bounds the young generation to two semi-spaces of the size asked for', async () => {
    const small = await youngGenerationMb(2);
    const large = await youngGenerationMb(16);
    expect(small).toBeLessThanOrEqual(4);
    expect(large).toBeGreaterThan(small);
    expect(large).toBeLessThanOrEqual(32);
  });
});
