/**
 * The Data tab's feature sources (FeatureSources.svelte renders them): for the experiment's dataset and classes (the
 * share link's config), each source's state — not computed, computing (images/s, time left, pause/cancel), cached
 * (its size) or unavailable (why) — the embedded backbone, the image encoder of the settings, and every uploaded
 * feature file in this browser; computing one, uploading one, and the 2-D PCA map of a cached one. The work is the
 * feature service's (services/feature-source.ts); this module holds what the page shows.
 */
import type { ExperimentConfig, FeaturesConfig, FileRef } from '../../core/config/types';
import { FEATURES_FILL, featuresOf, withUploadedFeatures } from '../../core/config/sections/features';
import { featureCache, megabytes, type FeatureMeta } from '../../services/feature-cache';
import {
  cachedFeatureStates,
  datasetClassNames,
  encoderDownloadSize,
  featureRequestOf,
  imagesProblem,
  sourceLabelOf,
  startFeatureJob,
  storeUploadedFeatures,
  type FeatureJobEvent,
  type FeatureJobHandle,
  type FeatureRequest,
} from '../../services/feature-source';
import { backboneClasses } from '../../core/features/source';
import { writeFeaturesNpz } from '../../data/features/npz';
import { FEATURE_FILE_MAX_BYTES } from '../../data/features/upload';
import { settingsOfWeights, weightSourceOfSettings, type EncoderSettingsValue, type EncoderSize } from '../common/encoder-settings';
import { featureMap, type FeatureMapModel } from './feature-map';

export type SourceId = 'backbone' | 'encoder' | `upload:${string}`;

export type SourceState =
  | { kind: 'unavailable'; reason: string }
  | { kind: 'checking' }
  | { kind: 'not-computed' }
  | { kind: 'computing'; text: string; fraction: number | null; paused: boolean }
  | { kind: 'cached'; bytes: number; key: string }
  | { kind: 'error'; message: string };

export interface SourceRow {
  id: SourceId;
  label: string;
  state: SourceState;
  /** an upload's file, as the share link names it */
  file?: FileRef;
}

/** The encoder the Data tab extracts with (the settings component's values). */
export interface EncoderChoice {
  model: string;
  revision: string;
  precision: 'q8' | 'fp16' | 'fp32';
  weights: { kind: 'hub' } | { kind: 'self-hosted'; path: string } | { kind: 'mirror'; url: string };
  device: 'webgpu' | 'wasm';
}

/** The progress line of a job event ("1 234 of 6 000 images · 850 images/s · 6 s left"). */
export function progressLine(e: Extract<FeatureJobEvent, { kind: 'progress' }>): string {
  const n = (v: number) => String(Math.round(v)).replace(/\B(?=(\d{3})+(?!\d))/g, '\u2009');
  if (e.stage === 'pretrain') return `Pre-training the backbone: epoch ${e.done} of ${e.total}`;
  const rate = e.perSecond === null ? '' : ` · ${n(e.perSecond)} images/s`;
  const left =
    e.secondsLeft === null
      ? ''
      : e.secondsLeft === 0
        ? ''
        : ` · ${e.secondsLeft < 60 ? `${Math.ceil(e.secondsLeft)} s` : `${Math.ceil(e.secondsLeft / 60)} min`} left`;
  return `${n(e.done)} of ${n(e.total)} images${rate}${left}`;
}

export class FeatureSources {
  rows = $state<SourceRow[]>([]);
  /** the map shown and the source it belongs to */
  map = $state<FeatureMapModel | null>(null);
  mapOf = $state<string | null>(null);
  mapError = $state<string | null>(null);
  notice = $state<string | null>(null);
  uploadError = $state<string | null>(null);
  /** the file being read in the data worker (the page stays usable meanwhile) */
  uploading = $state<string | null>(null);
  /** what reading the last upload did that the file did not say (a held-out test split) */
  uploadNote = $state<string | null>(null);
  /** the model settings component's value */
  settings = $state<EncoderSettingsValue>({
    model: FEATURES_FILL.encoder.model,
    revision: 'main',
    precision: 'q8',
    weights: 'hub',
    folder: '',
    mirror: '',
    device: 'webgpu',
  });
  /** the encoder's download size (bytes; null unknown) once asked, or why it could not be asked */
  encoderSize = $state<EncoderSize>(null);
  /** the device the encoder ran on and why, after a run */
  deviceNote = $state<string | null>(null);
  /** where a blank self-hosted folder points (the app's models/ folder) */
  constructor(private defaultFolder: string) {
    this.settings.folder = defaultFolder;
  }

  /** The settings as the encoder to extract with. */
  get encoder(): EncoderChoice {
    const v = this.settings;
    return {
      model: v.model.trim(),
      revision: v.revision.trim() || 'main',
      precision: v.precision as EncoderChoice['precision'],
      weights: weightSourceOfSettings(v, this.defaultFolder),
      device: v.device,
    };
  }

  /** Start the settings from a config whose source is an encoder. */
  adopt(config: ExperimentConfig): void {
    const f = featuresOf(config);
    if (f.source !== 'encoder') return;
    this.settings = { ...this.settings, model: f.model, revision: f.revision, precision: f.precision, ...settingsOfWeights(f.weights, this.defaultFolder) };
  }

  /**
   * The experiment's `features` section that trains on source `id` (the backbone, or the encoder of the settings):
   * what "Train on these" writes into the share link (an upload's, by its file's name and content hash).
   */
  featuresFor(id: SourceId): FeaturesConfig | null {
    if (id.startsWith('upload:')) {
      const file = this.rows.find((r) => r.id === id)?.file;
      return file ? { source: 'upload', file: { ...file } } : null;
    }
    if (id === 'backbone') return this.requestOf('backbone') ? { source: 'backbone', seed: FEATURES_FILL.backboneSeed } : null;
    if (id === 'encoder')
      return {
        source: 'encoder',
        model: this.encoder.model,
        revision: this.encoder.revision,
        precision: this.encoder.precision,
        weights: this.encoder.weights,
      };
    return null;
  }

  private jobs = new Map<SourceId, FeatureJobHandle>();
  private config: ExperimentConfig | null = null;
  private generation = 0;

  private set(id: SourceId, state: SourceState): void {
    this.rows = this.rows.map((r) => (r.id === id ? { ...r, state } : r));
  }

  private requestOf(id: SourceId, allowRemote = false): FeatureRequest | null {
    if (!this.config) return null;
    const f: FeaturesConfig =
      id === 'backbone'
        ? {
            source: 'backbone',
            seed: featuresOf(this.config).source === 'backbone' ? (featuresOf(this.config) as { seed: number }).seed : FEATURES_FILL.backboneSeed,
          }
        : { source: 'encoder', model: this.encoder.model, revision: this.encoder.revision, precision: this.encoder.precision, weights: this.encoder.weights };
    return featureRequestOf(this.config, { device: this.encoder.device, allowRemote }, f);
  }

  /** The rows for a config: their labels at once, their states as the cache answers. */
  async refresh(config: ExperimentConfig): Promise<void> {
    this.config = config;
    const gen = ++this.generation;
    const problem = imagesProblem(config);
    const base: SourceRow[] = [
      { id: 'backbone', label: '', state: { kind: 'checking' } },
      { id: 'encoder', label: '', state: { kind: 'checking' } },
    ];
    for (const r of base) {
      try {
        r.label = r.id === 'backbone' ? (this.requestOf('backbone')?.label ?? '') : sourceLabelOf(config, { source: 'encoder', ...this.encoder });
      } catch (e) {
        r.label = r.id === 'backbone' ? 'embedded backbone' : `image encoder ${this.encoder.model}`;
        r.state = { kind: 'unavailable', reason: (e as Error).message };
      }
      if (problem) r.state = { kind: 'unavailable', reason: problem };
    }
    if (problem === null && backboneClasses(datasetClassNames(config).length, config.classes).length === 0)
      base[0].state = { kind: 'unavailable', reason: 'The experiment uses every class of its dataset, so none are left to pre-train the backbone on.' };
    const cache = await featureCache();
    const uploads = (await cache.list()).filter((m: FeatureMeta) => m.key.startsWith('upload:'));
    this.notice = cache.notice;
    if (gen !== this.generation) return;
    this.rows = [
      ...base.map((r) => (this.jobs.has(r.id) ? (this.rows.find((o) => o.id === r.id) ?? r) : r)),
      ...uploads.map((m) => ({
        id: m.key as SourceId,
        label: `${m.label} (${m.n} rows × ${m.d})`,
        state: { kind: 'cached', bytes: m.bytes, key: m.key } as SourceState,
        // the file's name (uploads cached before it was kept: from the label)
        file: { name: m.file ?? m.label.replace(/^uploaded features /, ''), contentHash: m.key.slice('upload:'.length) },
      })),
    ];
    const asked = base.filter((r) => r.state.kind === 'checking' && !this.jobs.has(r.id));
    const reqs = asked.map((r) => this.requestOf(r.id)).filter((q): q is FeatureRequest => q !== null);
    if (reqs.length !== asked.length || reqs.length === 0) return;
    try {
      // one question to the cache at a time, and none for a refresh already superseded: each may lease a worker that
      // loads the dataset and hashes its images, and several at once on a small machine answer none in time
      const asking = this.asking.then(() => (gen === this.generation ? cachedFeatureStates(reqs) : null));
      this.asking = asking.catch(() => null);
      const states = await asking;
      if (states === null || gen !== this.generation) return;
      asked.forEach((r, i) => {
        if (!this.jobs.has(r.id))
          this.set(r.id, states[i].bytes === null ? { kind: 'not-computed' } : { kind: 'cached', bytes: states[i].bytes!, key: states[i].key });
      });
    } catch (e) {
      if (gen === this.generation) for (const r of asked) this.set(r.id, { kind: 'error', message: (e as Error).message });
    }
  }

  /** A setting of the encoder changed: its row again, shortly (typing does not ask the cache at every key). */
  settingsChanged(): void {
    this.encoderSize = null;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.config) void this.refresh(this.config);
    }, 300);
  }
  private timer: ReturnType<typeof setTimeout> | undefined;
  private asking: Promise<unknown> = Promise.resolve();

  /** Ask the encoder's download size (HEAD requests only; nothing downloads). */
  async askEncoderSize(): Promise<void> {
    this.encoderSize = null;
    const req = this.requestOf('encoder', true);
    if (!req || req.source.source !== 'encoder') return;
    try {
      this.encoderSize = { bytes: (await encoderDownloadSize(req.source)).bytes };
    } catch (e) {
      this.encoderSize = { error: (e as Error).message };
    }
  }

  /** Compute a source's features (the encoder's only after its download button: `allowRemote`). */
  compute(id: 'backbone' | 'encoder', allowRemote = false): void {
    if (this.jobs.has(id)) return;
    let req: FeatureRequest | null;
    try {
      req = this.requestOf(id, allowRemote);
    } catch (e) {
      this.set(id, { kind: 'error', message: (e as Error).message });
      return;
    }
    if (!req) return;
    this.set(id, { kind: 'computing', text: 'Starting…', fraction: null, paused: false });
    const job = startFeatureJob(req, {
      onEvent: (e) => {
        const paused = this.rows.find((r) => r.id === id)?.state;
        const isPaused = paused?.kind === 'computing' && paused.paused;
        if (e.kind === 'progress')
          this.set(id, {
            kind: 'computing',
            text: progressLine(e),
            fraction: e.stage === 'extract' && e.total > 0 ? e.done / e.total : null,
            paused: isPaused,
          });
        else if (e.kind === 'load' && e.total > 0)
          this.set(id, {
            kind: 'computing',
            text: `Loading ${e.file}: ${megabytes(e.loaded)} of ${megabytes(e.total)}`,
            fraction: e.loaded / e.total,
            paused: isPaused,
          });
        else if (e.kind === 'device')
          this.deviceNote =
            e.device === e.requested
              ? `Runs on ${e.device}.`
              : `Runs on ${e.device}, not ${e.requested}: ${e.notes.join(' ') || 'the device was not available.'}`;
      },
    });
    this.jobs.set(id, job);
    job.done.then(
      (r) => {
        this.jobs.delete(id);
        this.set(id, { kind: 'cached', bytes: r.set.features.byteLength + r.set.labels.byteLength + r.set.split.byteLength, key: r.key });
        if (r.notice) this.notice = r.notice;
      },
      (e) => {
        this.jobs.delete(id);
        const cancelled = (e as Error)?.name === 'RunCancelledError';
        this.set(id, cancelled ? { kind: 'not-computed' } : { kind: 'error', message: (e as Error)?.message ?? String(e) });
      },
    );
  }

  pause(id: SourceId): void {
    const s = this.rows.find((r) => r.id === id)?.state;
    const job = this.jobs.get(id);
    if (!job || s?.kind !== 'computing') return;
    if (s.paused) job.resume();
    else job.pause();
    this.set(id, { ...s, paused: !s.paused, text: s.paused ? s.text : `Paused · ${s.text}` });
  }

  cancel(id: SourceId): void {
    this.jobs.get(id)?.cancel();
  }

  /** The PCA map of a cached source's features (the experiment's classes; every class of an upload). */
  async showMap(id: SourceId): Promise<void> {
    const row = this.rows.find((r) => r.id === id);
    if (row?.state.kind !== 'cached') return;
    this.mapError = null;
    try {
      const set = await (await featureCache()).get(row.state.key);
      if (!set) throw new Error('These features are no longer in the cache: compute them again.');
      this.map = featureMap(set, id.startsWith('upload:') ? undefined : this.config?.classes.filter((c) => set.labels.includes(c)));
      this.mapOf = row.label;
    } catch (e) {
      this.map = null;
      this.mapError = (e as Error).message;
    }
  }

  /** Save a cached source's features as the .npz `cil-lab features` writes (np.load opens it; `--features F.npz` takes it). */
  async download(id: SourceId): Promise<void> {
    const row = this.rows.find((r) => r.id === id);
    if (row?.state.kind !== 'cached') return;
    const set = await (await featureCache()).get(row.state.key);
    if (!set) return;
    const bytes = writeFeaturesNpz(set);
    const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'application/zip' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `features-${id === 'backbone' ? 'backbone' : id === 'encoder' ? this.encoder.model.replace(/[^\w.-]+/g, '_') : 'upload'}.npz`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  async remove(id: SourceId): Promise<void> {
    const row = this.rows.find((r) => r.id === id);
    if (row?.state.kind !== 'cached') return;
    await (await featureCache()).delete(row.state.key);
    if (this.mapOf === row.label) this.map = null;
    if (this.config) await this.refresh(this.config);
  }

  /**
   * The experiment trained on an uploaded file's features: the source, and the dataset and classes found in the file
   * by name (core/config/sections/features.ts withUploadedFeatures). `update` is the share link's.
   */
  async trainOnUpload(id: SourceId, update: (f: (c: ExperimentConfig) => ExperimentConfig) => { ok: true } | { ok: false; error: string }): Promise<void> {
    const row = this.rows.find((r) => r.id === id);
    if (row?.state.kind !== 'cached' || !row.file) return;
    this.uploadError = null;
    const set = await (await featureCache()).get(row.state.key);
    if (!set) {
      this.uploadError = `The uploaded features ${row.file.name} are no longer in this browser: upload the file again.`;
      return;
    }
    const file = row.file;
    const r = update((c) => withUploadedFeatures(c, file, set.classNames));
    if (!r.ok) this.uploadError = `The experiment cannot train on ${file.name}: ${r.error}`;
  }

  /** Upload a feature file (.npz or CSV): read and checked in the data worker, cached, listed; a bad file gives one message and nothing is kept. */
  async upload(file: File): Promise<void> {
    this.uploadError = null;
    this.uploadNote = null;
    if (file.size > FEATURE_FILE_MAX_BYTES) {
      this.uploadError = `${file.name} is ${megabytes(file.size)}, more than the ${megabytes(FEATURE_FILE_MAX_BYTES)} a feature file may have.`;
      return;
    }
    this.uploading = file.name;
    try {
      const r = await storeUploadedFeatures(file);
      if (this.config) await this.refresh(this.config);
      // after the refresh, which shows the cache's own notice: a set the store refused says so
      if (r.notice) this.notice = r.notice;
      if (r.heldOut)
        this.uploadNote = `${file.name} has no test split: 20 % of each class (numpy default_rng(0)) is held out as test data, as the command line does.`;
    } catch (e) {
      this.uploadError = (e as Error).message;
    } finally {
      this.uploading = null;
    }
  }
}
