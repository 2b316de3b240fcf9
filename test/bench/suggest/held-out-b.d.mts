// Types of held-out-b.mjs.
import type { BenchCase } from './held-out.mjs';

export const HELD_OUT_B: BenchCase[];
