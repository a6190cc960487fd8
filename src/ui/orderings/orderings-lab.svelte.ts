/**
 * The Orderings lab's state, which the lab kit composes (./index.ts): the experiment's inputs
 * (./orderings-inputs.svelte.ts), the similarity source they resolve to (WordNet, CLIP text embeddings of the class
 * names, image prototypes of the feature source, an uploaded matrix), the orderings worker's answer for them
 * (./orderings-runner.svelte.ts) and whether that answer belongs to them (./result-status.ts). Nothing trains: the
 * orderings are computed as the inputs change, so the lab has no Run row, no Play bar and nothing to pause (`run`,
 * `pause`, `resume`, `cancel` and `step` are no-ops the kit never calls for it).
 */
import { untrack } from 'svelte';
import type { FileRef } from '../../core/config/schema';
import { featuresOf } from '../../core/config/sections/features';
import type { OrderingsInputs, OrderingsState } from '../../core/labs/orderings/binding';
import { countOrderings } from '../../core/orderings/count';
import type { ClipSettingsOut } from '../../core/similarity/clip-panel';
import { sharedDataClient } from '../../services/data-client';
import { featurePrototypesFor } from '../../services/feature-source';
import type { OrderingsRequest, SimilaritySpec, createOrderingsClient } from '../../services/orderings-client';
import { shareLink } from '../../services/share-link.svelte';
import type { ClipSource } from '../common/clip/ClipSettings.svelte';
import type { CompareOption } from './compare-options';
import { OrderingsInputsState, pinsKeyOf, sameFile } from './orderings-inputs.svelte';
import { ordersCommand } from './orderings-export';
import { OrderingsRunner, PrototypesRunner } from './orderings-runner.svelte';
import { orderingsRequest, protocolExtrasOf, type ProtocolExtras } from './page-request';
import { imageDatasetFor, imageDatasetNames, prototypesFallbackNote, prototypesKey, prototypesLabel } from './prototypes-source';
import { describeInputs, requestKey, resultStatus, staleReason, type ResultInputs } from './result-status';

export type OrderingsClient = ReturnType<typeof createOrderingsClient>;

/** What the lab computes from: the worker's request, its key, and the inputs it is made of. */
interface Wanted {
  req: OrderingsRequest;
  key: string;
  made: ResultInputs;
}

export class OrderingsLab {
  readonly inputs: OrderingsInputsState;
  /** the orderings worker's answer for the latest inputs */
  readonly runner: OrderingsRunner;
  /** the image prototypes of the classes (the data worker's, or the feature source's) */
  readonly prototypes: PrototypesRunner;
  /** the CLIP panel's embeddings, status and settings (bound to its component) */
  clipSource = $state.raw<ClipSource | null>(null);
  clipStatus = $state('idle');
  clipSettings = $state.raw<ClipSettingsOut | null>(null);
  /** The loaded similarity file; `ref` (name and content hash, for the config) once its hash is known. */
  upload = $state.raw<{ fileName: string; bytes: Uint8Array; ref: FileRef | null } | null>(null);
  /** teaching mode's "More settings" fold is open */
  moreOpen = $state(false);

  readonly #client: OrderingsClient;
  readonly #link = shareLink();
  readonly #data = sharedDataClient();
  #uploadCount = 0;

  constructor(client: OrderingsClient, start: OrderingsInputs) {
    this.#client = client;
    this.inputs = new OrderingsInputsState(start, pinsKeyOf(untrack(() => this.#link.config)));
    this.runner = new OrderingsRunner((req) => client.compute(req));
    // the prototypes of the config's feature source: the pixels' from the data worker, any other source's from the
    // feature service (its cache, or extracted on a training worker; an encoder is never downloaded from here)
    this.prototypes = new PrototypesRunner(
      (id, idx, onProgress) =>
        featuresOf(this.#link.config).source === 'pixels'
          ? this.#data.classPrototypes(id, idx, onProgress)
          : featurePrototypesFor(this.#link.config, idx).then((r) => ({ ...r, datasetName: id })),
      prototypesLabel,
    );
  }

  /** teaching mode, and the controls a link's ui.hiddenControls hides by id (dataset, classes, tasks, similarity, …) */
  readonly teaching = $derived(this.#link.teaching);
  readonly #hidden = $derived(new Set(this.#link.config.ui.hiddenControls));
  hide = (id: string): boolean => this.teaching && this.#hidden.has(id);

  // the protocol settings besides the protocols and the RS seeds, from the config as checked (as a string, so that
  // unrelated config changes do not recompute the orderings)
  readonly #extrasKey = $derived.by(() => JSON.stringify(protocolExtrasOf(this.#link.config.protocols)));

  readonly list = $derived.by(() => this.inputs.list);
  readonly featureSource = $derived(featuresOf(this.#link.config));

  // CLIP embeddings of exactly the current class list, else null (then the lab runs on WordNet and says so)
  readonly #clipSpec = $derived.by((): SimilaritySpec | null => {
    const c = this.clipSource;
    const names = this.inputs.classes.names;
    return c && c.classes.length === names.length && c.classes.every((x, i) => x === names[i])
      ? { kind: 'embeddings', rows: c.vectors, label: c.description }
      : null;
  });
  readonly #uploadSpec = $derived<SimilaritySpec | null>(this.upload ? { kind: 'upload', fileName: this.upload.fileName, bytes: this.upload.bytes } : null);
  /** a link that refers to an upload that is not loaded */
  readonly uploadMissing = $derived.by(() =>
    this.inputs.sourceKind === 'upload' && this.inputs.uploadRef !== null && !this.upload ? this.inputs.uploadRef : null,
  );
  /** a loaded upload that is not the file the link refers to */
  readonly uploadOther = $derived.by(() => {
    const ref = this.inputs.uploadRef;
    const u = this.upload;
    return this.inputs.sourceKind === 'upload' && ref !== null && u?.ref && !sameFile(u.ref, ref) ? { name: u.fileName, ref } : null;
  });

  // --- image prototypes of the built-in dataset's training images, when the class list has images ---
  readonly protoDataset = $derived(this.list ? imageDatasetFor(this.list.id) : null);
  readonly #protoWanted = $derived.by(() =>
    this.protoDataset && this.inputs.indices.length >= 2
      ? `${prototypesKey(this.protoDataset.id, this.inputs.indices)}|${JSON.stringify(this.featureSource)}`
      : '',
  );
  readonly #protoSpec = $derived.by((): SimilaritySpec | null => {
    const rows = this.#protoWanted ? this.prototypes.rowsFor(this.#protoWanted) : null;
    return rows ? { kind: 'embeddings', rows: rows.rows, label: rows.label } : null;
  });
  readonly protoReady = $derived.by(() => !!this.#protoSpec);

  readonly clipFallback = $derived.by(() => this.inputs.sourceKind === 'clip' && !this.#clipSpec);
  readonly protoFallback = $derived.by(() => this.inputs.sourceKind === 'prototypes' && !this.#protoSpec);
  /** why the image prototypes are not used yet (null: they are, or were not chosen) */
  readonly protoFallbackNote = $derived.by(() =>
    this.protoFallback ? prototypesFallbackNote(this.list ? this.list.name : null, !!this.protoDataset, this.prototypes.status === 'error') : null,
  );
  readonly #wordnetSpec = $derived.by((): SimilaritySpec => ({ kind: 'wordnet', pins: this.inputs.classes.pins }));
  readonly #similarity = $derived.by((): SimilaritySpec | null => {
    const kind = this.inputs.sourceKind;
    if (kind === 'wordnet' || this.clipFallback || this.protoFallback) return this.#wordnetSpec;
    return kind === 'clip' ? this.#clipSpec : kind === 'prototypes' ? this.#protoSpec : this.#uploadSpec;
  });
  /** the sources the comparison offers */
  readonly compareOptions = $derived.by((): CompareOption[] => {
    const proto = this.protoDataset;
    return [
      { id: 'wordnet', label: 'WordNet', spec: this.#wordnetSpec },
      { id: 'clip', label: this.clipSource?.label ?? 'CLIP', spec: this.#clipSpec, unavailable: 'embed the class names under Similarity → CLIP first' },
      {
        id: 'upload',
        label: this.upload ? `Upload (${this.upload.fileName})` : 'Upload',
        spec: this.#uploadSpec,
        unavailable: 'upload a matrix or embeddings first',
      },
      {
        id: 'prototypes',
        label: this.featureSource.source !== 'pixels' ? 'Prototypes of the feature source' : proto ? `Image prototypes (${proto.name})` : 'Image prototypes',
        spec: this.#protoSpec,
        unavailable: proto
          ? 'choose Similarity → Image prototypes first (it reads the training images)'
          : `needs a built-in dataset with images: ${imageDatasetNames()}`,
      },
    ];
  });

  /** the similarity matrix of a source for the current classes (the comparison's) */
  matrixOf = async (spec: SimilaritySpec): Promise<number[][]> => {
    const { classes, sizes } = this.inputs;
    const v = await this.#client.compute({
      classes: classes.names.slice(),
      taskSizes: sizes.sizes.slice(),
      similarity: spec,
      options: { protocols: [], distribution: false },
    });
    return v.matrix;
  };

  // --- the request of the inputs on screen (null: they cannot be computed), and the worker's answer ---
  readonly #wanted = $derived.by((): Wanted | null => {
    const sim = this.#similarity;
    const { classes, sizes, seeds, protocols } = this.inputs;
    if (!classes.names.length || !sizes.sizes.length || seeds.error || !sim) return null;
    // (no $state.snapshot: nothing here is a proxy, and an upload's bytes are not copied on the main thread)
    const req = orderingsRequest({
      names: classes.names,
      sizes: sizes.sizes,
      similarity: sim,
      protocols,
      seeds: seeds.seeds,
      extras: JSON.parse(this.#extrasKey) as ProtocolExtras,
    });
    const source = sim.kind === 'wordnet' ? 'WordNet' : sim.kind === 'upload' ? `upload ${sim.fileName}` : sim.kind === 'embeddings' ? sim.label : 'a matrix';
    const made: ResultInputs = {
      datasetId: this.inputs.datasetId,
      datasetName: this.list?.name ?? 'custom class names',
      selected: this.inputs.indices.slice(),
      seeds: seeds.seeds.slice(),
      protocols,
      source,
    };
    return { req, key: requestKey(req), made };
  });
  readonly view = $derived.by(() => this.runner.view);
  readonly status = $derived.by(() =>
    resultStatus({ hasResult: !!this.view, resultKey: this.runner.resultKey, wantedKey: this.#wanted?.key ?? null, busy: this.runner.busy }),
  );
  /** the results on screen are the previous inputs': what those were, and why the current ones have none */
  readonly stale = $derived.by(() => {
    const { view, runner } = this;
    if (this.status !== 'stale' || !view || !runner.inputs) return null;
    const { classes, sizes, seeds } = this.inputs;
    return {
      was: describeInputs(runner.inputs, view.classes.length, view.taskSizes.length),
      why: staleReason({
        uploadMissing: this.uploadMissing?.name ?? null,
        inputError: classes.error || sizes.error || seeds.error,
        computeError: runner.error,
      }),
    };
  });
  // |Ω| of the inputs on screen: the result's while it is (or is about to be) theirs, else counted from their task
  // sizes; with invalid sizes the last result's stays, marked as the previous inputs'
  readonly omega = $derived.by(() => {
    const sizes = this.inputs.sizes.sizes;
    if (!this.view) return null;
    return this.status === 'stale' && sizes.length ? countOrderings(sizes).toString() : this.view.omega;
  });
  // the CLI command that prints the export's text, when the CLI can rebuild the similarity (a built-in list, WordNet)
  readonly command = $derived.by(() => {
    const made = this.runner.inputs;
    const view = this.view;
    if (!view || !made || made.datasetId === 'custom' || !view.similarityDescription.startsWith('WordNet')) return null;
    return (f: Parameters<typeof ordersCommand>[1]) =>
      ordersCommand({ dataset: made.datasetId, selected: made.selected, taskSizes: view.taskSizes, seeds: made.seeds, protocols: made.protocols }, f);
  });

  /** what the lab hands its entry's `apply`: the inputs, resolved, with the CLIP panel's settings and the upload's hash */
  readonly change = $derived.by((): OrderingsState => this.inputs.change({ clip: this.clipSettings, upload: this.upload?.ref ?? null }));

  /** An upload is used as soon as it is read; its content hash (for the share link) comes from the data worker
   * (hashing 300 MB here froze the page for seconds). */
  onUpload = async (file: File): Promise<void> => {
    const n = ++this.#uploadCount;
    const hash = this.#data.contentHash(file);
    const bytes = await this.#client.readUpload(file);
    if (n !== this.#uploadCount) return;
    this.upload = { fileName: file.name, bytes, ref: null };
    const contentHash = await hash.catch(() => null);
    if (n === this.#uploadCount && this.upload && contentHash) this.upload = { ...this.upload, ref: { name: file.name, contentHash } };
  };

  /**
   * The lab's effects (the kit calls this while the page initialises): a link opened over the page (followed in place,
   * so the previous experiment's results stay, marked as such, until the link's are computed) or another lab's
   * change to the experiment replaces the inputs, the config's WordNet pins reach them, the image prototypes are read when chosen, the worker
   * computes the latest request, and the backends used are reported for "What exactly ran".
   */
  attach(): void {
    const link = this.#link;
    // a link opened over the page, or another lab's change to the app's one experiment
    let revision = untrack(() => link.revision);
    $effect(() => {
      const config = link.config;
      const opened = link.revision !== revision;
      revision = link.revision;
      untrack(() => this.inputs.follow(config, this.change, opened));
    });
    $effect(() => {
      this.inputs.pinsKey = pinsKeyOf(link.config);
    });
    $effect(() => {
      const f = this.featureSource;
      this.prototypes.busyNote = f.source === 'pixels' ? '' : ` and computing the ${f.source === 'backbone' ? 'embedded backbone' : f.source}'s features`;
    });
    $effect(() => {
      const d = this.protoDataset;
      const key = this.#protoWanted;
      if (this.inputs.sourceKind === 'prototypes' && d && key) this.prototypes.want(d, $state.snapshot(this.inputs.indices), key);
    });
    $effect(() => {
      const w = this.#wanted;
      untrack(() => {
        if (!w) this.runner.idle();
        // the same request as the result on screen (a link that changed nothing here): nothing to compute
        else if (w.key === this.runner.resultKey) this.runner.idle(true);
        else this.runner.request(w.req, w.key, w.made);
      });
    });
    link.reportBackend('Orderings, S and protocols', 'JavaScript in a Web Worker (exact arithmetic; no GPU needed)');
    $effect(() => {
      const used = this.inputs.sourceKind === 'clip' && this.clipSource ? (this.clipSettings?.usedDevice ?? null) : null;
      link.reportBackend('CLIP text embedding', used === 'cache' ? 'embeddings from this browser’s cache (IndexedDB)' : used);
    });
  }

  /** the pause before a computation and any answer on its way are dropped; the orderings worker ends */
  dispose(): void {
    this.runner.dispose();
    this.#client.dispose();
  }
}
