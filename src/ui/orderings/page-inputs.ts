/** Parsing the Orderings page's free-text inputs (pure; tested without a browser). */

/** "0, 42, 1993" → [0, 42, 1993]; each seed a whole number in 0..2^32−1 (numpy's accepted range). */
export function parseSeeds(text: string): number[] {
  const parts = text.split(/[\s,]+/).filter((p) => p.length > 0);
  if (parts.length === 0) throw new Error('Give at least one RS seed (for example 0, 42, 1993).');
  return parts.map((p) => {
    if (!/^\d+$/.test(p) || Number(p) > 2 ** 32 - 1) {
      throw new Error(`Seed "${p}" is not a whole number between 0 and 4294967295.`);
    }
    return Number(p);
  });
}
