/**
 * The orderings worker's API, types only ("worker message types live in one module both sides import"):
 * src/workers/orderings.worker.ts implements it, src/services/orderings-client.ts wraps it with comlink.
 */
import type { OrderingsRequest, PackedOrderingsView } from '../core/protocols/orderings-view';

export interface OrderingsWorkerApi {
  /** The uploaded similarity file, sent once (transferred) instead of copied into every request. */
  keepUpload(id: number, bytes: Uint8Array): void;
  /** `uploadId`: the request's upload bytes are the kept file's (the request carries none). The matrix comes flat. */
  compute(req: OrderingsRequest, uploadId?: number): Promise<PackedOrderingsView>;
}
