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
  /**
   * One sentence a student can read aloud, at most HEADLINE_MAX_WORDS words: what the run shows, said by the claim
   * rule (./claim.ts) like every other sentence. Shown first; the sentences (reasons, numbers, what to try) fold beneath.
   * '' only when there are no sentences.
   */
  headline: string;
  sentences: VerdictSentence[];
  /** The numbers will move: the run is not complete. */
  provisional: boolean;
  /** Why provisional, with n of N ("46 of 90 truth orderings trained, …"); '' when not. */
  provisionalNote: string;
}

/** A headline has at most this many words (a student reads it aloud). */
export const HEADLINE_MAX_WORDS = 30;

/** The words of a headline, as counted against HEADLINE_MAX_WORDS (a number with its sign or unit is one word). */
export function headlineWords(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** An empty verdict (nothing to say yet). */
export function noVerdict(): Verdict {
  return { headline: '', sentences: [], provisional: false, provisionalNote: '' };
}
