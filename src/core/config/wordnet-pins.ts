/**
 * The WordNet synset of each class, as every surface resolves it (the app and `cil-lab` must give
 * the same numbers): the experiment's pin for a class name (config `similarity.pins`, by name) wins, else the built-in
 * class list's own synset, else none (WordNet picks the name's first noun sense, docs/science.md §6). The Orderings page,
 * the Ground-truth lab and the CLI's `--config`/`--link` all go through `wordnetPinsFor`.
 */
import type { ExperimentConfig } from './schema';

/** The experiment's WordNet pins by class name ({} when its similarity is not WordNet). */
export function wordnetPinsOf(config: ExperimentConfig): Record<string, string> {
  return config.similarity.kind === 'wordnet' ? { ...config.similarity.pins } : {};
}

/**
 * WordNet pins of the classes `names`: the experiment's pin for a class name, else the class list's own synset
 * (`listSynsets[i]`, a built-in list's; none for custom names).
 */
export function wordnetPinsFor(
  pins: Readonly<Record<string, string>>,
  names: readonly string[],
  listSynsets: readonly (string | undefined)[] = [],
): (string | undefined)[] {
  return names.map((n, i) => (Object.hasOwn(pins, n) ? pins[n] : listSynsets[i]));
}

/** The names of a built-in list's classes `idx` (in that order) and their WordNet pins (`wordnetPinsFor`). */
export function listClassesWithPins(
  list: { classes: readonly string[]; synsets: readonly (string | undefined)[] },
  idx: readonly number[],
  pins: Readonly<Record<string, string>>,
): { names: string[]; pins: (string | undefined)[] } {
  const names = idx.map((i) => list.classes[i]);
  return {
    names,
    pins: wordnetPinsFor(
      pins,
      names,
      idx.map((i) => list.synsets[i]),
    ),
  };
}
