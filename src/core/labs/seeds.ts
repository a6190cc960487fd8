/**
 * The seeds a lab's run trains (the `seeds` field of the Forgetting, Open-world, Time and Curriculum sections):
 * `seed`, `seed` + 1, …, `count` of them (absent = 1). Each seed's run is stored under its own settings (the section
 * with that `seed` and no `seeds`), so a one-seed run of an earlier link is the first seed of a several-seed run.
 */
export function labSeedList(first: number, count: number | undefined): number[] {
  return Array.from({ length: Math.max(1, count ?? 1) }, (_, k) => first + k);
}

/** A section's settings for one of its seeds: that `seed`, no `seeds` (what one run is stored under). */
export function oneSeed<T extends { seed: number; seeds?: number }>(settings: T, seed: number): T {
  const { seeds: _seeds, ...rest } = settings;
  return { ...rest, seed } as T;
}
