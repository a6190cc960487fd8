/**
 * CLIP text embeddings cached in IndexedDB (idb), keyed by (model, dtype, prompt text, class name): the same class
 * embedded with the same model, precision and prompt is never embedded twice, across reloads. Each record keeps
 * the prompt text that was actually embedded, so a cached vector can always be traced back to its input.
 *
 * Database "cil-lab-embeddings" of the app's store (./store.ts); where IndexedDB is missing or refused the vectors
 * are kept for the page's life only.
 */
import { openStore, type DbSpec } from './store';

export interface EmbeddingKey {
  /** Model id, e.g. "Xenova/clip-vit-base-patch32". */
  model: string;
  /** Weight precision, e.g. "q8" or "fp32". */
  dtype: string;
  /** The exact text given to the text encoder (bare name, filled template or a description). */
  prompt: string;
  /** The class the prompt stands for. */
  className: string;
}

export interface EmbeddingRecord extends EmbeddingKey {
  vector: Float32Array;
  /** When it was embedded (ms since epoch) and on which device. */
  createdAt: number;
  device?: string;
}

export interface EmbeddingCache {
  /** True when IndexedDB is really in use (false: kept in memory for the page's life). */
  readonly persistent: boolean;
  /** One entry per key, in order: the cached vector or undefined. */
  getMany(keys: EmbeddingKey[]): Promise<(Float32Array | undefined)[]>;
  putMany(records: EmbeddingRecord[]): Promise<void>;
  close(): void;
}

const DB_NAME = 'cil-lab-embeddings';
const STORE = 'embeddings';

type Tuple = [string, string, string, string];

/** The IndexedDB key of an entry (the store's compound keyPath, in this order). */
export function embeddingKeyTuple(k: EmbeddingKey): Tuple {
  return [k.model, k.dtype, k.prompt, k.className];
}

const SPEC: DbSpec = { name: DB_NAME, version: 1, tables: [{ name: STORE, keyPath: ['model', 'dtype', 'prompt', 'className'] }] };

/** Open the cache; never throws (falls back to a cache kept in memory for the page's life). */
export async function openEmbeddingCache(): Promise<EmbeddingCache> {
  const db = await openStore(SPEC, { what: 'Embeddings' });
  return {
    persistent: db.persistent,
    async getMany(keys) {
      try {
        const got = await Promise.all(keys.map((k) => db.get<EmbeddingRecord>(STORE, embeddingKeyTuple(k))));
        return got.map((r) => (r && r.vector instanceof Float32Array ? r.vector : undefined));
      } catch {
        return keys.map(() => undefined);
      }
    },
    async putMany(records) {
      try {
        for (const r of records) await db.put(STORE, { ...r, vector: Float32Array.from(r.vector) });
      } catch {
        // quota or a closed database: the vectors are still returned to the caller, just not remembered
      }
    },
    close: () => db.close(),
  };
}
