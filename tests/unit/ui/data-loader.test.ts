import { describe, expect, it, vi } from 'vitest';
import { DataLoader, parseNames, progressText, type DataLoaderClient } from '../../../src/ui/data/data-loader.svelte';
import { LoadCancelledError, type LoadResult, type SamplingOptions } from '../../../src/services/data-client';

function result(id: string, name: string, sampling: SamplingOptions = { perClass: 8, seed: 0 }, testCount = 5): LoadResult {
  const set = (split: 'train' | 'test') => ({
    split,
    shape: [8, 8, 1],
    perClass: sampling.perClass,
    seed: sampling.seed,
    classes: [],
    pixels: new Uint8Array(0),
  });
  return {
    summary: {
      kind: id === 'user' ? 'user' : 'builtin',
      id,
      name,
      description: '',
      classes: ['a', 'b'],
      shape: [8, 8, 1],
      splits: { train: { count: 10, perClass: [5, 5] }, test: { count: testCount, perClass: [testCount, 0] } },
      splitDescription: '',
      sources: [],
    },
    samples: { train: set('train'), test: set('test') },
  } as unknown as LoadResult;
}

function fakeClient(over: Partial<DataLoaderClient> = {}): DataLoaderClient & { calls: unknown[][] } {
  const calls: unknown[][] = [];
  return {
    calls,
    last: null,
    loadBuiltin: vi.fn(async (id: string, s: SamplingOptions, onProgress) => {
      calls.push(['builtin', id, s]);
      onProgress({ phase: 'download', file: 'x.bin', fraction: 0.5, loaded: 1e6, total: 2e6 });
      return result(id, id.toUpperCase(), s);
    }),
    loadFiles: vi.fn(async (files: File[], o) => {
      calls.push(['files', files.length, o]);
      return result('user', 'mine.zip');
    }),
    resample: vi.fn(async (s: SamplingOptions) => result('digits', 'Digits', s).samples),
    cancel: vi.fn(),
    ...over,
  };
}

describe('DataLoader (the Data page’s state)', () => {
  it('starts on the experiment’s dataset (Digits when it has no images here), or where the page was', async () => {
    const fashion = fakeClient();
    await new DataLoader(fashion).start('fashion-mnist');
    expect(fashion.calls[0]).toEqual(['builtin', 'fashion-mnist', { perClass: 8, seed: 0 }]);
    const names = fakeClient();
    await new DataLoader(names).start('cifar100');
    expect(names.calls[0]).toEqual(['builtin', 'digits', { perClass: 8, seed: 0 }]);
    const c = fakeClient();
    const d = new DataLoader(c);
    await d.start();
    expect(c.calls[0]).toEqual(['builtin', 'digits', { perClass: 8, seed: 0 }]);
    expect(d.summary?.name).toBe('DIGITS');
    expect(d.loading).toBeNull();
    const back = new DataLoader(fakeClient({ last: result('emoji', 'Emoji', { perClass: 3, seed: 9 }) }));
    await back.start();
    expect([back.picked, back.perClass, back.seed]).toEqual(['emoji', 3, 9]);
  });

  it('a failed load keeps the data on screen, puts the radio back and says so; a cancelled one says it was cancelled', async () => {
    const c = fakeClient();
    const d = new DataLoader(c);
    await d.loadBuiltin('digits');
    c.loadBuiltin = async () => {
      throw new Error('network down');
    };
    await d.loadBuiltin('fashion-mnist');
    expect(d.builtinError).toBe('network down.\nStill showing DIGITS.');
    expect(d.picked).toBe('digits');
    c.loadFiles = async () => {
      throw new LoadCancelledError();
    };
    await d.loadFiles([new File(['x'], 'a.zip')], '');
    expect(d.uploadError).toBe('');
    expect(d.notice).toBe('Loading was cancelled. Still showing DIGITS.');
  });

  it('unusable S or seed: a load uses the defaults (and shows them); a resample says what is wrong and sends nothing', async () => {
    const c = fakeClient();
    const d = new DataLoader(c);
    d.perClass = 0;
    await d.loadBuiltin('digits');
    expect(c.calls[0][2]).toEqual({ perClass: 8, seed: 0 });
    expect(d.perClass).toBe(8);
    d.seed = -1;
    await d.resample();
    expect(d.sampleError).toMatch(/seed must be a whole number/);
    expect(c.resample).not.toHaveBeenCalled();
    d.seed = 4;
    await d.redraw();
    expect(c.resample).toHaveBeenCalledWith({ perClass: 8, seed: 5 });
    expect(d.samples?.train.seed).toBe(5);
  });

  it('user files carry the typed class names; a dataset without a test split goes back to train', async () => {
    const c = fakeClient({ loadFiles: vi.fn(async () => result('user', 'mine', { perClass: 8, seed: 0 }, 0)) });
    const d = new DataLoader(c);
    d.split = 'test';
    d.filter = 'ap';
    await d.loadFiles([new File(['x'], 'a.gz'), new File(['y'], 'b.gz')], 'T-shirt, Trouser\nPullover');
    expect(c.loadFiles).toHaveBeenCalledWith(expect.any(Array), { perClass: 8, seed: 0, classNames: ['T-shirt', 'Trouser', 'Pullover'] }, expect.any(Function));
    expect([d.picked, d.split, d.filter]).toEqual(['user', 'train', '']);
  });

  it('progress in words', () => {
    expect(progressText(null, 'Digits')).toBe('Loading Digits…');
    expect(progressText(null, null)).toBe('');
    expect(progressText({ phase: 'parse', file: 'a.zip', fraction: 0.256 }, 'a.zip')).toBe('Parsing a.zip — 26 %');
    expect(parseNames(' , \n')).toBeUndefined();
  });
});
