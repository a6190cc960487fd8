/**
 * One entry point from "which similarity source" to a validated class×class matrix (docs/science.md §6),
 * shared by the CLI and the orderings worker. Loading bytes (fetch, fs) is the caller's job.
 */
import type { SquareMatrix } from '../orderings/types';
import { cosineSimilarity } from './cosine';
import { parseSimilarityUpload } from './parse-upload';
import { validateSimilarity } from './validate';
import { wordnetSimilarity, type SynsetChoice } from './wordnet';
import type { WordnetGraph } from './wordnet-synsets';

export type SimilaritySpec =
  | { kind: 'wordnet'; pins?: (string | undefined)[] }
  | { kind: 'upload'; fileName: string; bytes: Uint8Array }
  | { kind: 'matrix'; rows: number[][] }
  /** One embedding per class (e.g. CLIP text embeddings), compared by cosine; `label` says where they came from. */
  | { kind: 'embeddings'; rows: ArrayLike<number>[]; label: string };

export interface ResolvedSimilarity {
  matrix: SquareMatrix;
  /** For WordNet: which synset each class mapped to, and why. */
  synsets?: SynsetChoice[];
  /** For uploads: what kind of file it was and anything worth saying about it. */
  description: string;
  warnings: string[];
}

export function resolveSimilarity(spec: SimilaritySpec, classNames: string[], deps: { wordnet?: () => WordnetGraph }): ResolvedSimilarity {
  switch (spec.kind) {
    case 'wordnet': {
      if (!deps.wordnet) throw new Error('The WordNet graph is not loaded.');
      const { matrix, synsets } = wordnetSimilarity(deps.wordnet(), classNames, spec.pins);
      return { matrix, synsets, description: 'WordNet Wu–Palmer similarity', warnings: [] };
    }
    case 'upload': {
      const parsed = parseSimilarityUpload(spec.fileName, spec.bytes, classNames);
      return {
        matrix: validateSimilarity(parsed.matrix, classNames.length),
        description: parsed.kind === 'matrix' ? `similarity matrix from ${spec.fileName}` : `cosine similarity of the embeddings in ${spec.fileName}`,
        warnings: parsed.warnings,
      };
    }
    case 'matrix':
      return {
        matrix: validateSimilarity(spec.rows, classNames.length),
        description: 'similarity matrix',
        warnings: [],
      };
    case 'embeddings': {
      if (spec.rows.length !== classNames.length)
        throw new Error(`There are ${spec.rows.length} embeddings for ${classNames.length} classes; embed the current class list again.`);
      return {
        matrix: validateSimilarity(cosineSimilarity(spec.rows, classNames), classNames.length),
        description: `cosine similarity of ${spec.label}`,
        warnings: [],
      };
    }
  }
}
