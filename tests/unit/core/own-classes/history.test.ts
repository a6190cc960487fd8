import { describe, expect, it } from 'vitest';
import { changeText, historyKey, historyState, matrixOf, sampleFingerprint, stepIds, type HistoryRow } from '../../../../src/core/own-classes/history';

const names = ['mug', 'pen', 'cup', 'duck'];
const samples = ['a', 'b', 'c', 'd'];

function stored(n: string[], s: string[]): HistoryRow[] {
  const ids = stepIds(n, s);
  return n.map((_, t) => ({
    key: 'k',
    step: t,
    id: ids[t],
    classes: n.slice(0, t + 1),
    samples: s.slice(0, t + 1),
    row: Array.from({ length: t + 1 }, (_, j) => (j === t ? 1 : 0.5)),
    testCounts: new Array(t + 1).fill(3),
    backend: 'wasm',
    computedAt: t,
    ms: 1,
  }));
}

describe('the Your-classes history', () => {
  it('keys a history by its settings, not by its classes', () => {
    const s = { strategy: 'finetune', seed: 0, encoder: { model: 'x' }, trainPerClass: 6, testPerClass: 3 };
    expect(historyKey(s)).toBe(historyKey({ ...s }));
    expect(historyKey(s)).not.toBe(historyKey({ ...s, strategy: 'simplecil' }));
    expect(historyKey(s)).not.toBe(historyKey({ ...s, encoder: { model: 'y' } }));
    expect(historyKey(s)).not.toBe(historyKey({ ...s, testPerClass: 4 }));
  });

  it('gives row t an id of the classes 0..t and their samples only', () => {
    const ids = stepIds(names, samples);
    expect(stepIds(names.slice(0, 2), samples.slice(0, 2))).toEqual(ids.slice(0, 2));
    expect(stepIds(names, ['a', 'b', 'X', 'd']).slice(0, 2)).toEqual(ids.slice(0, 2));
    expect(stepIds(names, ['a', 'b', 'X', 'd'])[2]).not.toBe(ids[2]);
    expect(ids[0].startsWith('0:')).toBe(true);
  });

  it('fingerprints samples by their bytes and order', () => {
    const a = Uint8Array.from([1, 2, 3]);
    const b = Uint8Array.from([4]);
    expect(sampleFingerprint([a, b])).toBe(sampleFingerprint([Uint8Array.from([1, 2, 3]), Uint8Array.from([4])]));
    expect(sampleFingerprint([a, b])).not.toBe(sampleFingerprint([b, a]));
    // the boundaries count: [1,2],[3] is not [1],[2,3]
    expect(sampleFingerprint([Uint8Array.from([1, 2]), Uint8Array.from([3])])).not.toBe(sampleFingerprint([Uint8Array.from([1]), Uint8Array.from([2, 3])]));
    expect(sampleFingerprint([Float32Array.from([0.5])])).toBe(sampleFingerprint([new Uint8Array(Float32Array.from([0.5]).buffer)]));
  });

  it('keeps every stored row while its classes and samples are the same, and says nothing changed', () => {
    const st = historyState(stored(names, samples), names, samples);
    expect(st.rows.map((r) => r.step)).toEqual([0, 1, 2, 3]);
    expect(st.changed).toBeNull();
    // a fifth class not computed yet: the four stand
    expect(historyState(stored(names, samples), [...names, 'owl'], [...samples, 'e']).rows).toHaveLength(4);
    expect(matrixOf(st.rows)).toEqual([
      [1, 0, 0, 0],
      [0.5, 1, 0, 0],
      [0.5, 0.5, 1, 0],
      [0.5, 0.5, 0.5, 1],
    ]);
  });

  it('says from which row the history is computed again and why', () => {
    const old = stored(names, samples);
    const removed = historyState(old, ['mug', 'cup', 'duck'], ['a', 'c', 'd']);
    expect(removed.rows.map((r) => r.step)).toEqual([0]);
    expect(removed.changed).toEqual({ from: 1, why: '“pen” was removed' });
    expect(changeText(removed.changed!, ['mug', 'cup', 'duck'])).toBe('Rows from “cup” on were computed again: “pen” was removed.');
    const rerecorded = historyState(old, names, ['a', 'b', 'C2', 'd']);
    expect(rerecorded.rows).toHaveLength(2);
    expect(rerecorded.changed).toEqual({ from: 2, why: 'the samples of “cup” changed' });
    const swapped = historyState(old, ['mug', 'cup', 'pen', 'duck'], ['a', 'c', 'b', 'd']);
    expect(swapped.changed).toEqual({ from: 1, why: '“cup” now comes 2nd' });
    const lastGone = historyState(old, names.slice(0, 3), samples.slice(0, 3));
    expect(lastGone.rows).toHaveLength(3);
    expect(lastGone.changed).toEqual({ from: 3, why: '“duck” was removed' });
    expect(changeText(lastGone.changed!, names.slice(0, 3))).toBe('The rows after the last class were dropped: “duck” was removed.');
  });
});
