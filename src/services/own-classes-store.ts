/**
 * The Your-classes lab's recorded samples in IndexedDB (through the one store, ./store.ts), each put the moment it is
 * recorded, so a reload, a camera that disappears or a crash loses nothing. A sample is its class name, its place in
 * the recording order and the encoded image (JPEG or PNG bytes, as recorded or dropped). They never leave the browser;
 * "Forget my samples" deletes them all.
 */
import { openStore, type DbSpec, type Store } from './store';

export interface OwnSample {
  name: string;
  index: number;
  bytes: Uint8Array;
}

const SPEC: DbSpec = { name: 'cil-lab-own-classes', version: 1, tables: [{ name: 'samples', keyPath: ['name', 'index'] }] };

export interface OwnSampleStore {
  readonly persistent: boolean;
  readonly notice: string | null;
  /** the samples of a class, in recording order */
  samples(name: string): Promise<OwnSample[]>;
  count(name: string): Promise<number>;
  put(sample: OwnSample): Promise<void>;
  /** every sample of a class (null: of every class) */
  forget(name: string | null): Promise<void>;
}

export function ownSampleStore(store: Store): OwnSampleStore {
  return {
    persistent: store.persistent,
    notice: store.notice,
    samples: (name) => store.getAll<OwnSample>('samples', { prefix: [name] }),
    count: (name) => store.count('samples', { prefix: [name] }),
    put: (s) => store.put('samples', { name: s.name, index: s.index, bytes: s.bytes }),
    async forget(name) {
      if (name !== null) return store.delete('samples', { prefix: [name] });
      for (const s of await store.getAll<OwnSample>('samples')) await store.delete('samples', [s.name, s.index]);
    },
  };
}

export async function openOwnSampleStore(): Promise<OwnSampleStore> {
  return ownSampleStore(await openStore(SPEC, { what: 'Your samples' }));
}

export { SPEC as OWN_SAMPLES_DB };
