/** The UI's handle on the orderings worker (comlink); one worker per page, released on dispose. */
import * as Comlink from 'comlink';
import type { OrderingsRequest, OrderingsView } from '../core/protocols/orderings-view';
import type { OrderingsWorkerApi } from '../workers/orderings.worker';

export type { OrderingsRequest, OrderingsView } from '../core/protocols/orderings-view';
export type { SimilaritySpec } from '../core/similarity/resolve';

export function createOrderingsClient() {
  const worker = new Worker(new URL('../workers/orderings.worker.ts', import.meta.url), { type: 'module' });
  const remote = Comlink.wrap<OrderingsWorkerApi>(worker);
  return {
    compute: (req: OrderingsRequest): Promise<OrderingsView> => remote.compute(req),
    dispose() {
      remote[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}
