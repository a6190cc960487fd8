/**
 * The Your-classes lab's encoder settings (src/ui/own-classes/own-classes-lab.svelte.ts): the form writes the
 * section's encoder (the link), a hub encoder may download only after its button was pressed (the runner is told
 * which encoder and device), and a self-hosted folder needs no button.
 */
import { describe, expect, it } from 'vitest';
import type { OwnClassesConfig } from '../../../src/core/config/sections/own-classes';
import type { OwnClassesRunner } from '../../../src/services/own-classes-runner';
import type { OwnSampleStore } from '../../../src/services/own-classes-store';
import { OwnClassesLab } from '../../../src/ui/own-classes/own-classes-lab.svelte';

function setup(initial?: Partial<OwnClassesConfig>) {
  const access: { allowed: unknown; device: string }[] = [];
  const saved: OwnClassesConfig[] = [];
  const runner = {
    subscribe: (fn: (s: unknown) => void) => (fn({ status: 'idle', done: 0, total: 0, etaSeconds: null, current: null }), () => {}),
    encoderAccess: (o: { allowed: unknown; device: string }) => access.push(structuredClone(o)),
    train: async () => ({ order: [0], matrix: [[1]], finalAccuracy: 1 }),
    cancel: () => {},
  } as unknown as OwnClassesRunner;
  const store = { notice: null, samples: async () => [] } as unknown as OwnSampleStore;
  const lab = new OwnClassesLab(
    store,
    runner,
    initial as OwnClassesConfig | undefined,
    (c) => saved.push(c),
    () => [0],
    '/models/',
  );
  return { lab, access, saved };
}

describe('the Your-classes encoder settings', () => {
  it('a hub encoder downloads only after its button; a change of setting takes the permission back', async () => {
    const { lab, access, saved } = setup();
    expect(lab.encoderForm).toMatchObject({ model: 'Xenova/clip-vit-base-patch32', precision: 'q8', weights: 'hub', device: 'wasm' });
    expect(lab.encoderApproved).toBe(false);
    expect(access.at(-1)).toEqual({ allowed: null, device: 'wasm' });
    await lab.approveEncoder();
    expect(lab.encoderApproved).toBe(true);
    expect(access.at(-1)).toEqual({
      allowed: { source: 'encoder', model: 'Xenova/clip-vit-base-patch32', precision: 'q8', weights: { kind: 'hub' } },
      device: 'wasm',
    });
    lab.encoderForm = { ...lab.encoderForm, model: 'Xenova/clip-vit-base-patch16', precision: 'fp16', device: 'webgpu' };
    lab.encoderChanged();
    expect(saved.at(-1)!.encoder).toEqual({ source: 'encoder', model: 'Xenova/clip-vit-base-patch16', precision: 'fp16', weights: { kind: 'hub' } });
    expect(lab.encoderApproved).toBe(false);
    expect(lab.encoderSize).toBeNull();
    expect(access.at(-1)).toEqual({ allowed: null, device: 'webgpu' });
  });

  it('a self-hosted folder needs no button', () => {
    const { lab, access } = setup({
      classes: [],
      trainPerClass: 30,
      testPerClass: 10,
      strategy: 'finetune',
      seed: 0,
      encoder: { source: 'encoder', model: 'cil-lab/clip-vision-tiny', precision: 'q8', weights: { kind: 'self-hosted', path: '/models/' } },
    });
    expect(lab.encoderApproved).toBe(true);
    expect(lab.encoderForm).toMatchObject({ weights: 'self-hosted', folder: '/models/' });
    expect((access.at(-1)!.allowed as { model: string }).model).toBe('cil-lab/clip-vision-tiny');
  });
});
