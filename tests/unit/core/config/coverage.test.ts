/**
 * The config's frozen v1 fill-ins against the code they mirror (schema.ts header). When one of these fails, the
 * engine/data/core default moved: the config's fill-in must NOT follow silently (that would change what existing
 * links mean) — decide explicitly (keep the fill-in, or make schema v2) and update this test.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_CLASS_LIST_IDS, getClassList } from '../../../../src/core/classes/builtin';
import {
  BUILTIN_DATASET_REFS,
  CONFIG_STRATEGY_IDS,
  FORGETTING_PRESET_IDS,
  PTM_STRATEGY_IDS,
  STRATEGY_IDS,
  STRATEGY_OPTION_FILL,
  datasetClassListId,
  datasetHasImages,
  defaultConfig,
  protocolOptionsOf,
  trainingOptionsOf,
  validateConfig,
  type ClipWeightSource,
  type ExperimentConfig,
  type StrategySetting,
} from '../../../../src/core/config/schema';
import { PTM_DEFAULTS, PTM_STRATEGY_IDS as CORE_PTM_IDS, type PtmStrategy } from '../../../../src/core/ptm/defaults';
import { PRESETS } from '../../../../src/core/forgetting/setup';
import { DEFAULT_EXACT_LIMIT } from '../../../../src/core/protocols/exact';
import { DEFAULT_RS_SEEDS } from '../../../../src/core/protocols/rs';
import { PROTOCOL_IDS, type ProtocolOptions } from '../../../../src/core/protocols/types';
import { DEFAULT_PROMPT } from '../../../../src/core/similarity/prompts';
import { BUILTIN_DATASETS } from '../../../../src/data/registry';
import { CLIP_DTYPES, CLIP_MODELS, type WeightSource } from '../../../../src/engine/clip/text-embedder';
import { ENCODER_PRECISIONS, IMAGE_ENCODERS } from '../../../../src/engine/clip/image-encoder';
import { FEATURE_PRECISIONS, FEATURES_FILL } from '../../../../src/core/config/sections/features';
import { CALIBRATION_DEFAULTS, MODEL_DEFAULTS, STRATEGY_DEFAULTS, TRAINER_DEFAULTS } from '../../../../src/engine/defaults';
import type { TrainRunConfig } from '../../../../src/engine/types';

describe('the config covers the code it configures', () => {
  const d = defaultConfig();

  it('built-in datasets: every image dataset of src/data and every class list of src/core', () => {
    for (const ds of BUILTIN_DATASETS) {
      expect(BUILTIN_DATASET_REFS).toContain(ds.id);
      expect(datasetHasImages(ds.id)).toBe(true);
      expect(datasetClassListId(ds.id)).toBe(ds.classListId);
    }
    for (const id of BUILTIN_CLASS_LIST_IDS) expect(BUILTIN_DATASET_REFS).toContain(id);
    const imageIds = BUILTIN_DATASETS.map((x) => x.id as string);
    for (const id of BUILTIN_DATASET_REFS) {
      expect(() => getClassList(datasetClassListId(id))).not.toThrow();
      expect(datasetHasImages(id)).toBe(imageIds.includes(id));
    }
  });

  it('protocols (src/core/protocols)', () => {
    expect(d.protocols.enabled).toEqual([...PROTOCOL_IDS]);
    expect(d.protocols.rsSeeds).toEqual([...DEFAULT_RS_SEEDS]);
    expect(d.protocols.exactLimit).toBe(DEFAULT_EXACT_LIMIT);
    // every ProtocolOptions field is reachable from the config
    const opts: Required<ProtocolOptions> = protocolOptionsOf(d) as Required<ProtocolOptions>;
    expect(Object.keys(opts).sort()).toEqual(['distribution', 'exactLimit', 'medianSeed', 'msSamples', 'msSeed', 'protocols', 'rsSeeds']);
  });

  it('training engine defaults (src/engine/defaults.ts)', () => {
    expect(d.training.lr).toBe(TRAINER_DEFAULTS.lr);
    expect(d.training.batchSize).toBe(TRAINER_DEFAULTS.batchSize);
    expect(d.training.epochs).toBe(TRAINER_DEFAULTS.epochs);
    expect(d.training.optimiser).toEqual({ kind: 'adam', beta1: TRAINER_DEFAULTS.beta1, beta2: TRAINER_DEFAULTS.beta2, epsilon: TRAINER_DEFAULTS.epsilon });
    expect(d.training.head).toBe(TRAINER_DEFAULTS.head);
    expect(d.training.init).toBe(TRAINER_DEFAULTS.init);
    expect(d.model).toEqual({ kind: 'mlp', hidden: MODEL_DEFAULTS.mlp.hidden });
    expect(validateConfig({ model: { kind: 'cnn' } }).config.model).toEqual({ kind: 'cnn', ...MODEL_DEFAULTS.cnn });
    expect(d.conformal.calibrationRatio).toBe(CALIBRATION_DEFAULTS.ratio);
    expect(d.conformal.softmax).toBe(CALIBRATION_DEFAULTS.softmax);
  });

  it('the Forgetting lab presets (src/core/forgetting/setup.ts)', () => {
    expect([...FORGETTING_PRESET_IDS].sort()).toEqual(PRESETS.map((p) => p.id).sort());
    expect(d.forgetting.preset).toBeNull();
  });

  it('strategies and every hyper-parameter', () => {
    expect([...STRATEGY_IDS].sort()).toEqual(Object.keys(STRATEGY_DEFAULTS).sort());
    for (const id of STRATEGY_IDS) expect(STRATEGY_OPTION_FILL[id]).toEqual(STRATEGY_DEFAULTS[id]);
  });

  it('the pre-trained methods on frozen features and their options (src/core/ptm/defaults.ts)', () => {
    expect([...PTM_STRATEGY_IDS]).toEqual([...CORE_PTM_IDS]);
    expect([...CONFIG_STRATEGY_IDS].sort()).toEqual([...STRATEGY_IDS, ...PTM_STRATEGY_IDS].sort());
    for (const id of PTM_STRATEGY_IDS) expect(STRATEGY_OPTION_FILL[id]).toEqual(PTM_DEFAULTS[id]);
    // type-level: a config's pre-trained setting is what src/core/ptm runs
    const setting: StrategySetting = { id: 'ranpac', options: { projection: 10, lambdaFrom: 'seen' } };
    const run: PtmStrategy = setting.id === 'ranpac' ? setting : { id: 'fecam', options: { shrinkage: 1 } };
    expect(run.id).toBe('ranpac');
  });

  it('CLIP (src/engine/clip, src/core/similarity/prompts.ts)', () => {
    const clip = validateConfig({ similarity: { kind: 'clip' } }).config.similarity;
    expect(clip.kind === 'clip' && clip.model).toBe(CLIP_MODELS[0].id);
    expect(CLIP_DTYPES).toContain(clip.kind === 'clip' && clip.dtype);
    expect(clip.kind === 'clip' && clip.prompt).toEqual(DEFAULT_PROMPT);
    for (const m of CLIP_MODELS) expect(validateConfig({ similarity: { kind: 'clip', model: m.id } }).errors).toEqual([]);
    // type-level: the config's weight source is the embedder's
    const w: WeightSource = { kind: 'mirror', url: 'https://x/' } satisfies ClipWeightSource;
    const back: ClipWeightSource = w;
    expect(back.kind).toBe('mirror');
  });

  it('features: the image encoders, their precisions and the head (src/engine/clip/image-encoder.ts, defaults.ts)', () => {
    expect(FEATURES_FILL.encoder.model).toBe(IMAGE_ENCODERS[0].id);
    expect([...FEATURE_PRECISIONS]).toEqual([...ENCODER_PRECISIONS]);
    expect(validateConfig({ features: { source: 'backbone' }, model: { kind: 'head' } }).config.model).toEqual({ kind: 'head', ...MODEL_DEFAULTS.head });
    for (const m of IMAGE_ENCODERS) expect(validateConfig({ features: { source: 'encoder', model: m.id }, model: { kind: 'head' } }).errors).toEqual([]);
    const head: ExperimentConfig = validateConfig({ lab: 'ground-truth', features: { source: 'backbone' }, model: { kind: 'head', hidden: [64] } }).config;
    const run: TrainRunConfig = { strategy: 'finetune', tasks: [[0, 1]], seed: 0, ...trainingOptionsOf(head) };
    expect(run.model).toEqual({ kind: 'head', hidden: [64] });
  });

  it('the engine run settings come from the config (type-checked against TrainRunConfig)', () => {
    const forgetting: ExperimentConfig = validateConfig({ lab: 'forgetting', model: { kind: 'cnn' } }).config;
    const run: TrainRunConfig = { strategy: 'finetune', tasks: [[0, 1]], seed: 0, ...trainingOptionsOf(forgetting) };
    expect(run.probs).toEqual({ calibrationRatio: 0.1, softmax: 'seen' });
    expect(run.model).toEqual({ kind: 'cnn', filters: [16, 32], dense: 128 });
    expect(trainingOptionsOf(d).probs).toBeUndefined();
    // the engine's augmentation is off by default; the config turns it on for emoji only (cil-lab run does the same)
    expect(TRAINER_DEFAULTS.augment).toBe(false);
    expect(trainingOptionsOf(d).augment).toBe(false);
    expect(trainingOptionsOf(validateConfig({ dataset: { id: 'emoji' } }).config).augment).toBe(true);
    expect(trainingOptionsOf(validateConfig({ dataset: { id: 'digits' } }).config).augment).toBe(false);
  });
});
