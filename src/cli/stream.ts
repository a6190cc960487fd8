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
import { timeLab } from '../core/labs/time';
import { STREAM_KINDS, StreamSpecError, type StreamKind } from '../core/stream/buckets';
import { defaultTimeLabConfig, TIME_LAB_MODES, timeControlOf, validateTimeLabConfig, type TimeLabConfig } from '../core/stream/config';
import { STREAM_PROTOCOLS, type StreamProtocol } from '../core/stream/metrics';
import type { BufferSpec } from '../core/stream/protocol';
import { formatAlpha } from '../core/stream/reservoir';
import { BUILTIN_DATASET_IDS } from '../data/registry';
import { streamFromPool } from '../engine/stream/data';
import { trainStream } from '../engine/stream/train';
import { backendArg, intListArg, numberArg, str, UsageError, refuseUnused } from './args';
import { selectCliBackend } from './backend';
import { loadExperimentConfig } from './config-args';
import { loadBuiltinImages } from './inputs';
import { alphaArg } from './reservoir';
import { seedListArg, seedRange } from './seeds';
import { TIME_LAB_START } from '../core/stream/config';
import { readTime, timeVerdict } from '../core/verdict/time';

type Values = Record<string, string | boolean | undefined>;

/** The flag of each Time-lab setting (the config's `time` section). */
const FLAG_OF: Record<keyof TimeLabConfig, string> = {
  stream: '--stream',
  buckets: '--buckets',
  perClass: '--per-class',
  strength: '--strength',
  protocols: '--protocol',
  trainRatio: '--train-ratio',
  mode: '--mode',
  buffer: '--buffer',
  k: '--k',
  alpha: '--alpha',
  model: '--model',
  hidden: '--hidden',
  epochs: '--epochs',
  lr: '--lr',
  batchSize: '--batch-size',
  seed: '--seed',
  seeds: '--seeds',
  control: '--control',
};

/** A number flag as it is, for the lab's checker to judge (a non-number is refused here). */
const num = (v: Values, k: string): number | undefined => numberArg(str(v, k), k);

/**
 * The Time lab's settings from the flags, over the config's `time` section (--config/--link) or the lab's defaults,
 * checked by the lab's own checker (src/core/stream/config.ts, the share link's): one bound for link and flag.
 */
export function streamSettings(v: Values): { settings: TimeLabConfig; protocols: StreamProtocol[]; seeds: number[]; kGiven: boolean } {
  const config = loadExperimentConfig(v);
  // without a config: the lab's starting point for new experiments (its drift strength), one seed, no control
  // a link made on the lab today: its network and training are the common sections, refused where the lab cannot train them
  if (config) refuseUnused(timeLab.labName, timeLab.tab.unused(config));
  const base = config ? timeLab.view(config) : { ...defaultTimeLabConfig(), strength: TIME_LAB_START.strength };
  if (v.control === true) base.control = true;
  const given: Record<string, unknown> = { ...base };
  const set = (key: keyof TimeLabConfig, value: unknown) => value !== undefined && (given[key] = value);
  set('stream', str(v, 'stream'));
  set('buckets', num(v, 'buckets'));
  set('perClass', num(v, 'per-class'));
  set('strength', num(v, 'strength'));
  set('trainRatio', num(v, 'train-ratio'));
  set('mode', str(v, 'mode'));
  set('buffer', str(v, 'buffer'));
  set('k', num(v, 'k'));
  const alpha = alphaArg(v);
  set('alpha', alpha);
  set('model', str(v, 'model'));
  const hidden = str(v, 'hidden');
  if (hidden !== undefined) set('hidden', hidden.trim() === '' ? [] : intListArg(hidden, 'hidden'));
  set('epochs', num(v, 'epochs'));
  set('lr', num(v, 'lr'));
  set('batchSize', num(v, 'batch-size'));
  set('seed', num(v, 'seed'));
  const protocolText = str(v, 'protocol');
  const protocolList = protocolText === undefined ? undefined : protocolText.split(',').map((p) => p.trim());
  if (protocolList) set('protocols', protocolList);
  // the flags' own words for a wrong choice (the checker lists the choices too)
  for (const [key, allowed] of [
    ['stream', STREAM_KINDS],
    ['mode', TIME_LAB_MODES],
    ['buffer', ['cumulative', 'reservoir']],
    ['model', ['mlp', 'cnn']],
  ] as const) {
    const x = str(v, key);
    if (x !== undefined && !(allowed as readonly string[]).includes(x))
      throw new UsageError(`Unknown --${key} "${x.slice(0, 40)}": use ${allowed.join(', ')}.`);
  }
  for (const p of protocolList ?? [])
    if (!(STREAM_PROTOCOLS as readonly string[]).includes(p))
      throw new UsageError(`Unknown --protocol "${p.slice(0, 40)}": use ${STREAM_PROTOCOLS.join(', ')}.`);
  if (protocolList && new Set(protocolList).size !== protocolList.length) throw new UsageError('--protocol lists a protocol twice.');
  const seedsText = str(v, 'seeds');
  if (seedsText !== undefined && str(v, 'seed') !== undefined) throw new UsageError('Give --seed or --seeds, not both.');
  const { value, issues } = validateTimeLabConfig(given);
  if (issues.length > 0 || !value) {
    const i = issues[0];
    throw new UsageError(`${FLAG_OF[i.path as keyof TimeLabConfig] ?? i.path}: ${i.message}`);
  }
  // without a config, the protocol is the user's choice (the lab runs both)
  if (!protocolList && !config) throw new UsageError(`Give --protocol: ${STREAM_PROTOCOLS.join(' or ')} (or both, "iid,streaming").`);
  if (value.buffer === 'cumulative' && (alpha || str(v, 'k') !== undefined)) throw new UsageError('--k and --alpha belong to --buffer reservoir.');
  // --seeds, or the config's seeds count from its seed (as the lab runs them), or the one --seed
  const seeds =
    seedsText !== undefined ? seedListArg(seedsText) : config && str(v, 'seed') === undefined ? seedRange(value.seed, value.seeds ?? 1) : [value.seed];
  return { settings: value, protocols: value.protocols, seeds, kGiven: str(v, 'k') !== undefined || config !== undefined };
}

export async function streamCommand(v: Values, options: { root: string }): Promise<string> {
  const { settings: t, protocols, seeds, kGiven } = streamSettings(v);
  const kind: StreamKind = t.stream;
  const mode = t.mode;
  const { buckets, perClass, strength, trainRatio, hidden, epochs, lr, batchSize } = t;
  const datasetId = str(v, 'dataset') ?? 'fashion-mnist';
  if (!(BUILTIN_DATASET_IDS as readonly string[]).includes(datasetId))
    throw new UsageError(`--dataset must be a built-in dataset (${BUILTIN_DATASET_IDS.join(', ')}); got "${datasetId.slice(0, 40)}".`);
  const backend = backendArg(v);

  const pool = await loadBuiltinImages(datasetId, options.root);
  await selectCliBackend(backend);
  const runOne = async (protocol: StreamProtocol, seed: number, atStrength = strength) => {
    let data;
    try {
      data = streamFromPool(pool, { kind: atStrength === strength ? kind : 'drift', buckets, perClass, strength: atStrength, seed });
    } catch (e) {
      if (e instanceof StreamSpecError) throw new UsageError(e.message);
      throw e;
    }
    // default k: one bucket's training part (the paper's "buffer size of one bucket")
    const bucketTrain = protocol === 'iid' ? Math.round(trainRatio * perClass) * pool.classNames.length : data.stream.sizes[0];
    const buffer: BufferSpec = t.buffer === 'cumulative' ? { kind: 'cumulative' } : { kind: 'reservoir', k: kGiven ? t.k : bucketTrain, alpha: t.alpha };
    const r = await trainStream(data.dataset, {
      protocol,
      mode,
      buffer,
      bucketSizes: data.stream.sizes,
      seed,
      model: t.model === 'mlp' ? { kind: 'mlp', hidden } : { kind: 'cnn' },
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
      config: { ...r.config, strength: atStrength, perClass },
    };
  };
  const runs = [];
  for (const s of seeds) for (const p of protocols) runs.push({ seed: s, ...(await runOne(p, s)) });
  // the no-drift control (--control, or a link's `control`): each seed's stream again at strength 0, iid
  const controlSettings = timeControlOf(t);
  if (t.control && !controlSettings)
    throw new UsageError('--control needs the iid protocol and a stream that drifts (--stream drift or abrupt, --strength above 0).');
  const control = [];
  if (controlSettings) for (const s of seeds) control.push({ seed: s, ...(await runOne('iid', s, 0)) });
  const input = {
    settings: { stream: kind, strength, trainRatio },
    runs: runs.map((r) => ({ seed: r.seed, protocol: r.protocol, metrics: r.metrics })),
    ...(controlSettings ? { control: control.map((r) => ({ seed: r.seed, protocol: r.protocol, metrics: r.metrics })) } : {}),
  };
  const v2 = timeVerdict(input);
  const verdict = v2.sentences;
  // one protocol at one seed: the run's object as before; otherwise every run, with the spread over seeds
  if (runs.length === 1 && control.length === 0) {
    const { seed: _seed, ...only } = runs[0];
    return JSON.stringify({ ...only, headline: v2.headline, verdict });
  }
  const reading = readTime(input);
  return JSON.stringify({
    runs,
    ...(controlSettings ? { control } : {}),
    summary: {
      seeds,
      protocols,
      gap: reading.gap,
      ...(controlSettings ? { controlGap: reading.control, gapMinusControl: reading.beyond } : {}),
      streamingMinusIid: reading.lead,
    },
    headline: v2.headline,
    verdict,
  });
}
