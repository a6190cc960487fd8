/**
 * The one store of the app: IndexedDB databases (through idb) with one in-memory fallback, so every lab keeps its
 * results the same way and says the same thing when it cannot (a reload then loses them). A lab's store
 * (results-store.ts, forgetting-store.ts, ood-store.ts, …) is a typed layer over `openStore`.
 *
 * - A database is a name, a version and its tables; a table has an in-line key (`keyPath`) or takes the key with
 *   each `put`, and may have indexes. Databases and versions are those the labs always had, so stored results survive.
 * - Queries: one key, every key starting with a prefix (array keys; IndexedDB's order: [p] … [p, []]), or an
 *   index's value. The memory store orders keys as IndexedDB does (numbers < strings < arrays, arrays element-wise).
 * - Opening never throws: where IndexedDB is missing, refuses or is blocked for `timeoutMs` by another tab, the
 *   memory store comes back with `notice` saying why; a later open that succeeds is closed so it cannot block an upgrade.
 */
import { openDB, type IDBPDatabase } from 'idb';

export interface TableSpec {
  name: string;
  /** in-line key; without it `put` takes the key */
  keyPath?: string | readonly string[];
  /** index name → key path */
  indexes?: Readonly<Record<string, string | readonly string[]>>;
}

export interface DbSpec {
  name: string;
  version: number;
  tables: readonly TableSpec[];
}

/** Which records: every key that starts with `prefix` (array keys), or every record whose `index` equals `value`. */
export type Query = { prefix: readonly IDBValidKey[] } | { index: string; value: IDBValidKey };

export interface Store {
  /** true when the records survive a reload */
  readonly persistent: boolean;
  /** why the records are kept in memory only; null when persistent */
  readonly notice: string | null;
  get<T>(table: string, key: IDBValidKey): Promise<T | undefined>;
  /** every record of the table, or those of the query, in key order */
  getAll<T>(table: string, query?: Query): Promise<T[]>;
  count(table: string, query?: Query | IDBValidKey): Promise<number>;
  /** store (or replace) a record; `key` for a table without an in-line key. Resolves once committed. */
  put(table: string, value: unknown, key?: IDBValidKey): Promise<void>;
  delete(table: string, which: IDBValidKey | { prefix: readonly IDBValidKey[] }): Promise<void>;
  close(): void;
}

/** The notice of the memory fallback. */
export function inMemoryNotice(why: string, what = 'Results'): string {
  return `${what} are kept in memory only (${why}): a reload will lose them.`;
}

const isPrefix = (q: unknown): q is { prefix: readonly IDBValidKey[] } => typeof q === 'object' && q !== null && !Array.isArray(q) && 'prefix' in q;
const isIndex = (q: unknown): q is { index: string; value: IDBValidKey } => typeof q === 'object' && q !== null && !Array.isArray(q) && 'index' in q;

/** IndexedDB's key order for the keys the app uses: numbers < strings < arrays, arrays element by element. */
export function compareKeys(a: IDBValidKey, b: IDBValidKey): number {
  const rank = (k: IDBValidKey): number => (typeof k === 'number' ? 0 : typeof k === 'string' ? 1 : Array.isArray(k) ? 2 : 3);
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = compareKeys(a[i] as IDBValidKey, b[i] as IDBValidKey);
      if (c !== 0) return c;
    }
    return a.length - b.length;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

function keyAt(value: unknown, path: string | readonly string[]): IDBValidKey {
  const field = (p: string): IDBValidKey => (value as Record<string, IDBValidKey>)[p];
  return typeof path === 'string' ? field(path) : path.map(field);
}

const startsWith = (key: IDBValidKey, prefix: readonly IDBValidKey[]): boolean =>
  Array.isArray(key) && key.length >= prefix.length && prefix.every((p, i) => compareKeys(key[i] as IDBValidKey, p) === 0);

/** The memory store: the fallback, and the unit tests' store. Records are copied in and out, as IndexedDB does. */
export function memoryStore(spec: DbSpec, notice: string | null = null): Store {
  const tables = new Map(spec.tables.map((t) => [t.name, { spec: t, rows: new Map<string, { key: IDBValidKey; value: unknown }>() }]));
  const table = (name: string) => {
    const t = tables.get(name);
    if (!t) throw new Error(`The store ${spec.name} has no table "${name}".`);
    return t;
  };
  const select = (name: string, query?: Query | IDBValidKey) => {
    const t = table(name);
    const rows = [...t.rows.values()].sort((a, b) => compareKeys(a.key, b.key));
    if (query === undefined) return rows;
    if (isPrefix(query)) return rows.filter((r) => startsWith(r.key, query.prefix));
    if (isIndex(query)) {
      const path = t.spec.indexes?.[query.index];
      if (path === undefined) throw new Error(`The table ${name} has no index "${query.index}".`);
      return rows.filter((r) => compareKeys(keyAt(r.value, path), query.value) === 0);
    }
    return rows.filter((r) => compareKeys(r.key, query as IDBValidKey) === 0);
  };
  return {
    persistent: false,
    notice,
    async get<T>(name: string, key: IDBValidKey) {
      const row = table(name).rows.get(JSON.stringify(key));
      return row && (structuredClone(row.value) as T);
    },
    async getAll<T>(name: string, query?: Query) {
      return select(name, query).map((r) => structuredClone(r.value) as T);
    },
    async count(name, query) {
      return select(name, query).length;
    },
    async put(name, value, key) {
      const t = table(name);
      const k = t.spec.keyPath !== undefined ? keyAt(value, t.spec.keyPath) : key;
      if (k === undefined) throw new Error(`A record of ${name} needs a key.`);
      t.rows.set(JSON.stringify(k), { key: k, value: structuredClone(value) });
    },
    async delete(name, which) {
      const t = table(name);
      if (isPrefix(which)) for (const r of select(name, which)) t.rows.delete(JSON.stringify(r.key));
      else t.rows.delete(JSON.stringify(which));
    },
    close() {},
  };
}

const range = (q: { prefix: readonly IDBValidKey[] }): IDBKeyRange => IDBKeyRange.bound([...q.prefix], [...q.prefix, []]);

function idbStore(db: IDBPDatabase): Store {
  const target = (query?: Query | IDBValidKey): IDBValidKey | IDBKeyRange | undefined => (isPrefix(query) ? range(query) : (query as IDBValidKey | undefined));
  return {
    persistent: true,
    notice: null,
    get: async <T>(name: string, key: IDBValidKey) => (await db.get(name, key)) as T | undefined,
    async getAll<T>(name: string, query?: Query) {
      if (isIndex(query)) return (await db.getAllFromIndex(name, query.index, query.value)) as T[];
      return (await db.getAll(name, target(query))) as T[];
    },
    async count(name, query) {
      if (isIndex(query)) return db.countFromIndex(name, query.index, query.value);
      return db.count(name, target(query));
    },
    async put(name, value, key) {
      const tx = db.transaction(name, 'readwrite');
      await Promise.all([tx.store.put(value, key), tx.done]);
    },
    async delete(name, which) {
      const tx = db.transaction(name, 'readwrite');
      await Promise.all([tx.store.delete(isPrefix(which) ? range(which) : which), tx.done]);
    },
    close() {
      db.close();
    },
  };
}

export interface OpenStoreOptions {
  /** database name instead of the spec's (tests use their own) */
  name?: string;
  /** give up opening after this many ms (an upgrade blocked by another tab); default 5000 */
  timeoutMs?: number;
  /** what the fallback's notice says is kept in memory ("Results", "Runs", …) */
  what?: string;
}

/** The database of `spec` in IndexedDB, or the memory store with a notice (never throws). */
export async function openStore(spec: DbSpec, options: OpenStoreOptions = {}): Promise<Store> {
  const fallback = (why: string): Store => memoryStore(spec, inMemoryNotice(why, options.what));
  if (typeof (globalThis as { indexedDB?: IDBFactory }).indexedDB === 'undefined') return fallback('IndexedDB is not available here');
  const timeoutMs = options.timeoutMs ?? 5000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const opening = openDB(options.name ?? spec.name, spec.version, {
      upgrade(db) {
        for (const t of spec.tables) {
          if (db.objectStoreNames.contains(t.name)) continue;
          const store = db.createObjectStore(t.name, t.keyPath !== undefined ? { keyPath: t.keyPath as string | string[] } : undefined);
          for (const [index, path] of Object.entries(t.indexes ?? {})) store.createIndex(index, path as string | string[]);
        }
      },
      // a newer build in another tab wants to upgrade: let it (this tab's later writes then fail with a notice)
      blocking(_current, _next, event) {
        (event.target as IDBDatabase).close();
      },
    });
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`IndexedDB did not open within ${timeoutMs / 1000} s; is the app open in another tab?`)), timeoutMs);
    });
    let timedOut = false;
    timeout.catch(() => (timedOut = true));
    opening.then(
      (db) => timedOut && db.close(),
      () => {},
    );
    return idbStore(await Promise.race([opening, timeout]));
  } catch (e) {
    return fallback(e instanceof Error ? e.message : String(e));
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}
