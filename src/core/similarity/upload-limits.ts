/**
 * The bounds on an uploaded similarity file (src/core/config/limits.ts: what this machine can serve), checked before
 * the work they bound: how many numbers it may hold, and how many classes a similarity matrix may have (the n×n
 * matrix, and the cosine similarities of n embeddings, grow with n²).
 */
import { CONFIG_LIMITS, grouped } from '../config/limits';
import { SimilarityError } from './validate';

/** Throws when a table of nRows × nCols numbers is more than an upload may hold. */
export function tooManyValues(nRows: number, nCols: number): void {
  if (nRows * nCols <= CONFIG_LIMITS.uploadValues) return;
  throw new SimilarityError(
    `The file holds ${grouped(nRows)} × ${grouped(nCols)} = ${grouped(nRows * nCols)} numbers; at most ${grouped(CONFIG_LIMITS.uploadValues)} can be read in the tab.`,
  );
}

/** Throws when a similarity matrix would have more classes than an experiment can. */
export function tooManyClasses(n: number, what: string): void {
  if (n <= CONFIG_LIMITS.classes) return;
  throw new SimilarityError(
    `The file has ${grouped(n)} ${what}; a similarity matrix can have at most ${grouped(CONFIG_LIMITS.classes)} classes (an experiment's most). Give the experiment's classes, so that only their rows are used.`,
  );
}
