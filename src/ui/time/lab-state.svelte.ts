/**
 * The Time lab's page state (docs/science.md §7): settings, the stream's bucket samples, the runs of both protocols
 * (live rows of R as each bucket finishes), teaching mode's Step, and Table 2's α sweep. Runes outside the page so
 * the page only composes. Training and the sweep run in the worker (src/services/time-runner.ts).
 */
import { defaultTimeLabConfig, validateTimeLabConfig, type TimeLabConfig } from '../../core/stream/config';
import { accuracyByDistance, streamMetrics, type DistancePoint, type StreamMetrics, type StreamProtocol } from '../../core/stream/metrics';
import { bucketTrainingSize } from '../../engine/stream/lab';
import type { StreamPreview, StreamRunResult, SweepEntry, TimeRunner } from '../../services/time-runner';

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
  status = $state<TimeStatus>('idle');
  error = $state('');
  notice = $state<string | null>(null);
  /** rows of R so far, per protocol */
  rows = $state<Partial<Record<StreamProtocol, number[][]>>>({});
  results = $state<Partial<Record<StreamProtocol, StreamRunResult>>>({});
  /** the protocol training now, its bucket and epoch */
  current = $state<{ protocol: StreamProtocol; step: number; epoch: number; epochs: number } | null>(null);
  sweep = $state<SweepEntry[] | null>(null);
  sweepBusy = $state(false);
  /** the backend preference, and the backend that trained last */
  backend = $state<'auto' | 'webgpu' | 'webgl' | 'wasm' | 'cpu'>('auto');
  backendName = $state('');
  stepping = false;
  private runner: TimeRunner;

  constructor(runner: TimeRunner, initial?: TimeLabConfig) {
    this.runner = runner;
    if (initial) this.config = validateTimeLabConfig(initial).value ?? defaultTimeLabConfig();
    void runner.notice().then((n) => (this.notice = n));
  }

  get K(): number {
    return this.config.buckets;
  }
  /** finished buckets over all protocols, and how many there are */
  get done(): number {
    return this.config.protocols.reduce((n, p) => n + (this.rows[p]?.length ?? 0), 0);
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

  /** why the last change of a setting was refused ('' when it was taken) */
  inputError = $state('');

  /** Change settings; a value out of range is refused (the old one stays) and `inputError` says why. */
  set(patch: Partial<TimeLabConfig>): void {
    const r = validateTimeLabConfig({ ...$state.snapshot(this.config), ...patch });
    if (r.issues.length > 0 || !r.value) {
      this.inputError = r.issues.map((i) => `${i.path}: ${i.message}`).join(' ');
      return;
    }
    this.inputError = '';
    this.config = r.value;
    this.results = {};
    this.rows = {};
    this.sweep = null;
    this.status = 'idle';
  }
  applyPreset(p: Preset): void {
    this.set({ ...defaultTimeLabConfig(), ...p.patch });
  }

  async loadPreview(): Promise<void> {
    this.previewError = '';
    const cfg = $state.snapshot(this.config) as TimeLabConfig;
    try {
      const p = await this.runner.prepare(cfg);
      if (JSON.stringify(cfg) === JSON.stringify($state.snapshot(this.config))) this.preview = p;
    } catch (e) {
      this.previewError = e instanceof Error ? e.message : String(e);
    }
  }

  async run(): Promise<void> {
    if (this.active) return;
    const cfg = $state.snapshot(this.config) as TimeLabConfig;
    this.status = 'running';
    this.error = '';
    this.rows = {};
    this.results = {};
    try {
      this.backendName = (await this.runner.selectBackend(this.backend)).name;
      await this.runner.run(cfg, {
        onResume: (p, _next, matrix) => (this.rows = { ...this.rows, [p]: matrix.map((r) => r.slice()) }),
        onStep: (p, e) => {
          this.rows = { ...this.rows, [p]: [...(this.rows[p] ?? []), e.row] };
          if (this.stepping) {
            this.stepping = false;
            this.pause();
          }
        },
        onProgress: (p, e) => (this.current = { protocol: p, step: e.step, epoch: e.epoch, epochs: e.epochs }),
        onResult: (p, r) => {
          this.results = { ...this.results, [p]: r };
          this.rows = { ...this.rows, [p]: r.matrix };
        },
      });
      this.status = 'done';
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      if (/cancel/i.test(msg)) this.status = 'cancelled';
      else {
        this.status = 'error';
        this.error = msg;
      }
    } finally {
      this.current = null;
    }
  }
  pause(): void {
    if (this.status !== 'running') return;
    void this.runner.pause();
    this.status = 'paused';
  }
  resume(): void {
    if (this.status !== 'paused') return;
    void this.runner.resume();
    this.status = 'running';
  }
  /** Teaching mode's Step: train exactly one more bucket, then pause. */
  step(): void {
    this.stepping = true;
    if (this.status === 'paused') this.resume();
    else if (!this.active) void this.run();
  }
  cancel(): void {
    if (!this.active) return;
    void this.runner.cancel();
    void this.runner.resume();
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
    return JSON.stringify({ config: $state.snapshot(this.config), results: $state.snapshot(this.results), sweep: $state.snapshot(this.sweep) }, null, 1);
  }
}
