/**
 * Everything the Orderings page (and `cil-lab orders`) shows for one input: the similarity matrix with its
 * provenance, |Ω|, and every requested protocol's orderings with S. Pure: the WordNet graph is passed in.
 */
import type { WordnetGraph } from '../similarity/wordnet';
import { matrixToRows } from '../orderings/matrix';
import { resolveSimilarity, type SimilaritySpec } from '../similarity/resolve';
import { runProtocols } from './run';
import type { ProtocolOptions, ProtocolReport } from './types';

export interface OrderingsRequest {
  classes: string[];
  taskSizes: number[];
  similarity: SimilaritySpec;
  options: ProtocolOptions;
}

export interface OrderingsView extends ProtocolReport {
  classes: string[];
  similarityDescription: string;
  matrix: number[][];
  synsets?: { name: string; synsetId: string; lemma: string; gloss: string; source: string }[];
}

export function computeOrderingsView(req: OrderingsRequest, deps: { wordnet?: () => WordnetGraph }): OrderingsView {
  const sim = resolveSimilarity(req.similarity, req.classes, deps);
  const report = runProtocols(sim.matrix, req.taskSizes, req.options);
  return {
    ...report,
    notes: [...sim.warnings, ...report.notes],
    classes: req.classes,
    similarityDescription: sim.description,
    matrix: matrixToRows(sim.matrix),
    synsets: sim.synsets?.map((s) => ({ name: s.name, synsetId: s.synsetId, lemma: s.lemma, gloss: s.gloss, source: s.source })),
  };
}
