import { describe, expect, it } from 'vitest';
import {
  CLIP_STORAGE_KEY,
  failureText,
  loadSaved,
  mb,
  promptLabelOf,
  promptSpecOf,
  selfHostFolderOf,
  shortFile,
  startSettings,
  whereText,
} from '../../../src/ui/common/clip/clip-settings';

const defaults = { modelId: 'Xenova/clip-vit-base-patch32', folder: '/models/' };

describe('CLIP panel settings (ClipSettings.svelte)', () => {
  it('remembered settings: unreadable storage gives none; unusable values fall back to the defaults', () => {
    expect(loadSaved({ getItem: () => '{not json' })).toEqual({});
    expect(loadSaved(undefined)).toEqual({});
    expect(loadSaved({ getItem: (k) => (k === CLIP_STORAGE_KEY ? '{"dtype":"fp32"}' : null) })).toEqual({ dtype: 'fp32' });
    const s = startSettings(
      { dtype: 'fp16' as never, weights: 'mirror', mirrorUrl: 'https://m/', promptKind: 'nope' as never, descriptions: { cat: 'a cat' } },
      defaults,
    );
    expect(s).toMatchObject({
      modelId: defaults.modelId,
      dtype: 'q8',
      weights: 'mirror',
      mirrorUrl: 'https://m/',
      device: 'webgpu',
      promptKind: 'bare',
      template: 'a photo of a {}',
      folder: '/models/',
    });
    expect(s.descriptions).toEqual({ cat: 'a cat' });
  });

  it('weights and prompts as the embed worker wants them, and in words', () => {
    expect(whereText('self-hosted', '/w', '', '/models/', 'org/m')).toBe('the self-hosted folder /w/org/m/');
    expect(whereText('mirror', '', '', '/models/', 'org/m')).toBe('the mirror (no URL yet)');
    expect(promptSpecOf('template', 'a {}', '', {}, ['cat'])).toEqual({ kind: 'template', template: 'a {}' });
    expect(promptSpecOf('template', 'a', 'needs {}', {}, ['cat'])).toEqual({ kind: 'bare' });
    expect(promptSpecOf('descriptions', '', '', { cat: 'a small cat' }, ['cat', 'dog'])).toEqual({
      kind: 'descriptions',
      descriptions: { cat: 'a small cat', dog: '' },
    });
    expect(promptLabelOf({ kind: 'template', template: 'a {}' })).toBe('“a {}”');
    expect(promptLabelOf({ kind: 'bare' })).toBe('bare class name');
  });

  it('a failed load names the file relative to the model folder, and the self-host folder', () => {
    expect(shortFile('https://huggingface.co/org/m/resolve/main/onnx/text_model.onnx', 'org/m')).toBe('onnx/text_model.onnx');
    expect(shortFile('/models/org/m/tokenizer.json', 'org/m')).toBe('tokenizer.json');
    expect(shortFile(undefined, 'org/m')).toBe('the model files');
    const base = { message: '', hint: '', where: 'the hub', modelId: 'org/m' };
    expect(failureText({ ...base, reason: 'offline', file: '/models/org/m/config.json' })).toBe(
      'Could not download config.json of org/m from the hub: the network is unreachable or blocked.',
    );
    expect(failureText({ ...base, reason: 'not-found' })).toBe('The model files of org/m were not found at the hub.');
    expect(failureText({ ...base, reason: 'unknown' })).toBe('Loading org/m from the hub failed.');
    expect(selfHostFolderOf(' org/m ')).toBe('public/models/org/m/');
    expect(selfHostFolderOf('bad id')).toBe('public/models/<org>/<name>/');
    expect(mb(12_345_678)).toBe('12.3 MB');
    expect(mb(45_400)).toBe('45 kB');
  });
});
