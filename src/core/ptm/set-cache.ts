/**
 * The ground truth's cache by class set (docs/science.md §9): a method's correct counts per class after a step,
 * keyed by the state that decides them (the set of classes seen, and RanPAC's λ). Bounded by bytes, least recently
 * used first out, so memory stays flat however many orderings pass through: an exhaustive ground truth reuses every
 * entry (10 classes in 5 tasks: 511 sets for 113 400 orderings), a sample of a large Ω rarely does (100 classes in
 * 10 tasks: almost every set after the first step is new), and then the cache only holds the most recent ones.
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

/** Entry bound for a byte budget with `classCount` int32 counts per entry (plus ~120 bytes of key and map overhead). */
export function cacheEntriesFor(bytes: number, classCount: number): number {
  return Math.max(1, Math.floor(bytes / (4 * classCount + 120)));
}

export class SetCache {
  private readonly map = new Map<string, Int32Array>();
  readonly stats: SetCacheStats;

  constructor(maxEntries: number) {
    this.stats = { computed: 0, hits: 0, evictions: 0, peakEntries: 0, maxEntries };
  }

  /** The counts of `key`, computed by `make` on a miss. */
  get(key: string, make: () => Int32Array): Int32Array {
    const hit = this.map.get(key);
    if (hit) {
      this.stats.hits++;
      // most recently used last
      this.map.delete(key);
      this.map.set(key, hit);
      return hit;
    }
    const value = make();
    this.stats.computed++;
    this.map.set(key, value);
    if (this.map.size > this.stats.maxEntries) {
      this.map.delete(this.map.keys().next().value as string);
      this.stats.evictions++;
    }
    this.stats.peakEntries = Math.max(this.stats.peakEntries, this.map.size);
    return value;
  }

  get size(): number {
    return this.map.size;
  }
}
