/**
 * The orderings worker's API, types only (issue 12: "worker message types live in one module both sides import"):
 * src/workers/orderings.worker.ts implements it, src/services/orderings-client.ts wraps it with comlink.
 */
import type { OrderingsRequest, OrderingsView } from '../core/protocols/orderings-view';
import type { SquareMatrix } from '../core/orderings/types';

/**
 * A view as it crosses from the worker: the similarity matrix flat (its buffer transferred), not as nested rows —
 * structured-cloning 1 000 rows of 1 000 numbers took ~270 ms of the page's thread (issue 16's long-task drill).
 */
export type PackedOrderingsView = Omit<OrderingsView, 'matrix'> & { matrix: SquareMatrix };

export interface OrderingsWorkerApi {
  /** The uploaded similarity file, sent once (transferred) instead of copied into every request. */
  keepUpload(id: number, bytes: Uint8Array): void;
  /** `uploadId`: the request's upload bytes are the kept file's (the request carries none). */
  compute(req: OrderingsRequest, uploadId?: number): Promise<PackedOrderingsView>;
}
