/**
 * The Your-classes lab's encoder settings (src/ui/own-classes/own-classes-lab.svelte.ts): the form writes the
 * section's encoder (the link), a hub encoder may download only after its button was pressed (the runner is told
 * which encoder and device), a self-hosted folder or an encoder the browser keeps needs no button; offline, the page
 * says so before recording and offers the encoders that run here; a load refused for want of permission is said in
 * plain words.
 */
import { describe, expect, it } from 'vitest';
import type { OwnClassesConfig } from '../../../src/core/labs/own-classes/section';
import type { OwnClassesRunner } from '../../../src/services/own-classes-runner';
import type { OwnSampleStore } from '../../../src/services/own-classes-store';
import { OwnClassesLab, type EncoderProbe } from '../../../src/ui/own-classes/own-classes-lab.svelte';
import type { EncoderState } from '../../../src/services/own-encoders';

const TINY = {
  source: 'encoder' as const,
  model: 'clip-vision-tiny',
  precision: 'fp32' as const,
  weights: { kind: 'self-hosted' as const, path: '/models/cil-lab/' },
};

function setup(initial?: Partial<OwnClassesConfig>, where: EncoderState = 'download', offline = false, teach: () => Promise<unknown> = async () => null) {
  const access: { allowed: unknown; device: string }[] = [];
  const saved: OwnClassesConfig[] = [];
  const runner = {
    subscribe: (fn: (s: unknown) => void) => (fn({ status: 'idle', done: 0, total: 0, etaSeconds: null, current: null }), () => {}),
    encoderAccess: (o: { allowed: unknown; device: string }) => access.push(structuredClone(o)),
    teach,
    cancel: () => {},
  } as unknown as OwnClassesRunner;
  const store = { notice: null, samples: async () => [] } as unknown as OwnSampleStore;
  const probe: EncoderProbe = {
    state: async (e) => (e.weights.kind === 'self-hosted' ? 'here' : where),
    runnable: async () => [{ label: 'Tiny encoder (ships with this site)', note: 'offline', encoder: TINY }],
    offline: () => offline,
  };
  const lab = new OwnClassesLab(
    store,
    runner,
    initial as OwnClassesConfig | undefined,
    (c) => saved.push(c),
    () => [0],
    '/models/',
    probe,
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

  it('offline, says before recording that the hub cannot be reached and offers the shipped encoder, which then runs', async () => {
    const { lab, saved, access } = setup(undefined, 'download', true);
    await lab.checkEncoder();
    expect(lab.offline).toBe(true);
    expect(lab.encoderWhere).toBe('download');
    expect(lab.encoderNotice).toMatch(/^This browser is offline: the model hub cannot be reached, so Xenova\/clip-vit-base-patch32 cannot be downloaded/);
    expect(lab.runnable.map((r) => r.label)).toEqual(['Tiny encoder (ships with this site)']);
    await lab.useEncoder(lab.runnable[0].encoder);
    expect(saved.at(-1)!.encoder).toEqual(TINY);
    expect(lab.encoderWhere).toBe('here');
    expect(lab.encoderNotice).toBeNull();
    expect((access.at(-1)!.allowed as { model: string }).model).toBe('clip-vision-tiny');
  });

  it('online, a hub encoder not downloaded yet is said before recording; one the browser keeps needs no button', async () => {
    const a = setup(undefined, 'download', false);
    await a.lab.checkEncoder();
    expect(a.lab.encoderNotice).toMatch(/is not in this browser yet: under Encoder, check its download size and download it/);
    const b = setup(undefined, 'cached', false);
    await b.lab.checkEncoder();
    expect(b.lab.encoderApproved).toBe(true);
    expect(b.lab.encoderNotice).toBeNull();
    expect(b.access.at(-1)!.allowed).not.toBeNull();
  });

  it('turns a refused download into plain words', async () => {
    const refused = async () => {
      throw new Error(
        'Xenova/clip-vit-base-patch32 would be downloaded from https://huggingface.co/…, but remote downloads are switched off (allowRemote is false).',
      );
    };
    const { lab } = setup(
      {
        classes: ['mug'],
        trainPerClass: 2,
        testPerClass: 1,
        strategy: 'finetune',
        seed: 0,
        fps: 8,
        encoder: { source: 'encoder', model: 'Xenova/clip-vit-base-patch32', precision: 'q8', weights: { kind: 'hub' } },
      },
      'download',
      false,
      refused,
    );
    lab.counts.mug = 3;
    lab.prints.mug = 'x';
    await lab.teach();
    expect(lab.error).not.toMatch(/allowRemote/);
    expect(lab.error).toMatch(/^Xenova\/clip-vit-base-patch32 is not in this browser yet, and it is downloaded only when you ask: .*Your samples are kept\.$/);
  });
});
