/**
 * Feature sets cached in IndexedDB (the app's one store, ./store.ts; database "cil-lab-features"), keyed by what the
 * vectors depend on (engine/features/job.ts featureCacheKey: source, model, revision, precision, preprocessing and a
 * hash of the images' content; an upload by its file's content hash), so a reload or another lab reuses them.
 *
 * Two tables: `sets` holds the numbers, `meta` what the Data tab lists (label, n, d, bytes, when) without reading
 * the numbers. A set is written numbers first, then its meta; when either write fails (the browser's quota, a
 * closed database) the other is deleted again, so a set is either whole or absent — never half-written — and the
 * caller gets a message instead of an exception (the set itself is still returned to it for this page's life).
 *
 * Chromium refuses to store one value past about 127 MB ("the serialized value is too large"), so the numbers of a
 * larger set (an uploaded 400 MB float32 array) are stored in pieces of `FEATURE_PIECE_VALUES` values under the keys
 * [key, 0], [key, 1], …, written before the record that names how many there are.
 */
import type { FeatureSet } from '../core/features/feature-set';
import { openStore, type DbSpec, type Store } from './store';

export const FEATURE_DB: DbSpec = { name: 'cil-lab-features', version: 1, tables: [{ name: 'sets' }, { name: 'meta' }] };

export interface FeatureMeta {
  key: string;
  /** the source in words (core/features/source.ts featureSourceLabel) */
  label: string;
  n: number;
  d: number;
  classes: number;
  /** bytes of the stored numbers */
  bytes: number;
  /** ms since epoch */
  createdAt: number;
  /** where it ran ('wasm-simd', 'webgpu', 'wasm', 'upload') */
  device: string;
  /** an upload's file name (what the share link's FileRef names) */
  file?: string;
}

/** Feature values per stored piece (8 MB): well under the largest value Chromium stores, and each write short (the page stays responsive while a 400 MB set is stored). */
export const FEATURE_PIECE_VALUES = 2_000_000;

interface StoredSet {
  /** absent when the values are stored in `pieces` pieces */
  features?: Float32Array;
  pieces?: number;
  labels: Int32Array;
  split: Uint8Array;
  classNames: string[];
  n: number;
  d: number;
}

export type PutResult = { stored: true; notice: null } | { stored: false; notice: string };

export interface FeatureCache {
  readonly persistent: boolean;
  /** why sets are kept in memory only (null when persistent) */
  readonly notice: string | null;
  get(key: string): Promise<FeatureSet | null>;
  meta(key: string): Promise<FeatureMeta | null>;
  list(): Promise<FeatureMeta[]>;
  /** store a set whole, or nothing and a message */
  put(key: string, set: FeatureSet, info: Pick<FeatureMeta, 'label' | 'device' | 'file'>): Promise<PutResult>;
  delete(key: string): Promise<void>;
  close(): void;
}

/** Bytes of a set's numbers. */
export function featureBytes(set: Pick<FeatureSet, 'features' | 'labels' | 'split'>): number {
  return set.features.byteLength + set.labels.byteLength + set.split.byteLength;
}

/** "12.3 MB" (decimal megabytes, one decimal). */
export function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(bytes < 1e5 ? 2 : 1)} MB`;
}

function isQuota(e: unknown): boolean {
  const name = (e as { name?: string })?.name ?? '';
  const message = (e as { message?: string })?.message ?? '';
  return name === 'QuotaExceededError' || /quota/i.test(message);
}

/** A cache over `store` (tests pass a memory store, and a smaller piece); opening the app's database never throws. */
export function featureCacheOver(db: Store, pieceValues: number = FEATURE_PIECE_VALUES): FeatureCache {
  return {
    persistent: db.persistent,
    notice: db.notice,
    async get(key) {
      const [s, m] = await Promise.all([db.get<StoredSet>('sets', key), db.get<FeatureMeta>('meta', key)]);
      if (!s || !m) return null;
      let features = s.features;
      if (!(features instanceof Float32Array) && typeof s.pieces === 'number') {
        features = new Float32Array(s.n * s.d);
        for (let i = 0; i < s.pieces; i++) {
          const piece = await db.get<{ features: Float32Array }>('sets', [key, i]);
          if (!(piece?.features instanceof Float32Array)) return null;
          features.set(piece.features, i * pieceValues);
        }
      }
      if (!(features instanceof Float32Array)) return null;
      return { features, labels: s.labels, split: s.split, classNames: s.classNames, n: s.n, d: s.d };
    },
    async meta(key) {
      return (await db.get<FeatureMeta>('meta', key)) ?? null;
    },
    async list() {
      return db.getAll<FeatureMeta>('meta');
    },
    async put(key, set, info) {
      const bytes = featureBytes(set);
      const meta: FeatureMeta = {
        key,
        label: info.label,
        device: info.device,
        ...(info.file !== undefined ? { file: info.file } : {}),
        n: set.n,
        d: set.d,
        classes: set.classNames.length,
        bytes,
        createdAt: Date.now(),
      };
      const rest = { labels: set.labels, split: set.split, classNames: set.classNames, n: set.n, d: set.d };
      try {
        if (set.features.length <= pieceValues) await db.put('sets', { features: set.features, ...rest }, key);
        else {
          const pieces = Math.ceil(set.features.length / pieceValues);
          // a copy per piece: a view would be stored with its whole buffer
          for (let i = 0; i < pieces; i++) await db.put('sets', { features: set.features.slice(i * pieceValues, (i + 1) * pieceValues) }, [key, i]);
          await db.put('sets', { ...rest, pieces }, key);
        }
        await db.put('meta', meta, key);
        return { stored: true, notice: null };
      } catch (e) {
        await Promise.allSettled([db.delete('sets', key), db.delete('sets', { prefix: [key] }), db.delete('meta', key)]);
        const why = isQuota(e)
          ? `the browser's storage quota is full (${megabytes(bytes)} asked)`
          : `the browser refused to store them (${e instanceof Error ? e.message : String(e)})`;
        return {
          stored: false,
          notice: `These features are kept for this page only, not cached: ${why}. Delete cached features you no longer need in the Data tab and compute them again.`,
        };
      }
    },
    async delete(key) {
      await Promise.allSettled([db.delete('sets', key), db.delete('sets', { prefix: [key] }), db.delete('meta', key)]);
    },
    close: () => db.close(),
  };
}

let shared: Promise<FeatureCache> | null = null;

/** The app's feature cache (opened once; in memory with a notice where IndexedDB is missing). */
export function featureCache(): Promise<FeatureCache> {
  shared ??= openStore(FEATURE_DB, { what: 'Features' }).then(featureCacheOver);
  return shared;
}
