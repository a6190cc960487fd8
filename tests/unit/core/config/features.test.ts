/**
 * The features section (src/core/config/sections/features.ts), the head model and the similarity kind "features":
 * absent by default (old links and hashes unchanged), carried by the share link and the hash when used, every bad
 * value refused at its path, and the rules across sections (head ⇔ features, the backbone's held-out classes).
 */
import { describe, expect, it } from 'vitest';
import { compactConfig, CONFIG_LIMITS, defaultConfig, trainingOptionsOf, validateConfig } from '../../../../src/core/config/schema';
import { FEATURES_FILL, HEAD_TRAINING, featuresOf, withFeatureSource, withUploadedFeatures } from '../../../../src/core/config/sections/features';
import { configHash, decodeConfigFromHash, encodeConfigToHash } from '../../../../src/core/config/url-codec';
import { backboneClasses, featureSourceLabel } from '../../../../src/core/features/source';

const HASH = 'fnv1a64:0123456789abcdef';
const errors = (v: unknown) => validateConfig(v).errors;
const paths = (v: unknown) => errors(v).map((e) => e.path);
const head = { kind: 'head', hidden: [] };

describe('the features section', () => {
  it('is absent by default and when it says pixels: old configs keep their compact form, link and hash', () => {
    const d = defaultConfig();
    expect(d.features).toBeUndefined();
    expect(featuresOf(d)).toEqual({ source: 'pixels' });
    const pixels = validateConfig({ features: { source: 'pixels' } });
    expect(pixels.errors).toEqual([]);
    expect(pixels.config.features).toBeUndefined();
    expect(configHash(pixels.config)).toBe(configHash(d));
    expect('features' in compactConfig(d)).toBe(false);
  });

  it('fills the backbone seed and the encoder fields from the frozen fill-ins', () => {
    expect(FEATURES_FILL).toEqual({ source: 'pixels', backboneSeed: 0, encoder: { model: 'Xenova/clip-vit-base-patch32', revision: 'main', precision: 'q8' } });
    expect(validateConfig({ features: { source: 'backbone' }, model: head }).config.features).toEqual({ source: 'backbone', seed: 0 });
    expect(validateConfig({ features: { source: 'encoder' }, model: head }).config.features).toEqual({
      source: 'encoder',
      model: 'Xenova/clip-vit-base-patch32',
      revision: 'main',
      precision: 'q8',
      weights: { kind: 'hub' },
    });
  });

  it('carries each source through the share link and into the hash', () => {
    const sources = [
      { source: 'backbone', seed: 7 },
      {
        source: 'encoder',
        model: 'Xenova/clip-vit-base-patch16',
        revision: 'main',
        precision: 'fp16',
        weights: { kind: 'mirror', url: 'https://hf-mirror.com/' },
      },
      { source: 'encoder', model: 'cil-lab/clip-vision-tiny', revision: 'v1.0', precision: 'fp32', weights: { kind: 'self-hosted', path: '/models/' } },
      { source: 'upload', file: { name: 'cifar100-clip.npz', contentHash: HASH } },
    ];
    const hashes = new Set<string>([configHash(defaultConfig())]);
    for (const features of sources) {
      const r = validateConfig({ lab: 'ground-truth', features, model: { kind: 'head', hidden: [64] } });
      expect(r.errors).toEqual([]);
      expect(r.config.features).toEqual(features);
      const decoded = decodeConfigFromHash(encodeConfigToHash(r.config));
      if (!decoded.ok) throw new Error(decoded.error);
      expect(decoded.config.features).toEqual(features);
      expect(decoded.config.model).toEqual({ kind: 'head', hidden: [64] });
      hashes.add(configHash(r.config));
    }
    expect(hashes.size).toBe(sources.length + 1);
    // an uploaded file is referenced, never carried: the reader is told to provide it again
    const up = validateConfig({ features: sources[3], model: head });
    expect(up.warnings.map((w) => w.path)).toEqual(['features.file']);
  });

  it('refuses bad values at their paths', () => {
    expect(paths({ features: 'backbone' })).toEqual(['features']);
    expect(paths({ features: { source: 'pixles' } })).toContain('features.source');
    expect(errors({ features: { source: 'pixles' } })[0].message).toMatch(/Did you mean "pixels"/);
    expect(paths({ features: { source: 'backbone', seed: -1 }, model: head })).toEqual(['features.seed']);
    expect(paths({ features: { source: 'backbone', model: 'x/y' }, model: head })).toEqual(['features.model']);
    expect(paths({ features: { source: 'encoder', model: 'not a model id' }, model: head })).toEqual(['features.model']);
    expect(paths({ features: { source: 'encoder', model: 'a'.repeat(CONFIG_LIMITS.modelIdLength + 1) }, model: head })).toEqual(['features.model']);
    expect(paths({ features: { source: 'encoder', revision: '../x' }, model: head })).toEqual(['features.revision']);
    expect(paths({ features: { source: 'encoder', precision: 'int4' }, model: head })).toEqual(['features.precision']);
    expect(paths({ features: { source: 'encoder', weights: { kind: 'mirror', url: 'ftp://x' } }, model: head })).toEqual(['features.weights.url']);
    expect(paths({ features: { source: 'upload' }, model: head })).toEqual(['features.file']);
    expect(paths({ features: { source: 'upload', file: { name: 'f.npz', contentHash: 'md5:1' } }, model: head })).toEqual(['features.file.contentHash']);
  });
});

describe('the head model', () => {
  it('is linear or has one hidden layer of at most headWidth units', () => {
    const ok = validateConfig({ features: { source: 'backbone' }, model: { kind: 'head' } });
    expect(ok.errors).toEqual([]);
    expect(ok.config.model).toEqual({ kind: 'head', hidden: [] });
    const W = CONFIG_LIMITS.headWidth;
    expect(errors({ features: { source: 'backbone' }, model: { kind: 'head', hidden: [W] } })).toEqual([]);
    const over = errors({ features: { source: 'backbone' }, model: { kind: 'head', hidden: [W + 1] } });
    expect(over.map((e) => e.path)).toEqual(['model.hidden[0]']);
    expect(over[0].message).toContain(String(W));
    expect(paths({ features: { source: 'backbone' }, model: { kind: 'head', hidden: [8, 8] } })).toEqual(['model.hidden']);
    expect(paths({ features: { source: 'backbone' }, model: { kind: 'head', filters: [1, 2] } })).toEqual(['model.filters']);
  });

  it('trains on features only, and features train only a head', () => {
    const noFeatures = errors({ model: head });
    expect(noFeatures.map((e) => e.path)).toEqual(['model']);
    expect(noFeatures[0].message).toMatch(/head model trains on feature vectors/);
    const mlp = errors({ features: { source: 'backbone' } });
    expect(mlp.map((e) => e.path)).toEqual(['model']);
    expect(mlp[0].message).toMatch(/trained with the head model/);
  });

  it('maps to the engine with augmentation off, even on emoji', () => {
    const pixels = validateConfig({ dataset: { id: 'emoji' }, classes: [0, 1, 2, 3, 4, 5] }).config;
    expect(trainingOptionsOf(pixels).augment).toBe(true);
    const c = validateConfig({
      dataset: { id: 'emoji' },
      classes: [0, 1, 2, 3, 4, 5],
      features: { source: 'backbone' },
      model: { kind: 'head', hidden: [32] },
    });
    expect(c.errors).toEqual([]);
    const t = trainingOptionsOf(c.config);
    expect(t.model).toEqual({ kind: 'head', hidden: [32] });
    expect(t.augment).toBe(false);
  });
});

describe('the sources need what they compute from', () => {
  it('the backbone needs classes the experiment leaves out, and says what else to use', () => {
    const all = errors({ classes: [...Array(10).keys()], taskSizes: [5, 5], features: { source: 'backbone' }, model: head });
    expect(all.map((e) => e.path)).toEqual(['features.source']);
    expect(all[0].message).toMatch(/every class of "fashion-mnist"/);
    expect(all[0].message).toMatch(/"encoder"/);
    expect(all[0].message).toMatch(/"upload"/);
    expect(errors({ classes: [...Array(9).keys()], taskSizes: [3, 3, 3], features: { source: 'backbone' }, model: head })).toEqual([]);
    // a custom dataset takes all of its classes
    const custom = { id: 'custom', classNames: ['a', 'b', 'c'], images: { name: 'x.zip', contentHash: HASH } };
    expect(paths({ dataset: custom, taskSizes: [1, 2], features: { source: 'backbone' }, model: head })).toEqual(['features.source']);
  });

  it('the backbone and encoders need images; uploaded features stand in for them in a training lab', () => {
    const e = errors({ dataset: { id: 'cifar100' }, features: { source: 'backbone' }, model: head });
    expect(e.map((x) => x.path)).toEqual(['features.source']);
    expect(e[0].message).toMatch(/has none/);
    // an encoder on a built-in list of names reads the images the user loads in the Data tab (CIFAR-100's archive)
    expect(errors({ lab: 'ground-truth', dataset: { id: 'cifar100' }, features: { source: 'encoder' }, model: head })).toEqual([]);
    // a custom list without images has none to give it
    const names = { id: 'custom', classNames: ['a', 'b'], images: null };
    expect(paths({ dataset: names, taskSizes: [1, 1], features: { source: 'encoder' }, model: head })).toEqual(['features.source']);
    const upload = { source: 'upload', file: { name: 'f.npz', contentHash: HASH } };
    expect(errors({ lab: 'ground-truth', dataset: { id: 'cifar100' }, features: upload, model: head })).toEqual([]);
    expect(paths({ lab: 'ground-truth', dataset: { id: 'cifar100' } })).toEqual(['dataset']);
    expect(paths({ lab: 'ground-truth', dataset: { id: 'cifar100' }, features: { source: 'backbone' }, model: head })).toEqual(['dataset', 'features.source']);
  });
});

describe('the similarity kind "features"', () => {
  it('is the prototypes of the feature source, kept in the link', () => {
    const r = validateConfig({ similarity: { kind: 'features' }, features: { source: 'backbone', seed: 3 }, model: head });
    expect(r.errors).toEqual([]);
    const decoded = decodeConfigFromHash(encodeConfigToHash(r.config));
    if (!decoded.ok) throw new Error(decoded.error);
    expect(decoded.config.similarity).toEqual({ kind: 'features' });
    expect(validateConfig({ similarity: { kind: 'features' } }).errors).toEqual([]);
    expect(paths({ similarity: { kind: 'features', model: 'x' } })).toEqual(['similarity.model']);
  });
});

describe('feature source labels', () => {
  const names = ['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal', 'Shirt', 'Sneaker', 'Bag', 'Ankle boot'];
  it('name the classes the backbone was pre-trained on', () => {
    expect(backboneClasses(10, [0, 1, 2, 3, 4, 5])).toEqual([6, 7, 8, 9]);
    expect(backboneClasses(4, [3, 1])).toEqual([0, 2]);
    // a long list is counted, the first three named
    const many = Array.from({ length: 100 }, (_, k) => `c${k}`);
    expect(featureSourceLabel({ source: 'backbone', seed: 1 }, many, [0, 1, 2, 3, 4, 5])).toBe(
      'stand-in backbone trained on the other 94 classes (c6, c7, c8, …) (seed 1)',
    );
    expect(featureSourceLabel({ source: 'backbone', seed: 0 }, names, [0, 1, 2, 3, 4, 5])).toBe(
      'stand-in backbone trained on Shirt, Sneaker, Bag and Ankle boot (seed 0)',
    );
    expect(featureSourceLabel({ source: 'pixels' }, names, [0, 1])).toBe('pixels');
    expect(
      featureSourceLabel(
        { source: 'encoder', model: 'Xenova/clip-vit-base-patch16', revision: 'main', precision: 'fp16', weights: { kind: 'hub' } },
        names,
        [0],
      ),
    ).toBe('image encoder Xenova/clip-vit-base-patch16 (fp16)');
    expect(featureSourceLabel({ source: 'upload', file: { name: 'f.npz', contentHash: HASH } }, names, [0])).toBe('uploaded features f.npz');
  });
});

describe('withFeatureSource: one rule for switching the source', () => {
  it('features bring the linear head; pixels bring back the MLP and drop the pre-trained methods', () => {
    const pixels = defaultConfig();
    const onBackbone = withFeatureSource(pixels, { source: 'backbone', seed: 0 });
    expect(onBackbone.features).toEqual({ source: 'backbone', seed: 0 });
    expect(onBackbone.model).toEqual({ kind: 'head', hidden: [] });
    expect(validateConfig(onBackbone).errors).toEqual([]);
    const withPtm = { ...onBackbone, strategies: [{ id: 'simplecil', options: { metric: 'cosine' } }] } as typeof onBackbone;
    const back = withFeatureSource(withPtm, { source: 'pixels' });
    expect(back.features).toBeUndefined();
    expect(back.model).toEqual(pixels.model);
    expect(back.strategies).toEqual([{ id: 'finetune', options: {} }]);
    expect(validateConfig(back).errors).toEqual([]);
  });
  it('a fresh switch to features brings the head’s epochs and learning rate; a choice of the user’s stays; old links keep theirs', () => {
    const pixels = defaultConfig();
    const on = withFeatureSource(pixels, { source: 'backbone', seed: 0 });
    expect([on.training.epochs, on.training.firstTaskEpochs, on.training.lr]).toEqual([HEAD_TRAINING.epochs, HEAD_TRAINING.epochs, HEAD_TRAINING.lr]);
    // in the link: the head's settings are written, not filled in
    expect(compactConfig(on).training).toMatchObject({ epochs: 20, lr: 0.01 });
    const back = withFeatureSource(on, { source: 'pixels' });
    expect(back.training).toEqual(pixels.training);
    const chosen = { ...pixels, training: { ...pixels.training, epochs: 7, firstTaskEpochs: 7 } };
    expect(withFeatureSource(chosen, { source: 'backbone', seed: 0 }).training).toEqual(chosen.training);
    // a link made before: features and the head with the fill-ins' training keeps 3 epochs at 1e-3
    const old = validateConfig({ lab: 'ground-truth', features: { source: 'backbone', seed: 0 }, model: { kind: 'head', hidden: [] } }).config;
    expect([old.training.epochs, old.training.lr]).toEqual([3, 1e-3]);
    // switching an experiment already on features to another source changes no training
    expect(withFeatureSource(old, { source: 'backbone', seed: 1 }).training).toEqual(old.training);
  });
});

describe('withUploadedFeatures: what "Train on these" writes for an uploaded file', () => {
  const file = { name: 'c100.npz', contentHash: HASH };
  const upload = { source: 'upload', file };
  const base = validateConfig({}).config;

  it('keeps the dataset and classes when the file has every class of the experiment', () => {
    const fm = ['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal', 'Shirt'];
    const c = withUploadedFeatures(base, file, fm);
    expect(c.features).toEqual(upload);
    expect(c.model).toEqual({ kind: 'head', hidden: [] });
    expect([c.dataset, c.classes, c.taskSizes]).toEqual([base.dataset, base.classes, base.taskSizes]);
    expect(validateConfig(c).errors).toEqual([]);
  });

  it('opens a file of CIFAR-100 classes as CIFAR-100, its first 6 classes in as many tasks as before', () => {
    // class_names as the CLI writes them for --dataset cifar-100-binary --classes 10-17 (out of list order on purpose)
    const names = ['bowl', 'boy', 'bridge', 'bus', 'butterfly', 'camel', 'can', 'castle'].reverse();
    const c = withUploadedFeatures({ ...base, lab: 'ground-truth' }, file, names);
    expect(c.dataset).toEqual({ id: 'cifar100' });
    expect(c.classes).toEqual([10, 11, 12, 13, 14, 15]);
    expect(c.taskSizes).toEqual([2, 2, 2]);
    expect(c.features).toEqual(upload);
    expect(validateConfig(c).errors).toEqual([]);
  });

  it('five classes do not split into 3 equal tasks: one class per task', () => {
    const c = withUploadedFeatures(base, file, ['apple', 'aquarium_fish', 'baby', 'bear', 'beaver']);
    expect(c.classes).toEqual([0, 1, 2, 3, 4]);
    expect(c.taskSizes).toEqual([1, 1, 1, 1, 1]);
    expect(validateConfig(c).errors).toEqual([]);
  });

  it("names in no built-in list make a custom list of the file's names", () => {
    const c = withUploadedFeatures(base, file, ['mug', 'stapler', 'banana', 'keys']);
    expect(c.dataset).toEqual({ id: 'custom', classNames: ['mug', 'stapler', 'banana', 'keys'], images: null });
    expect(c.classes).toEqual([0, 1, 2, 3]);
    expect(c.taskSizes).toEqual([1, 1, 1, 1]);
    expect(validateConfig(c).errors).toEqual([]);
  });
});
