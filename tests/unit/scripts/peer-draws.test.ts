/**
 * scripts/peer/draws.ts: the draws the paired PyTorch peer of `npm run bench:peer` replays. The batch order is
 * checked against numpy itself (the reference values below), the weights against the engine's own initialisation,
 * and the codes that name an example in both implementations by hand.
 *
 * Reference values (numpy 2.x; the seed is `deriveSeed(taskTrainingSeed(7, [[0, 2], [1, 3]], 0), STREAM.batches)`
 * = 1052600489, printed by the engine; the task's images are class 0's then class 2's, codes 0, 1, 2, 6, 7, 8):
 *   r = np.random.default_rng(1052600489); codes = np.array([0, 1, 2, 6, 7, 8])
 *   codes[r.permutation(6)] → [0, 1, 2, 7, 6, 8]; codes[r.permutation(6)] → [0, 7, 1, 8, 6, 2]
 */
import { describe, expect, it } from 'vitest';
import { DRAWS_FORMAT, drawsOf, exampleCodes } from '../../../scripts/peer/draws';
import { taskTrainingSeed } from '../../../src/core/orderings/training-seeds';
import { initWeights } from '../../../src/engine/models';
import { deriveSeed, STREAM } from '../../../src/engine/seeds';
import { initialWeightsSeed } from '../../../src/engine/trainer';
import type { ImageDataset, TrainRunConfig } from '../../../src/engine/types';

// 4 classes × 3 training images; class 0 at indices 0, 5, 10; class 2 at 2, 4, 11
const trainLabels = Uint8Array.from([0, 1, 2, 3, 2, 0, 3, 1, 1, 3, 0, 2]);
const ds: ImageDataset = {
  shape: [2, 2, 1],
  classNames: ['a', 'b', 'c', 'd'],
  train: { images: Uint8Array.from({ length: 12 * 4 }, (_, i) => (i * 37) % 256), labels: trainLabels },
  test: { images: Uint8Array.from({ length: 4 * 4 }, (_, i) => (i * 11) % 256), labels: Uint8Array.from([0, 1, 2, 3]) },
};
const config = (tasks: number[][], over: Partial<TrainRunConfig> = {}): TrainRunConfig =>
  ({
    tasks,
    seed: 7,
    strategy: 'finetune',
    model: { kind: 'mlp', hidden: [3] },
    epochs: 2,
    batchSize: 4,
    lr: 1e-3,
    head: 'all',
    init: 'pytorch',
    ...over,
  }) as TrainRunConfig;
const decode = (b64: string) => new Float32Array(Uint8Array.from(Buffer.from(b64, 'base64')).buffer);

describe("the paired peer's draws", () => {
  it('exampleCodes: class × perClass + rank among that class, in index order', () => {
    expect(Array.from(exampleCodes(trainLabels, 3))).toEqual([0, 3, 6, 9, 7, 1, 10, 4, 5, 11, 2, 8]);
    expect(() => exampleCodes(trainLabels, 2)).toThrow(/more than 2 training images/);
  });

  it("batch orders: numpy's permutation of the task's images, epoch after epoch on one stream", () => {
    expect(
      deriveSeed(
        taskTrainingSeed(
          7,
          [
            [0, 2],
            [1, 3],
          ],
          0,
        ),
        STREAM.batches,
      ),
    ).toBe(1052600489);
    const d = drawsOf(
      ds,
      [
        config([
          [0, 2],
          [3, 1],
        ]),
      ],
      3,
    );
    expect(d.format).toBe(DRAWS_FORMAT);
    const o = d.orderings[0];
    // a task's classes in ascending order, as the engine trains them
    expect(o.tasks).toEqual([
      [0, 2],
      [1, 3],
    ]);
    expect(o.epochs[0]).toEqual([
      [0, 1, 2, 7, 6, 8],
      [0, 7, 1, 8, 6, 2],
    ]);
    // task 1: classes 1 and 3, every epoch a permutation of their six images
    expect(o.epochs[1]).toHaveLength(2);
    for (const e of o.epochs[1]) expect([...e].sort((a, b) => a - b)).toEqual([3, 4, 5, 9, 10, 11]);
    // the output unit of a class is its position in the ordering
    expect(o.units).toEqual({ '0': 0, '2': 1, '1': 2, '3': 3 });
    expect([d.batchSize, d.epochs, d.head, d.trainPerClass]).toEqual([4, 2, 'all', 3]);
    expect(d.optimizer).toEqual({ kind: 'adam', lr: 1e-3, beta1: 0.9, beta2: 0.999, epsilon: 1e-8 });
  });

  it('first-task epochs, and the prefix rule: the same first task, the same draws for it', () => {
    const d = drawsOf(
      ds,
      [
        config([[0, 2], [1], [3]], { firstTaskEpochs: 3 }),
        config([[0, 2], [3], [1]], { firstTaskEpochs: 3 }),
        config([[1, 3], [0], [2]], { firstTaskEpochs: 3 }),
      ],
      3,
    );
    expect(d.orderings.map((o) => o.epochs.map((e) => e.length))).toEqual([
      [3, 2, 2],
      [3, 2, 2],
      [3, 2, 2],
    ]);
    // the first two share their first task; its draws are the same (the second tasks differ, and so do theirs)
    expect(d.orderings[1].epochs[0]).toEqual(d.orderings[0].epochs[0]);
    expect(d.orderings[1].epochs[1]).not.toEqual(d.orderings[0].epochs[1]);
    expect(d.orderings[2].epochs[0]).not.toEqual(d.orderings[0].epochs[0]);
  });

  it("the initial weights are the engine's, layer by layer: kernel [in, out] and bias", () => {
    const d = drawsOf(
      ds,
      [
        config([
          [0, 2],
          [1, 3],
        ]),
      ],
      3,
    );
    expect(d.layers.map((l) => [l.in, l.out])).toEqual([
      [4, 3],
      [3, 4],
    ]);
    const init = initWeights({ kind: 'mlp', inputShape: [2, 2, 1], outputs: 4, hidden: [3], init: 'pytorch' }, initialWeightsSeed(7));
    d.layers.forEach((l, i) => {
      expect(Array.from(decode(l.weight))).toEqual(Array.from(init[2 * i]));
      expect(Array.from(decode(l.bias))).toEqual(Array.from(init[2 * i + 1]));
    });
    // PyTorch's scheme draws the biases too (U(±1/√fan_in)), so none is zero
    expect(Array.from(decode(d.layers[0].bias)).every((b) => b !== 0 && Math.abs(b) <= 1 / Math.sqrt(4))).toBe(true);
  });

  it('refuses what it cannot write: another strategy, other seeds, no runs', () => {
    expect(() =>
      drawsOf(
        ds,
        [
          config(
            [
              [0, 2],
              [1, 3],
            ],
            { strategy: 'ewc' },
          ),
        ],
        3,
      ),
    ).toThrow(/finetune MLP/);
    expect(() =>
      drawsOf(
        ds,
        [
          config([
            [0, 2],
            [1, 3],
          ]),
          config(
            [
              [1, 2],
              [0, 3],
            ],
            { seed: 8 },
          ),
        ],
        3,
      ),
    ).toThrow(/same seed/);
    expect(() => drawsOf(ds, [], 3)).toThrow(/No runs/);
  });
});
