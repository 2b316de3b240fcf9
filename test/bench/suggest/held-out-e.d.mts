// Types of held-out-e.mjs.
import type { BenchCase } from './held-out.mjs';

export const HELD_OUT_E: BenchCase[];
