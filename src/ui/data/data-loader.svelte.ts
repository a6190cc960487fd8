/**
 * The Data page's state: which dataset is on screen (its summary and a few sample images per class, from the data
 * worker), a load in progress, and what went wrong. A failed or cancelled load keeps the dataset on screen and says
 * so. Tested with a fake worker client in tests/unit/ui/data-loader.test.ts.
 */
import type { SplitName } from '../../data/format';
import { BUILTIN_DATASETS } from '../../data/registry';
import {
  DEFAULT_SAMPLING,
  isCancelled,
  type DataSummary,
  type LoadProgress,
  type LoadResult,
  type SampleSets,
  type SamplingOptions,
  type UserLoadOptions,
} from '../../services/data-client';
import { formatBytes } from './sample-grid';
import { HUB_CIFAR100, hubDatasetSizes, type HubDataset, type HubFileSize } from '../../data/hub-datasets';

/** A hub dataset's download size once asked (bytes, null: a file's size was not said), or why it could not be asked. */
export type HubSize = { bytes: number | null; sizes: HubFileSize[] } | { error: string } | null;

/** What the hub button says: the listed size first, then the asked one. */
export function hubButtonText(size: HubSize, d: HubDataset = HUB_CIFAR100): string {
  const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;
  if (size === null) return `${d.name} from the Hugging Face hub (about ${mb(d.listedBytes)}): check the download size`;
  if ('error' in size) return 'Check again';
  return size.bytes === null ? `Download ${d.name} (size unknown) and load it` : `Download ${mb(size.bytes)} and load ${d.name}`;
}

/** The parts of the data client (src/services/data-client.ts) the page uses. */
export interface DataLoaderClient {
  readonly last: LoadResult | null;
  loadBuiltin(id: string, sampling: SamplingOptions, onProgress: (p: LoadProgress) => void): Promise<LoadResult>;
  loadFiles(files: File[], options: UserLoadOptions, onProgress: (p: LoadProgress) => void): Promise<LoadResult>;
  loadHub?(id: HubDataset['id'], sizes: HubFileSize[] | undefined, options: UserLoadOptions, onProgress: (p: LoadProgress) => void): Promise<LoadResult>;
  resample(sampling: SamplingOptions): Promise<SampleSets>;
  cancel(): void;
}

const fail = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** "T-shirt, Trouser\nPullover" → the names by label (commas or lines); none typed: undefined. */
export function parseNames(text: string): string[] | undefined {
  const names = text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return names.length ? names : undefined;
}

/** What a load is doing, in words ("Downloading train.gz — 1.2 MB of 26 MB"). */
export function progressText(p: LoadProgress | null, loading: string | null): string {
  if (!p) return loading ? `Loading ${loading}…` : '';
  const verb = { read: 'Reading', download: 'Downloading', parse: 'Parsing', sample: 'Choosing samples from' }[p.phase];
  const file = p.loaded !== undefined && p.total ? ` — ${formatBytes(p.loaded)} of ${formatBytes(p.total)}` : '';
  const all = p.bytesTotal && p.bytesDone !== undefined ? ` · ${formatBytes(p.bytesDone)} of ${formatBytes(p.bytesTotal)} in all` : '';
  const pct = p.phase === 'parse' ? ` — ${Math.round(p.fraction * 100)} %` : '';
  return `${verb} ${p.file}${file}${pct}${all}`;
}

export class DataLoader {
  summary = $state.raw<DataSummary | null>(null);
  samples = $state.raw<SampleSets | null>(null);
  split = $state<SplitName>('train');
  /** The radio button checked: a built-in id, 'user', or '' (nothing on screen). */
  picked = $state('digits');
  /** Images per class S and the seed, as typed (checked before use). */
  perClass = $state<number>(DEFAULT_SAMPLING.perClass);
  seed = $state<number>(DEFAULT_SAMPLING.seed);
  /** The name of what is loading (a dataset, a file, "3 files"), null when nothing is. */
  loading = $state<string | null>(null);
  progress = $state.raw<LoadProgress | null>(null);
  builtinError = $state('');
  uploadError = $state('');
  sampleError = $state('');
  notice = $state('');
  /** The class filter of a long grid (a new dataset clears it). */
  filter = $state('');
  #resampleId = 0;

  constructor(private readonly client: DataLoaderClient) {}

  readonly progressText = $derived(progressText(this.progress, this.loading));

  splitCount(s: SplitName): number {
    return this.summary?.splits[s].count ?? 0;
  }

  /**
   * Back to where the page was (the client keeps the last dataset), else the experiment's dataset when it is a
   * built-in image dataset (`experimentDataset`: the share link's `dataset.id`), else Digits.
   */
  start(experimentDataset?: string): Promise<void> {
    const before = this.client.last;
    if (!before) return this.loadBuiltin(BUILTIN_DATASETS.some((d) => d.id === experimentDataset) ? experimentDataset! : 'digits');
    this.#shown(before);
    this.perClass = before.samples.train.perClass;
    this.seed = before.samples.train.seed;
    return Promise.resolve();
  }

  loadBuiltin(id: string): Promise<void> {
    const entry = BUILTIN_DATASETS.find((d) => d.id === id);
    this.picked = id;
    return this.#load(entry?.name ?? id, 'builtin', (onProgress) => this.client.loadBuiltin(id, this.#samplingForLoad(), onProgress));
  }

  /** CIFAR-100 from the Hugging Face hub: the first press asks the size (HEAD only), the second downloads and loads. */
  hubSize = $state<HubSize>(null);
  async hubPress(fetcher?: typeof fetch): Promise<void> {
    const size = this.hubSize;
    if (size === null || 'error' in size) {
      try {
        const sizes = await hubDatasetSizes(HUB_CIFAR100, fetcher ? { fetch: fetcher } : {});
        this.hubSize = { bytes: sizes.every((x) => x.bytes !== null) ? sizes.reduce((a, x) => a + x.bytes!, 0) : null, sizes };
      } catch (e) {
        this.hubSize = { error: fail(e) };
      }
      return;
    }
    const load = this.client.loadHub;
    if (!load) return;
    await this.#load(`${HUB_CIFAR100.name} (hub)`, 'upload', (onProgress) =>
      load.call(this.client, HUB_CIFAR100.id, size.sizes, { ...this.#samplingForLoad() }, onProgress),
    );
  }

  loadFiles(files: File[], classNamesText: string): Promise<void> {
    if (files.length === 0) return Promise.resolve();
    const name = files.length === 1 ? files[0].name : `${files.length} files`;
    return this.#load(name, 'upload', (onProgress) =>
      this.client.loadFiles(files, { ...this.#samplingForLoad(), classNames: parseNames(classNamesText) }, onProgress),
    );
  }

  cancel(): void {
    this.client.cancel();
  }

  /** Another sample of the dataset on screen (S and the seed as typed; an unusable entry is said, not sent). */
  async resample(): Promise<void> {
    const sp = this.#sampling();
    if (!this.summary || !sp) return;
    const id = ++this.#resampleId;
    try {
      const s = await this.client.resample(sp);
      if (id !== this.#resampleId) return;
      this.samples = s;
      this.sampleError = '';
    } catch (e) {
      if (id === this.#resampleId) this.sampleError = fail(e);
    }
  }

  /** "Draw other samples": the next seed. */
  redraw(): Promise<void> {
    this.seed = (Number(this.seed) || 0) + 1;
    return this.resample();
  }

  async #load(name: string, kind: 'builtin' | 'upload', run: (onProgress: (p: LoadProgress) => void) => Promise<LoadResult>): Promise<void> {
    this.builtinError = '';
    this.uploadError = '';
    this.notice = '';
    this.loading = name;
    this.progress = null;
    try {
      this.#shown(await run((p) => (this.progress = p)));
    } catch (e) {
      const msg = this.#keep(e);
      if (kind === 'builtin') this.builtinError = msg;
      else this.uploadError = msg;
    } finally {
      this.loading = null;
      this.progress = null;
    }
  }

  #shown(r: LoadResult): void {
    this.summary = r.summary;
    this.samples = r.samples;
    this.picked = r.summary.kind === 'builtin' ? r.summary.id : 'user';
    if (this.splitCount(this.split) === 0) this.split = 'train';
    this.filter = '';
  }

  /** After a failed or cancelled load: the radio goes back to what is on screen, and the message says so. */
  #keep(e: unknown): string {
    const s = this.summary;
    this.picked = s ? (s.kind === 'builtin' ? s.id : 'user') : '';
    const still = s ? ` Still showing ${s.name}.` : '';
    if (isCancelled(e)) {
      this.notice = `Loading was cancelled.${still}`;
      return '';
    }
    const msg = fail(e);
    return `${msg}${/[.!?)]$/.test(msg) ? '' : '.'}${still ? `\n${still.trim()}` : ''}`;
  }

  /** S and the seed as the worker wants them; an unusable entry is said next to the inputs and not sent. */
  #sampling(): SamplingOptions | null {
    const s = Number(this.perClass);
    const r = Number(this.seed);
    if (!Number.isInteger(s) || s < 1 || s > 64) this.sampleError = 'Images per class S must be a whole number from 1 to 64.';
    else if (!Number.isInteger(r) || r < 0 || r > 4294967295) this.sampleError = 'The seed must be a whole number from 0 to 4 294 967 295.';
    else {
      this.sampleError = '';
      return { perClass: s, seed: r };
    }
    return null;
  }

  /** For a load: the inputs when usable, else the defaults (and the inputs show them). */
  #samplingForLoad(): SamplingOptions {
    const ok = this.#sampling();
    if (ok) return ok;
    this.perClass = DEFAULT_SAMPLING.perClass;
    this.seed = DEFAULT_SAMPLING.seed;
    this.sampleError = '';
    return { ...DEFAULT_SAMPLING };
  }
}
