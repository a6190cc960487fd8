/**
 * The training a lab of its own kind (Open world, Curriculum) reads from the experiment's common sections: the epochs
 * (`training.epochs`), the seeds (`seeds`, consecutive: seed, seed+1, …) and the engine's optimiser settings, which
 * these labs never set. `readLabTraining` lists what the common sections say that such a lab cannot train, with what
 * it trains instead; `writeLabTraining` writes the lab's training into a config.
 *
 * Pure: imports only src/core.
 */
import { show, type Checker } from './checker';
import { STRATEGY_OPTION_FILL } from './defaults';
import type { ExperimentConfig, StrategySetting } from './types';

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

/** How a lab reads the common training: what it takes itself besides epochs and seeds, and what does not apply to it. */
export interface LabTrainingReads {
  /** optimiser settings the lab takes from `training` (the Time lab: lr and batch size) */
  own?: readonly ('lr' | 'batchSize')[];
  /** settings that do not apply to the lab (the Time lab's networks have no growing head) */
  ignores?: readonly 'head'[];
  /** the lab trains on pixels whatever the experiment's feature source says about its own dataset */
  ownData?: boolean;
  /** what the lab's Adam uses instead of β1, β2 and ε when they are not the engine's (the Time lab: tfjs's defaults) */
  adam?: string;
}

/** The epochs and seeds of a config, and (into `unused`) the optimiser settings, seeds and features the lab cannot take. */
export function readLabTraining(config: ExperimentConfig, unused: Unused[], fallbackSeed: number, reads: LabTrainingReads = {}): LabTraining {
  const add = (said: string, instead: string): void => void unused.push({ said, instead });
  const source = config.features?.source ?? 'pixels';
  if (source !== 'pixels' && !reads.ownData)
    add(`features from ${source === 'encoder' ? 'an image encoder' : `the ${source}`} (the lab trains on pixels)`, 'pixels');
  const t = config.training;
  const trained = { lr: t.lr, batchSize: t.batchSize, ...t.optimiser, head: t.head, init: t.init };
  const skip: readonly string[] = [...(reads.own ?? []), ...(reads.ignores ?? [])];
  const off = (Object.keys(LAB_TRAINING) as (keyof typeof LAB_TRAINING)[]).filter((k) => !skip.includes(k) && trained[k] !== LAB_TRAINING[k]);
  const adam = ['beta1', 'beta2', 'epsilon'];
  const instead = (k: keyof typeof LAB_TRAINING): string => (reads.adam && adam.includes(k) ? `${k} ${reads.adam}` : `${k} ${LAB_TRAINING[k]}`);
  if (off.length) add(off.map((k) => `${k} ${String(trained[k])}`).join(', '), off.map(instead).join(', '));
  if (t.firstTaskEpochs !== t.epochs) add(`${t.firstTaskEpochs} epochs on the first task`, `${t.epochs}, as every task`);
  const seeds = config.seeds;
  const out: LabTraining = { epochs: t.epochs, seed: seeds[0] ?? fallbackSeed };
  if (seeds.length > 1) out.seeds = seeds.length;
  if (!seeds.every((x, i) => x === out.seed + i))
    add(`seeds ${seeds.join(', ')} (the lab runs consecutive seeds)`, `seeds ${seeds.map((_, i) => out.seed + i).join(', ')}`);
  return out;
}

/** Two settings are the same value (plain JSON data). */
export const sameSetting = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * A CIL strategy's options that such a lab cannot train: every option but those in `takes` that is not the engine's
 * fill (the labs train each strategy with its filled options), as one entry, or null when there is none.
 */
export function strategyOptionsUnused(st: StrategySetting, takes: readonly string[] = []): Unused | null {
  const fill = STRATEGY_OPTION_FILL[st.id] as Record<string, unknown>;
  const options = st.options as Record<string, unknown>;
  const off = Object.keys(fill).filter((k) => !takes.includes(k) && !sameSetting(options[k], fill[k]));
  if (!off.length) return null;
  return { said: `${st.id}'s ${off.map((k) => `${k} ${String(options[k])}`).join(', ')}`, instead: off.map((k) => `${k} ${String(fill[k])}`).join(', ') };
}

/**
 * `c` trained as such a lab trains: its epochs on every task, the engine's optimiser (with the lab's own lr and batch
 * size where it has them), consecutive seeds, and pixels unless the lab's data is its own (`ownData`).
 */
export function writeLabTraining(c: ExperimentConfig, t: LabTraining & { lr?: number; batchSize?: number }, reads: LabTrainingReads = {}): void {
  const { beta1, beta2, epsilon, head, init } = LAB_TRAINING;
  const lr = t.lr ?? LAB_TRAINING.lr;
  const batchSize = t.batchSize ?? LAB_TRAINING.batchSize;
  c.training = { epochs: t.epochs, firstTaskEpochs: t.epochs, lr, batchSize, optimiser: { kind: 'adam', beta1, beta2, epsilon }, head, init };
  c.seeds = Array.from({ length: t.seeds ?? 1 }, (_, i) => t.seed + i);
  if (!reads.ownData) delete c.features;
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
