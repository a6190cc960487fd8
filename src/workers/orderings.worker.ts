/// <reference lib="webworker" />
// Thin comlink facade over core: resolve the similarity, run the protocols. No logic of its own.
import * as Comlink from 'comlink';
import { computeOrderingsView, type OrderingsRequest } from '../core/protocols/orderings-view';
import { loadWordnetGraph } from '../data/wordnet-graph';

const api = {
  async compute(req: OrderingsRequest) {
    const graph = req.similarity.kind === 'wordnet' ? await loadWordnetGraph(import.meta.env.BASE_URL) : undefined;
    return computeOrderingsView(req, { wordnet: graph ? () => graph : undefined });
  },
};
export type OrderingsWorkerApi = typeof api;
Comlink.expose(api);
