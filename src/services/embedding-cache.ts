/**
 * CLIP text embeddings cached in IndexedDB (idb), keyed by (model, dtype, prompt text, class name): the same class
 * embedded with the same model, precision and prompt is never embedded twice, across reloads. Each record keeps
 * the prompt text that was actually embedded, so a cached vector can always be traced back to its input.
 *
 * IndexedDB may be missing or refused (private windows, some test runners, Node): then the cache is simply
 * empty and writes are dropped — embedding still works, it is only not remembered.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

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
  /** True when IndexedDB is really in use (false: a no-op cache). */
  readonly persistent: boolean;
  /** One entry per key, in order: the cached vector or undefined. */
  getMany(keys: EmbeddingKey[]): Promise<(Float32Array | undefined)[]>;
  putMany(records: EmbeddingRecord[]): Promise<void>;
  close(): void;
}

const DB_NAME = 'cil-lab-embeddings';
const STORE = 'embeddings';

type Tuple = [string, string, string, string];

interface Schema extends DBSchema {
  embeddings: { key: Tuple; value: EmbeddingRecord };
}

/** The IndexedDB key of an entry (the store's compound keyPath, in this order). */
export function embeddingKeyTuple(k: EmbeddingKey): Tuple {
  return [k.model, k.dtype, k.prompt, k.className];
}

const noCache: EmbeddingCache = {
  persistent: false,
  getMany: async (keys) => keys.map(() => undefined),
  putMany: async () => {},
  close: () => {},
};

/** Open the cache; never throws (falls back to the no-op cache). */
export async function openEmbeddingCache(): Promise<EmbeddingCache> {
  if (typeof indexedDB === 'undefined') return noCache;
  let db: IDBPDatabase<Schema>;
  try {
    db = await openDB<Schema>(DB_NAME, 1, {
      upgrade(d) {
        d.createObjectStore(STORE, { keyPath: ['model', 'dtype', 'prompt', 'className'] });
      },
    });
  } catch {
    return noCache;
  }
  return {
    persistent: true,
    async getMany(keys) {
      try {
        const tx = db.transaction(STORE, 'readonly');
        const got = await Promise.all(keys.map((k) => tx.store.get(embeddingKeyTuple(k))));
        await tx.done;
        return got.map((r) => (r && r.vector instanceof Float32Array ? r.vector : undefined));
      } catch {
        return keys.map(() => undefined);
      }
    },
    async putMany(records) {
      if (!records.length) return;
      try {
        const tx = db.transaction(STORE, 'readwrite');
        await Promise.all(records.map((r) => tx.store.put({ ...r, vector: Float32Array.from(r.vector) })));
        await tx.done;
      } catch {
        // quota or a closed database: the vectors are still returned to the caller, just not remembered
      }
    },
    close: () => db.close(),
  };
}
