/**
 * The ground truth's cache by class set (docs/science.md §9): a method's correct counts per class after a step,
 * keyed by the state that decides them (the set of classes seen, and RanPAC's λ). Bounded by bytes, least recently
 * computed first out (a hit does not reorder: on the exhaustive path nothing is ever evicted, and on a sample the
 * sets rarely repeat, so recency buys little and reordering on every hit costs a fifth of the assembly), so memory
 * stays flat however many orderings pass through: an exhaustive ground truth reuses every entry (10 classes in 5
 * tasks: 511 sets for 113 400 orderings), a sample of a large Ω rarely does (100 classes in 10 tasks: almost every
 * set after the first step is new), and then the cache only holds the most recent ones.
 */

export interface SetCacheStats {
  /** states computed (misses) */
  computed: number;
  hits: number;
  evictions: number;
  /** most entries held at once */
  peakEntries: number;
  /** the bound on entries */
  maxEntries: number;
}

/**
 * Entry bound for a byte budget with `classCount` int32 counts per entry, plus about 400 bytes of key, typed-array
 * object and map slot (measured in Node 20 after a forced GC: 281 bytes of heap per entry for 10 classes, 452 + 400
 * for 100 classes with string keys).
 */
export function cacheEntriesFor(bytes: number, classCount: number): number {
  return Math.max(1, Math.floor(bytes / (4 * classCount + 400)));
}

export class SetCache {
  private readonly map = new Map<string | number, Int32Array>();
  readonly stats: SetCacheStats;

  constructor(maxEntries: number) {
    this.stats = { computed: 0, hits: 0, evictions: 0, peakEntries: 0, maxEntries };
  }

  /** The counts of `key`, computed by `make` on a miss. */
  get(key: string | number, make: () => Int32Array): Int32Array {
    const hit = this.map.get(key);
    if (hit) {
      this.stats.hits++;
      return hit;
    }
    const value = make();
    this.stats.computed++;
    this.map.set(key, value);
    if (this.map.size > this.stats.maxEntries) {
      this.map.delete(this.map.keys().next().value as string | number);
      this.stats.evictions++;
    }
    if (this.map.size > this.stats.peakEntries) this.stats.peakEntries = this.map.size;
    return value;
  }

  get size(): number {
    return this.map.size;
  }
}
