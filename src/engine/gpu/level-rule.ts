/**
 * Which runs level-batched training on WebGPU can take (gpu/level-train.ts), as a rule over settings alone: no tfjs
 * here, so the services can say ahead of a run which kernels it will train on (the backend probe's workload).
 */

/**
 * Strategies whose tasks are the plain loss on their training set and whose hooks touch no weights: fine-tuning,
 * joint training and replay with its reservoir memory (drawn from examples and seeds only).
 */
export const LEVEL_STRATEGY_IDS: readonly string[] = ['finetune', 'joint', 'replay'];

/** Why a run of these settings cannot train level-batched, or null when it can (the backend aside). */
export function levelSettingsRefusal(s: { model: 'mlp' | 'cnn'; augment: unknown; strategy: string; strategyOptions?: unknown }): string | null {
  if (s.model !== 'mlp') return 'the CNN trains on tfjs';
  if (s.augment) return 'augmented images are made on the CPU per batch, so augmented runs train on tfjs';
  if (!LEVEL_STRATEGY_IDS.includes(s.strategy))
    return `${s.strategy} needs more than the plain loss (its own loss terms, gradients or prediction), so it trains on tfjs`;
  if (s.strategy === 'replay' && (s.strategyOptions as { selection?: string } | undefined)?.selection === 'herding')
    return "replay with herding chooses its memory by the network's features, so it trains on tfjs";
  return null;
}
