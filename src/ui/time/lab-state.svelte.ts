/**
 * The Time lab's page state (docs/science.md §7): settings, the stream's bucket samples, the runs of both protocols
 * (the runner's state, src/services/time-runner.ts: live rows of R as each bucket finishes), teaching mode's Step,
 * and Table 2's α sweep. Runes outside the page, which the lab kit composes (./index.ts).
 */
import { TIME_LAB_START, bucketTrainingSize, timeControlOf, validateTimeLabConfig, type TimeLabConfig } from '../../core/labs/time/settings';
import { labSeedList, oneSeed } from '../../core/labs/seeds';
import { timeVerdict, type TimeVerdictInput } from '../../core/verdict/time';
import type { Verdict } from '../../core/verdict/types';
import { accuracyByDistance, streamMetrics, type DistancePoint, type StreamMetrics, type StreamProtocol } from '../../core/stream/metrics';
import { timeSettingsKey, type StreamPreview, type SweepEntry, type TimeResult, type TimeRunner, type TimeRunnerState } from '../../services/time-runner';

export type TimeStatus = 'idle' | 'running' | 'paused' | 'done' | 'cancelled' | 'error';

export interface Preset {
  id: string;
  name: string;
  note: string;
  patch: Partial<TimeLabConfig>;
}

/**
 * One click each, from the lab's starting point (TIME_LAB_START: drift strength 0.5, 3 seeds, the no-drift control);
 * `quick` is small enough for a test or a phone.
 */
export const PRESETS: readonly Preset[] = [
  {
    id: 'paper',
    name: 'The paper’s claim',
    note: 'drift stream, 5 buckets, iid and streaming side by side, drift strength 0.5 with its no-drift control, 3 seeds',
    patch: {},
  },
  {
    id: 'small-drift',
    name: 'Small drift (0.2)',
    note: 'strength 0.2 over 5 seeds: at 3 seeds its gap cannot be told from the no-drift control',
    patch: { strength: 0.2, seeds: 5 },
  },
  {
    id: 'strong-drift',
    name: 'Strong drift',
    note: 'drift strength 1: each bucket moves far further than a year of CLEAR’s images (gap ≈ 23 points)',
    patch: { strength: 1 },
  },
  { id: 'abrupt', name: 'Abrupt control', note: 'the same buckets in a shuffled order', patch: { stream: 'abrupt' } },
  { id: 'mixed', name: 'No-drift control', note: 'every bucket a mixture of all looks', patch: { stream: 'mixed' } },
  {
    id: 'reservoir',
    name: 'Biased reservoir (α = 2)',
    note: 'a buffer of one bucket, Alg. 1 with α = 2',
    patch: { buffer: 'reservoir', alpha: { kind: 'fixed', value: 2 } },
  },
  {
    id: 'quick',
    name: 'Quick look',
    note: '3 buckets × 200 images, 2 epochs, one seed, no control',
    patch: { buckets: 3, perClass: 20, epochs: 2, k: 140, seeds: 1, control: false },
  },
];

/**
 * The verdict's input for the runs of every seed and their no-drift control (the same as `cil-lab stream` builds for
 * the same settings).
 */
export function timeVerdictInputOf(
  c: TimeLabConfig,
  runs: readonly (TimeResult & { seed: number })[],
  control: readonly (TimeResult & { seed: number })[] = [],
): TimeVerdictInput {
  const seeds = labSeedList(c.seed, c.seeds).length;
  const withControl = timeControlOf(c) !== null;
  return {
    settings: { stream: c.stream, strength: c.strength, trainRatio: c.trainRatio },
    runs: runs.map((r) => ({ seed: r.seed, protocol: r.protocol, metrics: r.metrics })),
    ...(withControl ? { control: control.map((r) => ({ seed: r.seed, protocol: r.protocol, metrics: r.metrics })) } : {}),
    planned: seeds * c.protocols.length + (withControl ? seeds : 0),
  };
}

export class TimeLab {
  config = $state<TimeLabConfig>({ ...TIME_LAB_START });
  /** every seed's finished protocols of the settings shown (stored, or finished in this start) */
  seedRuns = $state.raw<(TimeResult & { seed: number })[]>([]);
  /** every seed's finished no-drift control (stored, or finished in this start) */
  controlRuns = $state.raw<(TimeResult & { seed: number })[]>([]);
  /** the seed training now (several seeds train one after another) */
  seedNow = $state<number | null>(null);
  preview = $state<StreamPreview | null>(null);
  previewError = $state('');
  /** the runner's state (set at once by the subscription in the constructor) */
  state = $state.raw<TimeRunnerState>(undefined as unknown as TimeRunnerState);
  /** the store's notice (results kept in memory only) */
  private storeNotice = $state<string | null>(null);
  sweep = $state<SweepEntry[] | null>(null);
  sweepBusy = $state(false);
  /** the backend preference */
  backend = $state<'auto' | 'webgpu' | 'webgl' | 'wasm' | 'cpu'>('auto');
  /** why the last change of a setting was refused ('' when it was taken) */
  inputError = $state('');
  private runner: TimeRunner;
  private unsubscribe: () => void;

  constructor(runner: TimeRunner, initial?: TimeLabConfig) {
    this.runner = runner;
    if (initial) this.config = validateTimeLabConfig(initial).value ?? { ...TIME_LAB_START };
    this.unsubscribe = runner.subscribe((st) => (this.state = st));
    void runner.notice().then((n) => (this.storeNotice = n));
  }

  /**
   * Wire the effects to the page (call while it initialises): the stream's samples follow its settings, and every
   * seed's stored runs of the settings shown are read (for the verdict and the table over seeds).
   */
  attach(): void {
    $effect(() => {
      void [this.config.stream, this.config.buckets, this.config.perClass, this.config.strength, this.config.seed];
      void this.loadPreview();
    });
    $effect(() => {
      void JSON.stringify(this.config);
      if (!this.active) void this.loadSeedRuns();
    });
  }

  dispose(): void {
    this.unsubscribe();
    this.runner.dispose();
  }

  /** the seeds the settings train */
  get seeds(): number[] {
    return labSeedList(this.config.seed, this.config.seeds);
  }
  /** one seed's settings (what its runs are stored under) */
  seedConfig(seed: number): TimeLabConfig {
    return oneSeed($state.snapshot(this.config) as TimeLabConfig, seed);
  }
  /** one seed's no-drift control settings (null when the settings have none) */
  controlConfig(seed: number): TimeLabConfig | null {
    return timeControlOf(this.seedConfig(seed));
  }
  /** the runner's state is of one of the settings' seeds (not their control) */
  get mine(): boolean {
    if (this.state.status === 'idle') return false;
    return this.seeds.some((s) => this.state.configHash === timeSettingsKey(this.seedConfig(s)));
  }
  /** the runner trains (or trained last) one of the seeds' no-drift controls */
  get inControl(): boolean {
    if (this.state.status === 'idle') return false;
    return this.seeds.some((s) => {
      const c = this.controlConfig(s);
      return c !== null && this.state.configHash === timeSettingsKey(c);
    });
  }
  /** the seed of the runs the charts show */
  get seedShown(): number {
    return this.seeds.find((s) => this.state.configHash === timeSettingsKey(this.seedConfig(s))) ?? this.config.seed;
  }
  /** every seed's finished runs with the run in flight's finished protocols */
  get allRuns(): (TimeResult & { seed: number })[] {
    const live = this.mine ? this.state.runs.map((r) => ({ ...r, seed: this.seedShown })) : [];
    const keys = new Set(live.map((r) => `${r.seed}|${r.protocol}`));
    return [...this.seedRuns.filter((r) => !keys.has(`${r.seed}|${r.protocol}`)), ...live].sort((a, b) => a.seed - b.seed);
  }
  /** every seed's finished control runs with the control in flight's, when it finished */
  get allControlRuns(): (TimeResult & { seed: number })[] {
    if (this.controlConfig(this.config.seed) === null) return [];
    const live = this.inControl
      ? this.state.runs.map((r) => ({
          ...r,
          seed: this.seeds.find((s) => this.state.configHash === timeSettingsKey(this.controlConfig(s)!)) ?? this.config.seed,
        }))
      : [];
    const keys = new Set(live.map((r) => r.seed));
    return [...this.controlRuns.filter((r) => !keys.has(r.seed)), ...live].sort((a, b) => a.seed - b.seed);
  }
  /**
   * What the runs show, in words (docs/verdicts.md §Time); provisional until every seed's protocols (and their
   * no-drift control) are finished.
   */
  get verdict(): Verdict | null {
    const runs = this.allRuns.filter((r) => this.config.protocols.includes(r.protocol));
    if (runs.length === 0) return null;
    return timeVerdict(timeVerdictInputOf($state.snapshot(this.config) as TimeLabConfig, runs, this.allControlRuns));
  }
  /** Read every seed's stored runs of the settings shown (no training). */
  async loadSeedRuns(): Promise<void> {
    const cfg = $state.snapshot(this.config) as TimeLabConfig;
    const seeds = labSeedList(cfg.seed, cfg.seeds);
    const per = await Promise.all(seeds.map(async (s) => (await this.runner.stored(oneSeed(cfg, s))).map((r) => ({ ...r, seed: s }))));
    const control = await Promise.all(
      seeds.map(async (s) => {
        const c = timeControlOf(oneSeed(cfg, s));
        return c ? (await this.runner.stored(c)).map((r) => ({ ...r, seed: s })) : [];
      }),
    );
    if (JSON.stringify(cfg) === JSON.stringify($state.snapshot(this.config))) {
      this.seedRuns = per.flat();
      this.controlRuns = control.flat();
    }
  }
  get status(): TimeStatus {
    return this.mine || this.inControl ? this.state.status : 'idle';
  }
  get error(): string {
    return this.mine || this.inControl ? (this.state.error ?? '') : '';
  }
  /** another tab trains these settings, or the results are kept in memory only */
  get notice(): string | null {
    return (this.mine ? this.state.notice : null) ?? this.storeNotice;
  }
  /** the backend that trained last */
  get backendName(): string {
    return this.state.backend;
  }
  get results(): Partial<Record<StreamProtocol, TimeResult>> {
    if (!this.mine) return {};
    return Object.fromEntries(this.state.runs.map((r) => [r.protocol, r]));
  }
  /** rows of R so far, per protocol (a finished protocol's whole R) */
  get rows(): Partial<Record<StreamProtocol, number[][]>> {
    if (!this.mine) return {};
    const done = this.results;
    return Object.fromEntries(this.config.protocols.flatMap((p) => (done[p] ? [[p, done[p]!.matrix]] : this.state.rows[p] ? [[p, this.state.rows[p]!]] : [])));
  }
  /** the protocol training now, its bucket and epoch (`control`: the no-drift control's iid run) */
  get current(): { protocol: StreamProtocol; step: number; epoch: number; epochs: number; control: boolean } | null {
    const c = this.mine || this.inControl ? this.state.current : null;
    return c ? { protocol: c.protocol, step: c.step, epoch: c.epoch, epochs: c.epochs, control: this.inControl } : null;
  }
  get K(): number {
    return this.config.buckets;
  }
  /** finished buckets over all seeds and protocols (and the controls), and how many there are */
  get done(): number {
    const rows = this.rows;
    const shown = this.seedShown;
    const others = this.seedRuns.filter((r) => r.seed !== shown && this.config.protocols.includes(r.protocol)).length * this.config.buckets;
    const live = this.inControl ? (this.state.rows.iid?.length ?? 0) : 0;
    const controls = this.allControlRuns.length * this.config.buckets + (this.inControl && this.state.runs.length === 0 ? live : 0);
    return others + this.config.protocols.reduce((n, p) => n + (rows[p]?.length ?? 0), 0) + controls;
  }
  get total(): number {
    const control = this.controlConfig(this.config.seed) !== null ? 1 : 0;
    return this.seeds.length * (this.config.protocols.length + control) * this.config.buckets;
  }
  get active(): boolean {
    return this.status === 'running' || this.status === 'paused';
  }
  /** CLEAR's averages of what is there so far (complete only when the protocol is done) */
  get metrics(): Partial<Record<StreamProtocol, StreamMetrics>> {
    const out: Partial<Record<StreamProtocol, StreamMetrics>> = {};
    for (const p of this.config.protocols) {
      const r = this.results[p];
      if (r) out[p] = r.metrics;
    }
    return out;
  }
  get distances(): Partial<Record<StreamProtocol, DistancePoint[]>> {
    const out: Partial<Record<StreamProtocol, DistancePoint[]>> = {};
    for (const p of this.config.protocols) {
      const r = this.results[p];
      if (r) out[p] = accuracyByDistance(r.matrix, p);
    }
    return out;
  }
  /** a partial R (rows so far) padded to K×K is not a matrix of results: averages only once complete */
  partialMetrics(p: StreamProtocol): StreamMetrics | null {
    const r = this.rows[p];
    return r && r.length === this.K ? streamMetrics(r, p) : null;
  }
  /** the default k: one bucket's training part under the first protocol */
  defaultK(): number {
    return bucketTrainingSize(this.config, this.config.protocols[0] ?? 'iid', 10);
  }

  /** Change settings; a value out of range is refused (the old one stays) and `inputError` says why. */
  set(patch: Partial<TimeLabConfig>): void {
    const r = validateTimeLabConfig({ ...$state.snapshot(this.config), ...patch });
    if (r.issues.length > 0 || !r.value) {
      this.inputError = r.issues.map((i) => `${i.path}: ${i.message}`).join(' ');
      return;
    }
    this.inputError = '';
    this.config = r.value;
    this.sweep = null;
  }
  applyPreset(p: Preset): void {
    this.set({ ...TIME_LAB_START, ...p.patch });
  }

  async loadPreview(): Promise<void> {
    this.previewError = '';
    const cfg = $state.snapshot(this.config) as TimeLabConfig;
    try {
      const p = await this.runner.prepare(cfg, this.backend);
      if (JSON.stringify(cfg) === JSON.stringify($state.snapshot(this.config))) this.preview = p;
    } catch (e) {
      this.previewError = e instanceof Error ? e.message : String(e);
    }
  }

  /**
   * Train every seed, one after another (each seed's protocols stored as they finish; stored ones are read back), then
   * show the first seed's runs again. Stops at the first seed that does not finish (paused for good, cancelled, failed).
   */
  async run(): Promise<void> {
    if (this.active) return;
    const cfg = $state.snapshot(this.config) as TimeLabConfig;
    const seeds = labSeedList(cfg.seed, cfg.seeds);
    for (const s of seeds) {
      this.seedNow = s;
      await this.runner.run(oneSeed(cfg, s), this.backend);
      if (this.state.status !== 'done') break;
      await this.loadSeedRuns();
      // the seed's no-drift control (strength 0, iid), stored under settings of its own
      const control = timeControlOf(oneSeed(cfg, s));
      if (control) {
        await this.runner.run(control, this.backend);
        if (this.state.status !== 'done') break;
        await this.loadSeedRuns();
      }
    }
    this.seedNow = null;
    if ((seeds.length > 1 || timeControlOf(cfg) !== null) && this.state.status === 'done') await this.runner.run(oneSeed(cfg, seeds[0]), this.backend);
  }
  pause(): void {
    if (this.status === 'running') this.runner.pause();
  }
  resume(): void {
    if (this.status === 'paused') this.runner.resume();
  }
  /** Teaching mode's Step: train exactly one more bucket, then pause. */
  step(): void {
    this.runner.step();
    if (!this.active) void this.run();
  }
  cancel(): void {
    if (this.active) this.runner.cancel();
  }

  /** Table 2's sweep in one click: Alg. 1's buffer after every bucket for each α (no training). */
  async runSweep(trials = 200): Promise<void> {
    this.sweepBusy = true;
    try {
      const protocol = this.config.protocols[0] ?? 'iid';
      const size = bucketTrainingSize(this.config, protocol, 10);
      const sizes = Array.from({ length: this.config.buckets }, () => size);
      this.sweep = await this.runner.sweep(sizes, this.config.buffer === 'reservoir' ? this.config.k : size, trials, this.config.seed);
    } finally {
      this.sweepBusy = false;
    }
  }

  /**
   * Everything the run produced, for the JSON export: the runs shown and, when several seeds trained, every seed's
   * finished protocols (seed order) with the verdict over them.
   */
  exportJson(): string {
    const results = Object.fromEntries(Object.entries(this.results).map(([p, { settingsKey: _k, ...r }]) => [p, r]));
    const verdict = this.verdict;
    const seeds =
      this.seeds.length > 1 || this.controlRuns.length > 0
        ? {
            seedRuns: this.seedRuns.map(({ settingsKey: _k, ...r }) => r),
            controlRuns: this.controlRuns.map(({ settingsKey: _k, ...r }) => r),
            headline: verdict?.headline ?? null,
            verdict: verdict?.sentences ?? null,
          }
        : {};
    return JSON.stringify({ config: $state.snapshot(this.config), results, sweep: $state.snapshot(this.sweep), ...seeds }, null, 1);
  }
}
