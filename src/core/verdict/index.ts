/** Verdicts: a few plain sentences with the numbers after a run (docs/verdicts.md). */
export type { SentenceKind, Verdict, VerdictSentence } from './types';
export { orderingsVerdict, type OrderingsVerdictInput } from './orderings';
export { groundTruthVerdict, type GroundTruthVerdictInput, type PartialSample } from './ground-truth';
export { meanInterval, pearsonInterval, tQuantile, type Interval } from './intervals';
