import { execFileSync } from 'node:child_process';
import { deflateRawSync } from 'node:zlib';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { npyBytes, readFeaturesNpz, writeFeaturesNpz } from '../../../../src/data/features/npz';
import { FeatureSetError, featureCounts, rowsOf, type FeatureSet } from '../../../../src/core/features/feature-set';
import { readZipDirectory } from '../../../../src/data/parsers/zip';
import { rawZip } from '../../drills/broken-upload-corpus';
import { honestNpz, labelsNpy, lyingNpz, npyHeader } from '../../drills/hostile-files';

// Reference arrays and files made by numpy: scripts/make-npz-fixtures.py.
const dir = join(__dirname, '../../../fixtures/features');
const ref = JSON.parse(readFileSync(join(dir, 'tiny.json'), 'utf8')) as { features: number[][]; labels: number[]; split: number[]; class_names: string[] };
const bytes = (name: string) => new Uint8Array(readFileSync(join(dir, name)));

function tiny(): FeatureSet {
  return {
    features: new Float32Array(ref.features.flat()),
    n: 5,
    d: 3,
    labels: Int32Array.from(ref.labels),
    split: Uint8Array.from(ref.split),
    classNames: [...ref.class_names],
  };
}

describe('feature-set .npz files', () => {
  it('reads what np.savez wrote', () => {
    const set = readFeaturesNpz(bytes('tiny.npz'));
    expect([set.n, set.d]).toEqual([5, 3]);
    expect(Array.from(set.features)).toEqual(ref.features.flat());
    expect(Array.from(set.labels)).toEqual(ref.labels);
    expect(Array.from(set.split)).toEqual(ref.split);
    expect(set.classNames).toEqual(['T-shirt/top', 'Trouser', 'Café ☕']);
    expect(featureCounts(set)).toEqual([
      [1, 1, 1],
      [1, 1, 0],
    ]);
    expect(Array.from(rowsOf(set, 0, [0, 1]))).toEqual([0, 1]);
  });

  it('reads np.savez_compressed with float64 features, int32 labels and no split or names', () => {
    const set = readFeaturesNpz(bytes('tiny-compressed.npz'));
    expect(Array.from(set.features)).toEqual(ref.features.flat()); // float32 values survive float64 exactly
    expect(Array.from(set.split)).toEqual([0, 0, 0, 0, 0]);
    expect(set.classNames).toEqual(['class 0', 'class 1', 'class 2']);
  });

  it('writes what it reads, and numpy reads what it writes', () => {
    const out = writeFeaturesNpz(tiny());
    const back = readFeaturesNpz(out);
    expect(Array.from(back.features)).toEqual(ref.features.flat());
    expect(back.classNames).toEqual(ref.class_names);
    let python = true;
    try {
      execFileSync('python3', ['-c', 'import numpy'], { stdio: 'ignore' });
    } catch {
      python = false;
    }
    if (!python) return;
    const tmp = mkdtempSync(join(tmpdir(), 'npz-'));
    writeFileSync(join(tmp, 'x.npz'), out);
    const printed = execFileSync(
      'python3',
      [
        '-c',
        `import numpy as np, json; z = np.load(${JSON.stringify(join(tmp, 'x.npz'))}); print(json.dumps({"f": z["features"].astype(float).tolist(), "fd": str(z["features"].dtype), "l": z["labels"].tolist(), "ld": str(z["labels"].dtype), "s": z["split"].tolist(), "n": z["class_names"].tolist()}))`,
      ],
      { encoding: 'utf8' },
    );
    const z = JSON.parse(printed);
    expect(z).toEqual({ f: ref.features, fd: 'float32', l: ref.labels, ld: 'int64', s: ref.split, n: ref.class_names });
  });

  it('refuses what it cannot use, with one sentence each', () => {
    const set = tiny();
    const zipOf = (members: Record<string, Uint8Array>) => zipSync(members, { level: 0 });
    const f32 = (n: number, d: number, fill = 0.5) => new Uint8Array(new Float32Array(n * d).fill(fill).buffer);
    const i64 = (xs: number[]) => new Uint8Array(BigInt64Array.from(xs.map(BigInt)).buffer);
    const cases: [Uint8Array, RegExp][] = [
      [new TextEncoder().encode('hello'), /not an \.npz file/],
      [bytes('tiny.npz').subarray(0, 300), /cannot be unzipped|not a \.npy|truncated/],
      [zipOf({ 'labels.npy': npyBytes('<i8', [2], i64([0, 1])) }), /no "features" array/],
      [zipOf({ 'features.npy': npyBytes('<f4', [2, 3], f32(2, 3)) }), /no "labels" array/],
      [zipOf({ 'features.npy': npyBytes('<f4', [6], f32(2, 3)), 'labels.npy': npyBytes('<i8', [2], i64([0, 1])) }), /must be 2-D/],
      [zipOf({ 'features.npy': npyBytes('<f4', [2, 3], f32(2, 3)), 'labels.npy': npyBytes('<i8', [3], i64([0, 1, 1])) }), /must be \(2,\)/],
      [zipOf({ 'features.npy': npyBytes('<f4', [2, 3], f32(2, 3, Number.NaN)), 'labels.npy': npyBytes('<i8', [2], i64([0, 1])) }), /finite number/],
      [zipOf({ 'features.npy': npyBytes('<f4', [2, 3], f32(2, 3)), 'labels.npy': npyBytes('<i8', [2], i64([0, -1])) }), /label -1, outside/],
      [
        zipOf({
          'features.npy': npyBytes('<f4', [2, 3], f32(2, 3)),
          'labels.npy': npyBytes('<i8', [2], i64([0, 1])),
          'split.npy': npyBytes('|u1', [2], Uint8Array.of(0, 2)),
        }),
        /split 2/,
      ],
      [
        zipOf({
          'features.npy': npyBytes('<f4', [2, 3], f32(2, 3)),
          'labels.npy': npyBytes('<i8', [2], i64([0, 1])),
          'class_names.npy': npyBytes('|O', [2], new Uint8Array(16)),
        }),
        /object array/,
      ],
      [
        zipOf({ 'features.npy': npyBytes('<f4', [3_000_000, 64], new Uint8Array(0)), 'labels.npy': npyBytes('<i8', [1], i64([0])) }),
        /more than the 2 000 000 a feature set may hold/,
      ],
      [zipOf({ 'features.npy': npyBytes('<f4', [2, 3], f32(2, 3).subarray(0, 8)), 'labels.npy': npyBytes('<i8', [2], i64([0, 1])) }), /truncated/],
    ];
    for (const [b, message] of cases) expect(() => readFeaturesNpz(b), String(message)).toThrow(message);
    for (const [b] of cases) expect(() => readFeaturesNpz(b)).toThrow(FeatureSetError);
    expect(() => writeFeaturesNpz({ ...set, classNames: ['a', 'a', 'b'] })).toThrow(/appears twice/);
  });

  it('converts every dtype to float32 as the features inflate, whatever the chunk boundaries', () => {
    // 3 001 × 7 values of each dtype, deflated (zlib level 1: chunks cut values anywhere), against the values themselves
    const n = 3001;
    const d = 7;
    const values = Array.from({ length: n * d }, (_, i) => ((i * 37) % 1001) / 8 - 60); // eighths: exact in every float dtype
    const labels = labelsNpy(Array.from({ length: n }, (_, i) => i % 3));
    for (const [descr, write] of [
      ['<f8', (v: number[]) => new Uint8Array(Float64Array.from(v).buffer)],
      ['<f4', (v: number[]) => new Uint8Array(Float32Array.from(v).buffer)],
      ['>f4', (v: number[]) => new Uint8Array(Buffer.from(Float32Array.from(v).buffer).swap32())],
      ['>f8', (v: number[]) => new Uint8Array(Buffer.from(Float64Array.from(v).buffer).swap64())],
      ['<i2', (v: number[]) => new Uint8Array(Int16Array.from(v, (x) => Math.round(x)).buffer)],
    ] as const) {
      const expected = descr === '<i2' ? values.map((x) => Math.round(x) + 0) : values; // + 0: an integer has no -0
      const member = Buffer.concat([npyHeader(descr, [n, d]), write(values)]);
      const zip = rawZip([
        { name: 'features.npy', data: new Uint8Array(deflateRawSync(member, { level: 1 })), method: 8, size: member.length },
        { name: 'labels.npy', data: labels, method: 0, size: labels.length },
      ]);
      const set = readFeaturesNpz(zip, `${descr}.npz`);
      expect([set.n, set.d], descr).toEqual([n, d]);
      expect(Array.from(set.features), descr).toEqual(Array.from(Float32Array.from(expected)));
    }
  });

  it('checks labels, split and names before it inflates the features', () => {
    // features whose stream is damaged past its header: a reader that inflated them first would say so; this one
    // names the small member's fault
    const n = 1000;
    const good = honestNpz(n, 20, { classes: 4 });
    const refusals: [NonNullable<Parameters<typeof honestNpz>[2]>['bad'], RegExp][] = [
      ['label', /Row 999 has label 9, outside the 4 classes/],
      ['split', /Row 3 has split 7/],
      ['labels-short', /"labels" has shape \(999,\); it must be \(1000,\)/],
      ['names-duplicate', /The class name "class 0" appears twice/],
    ];
    expect(readFeaturesNpz(good).n).toBe(n);
    for (const [bad, message] of refusals) {
      const zip = honestNpz(n, 20, { classes: 4, bad });
      // damage the features' deflate stream after its first kilobyte
      const [features] = readZipDirectory(zip);
      const start = features.offset + 30 + 'features.npy'.length;
      zip.fill(0xff, start + 1024, start + features.compressedSize - 16);
      expect(() => readFeaturesNpz(zip), bad).toThrow(message);
    }
  });

  it('reads an honest feature file whose 10 000 × 1 000 float64 zeros deflate to 80 KB, and refuses one whose directory lies', () => {
    const set = readFeaturesNpz(honestNpz(10_000, 1_000), 'honest.npz');
    expect([set.n, set.d, set.features.length, set.classNames.length]).toEqual([10_000, 1_000, 10_000_000, 10]);
    expect(featureCounts(set)[1][0]).toBe(200);
    // the directory says 8 MB where the member inflates to 80 MB: refused, the 80 MB never held
    expect(() => readFeaturesNpz(lyingNpz(8_000_000, 10_000, 1_000), 'lying.npz')).toThrow(
      /lying\.npz cannot be read: zip member "features\.npy" inflates to more than the 8,000,000 bytes its directory declares|features\.npy is truncated/,
    );
    expect(() => readFeaturesNpz(lyingNpz(8_000_000, 10_000, 1_000))).toThrow(FeatureSetError);
  });
});
