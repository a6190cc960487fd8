/** A verdict: a few plain sentences with their numbers, said after a run (docs/verdicts.md). */

/**
 * - 'finding': what the experiment shows, good or bad (the headline comes first);
 * - 'why': the reason behind a finding;
 * - 'try': what to change to see something else;
 * - 'note': a caveat about how to read the numbers.
 */
export type SentenceKind = 'finding' | 'why' | 'try' | 'note';

export interface VerdictSentence {
  /** Stable name of the rule that wrote it (tests, data-testid). */
  id: string;
  kind: SentenceKind;
  text: string;
}

export interface Verdict {
  sentences: VerdictSentence[];
  /** The numbers will move: the run is not complete. */
  provisional: boolean;
  /** Why provisional, with n of N ("46 of 90 truth orderings trained, …"); '' when not. */
  provisionalNote: string;
}
