/**
 * Loading the pruned WordNet noun graph that `scripts/prepare-wordnet.mjs` writes to public/data/ (browser side).
 * Fetched once per worker and kept; a failure says what is missing and how to fix it.
 */
import type { WordnetGraph } from '../core/similarity/wordnet-synsets';

let cached: Promise<WordnetGraph> | null = null;

export function loadWordnetGraph(baseUrl: string): Promise<WordnetGraph> {
  if (!cached) {
    const url = `${baseUrl.replace(/\/?$/, '/')}data/wordnet-nouns.json`;
    cached = fetch(url)
      .then(async (r) => {
        if (!r.ok) {
          throw new Error(
            `The WordNet data (${url}) could not be loaded (HTTP ${r.status}). Run "npm start" once to prepare it, or upload a similarity matrix instead.`,
          );
        }
        return (await r.json()) as WordnetGraph;
      })
      .catch((e: unknown) => {
        cached = null;
        throw e instanceof Error ? e : new Error(String(e));
      });
  }
  return cached;
}
