import { describe, expect, it } from 'vitest';
import type { OrderingsRequest } from '../../../src/core/protocols/orderings-view';
import { describeInputs, requestKey, resultStatus, staleReason } from '../../../src/ui/orderings/result-status';

const base = (similarity: OrderingsRequest['similarity']): OrderingsRequest => ({
  classes: ['a', 'b', 'c'],
  taskSizes: [2, 1],
  similarity,
  options: { protocols: ['rs'], rsSeeds: [0] },
});

describe('results belong to the inputs on screen', () => {
  it('requests that ask for the same numbers have the same key; any input that changes them changes it', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const k = requestKey(base({ kind: 'upload', fileName: 'm.json', bytes }));
    expect(requestKey(base({ kind: 'upload', fileName: 'm.json', bytes }))).toBe(k);
    // another loaded file (even with the same name and contents) is another request
    expect(requestKey(base({ kind: 'upload', fileName: 'm.json', bytes: bytes.slice() }))).not.toBe(k);
    expect(requestKey({ ...base({ kind: 'wordnet' }), taskSizes: [1, 2] })).not.toBe(requestKey(base({ kind: 'wordnet' })));
    expect(requestKey(base({ kind: 'wordnet', pins: ['x.n.01'] }))).not.toBe(requestKey(base({ kind: 'wordnet' })));
    const rows = [new Float32Array([1, 0])];
    expect(requestKey(base({ kind: 'embeddings', rows, label: 'CLIP' }))).toBe(requestKey(base({ kind: 'embeddings', rows, label: 'CLIP' })));
    expect(requestKey(base({ kind: 'embeddings', rows, label: 'CLIP' }))).not.toBe(requestKey(base({ kind: 'embeddings', rows: rows.slice(), label: 'CLIP' })));
  });

  it('a 300 MB upload is keyed without reading it', () => {
    const big = new Uint8Array(300e6);
    const t = performance.now();
    requestKey(base({ kind: 'upload', fileName: 'big.npy', bytes: big }));
    expect(performance.now() - t).toBeLessThan(50);
  });

  it('status: current when the keys agree, updating while the new result is on its way, stale when none is coming', () => {
    expect(resultStatus({ hasResult: false, resultKey: '', wantedKey: 'k', busy: true })).toBe('none');
    expect(resultStatus({ hasResult: true, resultKey: 'k', wantedKey: 'k', busy: false })).toBe('current');
    expect(resultStatus({ hasResult: true, resultKey: 'k', wantedKey: 'k2', busy: true })).toBe('updating');
    // the linked upload is not loaded: the inputs have no request; the old result is the previous experiment's
    expect(resultStatus({ hasResult: true, resultKey: 'k', wantedKey: null, busy: false })).toBe('stale');
    expect(resultStatus({ hasResult: true, resultKey: 'k', wantedKey: null, busy: true })).toBe('stale');
    // the computation of the new inputs failed
    expect(resultStatus({ hasResult: true, resultKey: 'k', wantedKey: 'k2', busy: false })).toBe('stale');
  });

  it('the stale notice says what the results were and why the inputs have none', () => {
    const was = describeInputs({ datasetId: 'cifar10', datasetName: 'CIFAR-10', selected: [], seeds: [0], protocols: ['rs'], source: 'WordNet' }, 10, 5);
    expect(was).toBe('CIFAR-10, 10 classes in 5 tasks, WordNet');
    expect(staleReason({ uploadMissing: 'sim.json', inputError: '', computeError: 'x' })).toBe(
      'the similarity file sim.json is not loaded (Similarity → Upload)',
    );
    expect(staleReason({ uploadMissing: null, inputError: 'Select at least two classes.', computeError: '' })).toMatch(/input on the left has an error/);
    expect(staleReason({ uploadMissing: null, inputError: '', computeError: 'bad npy' })).toMatch(/computing them failed/);
  });
});
