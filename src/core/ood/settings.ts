/**
 * The Open-world lab's settings as types (docs/science.md §5): what its form edits, a link's full-settings form and a
 * stored run carry (`OpenWorldSettings`), and its section's own form (`OpenWorldOwn`). Types and the datasets only:
 * the lab's entry declares its config section with these (src/core/labs/open-world.ts), and the config's checkers
 * read them, so this module imports nothing of the config (./config.ts holds the defaults, presets and checks).
 */
import type { DetectorId } from './detectors';

/** The built-in datasets with images (those the lab can train on and draw OOD sets from). */
export const OPEN_WORLD_DATASETS = ['fashion-mnist', 'digits', 'emoji'] as const;
export type OpenWorldDataset = (typeof OPEN_WORLD_DATASETS)[number];

export interface OpenWorldSettings {
  /** the ID dataset */
  dataset: OpenWorldDataset;
  /** its classes that arrive (dataset labels) */
  classes: number[];
  /** number of tasks K (equal sizes) */
  tasks: number;
  /** the class order: null = ascending, a number = RS with that seed */
  orderSeed: number | null;
  strategy: string;
  /** exemplar memory (strategies with one) */
  memory: number;
  epochs: number;
  hidden: number[];
  /** per-class caps on the data (null = all), for quick runs */
  trainPerClass: number | null;
  testPerClass: number | null;
  seed: number;
  detectors: DetectorId[];
  /** OOD sets: "fashion-mnist:6-9" (held-out classes: near) or "digits" (another dataset: far) */
  oodSets: string[];
  /** the fine-tuned heads' epochs and BER's margins */
  headEpochs: number;
  marginIn: number;
  marginOut: number;
  /**
   * Seeds the lab runs: `seed`, `seed` + 1, … (mean ± sd over them; docs/verdicts.md §Open world). Optional, absent =
   * 1, and not part of a run's key (each seed's run is stored under its own `seed`), so every earlier link and stored
   * run reads as before.
   */
  seeds?: number;
}

/** The Open-world section when the lab's ID experiment is the experiment's common sections. */
export interface OpenWorldOwn {
  from: 'experiment';
  /** the class order: null = the experiment's (ascending, or `ui.selectedOrdering`), a number = RS with that seed */
  orderSeed: number | null;
  detectors: DetectorId[];
  oodSets: string[];
  headEpochs: number;
  marginIn: number;
  marginOut: number;
}

export const OPEN_WORLD_OWN_KEYS = ['from', 'orderSeed', 'detectors', 'oodSets', 'headEpochs', 'marginIn', 'marginOut'] as const;
