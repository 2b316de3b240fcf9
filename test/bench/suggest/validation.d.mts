// Types of validation.mjs.
import type { BenchCase } from './held-out.mjs';

export const VALIDATION: BenchCase[];
