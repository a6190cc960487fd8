/**
 * `cil-lab stream [--stream drift|abrupt|mixed] --protocol iid|streaming --buckets K [--mode finetune|scratch|linear]
 * [--buffer cumulative|reservoir --k N --alpha A|dynamic:C] [the training flags of run]`: one Time-lab run headless
 * (docs/science.md §7). The stream is cut from a built-in dataset's training split (`--dataset`, default
 * fashion-mnist; `--per-class N` images of each class per bucket, default 100; `--strength S` of the drift, default 1).
 *
 * Prints `{"matrix": R, "metrics": {"inDomain", "nextDomain", "backwardTransfer", "forwardTransfer", "accuracy"},
 * "byDistance", "compositions", "trainSizes", "testSizes", "bucketSizes", "levels", "backend", "seconds", "config"}`;
 * the metrics are CLEAR's averages of R (null where the streaming protocol's diagonal is training data).
 *
 * Bad input is a `UsageError`: one line on stderr, exit code 2.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_BUCKETS, STREAM_KINDS, StreamSpecError, type StreamKind } from '../core/stream/buckets';
import { STREAM_PROTOCOLS, type StreamProtocol } from '../core/stream/metrics';
import type { BufferSpec } from '../core/stream/protocol';
import { formatAlpha } from '../core/stream/reservoir';
import { BUILTIN_DATASET_IDS, loadBuiltinDataset } from '../data/registry';
import { isBackendName, selectBackend } from '../engine/backend';
import { fromDecodedDataset } from '../engine/dataset';
import { streamFromPool } from '../engine/stream/data';
import { trainStream, type StreamMode } from '../engine/stream/train';
import { intArg, numberArg, UsageError } from './args';
import { alphaArg } from './reservoir';
import { seedListArg } from './seeds';
import { TIME_LAB_START } from '../core/stream/config';
import { readTime, timeVerdict } from '../core/verdict/time';

type Values = Record<string, string | boolean | undefined>;

const str = (v: Values, k: string): string | undefined => (typeof v[k] === 'string' ? (v[k] as string) : undefined);

function oneOf<T extends string>(v: Values, key: string, allowed: readonly T[], fallback: T | undefined): T {
  const s = str(v, key) ?? fallback;
  if (s === undefined) throw new UsageError(`Give --${key}: ${allowed.join(' or ')}.`);
  if (!(allowed as readonly string[]).includes(s)) throw new UsageError(`Unknown --${key} "${s}": use ${allowed.join(', ')}.`);
  return s as T;
}

export async function streamCommand(v: Values, options: { root: string }): Promise<string> {
  const kind = oneOf<StreamKind>(v, 'stream', STREAM_KINDS, 'drift');
  const protocolArg = str(v, 'protocol');
  if (protocolArg === undefined) throw new UsageError(`Give --protocol: ${STREAM_PROTOCOLS.join(' or ')} (or both, "iid,streaming").`);
  const protocols = protocolArg.split(',').map((p) => p.trim());
  for (const p of protocols)
    if (!(STREAM_PROTOCOLS as readonly string[]).includes(p)) throw new UsageError(`Unknown --protocol "${p}": use ${STREAM_PROTOCOLS.join(', ')}.`);
  if (new Set(protocols).size !== protocols.length) throw new UsageError('--protocol lists a protocol twice.');
  const mode = oneOf<StreamMode>(v, 'mode', ['finetune', 'scratch', 'linear'], 'finetune');
  const bufferKind = oneOf(v, 'buffer', ['cumulative', 'reservoir'] as const, 'cumulative');
  const buckets = intArg(str(v, 'buckets'), 'buckets', 2) ?? 5;
  if (buckets > MAX_BUCKETS) throw new UsageError(`--buckets must be at most ${MAX_BUCKETS}; got ${buckets}.`);
  const perClass = intArg(str(v, 'per-class'), 'per-class', 1) ?? 100;
  const strength = numberArg(str(v, 'strength'), 'strength') ?? TIME_LAB_START.strength;
  const trainRatio = numberArg(str(v, 'train-ratio'), 'train-ratio') ?? 0.7;
  if (!(trainRatio > 0 && trainRatio < 1)) throw new UsageError(`--train-ratio must be between 0 and 1; got ${trainRatio}.`);
  const datasetId = str(v, 'dataset') ?? 'fashion-mnist';
  if (!(BUILTIN_DATASET_IDS as readonly string[]).includes(datasetId))
    throw new UsageError(`--dataset must be a built-in dataset (${BUILTIN_DATASET_IDS.join(', ')}); got "${datasetId}".`);
  const alpha = alphaArg(v);
  const k = intArg(str(v, 'k'), 'k', 1);
  if (bufferKind === 'cumulative' && (alpha || k !== undefined)) throw new UsageError('--k and --alpha belong to --buffer reservoir.');
  const modelKind = oneOf(v, 'model', ['mlp', 'cnn'] as const, 'mlp');
  const hiddenArg = str(v, 'hidden');
  const hidden = hiddenArg === undefined ? [128] : hiddenArg.split(',').map((s) => Number(s.trim()));
  if (hidden.some((h) => !Number.isInteger(h) || h < 1)) throw new UsageError(`--hidden must list whole layer widths ≥ 1; got "${hiddenArg}".`);
  const epochs = intArg(str(v, 'epochs'), 'epochs', 1) ?? 5;
  const lr = numberArg(str(v, 'lr'), 'lr') ?? 0.001;
  if (!(lr > 0)) throw new UsageError(`--lr must be positive; got ${lr}.`);
  const batchSize = intArg(str(v, 'batch-size'), 'batch-size', 1) ?? 32;
  const seed = intArg(str(v, 'seed'), 'seed', 0) ?? 0;
  if (seed > 0xffffffff) throw new UsageError(`--seed must be at most 4294967295; got ${seed}.`);
  const seedsArg = str(v, 'seeds');
  const seeds = seedsArg === undefined ? [seed] : seedListArg(seedsArg);
  if (seedsArg !== undefined && str(v, 'seed') !== undefined) throw new UsageError('Give --seed or --seeds, not both.');
  const backendArg = str(v, 'backend') ?? 'auto';
  if (backendArg !== 'auto' && !isBackendName(backendArg)) throw new UsageError(`Unknown --backend "${backendArg}": use wasm or cpu (or auto).`);

  let pool;
  try {
    pool = fromDecodedDataset(await loadBuiltinDataset(datasetId, async (p) => new Uint8Array(await readFile(join(options.root, 'public', p)))));
  } catch (e) {
    throw new UsageError((e as Error).message.split('\n')[0]);
  }
  await selectBackend(backendArg as 'auto', { strict: backendArg !== 'auto' });
  const runOne = async (protocol: StreamProtocol, seed: number) => {
    let data;
    try {
      data = streamFromPool(pool, { kind, buckets, perClass, strength, seed });
    } catch (e) {
      if (e instanceof StreamSpecError) throw new UsageError(e.message);
      throw e;
    }
    // default k: one bucket's training part (the paper's "buffer size of one bucket")
    const bucketTrain = protocol === 'iid' ? Math.round(trainRatio * perClass) * pool.classNames.length : data.stream.sizes[0];
    const buffer: BufferSpec =
      bufferKind === 'cumulative' ? { kind: 'cumulative' } : { kind: 'reservoir', k: k ?? bucketTrain, alpha: alpha ?? { kind: 'fixed', value: 1 } };
    const r = await trainStream(data.dataset, {
      protocol,
      mode,
      buffer,
      bucketSizes: data.stream.sizes,
      seed,
      model: modelKind === 'mlp' ? { kind: 'mlp', hidden } : { kind: 'cnn' },
      epochs,
      lr,
      batchSize,
      trainRatio,
    });
    return {
      matrix: r.matrix,
      metrics: r.metrics,
      byDistance: r.byDistance,
      stream: kind,
      dataset: datasetId,
      protocol,
      mode,
      buffer: buffer.kind === 'cumulative' ? { kind: 'cumulative' } : { kind: 'reservoir', k: buffer.k, alpha: formatAlpha(buffer.alpha) },
      bucketSizes: data.stream.sizes,
      levels: data.stream.levels,
      trainSizes: r.trainSizes,
      testSizes: r.testSizes,
      compositions: r.compositions,
      backend: r.backend,
      seconds: Math.round(r.seconds * 1000) / 1000,
      config: { ...r.config, strength, perClass },
    };
  };
  const runs = [];
  for (const s of seeds) for (const p of protocols) runs.push({ seed: s, ...(await runOne(p as StreamProtocol, s)) });
  const input = { settings: { stream: kind, strength, trainRatio }, runs: runs.map((r) => ({ seed: r.seed, protocol: r.protocol, metrics: r.metrics })) };
  const verdict = timeVerdict(input).sentences;
  // one protocol at one seed: the run's object as before; otherwise every run, with the spread over seeds
  if (runs.length === 1) {
    const { seed: _seed, ...only } = runs[0];
    return JSON.stringify({ ...only, verdict });
  }
  const reading = readTime(input);
  return JSON.stringify({ runs, summary: { seeds, protocols, gap: reading.gap, streamingMinusIid: reading.lead }, verdict });
}
