/**
 * The Your-classes lab's store in IndexedDB (through the one store, ./store.ts): what the visitor recorded is the
 * truth of the lab, kept the moment it is taken, so a reload, a camera that disappears or a crash loses nothing.
 *
 * - `samples`: a class name, its place in the recording order and the encoded image (JPEG or PNG bytes);
 * - `classes`: the classes in teaching order, each with a fingerprint of its samples once it is complete (so the
 *   lab offers the classes stored here whatever the link says, and knows whether a class's samples changed);
 * - `features`: each sample's feature vector under the encoder that computed it (computed as frames arrive, kept so
 *   a reload does not encode again);
 * - `history`: row t of R of each history (src/core/own-classes/history.ts), stored once, with what it came from.
 *
 * Nothing leaves the browser; "Forget my samples" deletes everything. Version 1 held samples only: its classes are
 * found from the samples' names (in name order, since it kept no teaching order).
 */
import type { HistoryRow } from '../core/own-classes/history';
import { openStore, type DbSpec, type Store } from './store';

export interface OwnSample {
  name: string;
  index: number;
  bytes: Uint8Array;
}

/** A stored class: its place in teaching order and the fingerprint of its first `per` samples (when complete). */
export interface StoredClass {
  name: string;
  position: number;
  fingerprint?: { per: number; value: string };
}

const SPEC: DbSpec = {
  name: 'cil-lab-own-classes',
  version: 2,
  tables: [
    { name: 'samples', keyPath: ['name', 'index'] },
    { name: 'classes', keyPath: 'name' },
    { name: 'features', keyPath: ['name', 'encoder', 'index'] },
    { name: 'history', keyPath: ['key', 'step'] },
  ],
};

export interface OwnSampleStore {
  readonly persistent: boolean;
  readonly notice: string | null;
  /** the samples of a class, in recording order */
  samples(name: string): Promise<OwnSample[]>;
  count(name: string): Promise<number>;
  put(sample: OwnSample): Promise<void>;
  /** every sample, feature and class record of a class (null: of every class, and every history) */
  forget(name: string | null): Promise<void>;
  /** the classes stored here, in teaching order (a store of the first release: found from its samples) */
  classes(): Promise<StoredClass[]>;
  /** the classes in teaching order (their fingerprints kept; a class not listed loses its record, not its samples) */
  saveClasses(names: readonly string[]): Promise<void>;
  setFingerprint(name: string, fingerprint: { per: number; value: string }): Promise<void>;
  /** the stored feature vectors of a class under an encoder (its JSON), by sample index */
  features(name: string, encoder: string): Promise<Map<number, Float32Array>>;
  putFeatures(name: string, encoder: string, index: number, values: Float32Array): Promise<void>;
  history(key: string): Promise<HistoryRow[]>;
  putHistory(row: HistoryRow): Promise<void>;
  /** the rows of a history from `step` on (a class removed at the end) */
  dropHistory(key: string, fromStep: number): Promise<void>;
}

interface FeatureRecord {
  name: string;
  encoder: string;
  index: number;
  values: Float32Array;
}

export function ownSampleStore(store: Store): OwnSampleStore {
  const self: OwnSampleStore = {
    persistent: store.persistent,
    notice: store.notice,
    samples: (name) => store.getAll<OwnSample>('samples', { prefix: [name] }),
    count: (name) => store.count('samples', { prefix: [name] }),
    put: (s) => store.put('samples', { name: s.name, index: s.index, bytes: s.bytes }),
    async forget(name) {
      if (name !== null) {
        await store.delete('samples', { prefix: [name] });
        await store.delete('features', { prefix: [name] });
        await store.delete('classes', name);
        return;
      }
      // the array-keyed tables in one range each (every key starts with the empty prefix), the classes one by one
      for (const table of ['samples', 'features', 'history']) await store.delete(table, { prefix: [] });
      for (const c of await store.getAll<StoredClass>('classes')) await store.delete('classes', c.name);
    },
    async classes() {
      const listed = (await store.getAll<StoredClass>('classes')).sort((a, b) => a.position - b.position);
      // samples of a class with no record (a store of the first release, or a record lost): after the listed ones
      const names = new Set(listed.map((c) => c.name));
      const unlisted = new Set<string>();
      for (const s of await store.getAll<OwnSample>('samples')) if (!names.has(s.name)) unlisted.add(s.name);
      const extra = [...unlisted].sort().map((name, i) => ({ name, position: listed.length + i }));
      return [...listed, ...extra];
    },
    async saveClasses(names) {
      const before = new Map((await store.getAll<StoredClass>('classes')).map((c) => [c.name, c]));
      for (const [i, name] of names.entries()) {
        const old = before.get(name);
        if (old?.position === i) continue;
        await store.put('classes', { ...(old ?? { name }), name, position: i });
      }
      for (const name of before.keys()) if (!names.includes(name)) await store.delete('classes', name);
    },
    async setFingerprint(name, fingerprint) {
      const old = await store.get<StoredClass>('classes', name);
      if (old) await store.put('classes', { ...old, fingerprint });
    },
    async features(name, encoder) {
      const rows = await store.getAll<FeatureRecord>('features', { prefix: [name, encoder] });
      return new Map(rows.map((r) => [r.index, r.values]));
    },
    putFeatures: (name, encoder, index, values) => store.put('features', { name, encoder, index, values }),
    history: (key) => store.getAll<HistoryRow>('history', { prefix: [key] }),
    putHistory: (row) => store.put('history', row),
    async dropHistory(key, fromStep) {
      for (const r of await self.history(key)) if (r.step >= fromStep) await store.delete('history', [key, r.step]);
    },
  };
  return self;
}

export async function openOwnSampleStore(): Promise<OwnSampleStore> {
  return ownSampleStore(await openStore(SPEC, { what: 'Your samples' }));
}

export { SPEC as OWN_SAMPLES_DB };
