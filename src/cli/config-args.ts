/**
 * `--config FILE` and `--link URL` ("the CLI takes the same config"): the experiment config a share link or
 * a config file holds (src/core/config) turned into the command's flags. Flags given on the command line win over
 * the config's values, so `cil-lab run --link URL --strategy ewc` reruns a shared experiment with another strategy.
 */
import { parseConfigFile } from '../core/config/config-file';
import type { ExperimentConfig } from '../core/config/schema';
import { wordnetPinsOf } from '../core/config/wordnet-pins';
import { decodeConfigFromHash } from '../core/config/url-codec';
import { CONFORMAL_SETTINGS } from '../core/labs/forgetting/settings';
import type { SettingsTable } from '../core/config/settings-table';
import { INIT_SCHEMES, STRATEGY_DEFAULTS, type InitScheme, type StrategyId } from '../engine/defaults';
import { resolveStrategyOptions } from '../engine/strategies/index';
import { UsageError, decimalNumber, strategyOptionParts } from './args';
import { PINS_KEY, readTextInput } from './inputs';

type Values = Record<string, string | boolean | undefined>;

/** Load the config named by --config or --link (not both); undefined when neither is given. */
export function loadExperimentConfig(v: Values): ExperimentConfig | undefined {
  const file = typeof v.config === 'string' ? v.config : undefined;
  const link = typeof v.link === 'string' ? v.link : undefined;
  if (file && link) throw new UsageError('Give --config FILE or --link URL, not both.');
  if (file) {
    const r = parseConfigFile(readTextInput(file, 'the config file'), file);
    if (!r.ok) throw new UsageError(r.error);
    return r.config;
  }
  if (link) {
    if (!link.includes('#') && !/^v\d+\./.test(link)) throw new UsageError('--link needs the share link with its "#v1.…" part.');
    const r = decodeConfigFromHash(link);
    if (!r.ok) throw new UsageError(r.error);
    return r.config;
  }
  return undefined;
}

/**
 * The flags a config stands for, for one command. Only settings the command has flags for are mapped; a config
 * whose similarity is an upload or CLIP needs the file or model given again (`--similarity file:PATH`).
 */
export function configToFlags(config: ExperimentConfig, command: string): Values {
  const out: Values = {};
  if (config.dataset.id === 'custom') out.classes = config.dataset.classNames.join(',');
  else {
    out.dataset = config.dataset.id;
    out[command === 'run' || command === 'cpcf' ? 'classes' : 'subset'] = config.classes.join(',');
  }
  out['task-sizes'] = config.taskSizes.join(',');
  // WordNet pins by class name, resolved as the app does (core/config/wordnet-pins.ts) by inputs.ts classInput
  const pins = wordnetPinsOf(config);
  if (Object.keys(pins).length > 0) out[PINS_KEY] = JSON.stringify(pins);
  Object.assign(out, featureFlags(config));
  if (command === 'orders') {
    out.protocol = config.protocols.enabled.join(',');
    out.seeds = config.protocols.rsSeeds.join(',');
    out['exact-limit'] = String(config.protocols.exactLimit);
    if (config.similarity.kind === 'upload') {
      throw new UsageError(`This experiment's similarity is the uploaded file "${config.similarity.file.name}": give it again with --similarity file:PATH.`);
    }
    if (config.similarity.kind === 'features') out.similarity = 'features';
    if (config.similarity.kind === 'clip') {
      throw new UsageError(
        `This experiment uses CLIP (${config.similarity.model}): make the matrix with "cil-lab similarity --source clip --model-path DIR --out F", then give --similarity file:F.`,
      );
    }
  }
  if (command === 'run' || command === 'cpcf') {
    if (config.dataset.id === 'custom') {
      throw new UsageError('This experiment has custom class names without a built-in image dataset: give --dataset PATH to its images.');
    }
    const strategy = config.strategies[0];
    if (strategy) {
      out.strategy = strategy.id;
      const o = strategy.options as Record<string, number | string>;
      if (typeof o.memory === 'number') out.memory = String(o.memory);
      // every other hyper-parameter (EWC's λ and mode, LwF's α and T, …): --strategy-options key=value,…
      const rest = Object.entries(o).filter(([k]) => k !== 'memory');
      if (rest.length > 0) out['strategy-options'] = rest.map(([k, x]) => `${k}=${x}`).join(',');
    }
    if (config.model.kind === 'mlp' || config.model.kind === 'head') {
      out.model = config.model.kind;
      out.hidden = config.model.hidden.join(',');
    } else out.model = 'cnn';
    out.epochs = String(config.training.epochs);
    out['first-epochs'] = String(config.training.firstTaskEpochs);
    out.lr = String(config.training.lr);
    out['batch-size'] = String(config.training.batchSize);
    out.head = config.training.head;
    if (config.training.init !== 'he-glorot') out.init = config.training.init;
    out.seed = String(config.seeds[0] ?? 0);
    if (config.data.trainPerClass !== null) out['train-per-class'] = String(config.data.trainPerClass);
    if (config.data.testPerClass !== null) out['test-per-class'] = String(config.data.testPerClass);
    // the conformal settings with a flag (the Forgetting lab's table: --alpha, --calibration-ratio, --score)
    if (command === 'cpcf')
      for (const [key, f] of Object.entries(CONFORMAL_SETTINGS as SettingsTable))
        if (f.flag && config.conformal[key as keyof typeof CONFORMAL_SETTINGS] !== undefined)
          // (a field added with `absent` may be missing from the config: its absent value, the flag's default)
          out[f.flag] = String(config.conformal[key as keyof typeof CONFORMAL_SETTINGS]);
  }
  return out;
}

/**
 * The feature source of a config as `--features` (features.ts): the backbone with its seed, an encoder by its model
 * id (a hub id: the CLI downloads only with --allow-remote, or give --features encoder:FOLDER), nothing for an
 * uploaded file (a link never carries it: the head model then asks for --features F.npz).
 */
function featureFlags(config: ExperimentConfig): Values {
  const f = config.features;
  if (!f || f.source === 'pixels' || f.source === 'upload') return {};
  if (f.source === 'backbone') return { features: 'backbone', 'backbone-seed': String(f.seed) };
  return { features: `encoder:${f.model}`, precision: f.precision, revision: f.revision };
}

/** Command-line flags win over the config's. */
export function withConfig(v: Values, command: string): Values {
  const config = loadExperimentConfig(v);
  if (!config) return v;
  const fromConfig = configToFlags(config, command);
  const given = Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined));
  // a command-line class selection replaces the config's whole selection
  if (given.classes !== undefined || given.dataset !== undefined || given['classes-file'] !== undefined) {
    delete fromConfig.subset;
    if (given.classes !== undefined) delete fromConfig.dataset;
  }
  if (given.tasks !== undefined) delete fromConfig['task-sizes'];
  return { ...fromConfig, ...given };
}

/** `--init he-glorot|pytorch`: the initial weights' scheme (src/engine/models.ts); undefined when not given. */
export function initFlag(v: Values): InitScheme | undefined {
  const s = v.init;
  if (typeof s !== 'string') return undefined;
  if (!(INIT_SCHEMES as readonly string[]).includes(s)) throw new UsageError(`Unknown --init "${s}": use ${INIT_SCHEMES.join(' or ')}.`);
  return s as InitScheme;
}

/**
 * `--strategy-options key=value,…`: the strategy's hyper-parameters other than `--memory` (EWC `lambda=5000,mode=single`,
 * LwF `alpha=1,temperature=2`, …), checked with the engine's rules. A value that reads as a number is a number.
 */
export function strategyOptionsFlag(v: Values, strategy: StrategyId): Record<string, number | string> {
  const s = v['strategy-options'];
  if (typeof s !== 'string') return {};
  const out: Record<string, number | string> = {};
  const known = Object.keys(STRATEGY_DEFAULTS[strategy] ?? {});
  for (const [key, raw] of strategyOptionParts(s)) {
    if (key === 'memory') throw new UsageError('--strategy-options: give the memory with --memory.');
    if (!known.includes(key)) {
      throw new UsageError(`--strategy-options: ${strategy} has no option "${key}"${known.length ? ` (it has ${known.join(', ')})` : ''}.`);
    }
    const n = decimalNumber(raw);
    out[key] = typeof STRATEGY_DEFAULTS[strategy][key as never] === 'number' && n !== null ? n : raw.trim();
  }
  try {
    resolveStrategyOptions(strategy, out as never);
  } catch (e) {
    throw new UsageError(`--strategy-options: ${(e as Error).message}`);
  }
  return out;
}
