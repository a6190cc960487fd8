import { describe, expect, it } from 'vitest';
import { getClassList } from '../../../src/core/classes/builtin';
import { defaultConfig, type ExperimentConfig } from '../../../src/core/config/schema';
import { orderingsLab } from '../../../src/core/labs/orderings';
import { OrderingsInputsState, pinsKeyOf } from '../../../src/ui/orderings/orderings-inputs.svelte';

/** The inputs as the lab kit starts them from a config (the entry's `view`, the config's WordNet pins). */
const inputsOf = (c: ExperimentConfig) => new OrderingsInputsState(orderingsLab.view(c), pinsKeyOf(c));
/** The inputs' change with no CLIP settings and no upload loaded. */
const changeOf = (s: OrderingsInputsState) => s.change({ clip: null, upload: null });
import { defaultPick, resolveClasses, resolveSeeds, resolveSizes } from '../../../src/ui/orderings/page-inputs';

const fashion = getClassList('fashion-mnist');

describe('Orderings page inputs, resolved', () => {
  it('a built-in list gives its selected classes in label order, with the list’s synsets unless the config pins one', () => {
    const r = resolveClasses(fashion, [3, 0, 1], '', {});
    expect(r).toEqual({ names: ['T-shirt/top', 'Trouser', 'Dress'], pins: [fashion.synsets[0], fashion.synsets[1], fashion.synsets[3]], error: '' });
    const pinned = resolveClasses(fashion, [0, 1], '', { Trouser: 'x.n.01' });
    expect(pinned.pins).toEqual([fashion.synsets[0], 'x.n.01']);
    expect(resolveClasses(fashion, [4], '', {})).toEqual({ names: [], pins: undefined, error: 'Select at least two classes.' });
  });

  it('custom names are validated; a duplicate is named next to the control', () => {
    expect(resolveClasses(undefined, [], 'cat\ndog\ncar', {})).toEqual({ names: ['cat', 'dog', 'car'], pins: undefined, error: '' });
    expect(resolveClasses(undefined, [], 'cat\ndog', { dog: 'dog.n.01' }).pins).toEqual([undefined, 'dog.n.01']);
    const dup = resolveClasses(undefined, [], 'cat\ncat\ndog', {});
    expect(dup.names).toEqual([]);
    expect(dup.error).toMatch(/cat/);
  });

  it('task sizes: K equal tasks, explicit sizes, or the reason they do not fit', () => {
    expect(resolveSizes(6, 3, '')).toEqual({ sizes: [2, 2, 2], error: '' });
    expect(resolveSizes(6, 3, '3,2,1')).toEqual({ sizes: [3, 2, 1], error: '' });
    expect(resolveSizes(0, 3, '')).toEqual({ sizes: [], error: '' });
    const bad = resolveSizes(6, 3, '3,x');
    expect(bad.sizes).toEqual([]);
    expect(bad.error).toMatch(/"x"/);
    expect(resolveSizes(6, 4, '').error).not.toBe('');
  });

  it('RS seeds: required only while RS is on', () => {
    expect(resolveSeeds(true, '0, 42 1993')).toEqual({ seeds: [0, 42, 1993], error: '' });
    expect(resolveSeeds(false, '  ')).toEqual({ seeds: [], error: '' });
    expect(resolveSeeds(true, '').error).toMatch(/at least one RS seed/);
    expect(resolveSeeds(true, '-1').error).toMatch(/"-1"/);
    // what the link's check refuses (a seed twice, more than 1 000 seeds) is said here, not dropped silently
    expect(resolveSeeds(true, '0, 42, 0').error).toBe('Seed 0 is listed twice; give each seed once.');
    expect(resolveSeeds(true, Array.from({ length: 1001 }, (_, i) => i).join(',')).error).toBe('At most 1000 RS seeds; got 1001.');
    expect(resolveSeeds(true, Array.from({ length: 1000 }, (_, i) => i).join(',')).seeds).toHaveLength(1000);
  });
});

describe('a dataset picked in the menu keeps all its classes (CIFAR-100 once kept 6 of its 100, so 10 tasks failed)', () => {
  it('selects every class, keeps K when it splits them, else takes the usual split', () => {
    expect(defaultPick(100, 10)).toEqual({ selected: Array.from({ length: 100 }, (_, i) => i), tasks: 10 });
    expect(defaultPick(100, 3).tasks).toBe(10);
    expect(defaultPick(10, 3).tasks).toBe(5);
    expect(defaultPick(10, 2).tasks).toBe(2);
    expect(defaultPick(249, 3).tasks).toBe(3);
    expect(defaultPick(7, 3).tasks).toBe(1);
  });

  it('CIFAR-100 then 10 tasks: 100 classes in 10 tasks of 10, no error', () => {
    const s = inputsOf(defaultConfig());
    s.sizesText = '3,2,1';
    s.pickDataset('cifar100');
    expect(s.classes.names).toHaveLength(100);
    expect(s.sizesText).toBe('');
    expect(s.sizes).toEqual({ sizes: Array(10).fill(10), error: '' });
    s.tasks = 10;
    expect(s.sizes.error).toBe('');
    s.pickDataset('custom');
    expect(s.classes.names).toEqual(['apple', 'bicycle', 'tiger', 'lion', 'truck', 'orange']);
  });
});

describe('OrderingsInputsState', () => {
  const cifar10: ExperimentConfig = {
    ...defaultConfig(),
    dataset: { id: 'cifar10' },
    classes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    taskSizes: [2, 2, 2, 2, 2],
  } as ExperimentConfig;

  it('starts from the config and resolves classes, tasks and seeds from it', () => {
    const s = inputsOf(defaultConfig());
    expect(s.datasetId).toBe('fashion-mnist');
    expect(s.classes.names).toEqual(fashion.classes.slice(0, 6));
    expect(s.sizes.sizes).toEqual([2, 2, 2]);
    expect(s.seeds.seeds).toEqual([0, 42, 1993]);
    s.toggle(5);
    expect(s.indices).toEqual([0, 1, 2, 3, 4]);
    expect(s.sizes.error).not.toBe(''); // 5 classes do not split into 3 equal tasks
  });

  it('follows a change another lab made to the experiment, not its own writes nor what is being typed', () => {
    const s = inputsOf(defaultConfig());
    expect(s.follow(defaultConfig(), changeOf(s))).toBe(false);
    // another lab's classes and tasks: its inputs replace these
    expect(s.follow(cifar10, changeOf(s))).toBe(true);
    expect(s.datasetId).toBe('cifar10');
    expect(s.sizes.sizes).toEqual([2, 2, 2, 2, 2]);
    // the lab's own write (the entry's apply of its change): no news
    s.toggle(9);
    s.sizesText = '2,2,2,3';
    const written = orderingsLab.apply(cifar10, changeOf(s));
    expect(written.classes).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(s.follow(written, changeOf(s))).toBe(false);
    expect(s.selected).not.toContain(9);
    // an invalid task size being typed is not replaced by the sizes the config kept
    s.sizesText = '2,2,x';
    expect(changeOf(s).taskSizes).toBeNull();
    expect(s.follow(written, changeOf(s))).toBe(false);
    expect(s.sizesText).toBe('2,2,x');
    // a link opened over the page replaces them all the same
    expect(s.follow(written, changeOf(s), true)).toBe(true);
    expect(s.sizesText).toBe('2,2,2,3');
  });

  it('follows the prototypes of the feature source in the config (kind "features"), and an experiment without them', () => {
    const s = inputsOf(defaultConfig());
    const protos = { ...defaultConfig(), similarity: { kind: 'features' } } as ExperimentConfig;
    expect(s.follow({ ...protos, classes: [0, 1, 2, 3] }, changeOf(s))).toBe(true);
    expect(s.sourceKind).toBe('prototypes');
    expect(s.follow(cifar10, changeOf(s))).toBe(true);
    expect(s.sourceKind).toBe('wordnet');
  });

  it('other CLIP settings start the CLIP panel again (clipKey moves), the same ones do not', () => {
    const clip = {
      ...defaultConfig(),
      similarity: { kind: 'clip', model: 'Xenova/clip-vit-base-patch32', dtype: 'q8', prompt: { kind: 'bare' }, weights: { kind: 'hub' } },
    } as ExperimentConfig;
    const s = inputsOf(defaultConfig());
    const k = s.clipKey;
    s.follow(clip, changeOf(s));
    expect(s.clipKey).toBe(k + 1);
    expect(s.clipInitial?.modelId).toBe('Xenova/clip-vit-base-patch32');
    s.apply(orderingsLab.view(clip));
    expect(s.clipKey).toBe(k + 1);
  });

  it("holds the section `protocols` whole: a field's control writes it, the change carries it, another lab's value replaces it", () => {
    const c = { ...defaultConfig(), protocols: { ...defaultConfig().protocols, medianSeed: 7 } } as ExperimentConfig;
    const s = inputsOf(c);
    expect(s.settings).toMatchObject(c.protocols);
    // a control bound to a field of the part (as a number input binds): the change hands it to the entry's apply
    s.settings.msSamples = 50;
    const written = orderingsLab.apply(c, changeOf(s));
    expect(written.protocols).toEqual({ ...c.protocols, msSamples: 50 });
    expect(s.follow(written, changeOf(s))).toBe(false);
    // another lab's median seed: the part follows it
    const other = { ...written, protocols: { ...written.protocols, medianSeed: 9 } };
    expect(s.follow(other, changeOf(s))).toBe(true);
    expect(s.settings).toMatchObject(other.protocols);
    expect(changeOf(s).settings).toMatchObject(other.protocols);
  });

  it('WordNet pins of the config reach the classes', () => {
    const c = { ...defaultConfig(), similarity: { kind: 'wordnet', pins: { Trouser: 'pants.n.01' } } } as ExperimentConfig;
    const s = inputsOf(c);
    expect(pinsKeyOf(c)).toBe('{"Trouser":"pants.n.01"}');
    expect(s.classes.pins?.[1]).toBe('pants.n.01');
  });
});
