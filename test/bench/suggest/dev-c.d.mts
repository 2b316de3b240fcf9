// Types of dev-c.mjs.
import type { BenchCase } from './held-out.mjs';

export const DEV_C: BenchCase[];
