/**
 * The Your-classes lab's state (src/ui/own-classes/own-classes-lab.svelte.ts) with the store in memory and a fake
 * runner: the stored samples are the truth (a link's classes restored when their samples are here, the missing ones
 * named, the classes stored here offered), removing a class, and EDGE on the class names.
 */
import { describe, expect, it } from 'vitest';
import type { OwnClassesConfig } from '../../../src/core/labs/own-classes/section';
import { ownNamesEdge } from '../../../src/core/own-classes/edge';
import { sampleFingerprint, type HistoryRow } from '../../../src/core/own-classes/history';
import { everyOwnOrder, ownOrderingsResult } from '../../../src/core/own-classes/orders';
import { overviewOfRuns } from '../../../src/core/own-classes/order-states';
import type { OwnClassesRunner, OwnClassRef } from '../../../src/services/own-classes-runner';
import { ownSampleStore, OWN_SAMPLES_DB, type OwnSampleStore } from '../../../src/services/own-classes-store';
import { memoryStore } from '../../../src/services/store';
import { OwnClassesLab, type EncoderProbe } from '../../../src/ui/own-classes/own-classes-lab.svelte';

const CFG: OwnClassesConfig = {
  classes: ['mug', 'pen', 'cup'],
  trainPerClass: 2,
  testPerClass: 1,
  strategy: 'finetune',
  seed: 0,
  fps: 8,
  encoder: { source: 'encoder', model: 'clip-vision-tiny', precision: 'fp32', weights: { kind: 'self-hosted', path: '/models/' } },
};

async function storeWith(names: string[]): Promise<OwnSampleStore> {
  const store = ownSampleStore(memoryStore(OWN_SAMPLES_DB));
  for (const [c, name] of names.entries()) for (let i = 0; i < 3; i++) await store.put({ name, index: i, bytes: new Uint8Array([c, i]) });
  await store.saveClasses(names);
  return store;
}

function setup(store: OwnSampleStore, classes: string[] = CFG.classes) {
  const calls: string[] = [];
  const saved: OwnClassesConfig[] = [];
  const taught: OwnClassRef[][] = [];
  const runner = {
    subscribe: (fn: (s: unknown) => void) => (fn({ status: 'idle', done: 0, total: 0, etaSeconds: null, current: null }), () => {}),
    encoderAccess: () => {},
    sampleAdded: () => {},
    teach: async (_c: OwnClassesConfig, refs: OwnClassRef[]) => {
      taught.push(refs);
      const rows = refs.map((r, t): HistoryRow => ({
        key: 'k',
        step: t,
        id: `${t}`,
        classes: refs.slice(0, t + 1).map((x) => x.name),
        samples: refs.slice(0, t + 1).map((x) => x.fingerprint),
        row: new Array(t + 1).fill(1),
        testCounts: new Array(t + 1).fill(1),
        backend: 'cpu',
        computedAt: 0,
        ms: 1,
      }));
      return { rows, changed: null, ms: 1, phases: { features: 0, rows: 1 } };
    },
    orderings: async (_c: OwnClassesConfig, refs: OwnClassRef[], rs: number[], namesEdge: unknown) => {
      const C = refs.length;
      const runs = everyOwnOrder(C).map((_, i) => ({ final: 0.5 + i / 100, aia: 0.7 }));
      const overview = overviewOfRuns(runs, runs[0], C, true);
      const edge = { hard: [0, 1, 2].slice(0, C), easy: [2, 1, 0].slice(3 - C) };
      const n = 2 + rs.length + (namesEdge ? 2 : 0);
      return {
        result: ownOrderingsResult(
          overview,
          'finetune',
          edge,
          rs.map((seed) => ({ seed, order: [0, 1, 2] })),
          namesEdge as never,
          new Array(n).fill(runs[0]),
        ),
        edge,
      };
    },
    forgetFeatures: (name: string | null) => calls.push(`forgetFeatures ${name}`),
    cancel: () => {},
  } as unknown as OwnClassesRunner;
  const probe: EncoderProbe = { state: async () => 'here', runnable: async () => [], offline: () => false };
  const lab = new OwnClassesLab(
    store,
    runner,
    { ...structuredClone(CFG), classes },
    (c) => saved.push(structuredClone(c)),
    () => [0],
    '/models/',
    probe,
  );
  return { lab, calls, saved, taught };
}

describe('the Your-classes lab state', () => {
  it('restores the link’s classes from the samples stored here, each with the fingerprint of its samples', async () => {
    const store = await storeWith(['mug', 'pen', 'cup']);
    const { lab, taught } = setup(store);
    await lab.load();
    expect(lab.completeClasses).toEqual(['mug', 'pen', 'cup']);
    expect(lab.missing).toEqual([]);
    expect(lab.stored).toEqual([]);
    expect(taught.at(-1)!.map((r) => r.fingerprint)).toEqual([0, 1, 2].map((c) => sampleFingerprint([0, 1, 2].map((i) => new Uint8Array([c, i])))));
    expect(lab.rows).toHaveLength(3);
    // the fingerprints are kept with the classes: the next visit reads no sample to find them
    expect((await store.classes()).map((c) => c.fingerprint?.per)).toEqual([3, 3, 3]);
  });

  it('opened without classes (or after a crash, on the link from before), it offers the classes stored here', async () => {
    const store = await storeWith(['mug', 'pen', 'cup']);
    const { lab, saved } = setup(store, []);
    await lab.load();
    expect(lab.cfg.classes).toEqual([]);
    expect(lab.stored).toEqual([
      { name: 'mug', count: 3 },
      { name: 'pen', count: 3 },
      { name: 'cup', count: 3 },
    ]);
    lab.newName = 'pen';
    expect(lab.addClass()).toMatch(/already holds samples of “pen”/);
    await lab.restore();
    expect(lab.cfg.classes).toEqual(['mug', 'pen', 'cup']);
    expect(saved.at(-1)!.classes).toEqual(['mug', 'pen', 'cup']);
    expect(lab.stored).toEqual([]);
    expect(lab.rows).toHaveLength(3);
  });

  it('names the link’s classes whose samples are not here, and offers the others', async () => {
    const store = await storeWith(['mug', 'duck']);
    const { lab } = setup(store);
    await lab.load();
    expect(lab.missing).toEqual(['pen', 'cup']);
    expect(lab.stored.map((s) => s.name)).toEqual(['duck']);
    expect(lab.completeClasses).toEqual(['mug']);
    await lab.forgetStored();
    expect(lab.stored).toEqual([]);
    expect(await store.count('duck')).toBe(0);
  });

  it('removes one class: its samples and features are forgotten, the later classes move up, the history follows', async () => {
    const store = await storeWith(['mug', 'pen', 'cup']);
    const { lab, calls, saved, taught } = setup(store);
    await lab.load();
    await lab.removeClass('pen');
    expect(calls).toEqual(['forgetFeatures pen']);
    expect(await store.count('pen')).toBe(0);
    expect(lab.cfg.classes).toEqual(['mug', 'cup']);
    expect(saved.at(-1)!.classes).toEqual(['mug', 'cup']);
    expect(lab.counts.pen).toBeUndefined();
    expect(taught.at(-1)!.map((r) => r.name)).toEqual(['mug', 'cup']);
    expect((await store.classes()).map((c) => c.name)).toEqual(['mug', 'cup']);
  });

  it('keeps the trained head at its bound: a ninth class, or a switch to it with nine, is refused in words', async () => {
    const names = Array.from({ length: 9 }, (_, i) => `c${i}`);
    const store = await storeWith(names.slice(0, 8));
    const { lab } = setup(store, names.slice(0, 8));
    await lab.load();
    lab.newName = 'c8';
    expect(lab.addClass()).toMatch(/Fine-tuning trains its head again for every class, so it takes at most 8 classes/);
    await lab.setStrategy('simplecil');
    lab.newName = 'c8';
    expect(lab.addClass()).toBeNull();
    await lab.setStrategy('replay');
    expect(lab.cfg.strategy).toBe('simplecil');
    expect(lab.error).toMatch(/Replay trains its head again/);
    expect(lab.strategyFits('finetune')).toBe(false);
  });

  it('runs EDGE on name vectors only when they are of the classes the orderings cover, and keeps the text model in the link', async () => {
    const { lab, saved } = setup(await storeWith(['mug', 'pen', 'cup']));
    await lab.load();
    await lab.everyOrdering();
    expect(lab.orderingClasses).toEqual(['mug', 'pen', 'cup']);
    const vectors = [Float32Array.from([1, 0, 0]), Float32Array.from([0.9, 0.1, 0]), Float32Array.from([0, 0, 1])];
    lab.setNameVectors({ classes: ['mug', 'cup', 'pen'], vectors, description: 'x' });
    expect(lab.namesEdge).toBeNull();
    lab.setNameVectors({ classes: ['mug', 'pen', 'cup'], vectors, description: 'CLIP text embeddings of m' });
    expect(lab.namesEdge).toEqual(ownNamesEdge(vectors, ['mug', 'pen', 'cup']));
    expect(lab.namesSource).toBe('CLIP text embeddings of m');
    await lab.everyOrdering();
    expect(lab.orderingsVerdict!.sentences.map((s) => s.id)).toEqual(['own-orderings', 'own-edge', 'own-rs', 'own-edge-names']);
    const names = {
      model: 'cil-lab/clip-tiny',
      dtype: 'q8' as const,
      prompt: { kind: 'bare' as const },
      weights: { kind: 'self-hosted' as const, path: '/models/' },
    };
    lab.namesChanged({ ...names, device: 'wasm' });
    expect(saved.at(-1)!.names).toEqual(names);
    const n = saved.length;
    lab.namesChanged({ ...names, device: 'webgpu' });
    expect(saved).toHaveLength(n);
    lab.setNameVectors(null);
    expect(lab.namesEdge).toBeNull();
  });
});
