import { describe, expect, it } from 'vitest';
import { canonicalJson, defaultConfig, validateConfig, type ExperimentConfig } from '../../../src/core/config/schema';
import { decodeConfigFromHash, encodeConfigToHash } from '../../../src/core/config/url-codec';
import { HASH_WRITE_DELAY_MS, ShareLinkStore, hashFor, openLink, teachFlagOf, type LinkEnv } from '../../../src/services/share-link.svelte';
import { applyOrderingsState, inputsFromConfig, type OrderingsState } from '../../../src/ui/orderings/page-config';
import { PROTOCOL_IDS } from '../../../src/core/protocols/types';
import { parseSeeds } from '../../../src/ui/orderings/page-inputs';
import { parseClassNames, validateClassNames } from '../../../src/core/classes/validate';
import { parseTaskSizes, resolveTaskSizes } from '../../../src/core/orderings/task-sizes';

/** What the Orderings page resolves from its controls (mirrors OrderingsPage.svelte's derived inputs). */
function stateOf(i: ReturnType<typeof inputsFromConfig>, extra: Partial<OrderingsState> = {}): OrderingsState {
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
    ...extra,
  };
}

const same = (a: ExperimentConfig, b: ExperimentConfig) => expect(canonicalJson(a)).toBe(canonicalJson(b));
const valid = (c: ExperimentConfig) => {
  const r = validateConfig(c);
  expect(r.errors).toEqual([]);
  return r.config;
};

describe('Orderings page ⇄ config', () => {
  it('the default config gives the page defaults, and the page writes back exactly the default config', () => {
    const c = defaultConfig();
    const i = inputsFromConfig(c);
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
    same(valid(applyOrderingsState(c, stateOf(i))), c);
  });

  it('round-trips an edited built-in experiment (classes, tasks, seeds, protocols)', () => {
    const c = valid({ ...defaultConfig(), dataset: { id: 'cifar100' }, classes: [3, 7, 11, 20, 50, 99, 1, 2], taskSizes: [4, 2, 2] } as ExperimentConfig);
    c.protocols = { ...c.protocols, enabled: ['rs', 'edge'], rsSeeds: [7, 11] };
    const i = inputsFromConfig(c);
    expect(i.sizesText).toBe('4,2,2');
    expect(i.enabled).toEqual({ rs: true, edge: true, 'edge+': false, exact: false, as: false, ms: false });
    same(valid(applyOrderingsState(defaultConfig(), stateOf(i))), c);
  });

  it('keeps "digits" (named by the MNIST list) and custom names as they are', () => {
    const digits = valid({ ...defaultConfig(), dataset: { id: 'digits' } } as ExperimentConfig);
    const i = inputsFromConfig(digits);
    expect(i.datasetId).toBe('mnist');
    same(valid(applyOrderingsState(digits, stateOf(i))), digits);

    const custom = valid({
      ...defaultConfig(),
      dataset: { id: 'custom', classNames: ['cat', 'dog', 'car', 'truck'], images: null },
      classes: [0, 1, 2, 3],
      taskSizes: [2, 2],
    } as ExperimentConfig);
    const ci = inputsFromConfig(custom);
    expect(ci.customText).toBe('cat\ndog\ncar\ntruck');
    same(valid(applyOrderingsState(defaultConfig(), stateOf(ci))), custom);
  });

  it('an invalid input leaves its part of the config as it was', () => {
    const c = defaultConfig();
    const s = stateOf(inputsFromConfig(c), { taskSizes: null, rsSeeds: null, selected: [0, 1, 2, 3] });
    const next = applyOrderingsState(c, s);
    expect(next.classes).toEqual(c.classes);
    expect(next.taskSizes).toEqual(c.taskSizes);
    expect(next.protocols.rsSeeds).toEqual(c.protocols.rsSeeds);
  });

  it('the prototypes of the feature source are the config\'s similarity kind "features", kept in the link', () => {
    const c = valid({ ...defaultConfig(), similarity: { kind: 'features' } } as ExperimentConfig);
    const i = inputsFromConfig(c);
    expect(i.sourceKind).toBe('prototypes');
    same(valid(applyOrderingsState(c, stateOf(i))), c);
    expect(applyOrderingsState(defaultConfig(), stateOf(inputsFromConfig(defaultConfig()), { sourceKind: 'prototypes' })).similarity).toEqual({
      kind: 'features',
    });
  });

  it('an upload the page has not loaded stays referenced; a loaded one replaces it', () => {
    const ref = { name: 'sim6.json', contentHash: 'fnv1a64:0123456789abcdef' };
    const c = valid({ ...defaultConfig(), similarity: { kind: 'upload', file: ref } } as ExperimentConfig);
    const i = inputsFromConfig(c);
    expect(i.sourceKind).toBe('upload');
    expect(i.uploadRef).toEqual(ref);
    same(valid(applyOrderingsState(c, stateOf(i))), c);
    const other = { name: 'mine.csv', contentHash: 'fnv1a64:fedcba9876543210' };
    expect(applyOrderingsState(c, stateOf(i, { upload: other })).similarity).toEqual({ kind: 'upload', file: other });
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
    const i = inputsFromConfig(c);
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
    same(valid(applyOrderingsState(c, stateOf(i, { clip }))), c);
    // a half-typed model id or mirror URL is not written
    const half = applyOrderingsState(c, stateOf(i, { clip: { ...clip, model: 'cil-lab/', weights: null } }));
    expect(half.similarity).toMatchObject({ model: 'cil-lab/clip-tiny', weights: { kind: 'self-hosted', path: '/models/' } });
  });

  it('drops a selected ordering when the classes change', () => {
    const c = valid({ ...defaultConfig(), ui: { ...defaultConfig().ui, selectedOrdering: '0,1|2,3|4,5' } });
    const next = applyOrderingsState(c, stateOf(inputsFromConfig(c), { selected: [0, 1, 2, 3, 4, 5, 6, 7], taskSizes: [4, 4] }));
    expect(next.ui.selectedOrdering).toBeNull();
    expect(applyOrderingsState(c, stateOf(inputsFromConfig(c))).ui.selectedOrdering).toBe('0,1|2,3|4,5');
  });
});

describe('share link helpers', () => {
  it('reads ?teach in its spellings', () => {
    expect(teachFlagOf('?teach')).toBe(true);
    expect(teachFlagOf('?x=1&teach=1')).toBe(true);
    expect(teachFlagOf('?teach=0')).toBe(false);
    expect(teachFlagOf('?teach=off')).toBe(false);
    expect(teachFlagOf('')).toBe(false);
  });

  it('opens a good link, falls back (and says why) for a bad one, and applies ?teach', () => {
    const c = valid({ ...defaultConfig(), taskSizes: [2, 2, 2], classes: [0, 1, 2, 3, 4, 5] });
    c.protocols.rsSeeds = [5];
    const good = openLink(encodeConfigToHash(c), '');
    expect(good.error).toBeNull();
    same(good.config, c);
    const bad = openLink('#v1.@@@', '?teach');
    expect(bad.error).toMatch(/damaged/);
    expect(bad.config.ui.teaching).toBe(true);
    expect(openLink('#v2.x', '').error).toMatch(/newer CIL Lab \(v2\)/);
    const kept = openLink('#nonsense', '', c);
    same(kept.config, c);
  });

  it('hashFor gives the codec hash', () => {
    const h = hashFor(defaultConfig());
    expect(h.hash).toMatch(/^#v1\./);
    expect(decodeConfigFromHash(h.hash!).ok).toBe(true);
  });
});

describe('ShareLinkStore', () => {
  function env(hash = '', search = '') {
    const calls: string[] = [];
    const listeners: (() => void)[] = [];
    const e: LinkEnv & { calls: string[]; fire(h: string): void } = {
      location: { hash, search, pathname: '/', origin: 'http://x', href: `http://x/${search}${hash}` },
      history: {
        state: null,
        replaceState(_d, _u, url) {
          calls.push(String(url));
          const u = new URL(String(url), 'http://x');
          e.location.hash = u.hash;
          e.location.search = u.search;
        },
      },
      addEventListener: (_t, fn) => listeners.push(fn),
      calls,
      fire(h: string) {
        e.location.hash = h;
        listeners.forEach((f) => f());
      },
    };
    return e;
  }

  it('validates updates, refuses invalid ones, and writes the hash once, debounced, with replaceState', async () => {
    const e = env();
    const s = new ShareLinkStore(e);
    expect(s.problem).toBeNull();
    expect(s.update((c) => void (c.taskSizes = [4, 4])).ok).toBe(false); // 6 classes: refused
    expect(s.update((c) => void (c.taskSizes = [2, 2, 2])).ok).toBe(true); // same as before: no change
    expect(s.update((c) => void (c.protocols.rsSeeds = [1])).ok).toBe(true);
    expect(s.update((c) => void (c.protocols.rsSeeds = [2])).ok).toBe(true);
    expect(e.calls).toEqual([]);
    await new Promise((r) => setTimeout(r, HASH_WRITE_DELAY_MS + 50));
    expect(e.calls).toHaveLength(1);
    const opened = decodeConfigFromHash(e.location.hash);
    expect(opened.ok && opened.config.protocols.rsSeeds).toEqual([2]);
  });

  it('a bad link keeps the defaults and says so; a bad link later keeps the current work; a good one replaces it', () => {
    const e = env('#v1.@@@');
    const s = new ShareLinkStore(e);
    expect(s.problem).toMatchObject({ kept: 'defaults' });
    same(s.config, defaultConfig());
    s.update((c) => void (c.protocols.rsSeeds = [9]));
    s.dismissProblem();
    e.fire('#v2.abc');
    expect(s.problem).toMatchObject({ kept: 'current' });
    expect(s.config.protocols.rsSeeds).toEqual([9]);
    expect(s.revision).toBe(0);
    const c = valid({ ...defaultConfig(), classes: [0, 1, 2, 3], taskSizes: [2, 2] });
    e.fire(encodeConfigToHash(c));
    expect(s.problem).toBeNull();
    expect(s.revision).toBe(1);
    same(s.config, c);
  });

  it('a link pasted while an edit waits to be written is opened, not overwritten by the write', async () => {
    const e = env();
    const s = new ShareLinkStore(e);
    s.update((c) => void (c.protocols.rsSeeds = [7]));
    const c = valid({ ...defaultConfig(), classes: [0, 1, 2, 3], taskSizes: [2, 2] });
    e.location.hash = encodeConfigToHash(c); // the address bar changed; its hashchange not delivered yet
    await new Promise((r) => setTimeout(r, HASH_WRITE_DELAY_MS + 50));
    same(s.config, c);
    expect(s.revision).toBe(1);
    const written = decodeConfigFromHash(e.location.hash);
    expect(written.ok && written.config.taskSizes).toEqual([2, 2]);
    e.fire(e.location.hash); // the late event finds the hash it opened
    expect(s.revision).toBe(1);
    // a bad link pasted the same way is reported, and the current work kept and written
    s.update((x) => void (x.protocols.rsSeeds = [8]));
    e.location.hash = '#v1.AAAA';
    await new Promise((r) => setTimeout(r, HASH_WRITE_DELAY_MS + 50));
    expect(s.problem).toMatchObject({ kept: 'current' });
    const kept = decodeConfigFromHash(e.location.hash);
    expect(kept.ok && kept.config.protocols.rsSeeds).toEqual([8]);
  });

  it('teaching: ?teach turns it on; turning it off also removes ?teach from the URL', () => {
    const e = env('', '?teach');
    const s = new ShareLinkStore(e);
    expect(s.config.ui.teaching).toBe(true);
    s.setTeaching(false);
    expect(s.config.ui.teaching).toBe(false);
    expect(e.location.search).toBe('');
  });

  it('shareUrl writes the hash now and returns the whole URL', () => {
    const e = env();
    const s = new ShareLinkStore(e);
    s.update((c) => void (c.protocols.rsSeeds = [3]));
    const url = s.shareUrl();
    expect(url).toBe(`http://x/${e.location.hash}`);
    expect(e.calls).toHaveLength(1);
  });

  it('openedLab: the lab of the link the page opened (or pasted later); null without one or for a bad one', () => {
    expect(new ShareLinkStore(env()).openedLab).toBeNull();
    expect(new ShareLinkStore(env('#v1.@@@')).openedLab).toBeNull();
    const fg = valid({
      ...defaultConfig(),
      lab: 'forgetting',
      dataset: { id: 'digits' },
      classes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      taskSizes: [5, 1, 1, 1, 1, 1],
    });
    expect(new ShareLinkStore(env(encodeConfigToHash(fg))).openedLab).toBe('forgetting');
    const e = env();
    const s = new ShareLinkStore(e);
    s.setLab('forgetting'); // picking a tab is not opening a link
    expect(s.openedLab).toBeNull();
    e.fire(encodeConfigToHash(fg));
    expect(s.openedLab).toBe('forgetting');
  });
});
