/**
 * The Your-classes lab's state and actions (docs/science.md §10): the lab's section (class names in teaching order,
 * samples per class, strategy, seed, encoder), how many samples each class has in the store, the latest update's R
 * and verdict, and every ordering's result. Recording itself (the camera) is ./Recorder.svelte's; it hands each
 * sample here, which stores it at once and trains once a class is complete.
 */
import { classNameProblem, ownClassesOf, type OwnClassesConfig, type OwnStrategy } from '../../core/config/sections/own-classes';
import { finalOf, ownNamesEdge, type OwnEdge } from '../../core/own-classes/edge';
import { ownRsOrders } from '../../core/own-classes/rs';
import { ownSampleList } from '../../core/own-classes/settings';
import { edgeVerdict, orderingsHeadline, orderingsVerdict, rsVerdict, summariseOrderings, updateHeadline, updateVerdict } from '../../core/own-classes/verdict';
import type { OwnClassesObservation } from '../../core/lessons';
import type { Verdict } from '../../core/verdict/types';
import { readSamplesZip, writeSamplesZip } from '../../data/own-samples-zip';
import type { OwnClassesRunner, OwnProgress, OwnRun, OwnRunnerState } from '../../services/own-classes-runner';
import type { OwnSampleStore } from '../../services/own-classes-store';
import { encoderDownloadSize } from '../../services/feature-source';
import { settingsOfWeights, weightSourceOfSettings, type EncoderSettingsValue, type EncoderSize } from '../common/encoder-settings';
import type { ClipSettingsOut } from '../common/clip/clip-settings';
import { RunnerLab } from '../common/lab/runner-lab';

const verdictOf = (id: string, text: string, headline: string): Verdict => ({
  headline,
  sentences: [{ id, kind: 'finding', text }],
  provisional: false,
  provisionalNote: '',
});

/** Orderings trained at most (6 classes). */
export const MAX_ORDERING_CLASSES = 6;

export class OwnClassesLab extends RunnerLab<OwnClassesRunner> {
  cfg: OwnClassesConfig = $state(ownClassesOf({}));
  counts: Record<string, number> = $state({});
  /** object URLs of each class's latest samples (the thumbnail strip) */
  thumbs: Record<string, string[]> = $state({});
  newName = $state('');
  /** what the runner is doing now, in words (null: nothing running or paused) */
  busy: string | null = $state(null);
  /** the runner's session: status, runs done of total, seconds left (Pause / Resume / Cancel and the progress line) */
  session: Pick<OwnRunnerState, 'status' | 'done' | 'total' | 'etaSeconds' | 'current'> = $state({
    status: 'idle',
    done: 0,
    total: 0,
    etaSeconds: null,
    current: null,
  });
  error: string | null = $state(null);
  notice: string | null = $state(null);
  run: OwnRun | null = $state(null);
  /** the latest update of each strategy (what a lesson's check reads): its classes and R */
  byStrategy: Partial<Record<OwnStrategy, { classes: string[]; matrix: number[][] }>> = $state({});
  /** classes the shown run covers */
  trainedClasses: string[] = $state([]);
  orderings: OwnRun[] | null = $state(null);
  /** the classes the orderings shown cover, in teaching order */
  orderingClasses: string[] = $state([]);
  /** EDGE's hard and easy orderings of the classes the orderings cover, on their image prototypes */
  edge: OwnEdge | null = $state(null);
  /** the same on CLIP's text embeddings of the class names, once they are embedded (the names panel) */
  namesEdge: OwnEdge | null = $state(null);
  /** the names panel's description of those embeddings (model, precision, prompt) */
  namesSource: string | null = $state(null);
  /** ms from the first sample of the first class to the first result, and from the last class's completion to its bars */
  timings: { firstResultMs: number | null; lastUpdateMs: number | null } = $state({ firstResultMs: null, lastUpdateMs: null });
  /** the encoder's settings form (EncoderSettings.svelte), its download size once asked, and whether the visitor
   *  pressed its download button (a self-hosted folder needs none) */
  encoderForm: EncoderSettingsValue = $state({ model: '', revision: 'main', precision: 'q8', weights: 'hub', folder: '', mirror: '', device: 'wasm' });
  encoderSize: EncoderSize = $state(null);
  encoderApproved = $state(false);
  private firstSampleAt: number | null = null;
  private unsubscribe: () => void;

  constructor(
    private readonly store: OwnSampleStore,
    runner: OwnClassesRunner,
    initial: OwnClassesConfig | undefined,
    private readonly save: (c: OwnClassesConfig) => void,
    /** the experiment's RS seeds (`protocols.rsSeeds`), read when the orderings are shown */
    private readonly rsSeeds: () => readonly number[] = () => [0, 42, 1993],
    /** where a blank self-hosted folder points (the app's models/ folder) */
    private readonly defaultFolder = '/models/',
  ) {
    super(runner);
    this.cfg = ownClassesOf({ ownClasses: initial });
    const e = this.cfg.encoder;
    this.encoderForm = { ...this.encoderForm, model: e.model, precision: e.precision, ...settingsOfWeights(e.weights, defaultFolder) };
    this.encoderApproved = e.weights.kind === 'self-hosted';
    this.syncEncoderAccess();
    this.notice = store.notice;
    this.unsubscribe = runner.subscribe((st) => {
      this.session = { status: st.status, done: st.done, total: st.total, etaSeconds: st.etaSeconds, current: st.current };
      const active = st.status === 'running' || st.status === 'paused';
      this.busy = !active ? null : st.current?.progress ? this.progressText(st.current.progress) : 'Starting…';
    });
  }

  /** A start is in progress (running or paused): the buttons that would start another wait. */
  get active(): boolean {
    return this.session.status === 'running' || this.session.status === 'paused';
  }
  // pause, resume and cancel: RunnerLab (../common/lab/runner-lab.ts)

  get perClass(): number {
    return this.cfg.trainPerClass + this.cfg.testPerClass;
  }
  get nameProblem(): string | null {
    return this.newName === '' ? null : classNameProblem(this.newName.trim(), this.cfg.classes);
  }
  /** the classes with all their samples, in teaching order up to the first incomplete one */
  get completeClasses(): string[] {
    const out: string[] = [];
    for (const c of this.cfg.classes) {
      if ((this.counts[c] ?? 0) < this.perClass) break;
      out.push(c);
    }
    return out;
  }
  get updateVerdict(): Verdict | null {
    if (!this.run) return null;
    const u = updateVerdict(this.run.matrix, this.trainedClasses, this.cfg.strategy);
    return verdictOf('own-update', u.text, updateHeadline(u, this.trainedClasses.slice(0, this.run.matrix.length)));
  }
  get orderingsVerdict(): Verdict | null {
    if (!this.orderings) return null;
    const s = summariseOrderings(
      this.orderings.map((r) => r.finalAccuracy),
      0,
    );
    const v = verdictOf('own-orderings', orderingsVerdict(s, this.cfg.strategy), orderingsHeadline(s));
    if (this.edge) {
      const finals = this.edgeFinals!;
      v.sentences.push({ id: 'own-edge', kind: 'finding', text: edgeVerdict(this.edge, finals, s, this.orderingClasses) });
      v.sentences.push({ id: 'own-rs', kind: 'finding', text: rsVerdict(this.rsRuns!, finals, s) });
    }
    if (this.namesEdge)
      v.sentences.push({ id: 'own-edge-names', kind: 'finding', text: edgeVerdict(this.namesEdge, this.namesEdgeFinals!, s, this.orderingClasses, 'names') });
    return v;
  }
  /** EDGE's two orderings' final accuracies among every ordering's */
  get edgeFinals(): { hard: number; easy: number } | null {
    return this.finalsOf(this.edge);
  }
  get namesEdgeFinals(): { hard: number; easy: number } | null {
    return this.finalsOf(this.namesEdge);
  }
  private finalsOf(edge: OwnEdge | null): { hard: number; easy: number } | null {
    if (!this.orderings || !edge) return null;
    return { hard: finalOf(this.orderings, edge.hard), easy: finalOf(this.orderings, edge.easy) };
  }

  /**
   * The names panel's embeddings (one vector per class name, or null while there are none): EDGE on them when they
   * are of the classes the orderings cover, in that order.
   */
  setNameVectors(source: { classes: readonly string[]; vectors: readonly Float32Array[]; description: string } | null): void {
    const fits = source !== null && source.classes.length === this.orderingClasses.length && source.classes.every((c, i) => c === this.orderingClasses[i]);
    this.namesEdge = fits ? ownNamesEdge(source.vectors, source.classes) : null;
    this.namesSource = fits ? source.description : null;
  }

  /** The names panel's settings: kept in the section (the link) once they have embedded the names. */
  namesChanged(s: ClipSettingsOut | null): void {
    if (!s || !s.prompt || !s.weights || !this.namesEdge) return;
    const names = { model: s.model, dtype: s.dtype, prompt: s.prompt, weights: s.weights };
    if (JSON.stringify(names) === JSON.stringify(this.cfg.names)) return;
    this.cfg.names = names;
    this.commit();
  }
  /** RS's orderings (the experiment's RS seeds, drawn as the Ground-truth lab draws them) with their final accuracies */
  get rsRuns(): { seed: number; order: number[]; final: number }[] | null {
    if (!this.orderings) return null;
    const runs = this.orderings;
    return ownRsOrders(this.rsSeeds(), runs[0].order.length).map((r) => ({ ...r, final: finalOf(runs, r.order) }));
  }

  /** What a lesson on this lab checks: the latest update of each strategy shown (null before the first). */
  get observation(): OwnClassesObservation | null {
    const runs = Object.entries(this.byStrategy).map(([strategy, r]) => ({ strategy, classes: r!.classes, matrix: r!.matrix }));
    return runs.length > 0 ? { lab: 'own-classes', runs } : null;
  }

  /** Read the counts (and thumbnails) of the link's classes from the store. */
  async load(): Promise<void> {
    for (const c of this.cfg.classes) await this.refresh(c);
    if (this.completeClasses.length > 0) await this.train();
  }

  private async refresh(name: string): Promise<void> {
    const list = await this.store.samples(name);
    this.counts[name] = list.length;
    for (const u of this.thumbs[name] ?? []) URL.revokeObjectURL(u);
    this.thumbs[name] = list.slice(-12).map((s) => URL.createObjectURL(new Blob([s.bytes as BlobPart])));
  }

  private commit(): void {
    this.save($state.snapshot(this.cfg) as OwnClassesConfig);
  }

  private syncEncoderAccess(): void {
    this.runner.encoderAccess({
      allowed: this.encoderApproved ? ($state.snapshot(this.cfg.encoder) as OwnClassesConfig['encoder']) : null,
      device: this.encoderForm.device,
    });
  }

  /** A setting of the encoder changed: the section follows (the link), and a size asked or a download allowed no longer holds. */
  encoderChanged(): void {
    const f = this.encoderForm;
    const weights = weightSourceOfSettings(f, this.defaultFolder);
    this.cfg.encoder = {
      source: 'encoder',
      model: f.model.trim() || this.cfg.encoder.model,
      precision: f.precision as OwnClassesConfig['encoder']['precision'],
      weights,
    };
    this.commit();
    this.encoderSize = null;
    this.encoderApproved = weights.kind === 'self-hosted';
    this.syncEncoderAccess();
  }

  /** The encoder's download size, asked with HEAD requests (nothing downloads). */
  async askEncoderSize(): Promise<void> {
    this.encoderSize = null;
    const e = this.cfg.encoder;
    try {
      const got = await encoderDownloadSize({
        source: 'encoder',
        model: e.model,
        revision: 'main',
        precision: e.precision,
        weights: structuredClone($state.snapshot(e.weights)),
        device: this.encoderForm.device,
        allowRemote: true,
      } as Parameters<typeof encoderDownloadSize>[0]);
      this.encoderSize = { bytes: got.bytes };
    } catch (err) {
      this.encoderSize = { error: err instanceof Error ? err.message : String(err) };
    }
  }

  /** The download button: the encoder's weights may now come from the hub or the mirror; classes recorded already train. */
  async approveEncoder(): Promise<void> {
    this.encoderApproved = true;
    this.syncEncoderAccess();
    if (this.completeClasses.length > 0 && !this.active) await this.train();
  }

  addClass(): string | null {
    const name = this.newName.trim();
    const problem = classNameProblem(name, this.cfg.classes) ?? (this.cfg.classes.length >= 8 ? 'At most 8 classes.' : null);
    if (problem) return problem;
    this.cfg.classes.push(name);
    this.counts[name] = 0;
    this.thumbs[name] = [];
    this.newName = '';
    this.commit();
    return null;
  }

  /** A recorded or dropped sample: stored at once; the class's last sample trains the model. */
  async addSample(name: string, bytes: Uint8Array): Promise<void> {
    const index = this.counts[name] ?? 0;
    if (index >= this.perClass) return;
    if (this.firstSampleAt === null) this.firstSampleAt = performance.now();
    this.counts[name] = index + 1;
    await this.store.put({ name, index, bytes });
    const url = URL.createObjectURL(new Blob([bytes as BlobPart]));
    this.thumbs[name] = [...(this.thumbs[name] ?? []), url].slice(-12);
    if (index + 1 === this.perClass && this.completeClasses.includes(name)) await this.train();
  }

  async addFiles(name: string, files: readonly File[]): Promise<number> {
    let added = 0;
    for (const f of files) {
      if (!/^image\//.test(f.type) && !/\.(png|jpe?g|webp|gif|bmp)$/i.test(f.name)) continue;
      if ((this.counts[name] ?? 0) >= this.perClass) break;
      await this.addSample(name, new Uint8Array(await f.arrayBuffer()));
      added++;
    }
    return added;
  }

  progressText(p: OwnProgress): string {
    return p.stage === 'encode'
      ? `Computing features: ${p.done} of ${p.total} images`
      : p.stage === 'train'
        ? 'Training…'
        : `Every ordering: ${p.done} of ${p.total}`;
  }

  /** Train the teaching order on every complete class. */
  async train(): Promise<void> {
    const classes = this.completeClasses;
    if (classes.length === 0) return;
    const started = performance.now();
    this.error = null;
    try {
      const cfg = $state.snapshot(this.cfg) as OwnClassesConfig;
      const run = await this.runner.train(cfg, classes.length);
      // cancelled: the bars shown stay those of the last finished update
      if (!run) return;
      this.run = run;
      this.trainedClasses = classes;
      this.byStrategy[cfg.strategy] = { classes, matrix: run.matrix };
      this.orderings = null;
      const now = performance.now();
      // the first result: the first class's, from its first sample (a page reopened on recorded classes has none)
      if (classes.length === 1 && this.timings.firstResultMs === null && this.firstSampleAt !== null) this.timings.firstResultMs = now - this.firstSampleAt;
      this.timings.lastUpdateMs = now - started;
    } catch (e) {
      this.error = this.encoderError(e);
    }
  }

  /** A failure's message; before the download button was pressed, with what to do (the weights may simply not be here yet). */
  private encoderError(e: unknown): string {
    const message = e instanceof Error ? e.message : String(e);
    if (this.encoderApproved || !/load|fetch|download|not found|cache|remote/i.test(message)) return message;
    return `${message} The encoder's weights are not in this browser yet: under Encoder, press “Check the download size”, then the download button (your samples are kept).`;
  }

  async setStrategy(s: OwnStrategy): Promise<void> {
    this.cfg.strategy = s;
    this.commit();
    this.orderings = null;
    if (this.run) await this.train();
  }

  async everyOrdering(): Promise<void> {
    this.error = null;
    try {
      const cfg = $state.snapshot(this.cfg) as OwnClassesConfig;
      cfg.classes = this.completeClasses;
      if (cfg.classes.length < 2 || cfg.classes.length > MAX_ORDERING_CLASSES)
        throw new Error(`Every ordering needs 2 to ${MAX_ORDERING_CLASSES} complete classes; there are ${cfg.classes.length}.`);
      const out = await this.runner.orderings(cfg);
      // cancelled: no half set of orderings is shown (the finished ones are kept for the next start)
      if (!out) return;
      this.orderings = out.runs;
      this.orderingClasses = cfg.classes;
      this.edge = out.edge;
      this.namesEdge = null;
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
  }

  async exportZip(): Promise<Uint8Array> {
    const classes = [];
    for (const name of this.cfg.classes) {
      const list = (await this.store.samples(name)).map((s) => s.bytes);
      classes.push({ name, train: list.slice(0, this.cfg.trainPerClass), test: list.slice(this.cfg.trainPerClass) });
    }
    return writeSamplesZip(classes);
  }

  /** Classes of a samples zip added after the existing ones (a class already here is left as it is). */
  async importZip(bytes: Uint8Array, fileName: string): Promise<string> {
    this.error = null;
    let classes;
    try {
      classes = readSamplesZip(bytes, fileName);
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
      return '';
    }
    const added: string[] = [];
    const skipped: string[] = [];
    for (const c of classes) {
      const problem = classNameProblem(c.name, this.cfg.classes) ?? (this.cfg.classes.length >= 8 ? 'At most 8 classes.' : null);
      if (problem) {
        skipped.push(`“${c.name}” (${problem})`);
        continue;
      }
      this.cfg.classes.push(c.name);
      const all = ownSampleList(c.train, c.test, this.cfg.trainPerClass, this.cfg.testPerClass);
      for (let i = 0; i < all.length; i++) await this.store.put({ name: c.name, index: i, bytes: all[i] });
      await this.refresh(c.name);
      added.push(c.name);
    }
    this.commit();
    await this.train();
    return `Imported ${added.length} class${added.length === 1 ? '' : 'es'}${skipped.length ? `; left out ${skipped.join(', ')}` : ''}.`;
  }

  /**
   * One class removed (a recording gone wrong): its samples deleted from this browser, its features forgotten, the
   * classes after it move up one task, and the model updates on what is left.
   */
  async removeClass(name: string): Promise<void> {
    if (this.active || !this.cfg.classes.includes(name)) return;
    await this.store.forget(name);
    this.runner.forgetFeatures(name);
    for (const u of this.thumbs[name] ?? []) URL.revokeObjectURL(u);
    this.cfg.classes = this.cfg.classes.filter((c) => c !== name);
    delete this.counts[name];
    delete this.thumbs[name];
    this.orderings = null;
    this.byStrategy = {};
    this.commit();
    if (this.completeClasses.length > 0) await this.train();
    else {
      this.run = null;
      this.trainedClasses = [];
    }
  }

  /** "Forget my samples": every sample deleted from this browser, the classes and results cleared. */
  async forgetAll(): Promise<void> {
    this.runner.cancel();
    await this.store.forget(null);
    this.runner.forgetFeatures(null);
    for (const list of Object.values(this.thumbs)) for (const u of list) URL.revokeObjectURL(u);
    this.cfg.classes = [];
    this.counts = {};
    this.thumbs = {};
    this.run = null;
    this.orderings = null;
    this.trainedClasses = [];
    this.byStrategy = {};
    this.commit();
  }

  dispose(): void {
    this.runner.cancel();
    this.unsubscribe();
    for (const list of Object.values(this.thumbs)) for (const u of list) URL.revokeObjectURL(u);
  }
}
