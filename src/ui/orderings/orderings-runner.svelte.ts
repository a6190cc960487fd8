/**
 * The Orderings page's computations, off the page: the orderings worker's result for the current inputs, and the
 * image prototypes read by the data worker. Each keeps only the answer to its latest request (an answer to an older
 * one is dropped). Tested with fake workers in tests/unit/ui/orderings-runner.test.ts.
 */
import type { OrderingsRequest, OrderingsView } from '../../core/protocols/orderings-view';
import type { ResultInputs } from './result-status';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The result of the orderings worker for the page's latest request, with the key and inputs that made it. */
export class OrderingsRunner {
  view = $state.raw<OrderingsView | null>(null);
  /** requestKey (./result-status.ts) of the request that made `view`. */
  resultKey = $state('');
  /** What `view` was made from: its exports and CLI command use this. */
  inputs = $state.raw<ResultInputs | null>(null);
  error = $state('');
  busy = $state(false);
  #latest = 0;
  #pendingKey: string | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly compute: (req: OrderingsRequest) => Promise<OrderingsView>,
    private readonly delayMs = 120,
  ) {}

  /**
   * Computes `req` after a short pause (typing does not start a computation per key). The same request again while
   * it is on its way changes nothing; another one replaces it (an answer to an older request is dropped).
   */
  request(req: OrderingsRequest, key: string, inputs: ResultInputs): void {
    if (this.busy && key === this.#pendingKey) return;
    clearTimeout(this.#timer);
    const id = ++this.#latest;
    this.#pendingKey = key;
    this.busy = true;
    this.#timer = setTimeout(() => {
      this.compute(req)
        .then((v) => {
          if (id !== this.#latest) return;
          this.view = v;
          this.resultKey = key;
          this.inputs = inputs;
          this.error = '';
        })
        .catch((e: unknown) => {
          if (id === this.#latest) this.error = message(e);
        })
        .finally(() => {
          if (id !== this.#latest) return;
          this.busy = false;
          this.#pendingKey = null;
        });
    }, this.delayMs);
  }

  /**
   * Nothing to compute: the inputs on screen cannot be computed (an error, a missing upload), or (`current`) their
   * result is the one on screen, whose error, if any, is then gone. Nothing is on its way any more.
   */
  idle(current = false): void {
    this.dispose();
    this.busy = false;
    if (current) this.error = '';
  }

  /** Drops the pause and whatever answer is on its way (the page is closed). */
  dispose(): void {
    clearTimeout(this.#timer);
    this.#latest++;
    this.#pendingKey = null;
  }
}

/** Image prototypes of a built-in dataset's classes, as the data worker gives them. */
export interface PrototypesAnswer {
  rows: Float32Array[];
  datasetName: string;
  counts: number[];
  /** the source's own label (a feature source's prototypes), instead of the image prototypes' */
  label?: string;
}
export type LoadPrototypes = (
  datasetId: string,
  indices: number[],
  onProgress: (p: { file: string; loaded?: number; total?: number }) => void,
) => Promise<PrototypesAnswer>;

/** The image prototypes of the wanted classes (key: ./prototypes-source.ts prototypesKey), read once per key. */
export class PrototypesRunner {
  source = $state.raw<{ key: string; rows: Float32Array[]; label: string } | null>(null);
  status = $state<'idle' | 'loading' | 'error'>('idle');
  message = $state('');
  #latest = 0;
  /** said while loading (", extracting the backbone's features" when a feature source computes) */
  busyNote = '';

  constructor(
    private readonly load: LoadPrototypes,
    private readonly label: (datasetName: string, counts: number[]) => string,
  ) {}

  want(dataset: { id: string; name: string }, indices: number[], key: string): void {
    if (this.source?.key === key) return;
    const id = ++this.#latest;
    this.status = 'loading';
    this.message = `Reading the ${dataset.name} training images${this.busyNote}…`;
    const onProgress = (p: { file: string; loaded?: number; total?: number }) => {
      if (id === this.#latest && p.total)
        this.message = `Reading the ${dataset.name} training images: ${p.file} ${Math.round((100 * (p.loaded ?? 0)) / p.total)} %`;
    };
    this.load(dataset.id, indices.slice(), onProgress)
      .then((r) => {
        if (id !== this.#latest) return;
        this.source = { key, rows: r.rows, label: r.label ?? this.label(r.datasetName, r.counts) };
        this.status = 'idle';
        this.message = '';
      })
      .catch((e: unknown) => {
        if (id !== this.#latest) return;
        this.status = 'error';
        this.message = message(e);
      });
  }

  /** The prototypes for `key`, or null while there are none. */
  rowsFor(key: string): { rows: Float32Array[]; label: string } | null {
    return this.source && this.source.key === key ? this.source : null;
  }
}
