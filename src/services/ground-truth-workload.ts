/**
 * What the Ground-truth lab will train, as the backend probe times it (engine/gpu/measure.ts; `auto` by
 * measurement): the network of the experiment on its dataset's images, the batch size, how many prefixes one level
 * of the prefix trie holds (what WebGPU trains at once) and whether every strategy's training is the plain loss (the
 * level kernels on WebGPU, the fused step on wasm). Undefined where it cannot be said before the data is loaded (an
 * uploaded dataset, feature vectors): `auto` then keeps its order.
 */
import { datasetImageShape } from '../core/config/defaults';
import { trainingOptionsOf } from '../core/config/derived';
import type { ExperimentConfig } from '../core/config/schema';
import type { GroundTruthPlan } from '../core/ground-truth/plan';
import { planPrefixes } from '../core/ground-truth/prefix-plan';
import { levelSettingsRefusal } from '../engine/gpu/level-rule';
import type { ProbeWorkload } from '../engine/index';

export function groundTruthWorkload(config: ExperimentConfig, plan: Pick<GroundTruthPlan, 'jobs'>): ProbeWorkload | undefined {
  if (config.dataset.id === 'custom' || (config.features?.source ?? 'pixels') !== 'pixels') return undefined;
  const shape = datasetImageShape(config.dataset.id);
  const first = plan.jobs[0];
  if (!shape || !first) return undefined;
  const t = trainingOptionsOf(config);
  const m = t.model;
  const inputShape: [number, number, number] = [shape[0], shape[1], shape[2]];
  const spec: ProbeWorkload['spec'] =
    m.kind === 'cnn'
      ? { kind: 'cnn', inputShape, outputs: config.classes.length, filters: m.filters, dense: m.dense }
      : { kind: 'mlp', inputShape, outputs: config.classes.length, hidden: m.hidden };
  // the trie of one strategy and seed: every group of the start trains the same orderings
  const tasks = plan.jobs.filter((j) => j.strategy === first.strategy && j.seed === first.seed).map((j) => j.tasks);
  const widths = new Map<number, number>();
  for (const n of planPrefixes(tasks).nodes) widths.set(n.depth, (widths.get(n.depth) ?? 0) + 1);
  const trained = config.strategies.filter((s) => plan.jobs.some((j) => j.strategy === s.id));
  const plain =
    trained.length > 0 &&
    trained.every((s) => levelSettingsRefusal({ model: spec.kind, augment: t.augment, strategy: s.id, strategyOptions: s.options }) === null);
  return { spec, batchSize: t.batchSize, models: Math.max(1, ...widths.values()), plain, bytes: true };
}
