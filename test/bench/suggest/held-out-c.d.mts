// Types of held-out-c.mjs.
import type { BenchCase } from './held-out.mjs';

export const HELD_OUT_C: BenchCase[];
