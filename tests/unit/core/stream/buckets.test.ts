import { describe, expect, it } from 'vitest';
import { abruptOrder, buildStream, planBuckets, StreamSpecError, type SourcePool } from '../../../../src/core/stream/buckets';
import { planProtocol, trainingSets } from '../../../../src/core/stream/protocol';

function pool(perClass: number, classes = 3): SourcePool {
  const shape = [6, 6, 1] as const;
  const n = perClass * classes;
  const images = new Uint8Array(n * 36);
  const labels = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    labels[i] = i % classes;
    for (let p = 0; p < 36; p++) images[i * 36 + p] = p % 6 === 2 || p % 6 === 3 ? 200 : 0; // a vertical bar
  }
  return { images, labels, shape, numClasses: classes };
}

describe('the built-in stream', () => {
  it('cuts K disjoint class-balanced buckets, the same images for drift and abrupt', () => {
    const p = pool(20);
    const spec = { kind: 'drift' as const, buckets: 4, perClass: 5, strength: 1, seed: 3 };
    const s = buildStream(spec, p);
    expect(s.sizes).toEqual([15, 15, 15, 15]);
    expect(new Set(s.source).size).toBe(60);
    for (let b = 0; b < 4; b++) {
      const lab = Array.from(s.labels.subarray(b * 15, (b + 1) * 15));
      expect([0, 1, 2].map((c) => lab.filter((y) => y === c).length)).toEqual([5, 5, 5]);
    }
    expect(s.levels).toEqual([0, 1 / 3, 2 / 3, 1]);
    const a = planBuckets({ ...spec, kind: 'abrupt' }, p);
    const d = planBuckets(spec, p);
    expect(a.members).toEqual(d.members);
    expect(a.bucketLevels).not.toEqual(d.bucketLevels);
    expect([...a.bucketLevels].sort()).toEqual([...d.bucketLevels].sort());
    // same seed → same bytes
    expect(buildStream(spec, p).images).toEqual(s.images);
  });
  it('the look drifts: later buckets are rotated and brighter in the background', () => {
    const p = pool(20);
    const s = buildStream({ kind: 'drift', buckets: 3, perClass: 5, strength: 1, seed: 1 }, p);
    const mean = (b: number): number => s.images.subarray(b * 15 * 36, (b + 1) * 15 * 36).reduce((x, v) => x + v, 0) / (15 * 36);
    // corner pixel (0,5): black in the source; the background gradient makes it bright in the last bucket
    const corner = (b: number): number => s.images[b * 15 * 36 + 5];
    expect(corner(0)).toBeLessThan(15); // only the jitter (±0.05) of the background
    expect(corner(2)).toBeGreaterThan(80);
    expect(mean(2)).not.toBeCloseTo(mean(0), 0);
  });
  it('mixed spreads every level over every bucket', () => {
    const s = buildStream({ kind: 'mixed', buckets: 3, perClass: 10, strength: 1, seed: 1 }, pool(40));
    for (let b = 0; b < 3; b++) {
      const lv = new Set(Array.from(s.levelOf.subarray(b * 30, (b + 1) * 30)));
      expect(lv.size).toBe(3);
    }
    expect(s.levels.every((l) => l > 0.2 && l < 0.8)).toBe(true);
  });
  it('abrupt order is never the identity', () => {
    for (let seed = 0; seed < 20; seed++) expect(abruptOrder(3, seed)).not.toEqual([0, 1, 2]);
    expect(abruptOrder(2, 5)).toEqual([1, 0]);
  });
  it('rejects what it cannot build', () => {
    expect(() => planBuckets({ kind: 'drift', buckets: 11, perClass: 1, strength: 1, seed: 0 }, pool(20))).toThrow(StreamSpecError);
    expect(() => planBuckets({ kind: 'drift', buckets: 5, perClass: 5, strength: 1, seed: 0 }, pool(20))).toThrow(/Class 0 has 20 images/);
  });
});

describe('protocol plans', () => {
  const labels = Uint8Array.from({ length: 40 }, (_, i) => i % 2);
  it('iid: a stratified 70/30 split per bucket; streaming: all of it', () => {
    const iid = planProtocol('iid', labels, [20, 20], 4);
    expect(iid.train.map((t) => t.length)).toEqual([14, 14]);
    expect(iid.test.map((t) => t.length)).toEqual([6, 6]);
    const all = [...iid.train[0], ...iid.test[0]].sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: 20 }, (_, q) => q));
    expect(Array.from(iid.test[1]).every((m) => m >= 20)).toBe(true);
    expect(Array.from(iid.test[0]).filter((m) => labels[m] === 0).length).toBe(3);
    const st = planProtocol('streaming', labels, [20, 20], 4);
    expect([...st.train[1]].sort((a, b) => a - b)).toEqual(Array.from(st.test[1]));
  });
  it('buffers: cumulative grows, reservoir holds k', () => {
    const plan = planProtocol('streaming', labels, [20, 20], 4);
    expect(trainingSets(plan, { kind: 'cumulative' }, 0).map((t) => t.length)).toEqual([20, 40]);
    const r = trainingSets(plan, { kind: 'reservoir', k: 10, alpha: { kind: 'dynamic', c: 1 } }, 0);
    expect(r.map((t) => t.length)).toEqual([10, 10]);
    expect(Array.from(r[1]).every((m) => m >= 20)).toBe(true);
  });
});
