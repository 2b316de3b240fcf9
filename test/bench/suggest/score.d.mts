// Types of score.mjs, for the TypeScript test that runs the benchmark's scoring.
import type { BenchCase } from './held-out.mjs';

export const CONFIDENT: number;
export const TARGETS: { precision: number; recall: number; confidentCorrect: number };
export interface Totals {
  suggested: number; truePairs: number; correct: number; confidentCorrectCount: number; confidentWrong: number;
  precision: number; recall: number; confidentCorrect: number; confidentOfTrue: number;
}
export interface CaseResult { name: string; wrong: [string, string, number][]; missed: [string, string][] }
export function scoreCases(cases: readonly BenchCase[]): Promise<{ perCase: CaseResult[]; total: Totals }>;
export function scoreDroppedFields(cases: readonly BenchCase[]): Promise<{ variants: number; wrong: number; wrongAt06: number; wrongAt08: number }>;
export const DECOY_FIELDS: [string, string][];
export function scoreDecoyFields(cases: readonly BenchCase[]): Promise<{ variants: number; wrong: number; wrongAt06: number; wrongAt08: number }>;
