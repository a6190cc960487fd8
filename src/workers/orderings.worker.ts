/// <reference lib="webworker" />
// Thin comlink facade over core: resolve the similarity, run the protocols. No logic of its own.
import * as Comlink from 'comlink';
import { computePackedOrderingsView } from '../core/protocols/orderings-view';
import { loadWordnetGraph } from '../data/wordnet-graph';
import type { OrderingsWorkerApi } from './orderings-api';

/** The uploaded similarity file, sent once (transferred) instead of copied into every request. */
let upload: { id: number; bytes: Uint8Array } | null = null;

const api: OrderingsWorkerApi = {
  keepUpload(id, bytes) {
    upload = { id, bytes };
  },
  /** `uploadId`: the request's upload bytes are the kept file's (the request carries none). */
  async compute(req, uploadId) {
    if (uploadId !== undefined) {
      if (req.similarity.kind !== 'upload' || upload?.id !== uploadId) throw new Error('The uploaded file is no longer in the worker: upload it again.');
      req = { ...req, similarity: { ...req.similarity, bytes: upload.bytes } };
    }
    const graph = req.similarity.kind === 'wordnet' ? await loadWordnetGraph(import.meta.env.BASE_URL) : undefined;
    const view = computePackedOrderingsView(req, { wordnet: graph ? () => graph : undefined });
    // a copy is transferred: the resolved matrix may share its buffer with the kept upload
    const matrix = { n: view.matrix.n, data: view.matrix.data.slice() };
    return Comlink.transfer({ ...view, matrix }, [matrix.data.buffer]);
  },
};
Comlink.expose(api);
