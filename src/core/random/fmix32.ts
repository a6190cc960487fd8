/**
 * murmur3's fmix32 finaliser: nearby 32-bit inputs give unrelated outputs. The training seeds of a task
 * (../orderings/training-seeds.ts) and the engine's per-purpose stream seeds (src/engine/seeds.ts) are finalised with
 * it; the seeds are part of the results (docs/science.md, "every random choice takes a seed"), so never change it.
 */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
