/**
 * Everything the Orderings page (and `cil-lab orders`) shows for one input: the similarity matrix with its
 * provenance, EDGE's dendrogram of it, |Ω|, and every requested protocol's orderings with S. Pure: the WordNet
 * graph is passed in.
 */
import { leavesList } from '../clustering/fcluster';
import { linkageRows } from '../clustering/linkage';
import type { WordnetGraph } from '../similarity/wordnet-synsets';
import { matrixToRows } from '../orderings/matrix';
import type { SquareMatrix } from '../orderings/types';
import { resolveSimilarity, type SimilaritySpec } from '../similarity/resolve';
import { edgeLinkage } from './edge';
import { runProtocols } from './run';
import type { ProtocolOptions, ProtocolReport } from './types';

export interface OrderingsRequest {
  classes: string[];
  taskSizes: number[];
  similarity: SimilaritySpec;
  options: ProtocolOptions;
}

/**
 * EDGE's hierarchical clustering of the classes: complete linkage on the dissimilarity 1 − Sim, the very linkage
 * matrix EDGE cuts (computed once per view), as scipy's Z and its dendrogram leaf order (scipy `leaves_list`).
 */
export interface DendrogramView {
  method: 'complete';
  /** scipy's Z, (N−1) rows of [idx1, idx2, distance (1 − Sim), count]; cluster n+i is formed by row i. */
  linkage: number[][];
  /** Classes in left-to-right dendrogram order. */
  leaves: number[];
}

export interface OrderingsView extends ProtocolReport {
  classes: string[];
  /** the task sizes asked for (m_1..m_K) */
  taskSizes: number[];
  similarityDescription: string;
  matrix: number[][];
  dendrogram: DendrogramView;
  synsets?: { name: string; synsetId: string; lemma: string; gloss: string; source: string }[];
}

/**
 * A view with its similarity matrix flat, as the orderings worker sends it (the buffer transferred): structured-cloning
 * 1 000 rows of 1 000 numbers took ~270 ms of the page's thread.
 */
export type PackedOrderingsView = Omit<OrderingsView, 'matrix'> & { matrix: SquareMatrix };

export function computeOrderingsView(req: OrderingsRequest, deps: { wordnet?: () => WordnetGraph }): OrderingsView {
  return unpackOrderingsView(computePackedOrderingsView(req, deps));
}

/** The view's matrix as rows (the CLI's JSON and the page's charts read rows). */
export function unpackOrderingsView(view: PackedOrderingsView): OrderingsView {
  return { ...view, matrix: matrixToRows(view.matrix) };
}

export function computePackedOrderingsView(req: OrderingsRequest, deps: { wordnet?: () => WordnetGraph }): PackedOrderingsView {
  const sim = resolveSimilarity(req.similarity, req.classes, deps);
  const z = edgeLinkage(sim.matrix, 'complete');
  const report = runProtocols(sim.matrix, req.taskSizes, req.options, { linkage: z });
  return {
    ...report,
    notes: [...sim.warnings, ...report.notes],
    classes: req.classes,
    taskSizes: req.taskSizes.slice(),
    similarityDescription: sim.description,
    matrix: sim.matrix,
    dendrogram: { method: 'complete', linkage: linkageRows(z), leaves: Array.from(leavesList(z, sim.matrix.n)) },
    synsets: sim.synsets?.map((s) => ({ name: s.name, synsetId: s.synsetId, lemma: s.lemma, gloss: s.gloss, source: s.source })),
  };
}
