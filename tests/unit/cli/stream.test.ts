import { describe, expect, it } from 'vitest';
import { defaultConfig, validateConfig } from '../../../src/core/config/schema';
import { foldTime } from '../../../src/core/labs/time/section';
import { encodeConfigToHash } from '../../../src/core/config/url-codec';
import { selectBackend } from '../../../src/engine/backend';
import { captureCli } from './capture';
import { timeLab } from '../../../src/core/labs/time';

const cli = captureCli();
// tiny: 3 buckets × 4 classes' worth of digits (8×8), 1 epoch, the cpu backend
const tiny = ['--dataset', 'digits', '--buckets', '3', '--per-class', '12', '--epochs', '1', '--hidden', '16', '--backend', 'cpu', '--seed', '3'];

describe('cil-lab stream', () => {
  it('iid: prints R and the five CLEAR averages', async () => {
    await selectBackend('cpu', { strict: true });
    const r = await cli('stream', '--protocol', 'iid', ...tiny);
    expect(r.code, r.err).toBe(0);
    const R = r.json.matrix as number[][];
    expect(R).toHaveLength(3);
    expect(Object.keys(r.json.metrics)).toEqual(['inDomain', 'nextDomain', 'backwardTransfer', 'forwardTransfer', 'accuracy']);
    expect(r.json.metrics.inDomain).toBeCloseTo((R[0][0] + R[1][1] + R[2][2]) / 3, 12);
    expect(r.json.metrics.forwardTransfer).toBeCloseTo((R[0][1] + R[0][2] + R[1][2]) / 3, 12);
    expect(r.json.bucketSizes).toEqual([120, 120, 120]);
    expect(r.json.testSizes).toEqual([40, 40, 40]); // 12 per class: round(8.4) = 8 train, 4 test × 10 classes
    expect(r.json.backend).toBe('cpu');
    expect(r.json.stream).toBe('drift');
  });
  it('--control: each seed again at strength 0 (iid), the gap read against it paired by seed, and a headline', async () => {
    const r = await cli(
      'stream',
      '--protocol',
      'iid',
      '--strength',
      '1',
      '--control',
      ...tiny.filter((x, i, a) => x !== '--seed' && a[i - 1] !== '--seed'),
      '--seeds',
      '0-1',
    );
    expect(r.code, r.err).toBe(0);
    expect(r.json.control.map((c: any) => [c.seed, c.protocol, c.config.strength])).toEqual([
      [0, 'iid', 0],
      [1, 'iid', 0],
    ]);
    const gap = (m: any) => 100 * (m.inDomain - m.nextDomain);
    const diffs = r.json.runs.map((x: any, i: number) => gap(x.metrics) - gap(r.json.control[i].metrics));
    expect(r.json.summary.gapMinusControl.mean).toBeCloseTo((diffs[0] + diffs[1]) / 2, 9);
    // two seeds: fewer than a claim needs, whatever the numbers
    expect(r.json.verdict.map((x: any) => x.id)).toEqual(expect.arrayContaining(['time-gap:too-few', 'time-control:too-few']));
    expect(r.json.headline.split(/\s+/).length).toBeLessThanOrEqual(30);
    // a stream with nothing to control for refuses it
    const refused = await cli('stream', '--protocol', 'iid', '--strength', '0', '--control', ...tiny);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/--control needs the iid protocol and a stream that drifts/);
  });
  it('streaming with a reservoir: nulls where the diagonal is training data; the buffer holds k', async () => {
    const r = await cli('stream', '--protocol', 'streaming', '--mode', 'linear', '--buffer', 'reservoir', '--k', '50', '--alpha', 'dynamic:0.5', ...tiny);
    expect(r.code, r.err).toBe(0);
    expect(r.json.metrics.inDomain).toBeNull();
    expect(r.json.metrics.backwardTransfer).toBeNull();
    expect(r.json.metrics.accuracy).toBeNull();
    expect(typeof r.json.metrics.nextDomain).toBe('number');
    expect(r.json.trainSizes).toEqual([50, 50, 50]);
    expect(r.json.buffer).toEqual({ kind: 'reservoir', k: 50, alpha: 'dynamic:0.5' });
  });
  it("--link reads the Time section (as the lab trains it); flags beside it win; its bounds are the link's", async () => {
    const url = encodeConfigToHash(
      validateConfig({ lab: 'time', time: { buckets: 3, perClass: 12, hidden: [16], epochs: 1, seed: 3, protocols: ['streaming'] } }).config,
    );
    const r = await cli('stream', '--link', url, '--dataset', 'digits', '--backend', 'cpu', '--mode', 'scratch');
    expect(r.code, r.err).toBe(0);
    expect(r.json.protocol).toBe('streaming');
    expect(r.json.mode).toBe('scratch');
    expect(r.json.bucketSizes).toEqual([120, 120, 120]);
    const over = await cli('stream', '--link', url, '--dataset', 'digits', '--hidden', '4096');
    expect(over.code).toBe(2);
    expect(over.err.trim()).toBe('cil-lab: --hidden: Must be a list of at most 4 layer widths (whole numbers 1…1024); got [4096].');
  });
  it('--link made on the lab today (network and training in the common sections) trains the same settings; one it cannot train is refused', async () => {
    const legacy = validateConfig({ lab: 'time', time: { buckets: 3, perClass: 12, hidden: [16], epochs: 1, seed: 3, protocols: ['streaming'] } }).config;
    const own = foldTime(defaultConfig(), timeLab.view(legacy));
    expect(Object.keys(own.time!)).not.toContain('hidden');
    const args = ['--dataset', 'digits', '--backend', 'cpu'];
    const a = await cli('stream', '--link', encodeConfigToHash(legacy), ...args);
    const b = await cli('stream', '--link', encodeConfigToHash(own), ...args);
    expect(b.code, b.err).toBe(0);
    expect({ ...b.json, seconds: 0 }).toEqual({ ...a.json, seconds: 0 });
    own.training.optimiser.epsilon = 1e-6;
    const refused = await cli('stream', '--link', encodeConfigToHash(own), ...args);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain("The Time lab cannot train what this experiment sets: epsilon 0.000001 (it would train epsilon of tfjs's Adam).");
  });
  it('bad input: one line on stderr, exit code 2', async () => {
    const cases: [string[], RegExp][] = [
      [[], /Give --protocol/],
      [['--protocol', 'future'], /Unknown --protocol "future"/],
      [['--protocol', 'iid', '--buckets', '11'], /--buckets: Must be a whole number from 2 to 10; got 11/],
      [['--protocol', 'iid', '--stream', 'river'], /Unknown --stream/],
      [['--protocol', 'iid', '--mode', 'napping'], /Unknown --mode/],
      [['--protocol', 'iid', '--k', '5'], /belong to --buffer reservoir/],
      [['--protocol', 'iid', '--buffer', 'reservoir', '--alpha', 'dynamic:7'], /0 < C ≤ 1/],
      [['--protocol', 'iid', '--dataset', 'digits', '--per-class', '100'], /need 500/],
      [['--protocol', 'iid', '--dataset', 'cifar'], /built-in dataset/],
    ];
    for (const [args, re] of cases) {
      const r = await cli('stream', ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toMatch(re);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }
  });
});
