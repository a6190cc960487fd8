/**
 * The training a lab of its own kind (Open world, Curriculum) reads from the experiment's common sections: the epochs
 * (`training.epochs`), the seeds (`seeds`, consecutive: seed, seed+1, …) and the engine's optimiser settings, which
 * these labs never set. `readLabTraining` lists what the common sections say that such a lab cannot train, with what
 * it trains instead; `writeLabTraining` writes the lab's training into a config.
 *
 * Pure: imports only src/core.
 */
import { show, type Checker } from './checker';
import type { ExperimentConfig } from './types';

/** Something a config's common sections say that a lab cannot train, and what it trains instead. */
export interface Unused {
  said: string;
  instead: string;
}

/** What these labs train with besides epochs: the engine's optimiser settings. */
export const LAB_TRAINING = { lr: 1e-3, batchSize: 64, beta1: 0.9, beta2: 0.999, epsilon: 1e-8, head: 'seen', init: 'he-glorot' } as const;

export interface LabTraining {
  epochs: number;
  seed: number;
  /** how many seeds (seed, seed+1, …); absent = 1 */
  seeds?: number;
}

/** The epochs and seeds of a config, and (into `unused`) the optimiser settings, seeds and features the lab cannot take. */
export function readLabTraining(config: ExperimentConfig, unused: Unused[], fallbackSeed: number): LabTraining {
  const add = (said: string, instead: string): void => void unused.push({ said, instead });
  const source = config.features?.source ?? 'pixels';
  if (source !== 'pixels') add(`features from ${source === 'encoder' ? 'an image encoder' : `the ${source}`} (the lab trains on pixels)`, 'pixels');
  const t = config.training;
  const trained = { lr: t.lr, batchSize: t.batchSize, ...t.optimiser, head: t.head, init: t.init };
  const off = (Object.keys(LAB_TRAINING) as (keyof typeof LAB_TRAINING)[]).filter((k) => trained[k] !== LAB_TRAINING[k]);
  if (off.length) add(off.map((k) => `${k} ${String(trained[k])}`).join(', '), off.map((k) => `${k} ${LAB_TRAINING[k]}`).join(', '));
  if (t.firstTaskEpochs !== t.epochs) add(`${t.firstTaskEpochs} epochs on the first task`, `${t.epochs}, as every task`);
  const seeds = config.seeds;
  const out: LabTraining = { epochs: t.epochs, seed: seeds[0] ?? fallbackSeed };
  if (seeds.length > 1) out.seeds = seeds.length;
  if (!seeds.every((x, i) => x === out.seed + i))
    add(`seeds ${seeds.join(', ')} (the lab runs consecutive seeds)`, `seeds ${seeds.map((_, i) => out.seed + i).join(', ')}`);
  return out;
}

/** `c` trained as such a lab trains: its epochs on every task, the engine's optimiser, pixels, consecutive seeds. */
export function writeLabTraining(c: ExperimentConfig, t: LabTraining): void {
  const { lr, batchSize, beta1, beta2, epsilon, head, init } = LAB_TRAINING;
  c.training = { epochs: t.epochs, firstTaskEpochs: t.epochs, lr, batchSize, optimiser: { kind: 'adam', beta1, beta2, epsilon }, head, init };
  c.seeds = Array.from({ length: t.seeds ?? 1 }, (_, i) => t.seed + i);
  delete c.features;
}

/** The settings a lab section's own form leaves to the common sections' training (field → the section that holds it). */
export const TRAINING_FIELDS: Readonly<Record<string, string>> = {
  epochs: 'training',
  hidden: 'model',
  trainPerClass: 'data',
  testPerClass: 'data',
  seed: 'seeds',
  seeds: 'seeds',
};

/**
 * A lab section's own form (`{ "from": "experiment", … }`) read: a setting that the common sections hold is refused
 * with the section that holds it (`common`: field → section), then the object's fields (`known`, `from` among them).
 * Undefined when `from` is not "experiment". `what`: the common part, for the message ("ID data, strategy and training").
 */
export function readOwnForm(
  c: Checker,
  v: object,
  path: string,
  known: readonly string[],
  common: Readonly<Record<string, string>>,
  what: string,
): Record<string, unknown> | undefined {
  for (const k of Object.keys(v).filter((k) => k in common))
    c.error(`${path}.${k}`, `With "from": "experiment", the lab's ${k} is the experiment's \`${common[k]}\`: leave it out here.`);
  const rest = Object.fromEntries(Object.entries(v).filter(([k]) => !(k in common)));
  const o = c.object(rest, path, known);
  if (o.from === 'experiment') return o;
  c.error(`${path}.from`, `Must be "experiment" (the lab's ${what} are the experiment's); got ${show(o.from)}.`);
  return undefined;
}
