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
import { StreamSpecError, type StreamKind } from '../core/stream/buckets';
import { defaultTimeLabConfig, TIME_LAB_START, TIME_SETTINGS, timeControlOf, type TimeLabConfig } from '../core/labs/time/settings';
import { STREAM_PROTOCOLS, type StreamProtocol } from '../core/stream/metrics';
import type { BufferSpec } from '../core/stream/protocol';
import { formatAlpha } from '../core/stream/reservoir';
import { BUILTIN_DATASET_IDS } from '../data/registry';
import { streamFromPool } from '../engine/stream/data';
import { streamRunConfigOf } from '../engine/stream/lab';
import { trainStream } from '../engine/stream/train';
import { backendArg, str, UsageError, refuseUnused } from './args';
import { selectCliBackend } from './backend';
import { loadExperimentConfig } from './config-args';
import { loadBuiltinImages } from './inputs';
import { CONFIG_FLAGS } from './flags';
import { fieldHelp, fieldUsages, flagNames, settingsFromFlags, usageLines } from './lab-flags';
import { seedListArg, seedRange } from './seeds';
import { readTime, timeVerdict } from '../core/verdict/time';

type Values = Record<string, string | boolean | undefined>;

/** `cil-lab stream`'s usage: the flag of each of the lab's settings from its table (TIME_SETTINGS), the rest here. */
export const STREAM_HELP = `${usageLines('stream', [
  '--protocol iid|streaming|iid,streaming',
  '[--seeds 0-2]',
  ...fieldUsages(TIME_SETTINGS, TIME_LAB_START, ['protocols']),
  '[--dataset fashion-mnist]',
  '[--backend wasm|cpu|webgpu]',
  '[--config F | --link URL]',
])}
                 → matrix R, metrics (CLEAR averages: inDomain, nextDomain, backwardTransfer, forwardTransfer, accuracy), headline, verdict;
                   several runs: runs, control, summary (gap, controlGap, gapMinusControl, streaming − iid: mean, sd, 95% interval)`;

/** What `cil-lab stream --help` adds: each setting's flag with its bounds. */
export const STREAM_DETAILS = `${fieldHelp(TIME_SETTINGS, TIME_LAB_START)}
  --seeds         the seeds to run (a range or a list: 0-2, 0,42,1993; default the --seed alone)
  --dataset       the built-in dataset the stream is cut from (default fashion-mnist)`;

/** The flags `cil-lab stream` reads: its settings' (the table's), then its own. */
export const STREAM_FLAGS = [...flagNames(TIME_SETTINGS), 'seeds', 'dataset', 'backend', 'features', ...CONFIG_FLAGS] as const;

/**
 * The Time lab's settings from the flags (each the flag of its field in the lab's table, TIME_SETTINGS), over the
 * config's `time` section (--config/--link) or the lab's defaults, checked by the lab's own checker (the share
 * link's): one bound for link and flag. The rules between fields are below.
 */
export function streamSettings(v: Values): { settings: TimeLabConfig; protocols: StreamProtocol[]; seeds: number[]; kGiven: boolean } {
  const config = loadExperimentConfig(v);
  // without a config: the lab's starting point for new experiments (its drift strength), one seed, no control
  // a link made on the lab today: its network and training are the common sections, refused where the lab cannot train them
  if (config) refuseUnused(timeLab.labName, timeLab.tab.unused(config));
  const base = config ? timeLab.view(config) : { ...defaultTimeLabConfig(), strength: TIME_LAB_START.strength };
  const seedsText = str(v, 'seeds');
  if (seedsText !== undefined && str(v, 'seed') !== undefined) throw new UsageError('Give --seed or --seeds, not both.');
  const { settings: value, given } = settingsFromFlags(TIME_SETTINGS, v, base);
  // without a config, the protocol is the user's choice (the lab runs both)
  if (!given.has('protocols') && !config) throw new UsageError(`Give --protocol: ${STREAM_PROTOCOLS.join(' or ')} (or both, "iid,streaming").`);
  if (value.buffer === 'cumulative' && (given.has('alpha') || given.has('k'))) throw new UsageError('--k and --alpha belong to --buffer reservoir.');
  // --seeds, or the config's seeds count from its seed (as the lab runs them), or the one --seed
  const seeds = seedsText !== undefined ? seedListArg(seedsText) : config && !given.has('seed') ? seedRange(value.seed, value.seeds ?? 1) : [value.seed];
  return { settings: value, protocols: value.protocols, seeds, kGiven: given.has('k') || config !== undefined };
}

export async function streamCommand(v: Values, options: { root: string }): Promise<string> {
  const { settings: t, protocols, seeds, kGiven } = streamSettings(v);
  const kind: StreamKind = t.stream;
  const mode = t.mode;
  const { buckets, perClass, strength, trainRatio } = t;
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
    // the lab's run config (the app's job reads the same), the seed of this run and the buffer above
    const r = await trainStream(data.dataset, { ...streamRunConfigOf({ ...t, seed }, protocol, data.stream.sizes), buffer });
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
