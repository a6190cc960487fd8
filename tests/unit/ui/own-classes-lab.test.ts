/**
 * The Your-classes lab's state (src/ui/own-classes/own-classes-lab.svelte.ts) with a fake store and runner: removing
 * one class, and EDGE on the class names (vectors from the names panel, its settings kept in the section).
 */
import { describe, expect, it } from 'vitest';
import type { OwnClassesConfig } from '../../../src/core/config/sections/own-classes';
import { ownNamesEdge } from '../../../src/core/own-classes/edge';
import type { OwnClassesRunner, OwnRun } from '../../../src/services/own-classes-runner';
import type { OwnSampleStore } from '../../../src/services/own-classes-store';
import { OwnClassesLab } from '../../../src/ui/own-classes/own-classes-lab.svelte';

const CFG: OwnClassesConfig = {
  classes: ['mug', 'pen', 'cup'],
  trainPerClass: 2,
  testPerClass: 1,
  strategy: 'finetune',
  seed: 0,
  encoder: { source: 'encoder', model: 'clip-vision-tiny', precision: 'fp32', weights: { kind: 'self-hosted', path: '/models/' } },
};

function setup() {
  const calls: string[] = [];
  const saved: OwnClassesConfig[] = [];
  const trained: number[] = [];
  const orders = (n: number): number[][] =>
    n <= 1 ? [[0]] : orders(n - 1).flatMap((o) => Array.from({ length: n }, (_, k) => [...o.slice(0, k), n - 1, ...o.slice(k)]));
  const runner = {
    subscribe: (fn: (s: unknown) => void) => (fn({ status: 'idle', done: 0, total: 0, etaSeconds: null, current: null }), () => {}),
    encoderAccess: () => {},
    train: async (_c: OwnClassesConfig, k: number) => (trained.push(k), { order: [...Array(k).keys()], matrix: [[1]], finalAccuracy: 1 }),
    orderings: async (c: OwnClassesConfig) => ({
      runs: orders(c.classes.length).map((order, i): OwnRun => ({ order, matrix: [], finalAccuracy: 0.5 + i / 100 })),
      edge: { hard: [0, 1, 2].slice(0, c.classes.length), easy: [2, 1, 0].slice(3 - c.classes.length) },
    }),
    forgetFeatures: (name: string | null) => calls.push(`forgetFeatures ${name}`),
    cancel: () => {},
  } as unknown as OwnClassesRunner;
  const store = {
    notice: null,
    samples: async () => [1, 2, 3].map((index) => ({ name: '', index, bytes: new Uint8Array([index]) })),
    forget: async (name: string | null) => void calls.push(`forget ${name}`),
  } as unknown as OwnSampleStore;
  const lab = new OwnClassesLab(
    store,
    runner,
    structuredClone(CFG),
    (c) => saved.push(structuredClone(c)),
    () => [0],
    '/models/',
  );
  return { lab, calls, saved, trained };
}

describe('the Your-classes lab state', () => {
  it('removes one class: its samples and features are forgotten, the later classes move up, the model updates', async () => {
    const { lab, calls, saved, trained } = setup();
    await lab.load();
    expect(lab.completeClasses).toEqual(['mug', 'pen', 'cup']);
    await lab.removeClass('pen');
    expect(calls).toEqual(['forget pen', 'forgetFeatures pen']);
    expect(lab.cfg.classes).toEqual(['mug', 'cup']);
    expect(saved.at(-1)!.classes).toEqual(['mug', 'cup']);
    expect(lab.counts.pen).toBeUndefined();
    expect(trained.at(-1)).toBe(2);
    await lab.removeClass('nothing');
    expect(calls).toHaveLength(2);
  });

  it('runs EDGE on name vectors only when they are of the classes the orderings cover, and keeps the text model in the link', async () => {
    const { lab, saved } = setup();
    await lab.load();
    await lab.everyOrdering();
    expect(lab.orderingClasses).toEqual(['mug', 'pen', 'cup']);
    const vectors = [Float32Array.from([1, 0, 0]), Float32Array.from([0.9, 0.1, 0]), Float32Array.from([0, 0, 1])];
    lab.setNameVectors({ classes: ['mug', 'cup', 'pen'], vectors, description: 'x' });
    expect(lab.namesEdge).toBeNull();
    lab.setNameVectors({ classes: ['mug', 'pen', 'cup'], vectors, description: 'CLIP text embeddings of m' });
    expect(lab.namesEdge).toEqual(ownNamesEdge(vectors, ['mug', 'pen', 'cup']));
    expect(lab.namesSource).toBe('CLIP text embeddings of m');
    const sentences = lab.orderingsVerdict!.sentences.map((s) => s.id);
    expect(sentences).toEqual(['own-orderings', 'own-edge', 'own-rs', 'own-edge-names']);
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
    expect(lab.orderingsVerdict!.sentences.map((s) => s.id)).not.toContain('own-edge-names');
  });
});
