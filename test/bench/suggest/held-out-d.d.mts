// Types of held-out-d.mjs.
import type { BenchCase } from './held-out.mjs';

export const HELD_OUT_D: BenchCase[];
