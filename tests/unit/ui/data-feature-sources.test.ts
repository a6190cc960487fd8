/**
 * The Data tab's feature sources, pure parts: the progress line of a feature job (stage, images, rate, time left) and
 * the model settings component's weight source both ways.
 */
import { describe, expect, it } from 'vitest';
import {
  listedSizeText,
  megabytesOf,
  runButtonText,
  settingsOfWeights,
  weightSourceOfSettings,
  type EncoderSettingsValue,
} from '../../../src/ui/common/encoder-settings';
import { progressLine } from '../../../src/ui/data/feature-sources.svelte';
import { IMAGE_ENCODERS } from '../../../src/engine/clip/image-encoder';

describe('progressLine', () => {
  it('says the stage, the images, the rate and the time left', () => {
    expect(progressLine({ kind: 'progress', stage: 'pretrain', done: 2, total: 5, perSecond: null, secondsLeft: null })).toBe(
      'Pre-training the backbone: epoch 2 of 5',
    );
    expect(progressLine({ kind: 'progress', stage: 'extract', done: 1234, total: 6000, perSecond: 850.4, secondsLeft: 5.6 })).toBe(
      '1\u2009234 of 6\u2009000 images · 850 images/s · 6 s left',
    );
    expect(progressLine({ kind: 'progress', stage: 'extract', done: 10, total: 60000, perSecond: 0.1, secondsLeft: 599_900 })).toMatch(/ · 9999 min left$/);
    expect(progressLine({ kind: 'progress', stage: 'extract', done: 0, total: 60, perSecond: null, secondsLeft: null })).toBe('0 of 60 images');
  });
});

describe('encoder settings', () => {
  const base: EncoderSettingsValue = { model: 'm', revision: 'main', precision: 'q8', weights: 'hub', folder: '', mirror: '', device: 'webgpu' };
  it('make the config’s weight source and back', () => {
    expect(weightSourceOfSettings(base, '/models/')).toEqual({ kind: 'hub' });
    expect(weightSourceOfSettings({ ...base, weights: 'self-hosted', folder: '  ' }, '/models/')).toEqual({ kind: 'self-hosted', path: '/models/' });
    expect(weightSourceOfSettings({ ...base, weights: 'mirror', mirror: ' https://m.example/ ' }, '/models/')).toEqual({
      kind: 'mirror',
      url: 'https://m.example/',
    });
    expect(settingsOfWeights({ kind: 'self-hosted', path: '/x/' }, '/models/')).toEqual({ weights: 'self-hosted', folder: '/x/', mirror: '' });
    expect(settingsOfWeights({ kind: 'mirror', url: 'https://m/' }, '/models/')).toEqual({ weights: 'mirror', folder: '/models/', mirror: 'https://m/' });
  });
  it('say sizes in MB', () => {
    expect(megabytesOf(88_123_456)).toBe('88.1 MB');
    expect(megabytesOf(412_000)).toBe('0.41 MB');
  });
  it('the one button asks the size first, then says how many MB it downloads before the work (both panels)', () => {
    expect(runButtonText(null, 'embed 6 classes')).toBe('Check the download size');
    expect(runButtonText({ error: 'offline' }, 'embed 6 classes')).toBe('Check again');
    expect(runButtonText({ bytes: 64_123_456 }, 'embed 6 classes')).toBe('Download 64.1 MB and embed 6 classes');
    expect(runButtonText({ bytes: 88_100_000 }, 'extract features')).toBe('Download 88.1 MB and extract features');
    expect(runButtonText({ bytes: null }, 'extract features')).toBe('Download (size unknown) and extract features');
    // weights kept in the browser, or every name embedded already
    expect(runButtonText({ bytes: 0 }, 'embed 1 class')).toBe('Embed 1 class (nothing to download)');
  });
  it('a known encoder says its listed download at the chosen precision before anything is asked', () => {
    const vit = IMAGE_ENCODERS.find((e) => e.id === 'Xenova/vit-base-patch16-224-in21k');
    expect(listedSizeText(vit, 'q8')).toBe(
      'About 87.5 MB as q8 (fp16 172.0 MB, fp32 343.0 MB), as the hub lists revision 096edaa; the button asks the real size first.',
    );
    expect(listedSizeText({ id: 'x/y', label: 'y', note: '' }, 'q8')).toBe('');
    expect(listedSizeText(undefined, 'q8')).toBe('');
  });
});
