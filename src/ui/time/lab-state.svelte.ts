/**
 * The Time lab's page state (docs/science.md §7): settings, the stream's bucket samples, the runs of both protocols
 * (the runner's state, src/services/time-runner.ts: live rows of R as each bucket finishes), teaching mode's Step,
 * and Table 2's α sweep. Runes outside the page so the page only composes.
 */
import { bucketTrainingSize, defaultTimeLabConfig, validateTimeLabConfig, type TimeLabConfig } from '../../core/stream/config';
import { accuracyByDistance, streamMetrics, type DistancePoint, type StreamMetrics, type StreamProtocol } from '../../core/stream/metrics';
import { timeSettingsKey, type StreamPreview, type SweepEntry, type TimeResult, type TimeRunner, type TimeRunnerState } from '../../services/time-runner';

export type TimeStatus = 'idle' | 'running' | 'paused' | 'done' | 'cancelled' | 'error';

export interface Preset {
  id: string;
  name: string;
  note: string;
  patch: Partial<TimeLabConfig>;
}

/** One click each; `quick` is small enough for a test or a phone. */
export const PRESETS: readonly Preset[] = [
  { id: 'paper', name: 'The paper’s claim', note: 'drift stream, 5 buckets, iid and streaming side by side', patch: {} },
  { id: 'abrupt', name: 'Abrupt control', note: 'the same buckets in a shuffled order', patch: { stream: 'abrupt' } },
  { id: 'mixed', name: 'No-drift control', note: 'every bucket a mixture of all looks', patch: { stream: 'mixed' } },
  {
    id: 'reservoir',
    name: 'Biased reservoir (α = 2)',
    note: 'a buffer of one bucket, Alg. 1 with α = 2',
    patch: { buffer: 'reservoir', alpha: { kind: 'fixed', value: 2 } },
  },
  { id: 'quick', name: 'Quick look', note: '3 buckets × 200 images, 2 epochs', patch: { buckets: 3, perClass: 20, epochs: 2, k: 140 } },
];

export class TimeLab {
  config = $state<TimeLabConfig>(defaultTimeLabConfig());
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
    if (initial) this.config = validateTimeLabConfig(initial).value ?? defaultTimeLabConfig();
    this.unsubscribe = runner.subscribe((st) => (this.state = st));
    void runner.notice().then((n) => (this.storeNotice = n));
  }

  dispose(): void {
    this.unsubscribe();
    this.runner.dispose();
  }

  /** the runner's state is of the settings shown */
  get mine(): boolean {
    return this.state.status !== 'idle' && this.state.configHash === timeSettingsKey($state.snapshot(this.config) as TimeLabConfig);
  }
  get status(): TimeStatus {
    return this.mine ? this.state.status : 'idle';
  }
  get error(): string {
    return this.mine ? (this.state.error ?? '') : '';
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
  /** the protocol training now, its bucket and epoch */
  get current(): { protocol: StreamProtocol; step: number; epoch: number; epochs: number } | null {
    const c = this.mine ? this.state.current : null;
    return c ? { protocol: c.protocol, step: c.step, epoch: c.epoch, epochs: c.epochs } : null;
  }
  get K(): number {
    return this.config.buckets;
  }
  /** finished buckets over all protocols, and how many there are */
  get done(): number {
    const rows = this.rows;
    return this.config.protocols.reduce((n, p) => n + (rows[p]?.length ?? 0), 0);
  }
  get total(): number {
    return this.config.protocols.length * this.config.buckets;
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
    this.set({ ...defaultTimeLabConfig(), ...p.patch });
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

  async run(): Promise<void> {
    if (this.active) return;
    await this.runner.run($state.snapshot(this.config) as TimeLabConfig, this.backend);
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

  /** Everything the run produced, for the JSON export. */
  exportJson(): string {
    const results = Object.fromEntries(Object.entries(this.results).map(([p, { settingsKey: _k, ...r }]) => [p, r]));
    return JSON.stringify({ config: $state.snapshot(this.config), results, sweep: $state.snapshot(this.sweep) }, null, 1);
  }
}
