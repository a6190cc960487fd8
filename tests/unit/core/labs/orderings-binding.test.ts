/**
 * The Orderings lab's binding (its entry's `view` and `apply`, src/core/labs/orderings/binding.ts): what the controls
 * show for a config, and the config with what they hand back (their inputs resolved, null for what is invalid right
 * now). A round trip (view → the change the controls hand back unchanged → apply) gives the same config back, and
 * frozen v1 links (made by the build before the binding moved into the lab entry) open to the same controls and write
 * back the same link.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalJson, defaultConfig, experimentClassNames, validateConfig, type ExperimentConfig } from '../../../../src/core/config/schema';
import { decodeConfigFromHash, encodeConfigToHash } from '../../../../src/core/config/url-codec';
import { parseClassNames, validateClassNames } from '../../../../src/core/classes/validate';
import { orderingsLab } from '../../../../src/core/labs/orderings';
import type { OrderingsInputs, OrderingsState } from '../../../../src/core/labs/orderings/binding';
import { parseTaskSizes, resolveTaskSizes } from '../../../../src/core/orderings/task-sizes';
import { PROTOCOL_IDS } from '../../../../src/core/protocols/types';
import type { ClipInitial, ClipSettingsOut } from '../../../../src/core/similarity/clip-panel';
import { parseSeeds } from '../../../../src/ui/orderings/page-inputs';

const view = (c: ExperimentConfig) => orderingsLab.view(c);
const apply = (c: ExperimentConfig, s: OrderingsState) => orderingsLab.apply(c, s);

/** What the Orderings page resolves from its controls (mirrors OrderingsPage.svelte's derived inputs). */
function stateOf(i: OrderingsInputs, extra: Partial<OrderingsState> = {}): OrderingsState {
  const custom = i.datasetId === 'custom';
  const names = custom ? validateClassNames(parseClassNames(i.customText)) : i.selected;
  const n = custom ? (names as string[]).length : i.selected.length;
  return {
    datasetId: i.datasetId,
    selected: i.selected,
    customNames: custom ? (names as string[]) : null,
    taskSizes: resolveTaskSizes(n, { tasks: i.tasks, taskSizes: i.sizesText ? parseTaskSizes(i.sizesText) : undefined }),
    classesOk: n >= 2,
    sourceKind: i.sourceKind,
    clip: null,
    upload: null,
    protocols: PROTOCOL_IDS.filter((p) => i.enabled[p]),
    rsSeeds: i.seedsText.trim() ? parseSeeds(i.seedsText) : [],
    settings: i.settings,
    ...extra,
  };
}

/** What the CLIP panel hands back when it starts from `c`'s settings and nothing is edited (every class's description, '' for none). */
function clipOutOf(c: ExperimentConfig, init: ClipInitial): ClipSettingsOut {
  const names = experimentClassNames(c);
  return {
    model: init.modelId,
    dtype: init.dtype,
    prompt:
      init.promptKind === 'template'
        ? { kind: 'template', template: init.template! }
        : init.promptKind === 'descriptions'
          ? { kind: 'descriptions', descriptions: Object.fromEntries(names.map((n) => [n, init.descriptions?.[n] ?? ''])) }
          : { kind: 'bare' },
    weights:
      init.weights === 'self-hosted'
        ? { kind: 'self-hosted', path: init.folder! }
        : init.weights === 'mirror'
          ? { kind: 'mirror', url: init.mirrorUrl! }
          : { kind: 'hub' },
    device: init.device ?? 'webgpu',
  };
}

/** The change the controls hand back for `c` when nothing is edited: a loaded upload is the file referred to. */
function unchanged(c: ExperimentConfig): OrderingsState {
  const i = view(c);
  return stateOf(i, { clip: i.clip ? clipOutOf(c, i.clip) : null, upload: i.uploadRef });
}

const same = (a: ExperimentConfig, b: ExperimentConfig) => expect(canonicalJson(a)).toBe(canonicalJson(b));
const valid = (c: ExperimentConfig) => {
  const r = validateConfig(c);
  expect(r.errors).toEqual([]);
  return r.config;
};
function open(link: string): ExperimentConfig {
  const r = decodeConfigFromHash(link);
  if (!r.ok) throw new Error(r.error);
  return r.config;
}

describe('Orderings lab ⇄ config (view, apply)', () => {
  it('the default config gives the page defaults, and the page writes back exactly the default config', () => {
    const c = defaultConfig();
    const i = view(c);
    expect(i).toMatchObject({
      datasetId: 'fashion-mnist',
      selected: [0, 1, 2, 3, 4, 5],
      tasks: 3,
      sizesText: '',
      sourceKind: 'wordnet',
      seedsText: '0, 42, 1993',
      clip: null,
      uploadRef: null,
    });
    same(valid(apply(c, stateOf(i))), c);
  });

  it('round-trips an edited built-in experiment (classes, tasks, seeds, protocols)', () => {
    const c = valid({ ...defaultConfig(), dataset: { id: 'cifar100' }, classes: [3, 7, 11, 20, 50, 99, 1, 2], taskSizes: [4, 2, 2] } as ExperimentConfig);
    c.protocols = { ...c.protocols, enabled: ['rs', 'edge'], rsSeeds: [7, 11] };
    const i = view(c);
    expect(i.sizesText).toBe('4,2,2');
    expect(i.enabled).toEqual({ rs: true, edge: true, 'edge+': false, exact: false, as: false, ms: false });
    same(valid(apply(defaultConfig(), stateOf(i))), c);
  });

  it('keeps "digits" (named by the MNIST list) and custom names as they are', () => {
    const digits = valid({ ...defaultConfig(), dataset: { id: 'digits' } } as ExperimentConfig);
    const i = view(digits);
    expect(i.datasetId).toBe('mnist');
    same(valid(apply(digits, stateOf(i))), digits);

    const custom = valid({
      ...defaultConfig(),
      dataset: { id: 'custom', classNames: ['cat', 'dog', 'car', 'truck'], images: null },
      classes: [0, 1, 2, 3],
      taskSizes: [2, 2],
    } as ExperimentConfig);
    const ci = view(custom);
    expect(ci.customText).toBe('cat\ndog\ncar\ntruck');
    same(valid(apply(defaultConfig(), stateOf(ci))), custom);
  });

  it('an invalid input leaves its part of the config as it was', () => {
    const c = defaultConfig();
    const s = stateOf(view(c), { taskSizes: null, rsSeeds: null, selected: [0, 1, 2, 3] });
    const next = apply(c, s);
    expect(next.classes).toEqual(c.classes);
    expect(next.taskSizes).toEqual(c.taskSizes);
    expect(next.protocols.rsSeeds).toEqual(c.protocols.rsSeeds);
  });

  it('the prototypes of the feature source are the config\'s similarity kind "features", kept in the link', () => {
    const c = valid({ ...defaultConfig(), similarity: { kind: 'features' } } as ExperimentConfig);
    const i = view(c);
    expect(i.sourceKind).toBe('prototypes');
    same(valid(apply(c, stateOf(i))), c);
    expect(apply(defaultConfig(), stateOf(view(defaultConfig()), { sourceKind: 'prototypes' })).similarity).toEqual({
      kind: 'features',
    });
  });

  it('an upload the page has not loaded stays referenced; a loaded one replaces it', () => {
    const ref = { name: 'sim6.json', contentHash: 'fnv1a64:0123456789abcdef' };
    const c = valid({ ...defaultConfig(), similarity: { kind: 'upload', file: ref } } as ExperimentConfig);
    const i = view(c);
    expect(i.sourceKind).toBe('upload');
    expect(i.uploadRef).toEqual(ref);
    same(valid(apply(c, stateOf(i))), c);
    const other = { name: 'mine.csv', contentHash: 'fnv1a64:fedcba9876543210' };
    expect(apply(c, stateOf(i, { upload: other })).similarity).toEqual({ kind: 'upload', file: other });
  });

  it('CLIP settings: read for the panel, written back with the prompt details the panel does not edit kept', () => {
    const c = valid({
      ...defaultConfig(),
      similarity: {
        kind: 'clip',
        model: 'cil-lab/clip-tiny',
        dtype: 'fp32',
        prompt: { kind: 'descriptions', descriptions: { Pullover: 'a knitted sweater' }, template: 'a photo of {}' },
        weights: { kind: 'self-hosted', path: '/models/' },
      },
      backend: { train: 'auto', embed: 'wasm' },
    } as ExperimentConfig);
    const i = view(c);
    expect(i.clip).toEqual({
      modelId: 'cil-lab/clip-tiny',
      dtype: 'fp32',
      weights: 'self-hosted',
      folder: '/models/',
      device: 'wasm',
      promptKind: 'descriptions',
      descriptions: { Pullover: 'a knitted sweater' },
    });
    // the panel reports every class with its description ('' = none); the template it does not edit survives
    const names = ['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal'];
    const prompt = { kind: 'descriptions' as const, descriptions: Object.fromEntries(names.map((n) => [n, n === 'Pullover' ? 'a knitted sweater' : ''])) };
    const clip = {
      model: 'cil-lab/clip-tiny',
      dtype: 'fp32' as const,
      prompt,
      weights: { kind: 'self-hosted' as const, path: '/models/' },
      device: 'wasm' as const,
    };
    same(valid(apply(c, stateOf(i, { clip }))), c);
    // a half-typed model id or mirror URL is not written
    const half = apply(c, stateOf(i, { clip: { ...clip, model: 'cil-lab/', weights: null } }));
    expect(half.similarity).toMatchObject({ model: 'cil-lab/clip-tiny', weights: { kind: 'self-hosted', path: '/models/' } });
  });

  it('the section `protocols` travels whole: a field without a control stays, a changed one reaches the config', () => {
    const d = defaultConfig();
    const c = valid({ ...d, protocols: { ...d.protocols, medianSeed: 7, msSamples: 50, distribution: { sampleSize: 5000, seed: 3 } } } as ExperimentConfig);
    const i = view(c);
    expect(i.settings).toMatchObject(c.protocols);
    same(valid(apply(d, stateOf(i))), c);
    expect(valid(apply(c, stateOf(i, { settings: { ...i.settings, exactLimit: 1000 } }))).protocols).toEqual({ ...c.protocols, exactLimit: 1000 });
    // the protocols and the RS seeds are their own forms' (the checkboxes, the seeds' text), not the part's
    const own = apply(c, stateOf(i, { protocols: ['ms', 'rs'], rsSeeds: [5], settings: { ...i.settings, enabled: ['as'], rsSeeds: [9] } }));
    expect(own.protocols).toMatchObject({ enabled: ['rs', 'ms'], rsSeeds: [5] });
  });

  it('drops a selected ordering when the classes change', () => {
    const c = valid({ ...defaultConfig(), ui: { ...defaultConfig().ui, selectedOrdering: '0,1|2,3|4,5' } });
    const next = apply(c, stateOf(view(c), { selected: [0, 1, 2, 3, 4, 5, 6, 7], taskSizes: [4, 4] }));
    expect(next.ui.selectedOrdering).toBeNull();
    expect(apply(c, stateOf(view(c))).ui.selectedOrdering).toBe('0,1|2,3|4,5');
  });
});

/**
 * Frozen v1 links and the controls they opened to before the binding moved into the lab entry (see the file's note).
 * The view's part `settings` (the section `protocols` whole) came later: it is not pinned there, and is checked
 * against the link's own section (each field the link holds).
 */
const FROZEN = (
  JSON.parse(readFileSync(join(__dirname, '../../../fixtures/lab-binding-links.json'), 'utf8')) as {
    links: Record<string, { link: string; orderings: Omit<OrderingsInputs, 'settings'> }>;
  }
).links;

describe('Orderings lab: round trip and old links', () => {
  it('view, then the change the controls hand back unchanged, applied: the same config (every kind of source)', () => {
    const configs = Object.values(FROZEN).map((f) => open(f.link));
    expect(configs.map((c) => view(c).sourceKind).sort()).toEqual([
      'clip',
      'upload',
      'wordnet',
      'wordnet',
      'wordnet',
      'wordnet',
      'wordnet',
      'wordnet',
      'wordnet',
      'wordnet',
    ]);
    configs.push(valid({ ...defaultConfig(), similarity: { kind: 'features' } } as ExperimentConfig));
    for (const c of configs) {
      same(valid(apply(c, unchanged(c))), c);
      // the same change onto the config it came from again: nothing moves (apply is idempotent)
      same(valid(apply(apply(c, unchanged(c)), unchanged(c))), c);
    }
  });

  it('old links open unchanged: the same controls as before, and writing them back gives the same link', () => {
    expect(Object.keys(FROZEN).length).toBeGreaterThanOrEqual(10);
    for (const [name, f] of Object.entries(FROZEN)) {
      const c = open(f.link);
      const { settings, ...pinned } = view(c);
      expect(pinned, name).toEqual(f.orderings);
      // every field the link holds, as it holds it (a row added later is in the part at its `absent` value)
      expect(settings, name).toMatchObject(c.protocols);
      expect(encodeConfigToHash(valid(apply(c, unchanged(c)))), name).toBe(f.link);
    }
  });

  it('the CLIP panel’s start reads the link’s model, prompt, weights and device', () => {
    expect(FROZEN['o-clip'].orderings.clip).toEqual({
      modelId: 'cil-lab/clip-tiny',
      dtype: 'fp32',
      weights: 'mirror',
      mirrorUrl: 'https://example.org/models/',
      device: 'wasm',
      promptKind: 'descriptions',
      descriptions: { dog: 'a loyal pet' },
    });
    const c = open(FROZEN['o-clip'].link);
    // an edited description reaches the link; the template the panel does not edit stays
    const s = unchanged(c);
    const edited = apply(c, {
      ...s,
      clip: {
        ...s.clip!,
        prompt: { kind: 'descriptions', descriptions: { ...(s.clip!.prompt as { descriptions: Record<string, string> }).descriptions, cat: 'a small cat' } },
      },
    });
    expect(edited.similarity).toMatchObject({
      prompt: { kind: 'descriptions', descriptions: { dog: 'a loyal pet', cat: 'a small cat' }, template: 'a photo of {}' },
    });
  });
});
