/** The UI's handle on the orderings worker (comlink); one worker per page, released on dispose. */
import * as Comlink from 'comlink';
import { unpackOrderingsView, type OrderingsRequest, type OrderingsView } from '../core/protocols/orderings-view';
import type { OrderingsWorkerApi } from '../workers/orderings-api';

export type { OrderingsRequest, OrderingsView } from '../core/protocols/orderings-view';
export type { SimilaritySpec } from '../core/similarity/resolve';

export function createOrderingsClient() {
  const worker = new Worker(new URL('../workers/orderings.worker.ts', import.meta.url), { type: 'module' });
  const remote = Comlink.wrap<OrderingsWorkerApi>(worker);
  // An uploaded similarity file goes to the worker once (transferred), not copied into every request: a 300 MB
  // upload cost the page a 2 s freeze per computation. Bytes not read by readUpload are copied once.
  let kept: { bytes: Uint8Array; id: number; sent: Promise<void> } | null = null;
  let nextId = 1;
  function keep(bytes: Uint8Array): { id: number; sent: Promise<void> } {
    if (kept?.bytes !== bytes) {
      const copy = bytes.slice();
      const id = nextId++;
      kept = { bytes, id, sent: remote.keepUpload(id, Comlink.transfer(copy, [copy.buffer])) };
    }
    return kept;
  }
  return {
    /**
     * The bytes of an uploaded similarity file, read for the page; the worker gets a second read of the file,
     * transferred (no copy on the page's thread: copying 300 MB there took 1–2 s).
     */
    async readUpload(file: Blob): Promise<Uint8Array> {
      const [mine, theirs] = await Promise.all([file.arrayBuffer(), file.arrayBuffer()]);
      const bytes = new Uint8Array(mine);
      const id = nextId++;
      kept = { bytes, id, sent: remote.keepUpload(id, Comlink.transfer(new Uint8Array(theirs), [theirs])) };
      return bytes;
    },
    async compute(req: OrderingsRequest): Promise<OrderingsView> {
      const sim = req.similarity;
      if (sim.kind !== 'upload') return unpackOrderingsView(await remote.compute(req));
      const k = keep(sim.bytes);
      await k.sent;
      return unpackOrderingsView(await remote.compute({ ...req, similarity: { ...sim, bytes: new Uint8Array(0) } }, k.id));
    },
    dispose() {
      remote[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}
