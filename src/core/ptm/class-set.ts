/**
 * Sets of class positions as bit masks (32 classes per Uint32 word), the key of the ground-truth cache
 * (docs/science.md §9): the classes seen after a step.
 */

/** Words of a mask over C classes. */
export function maskWords(classCount: number): number {
  return Math.max(1, Math.ceil(classCount / 32));
}

/** Adds the class positions to `mask` in place. */
export function addToMask(mask: Uint32Array, positions: readonly number[]): Uint32Array {
  for (const p of positions) mask[p >>> 5] |= 1 << (p & 31);
  return mask;
}

/** Whether position p is in the mask. */
export function inMask(mask: Uint32Array, p: number): boolean {
  return (mask[p >>> 5] & (1 << (p & 31))) !== 0;
}

/** Whether two masks of the same length share a class. */
export function masksIntersect(a: Uint32Array, ao: number, b: Uint32Array, words: number): boolean {
  for (let w = 0; w < words; w++) if ((a[ao + w] & b[w]) !== 0) return true;
  return false;
}

/** A key naming the set (equal sets, equal keys): the mask itself up to 32 classes, else its words joined. */
export function maskKey(mask: Uint32Array): string | number {
  if (mask.length === 1) return mask[0];
  let s = String(mask[0]);
  for (let w = 1; w < mask.length; w++) s += `.${mask[w]}`;
  return s;
}

/** The positions in the mask, ascending. */
export function maskMembers(mask: Uint32Array, classCount: number): number[] {
  const out: number[] = [];
  for (let p = 0; p < classCount; p++) if (inMask(mask, p)) out.push(p);
  return out;
}
