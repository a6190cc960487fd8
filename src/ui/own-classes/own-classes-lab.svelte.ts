/**
 * The Your-classes lab's state and actions (docs/science.md §10): the lab's section (class names in teaching order,
 * samples per class, strategy, seed, encoder, frames a second), the classes stored in this browser (the truth: a link
 * names classes, the store holds their samples), each class's count and fingerprint, the history of R (rows stored
 * once, src/core/own-classes/history.ts) with what changed, every ordering's result and the joint head, on the
 * encoder's readiness (./own-encoder-lab.svelte.ts). Recording itself (the camera) is
 * ./Recorder.svelte's; it hands each sample here, which stores it at once, has its features computed while recording
 * goes on, and adds the class once it is complete.
 */
import {
  classNameProblem,
  ownClassesOf,
  ownSizeProblem,
  isHeadStrategy,
  OWN_LIMITS,
  type OwnClassesConfig,
  type OwnStrategy,
} from '../../core/config/sections/own-classes';
import { ownNamesEdge, type OwnEdge } from '../../core/own-classes/edge';
import { changeText, matrixOf, sampleFingerprint, type HistoryRow } from '../../core/own-classes/history';
import { orderingsSentences, type OwnOrderingsResult } from '../../core/own-classes/orders';
import { ownSampleList } from '../../core/own-classes/settings';
import { jointVerdict, orderingsHeadline, updateHeadline, updateVerdict } from '../../core/own-classes/verdict';
import type { OwnClassesObservation } from '../../core/lessons';
import type { Verdict } from '../../core/verdict/types';
import { readSamplesZip, writeSamplesZip } from '../../data/own-samples-zip';
import type { OwnClassesRunner, OwnClassRef, OwnProgress, OwnRunnerState } from '../../services/own-classes-runner';
import type { OwnSampleStore, StoredClass } from '../../services/own-classes-store';
import type { ClipSettingsOut } from '../common/clip/clip-settings';
import { BROWSER_PROBE, OwnEncoderLab, type EncoderProbe } from './own-encoder-lab.svelte';

export type { EncoderProbe } from './own-encoder-lab.svelte';

const verdictOf = (headline: string, sentences: { id: string; text: string }[]): Verdict => ({
  headline,
  sentences: sentences.map((s) => ({ ...s, kind: 'finding' as const })),
  provisional: false,
  provisionalNote: '',
});

/** A start shows its progress box once it has run this long. */
const BUSY_AFTER_MS = 250;

/** Thumbnails kept per class, and of how many of the latest classes (the rest show their count only). */
const THUMBS = 6;
const THUMB_CLASSES = 8;

export class OwnClassesLab extends OwnEncoderLab {
  counts: Record<string, number> = $state({});
  /** object URLs of the latest samples of the latest classes (the thumbnail strips) */
  thumbs: Record<string, string[]> = $state({});
  /** each complete class's sample fingerprint (the history's rows name them) */
  prints: Record<string, string> = $state({});
  newName = $state('');
  /** classes stored in this browser that the lab does not list (offered to restore), with their counts */
  stored: { name: string; count: number }[] = $state([]);
  /** classes the link names whose samples are not in this browser */
  missing: string[] = $state([]);
  /** what the runner is doing now, in words (null: nothing running or paused) */
  busy: string | null = $state(null);
  session: Pick<OwnRunnerState, 'status' | 'done' | 'total' | 'etaSeconds' | 'current'> = $state({
    status: 'idle',
    done: 0,
    total: 0,
    etaSeconds: null,
    current: null,
  });
  error: string | null = $state(null);
  notice: string | null = $state(null);
  /** the history's rows that stand (R of the teaching order, one row per class taught) */
  rows: HistoryRow[] = $state([]);
  /** which rows were computed again and why (null: none) */
  changed: string | null = $state(null);
  /** the latest update of each strategy (what a lesson's check reads): its classes and R */
  byStrategy: Partial<Record<OwnStrategy, { classes: string[]; matrix: number[][] }>> = $state({});
  orderings: OwnOrderingsResult | null = $state(null);
  /** the classes the orderings cover, in teaching order */
  orderingClasses: string[] = $state([]);
  edge: OwnEdge | null = $state(null);
  namesEdge: OwnEdge | null = $state(null);
  namesSource: string | null = $state(null);
  /** the joint head's accuracy on the classes it covers */
  joint: { classes: string[]; accuracy: number } | null = $state(null);
  /** ms from the first sample of the first class to the first result, and from a class's last sample to its row */
  timings: {
    firstResultMs: number | null;
    lastUpdateMs: number | null;
    lastClass: string | null;
    /** of the last update: waiting for the last features, computing the row(s) */
    phases: { features: number; rows: number } | null;
  } = $state({ firstResultMs: null, lastUpdateMs: null, lastClass: null, phases: null });
  private firstSampleAt: number | null = null;
  /** the bytes of the samples of the classes being recorded now (for their fingerprint, without reading them back) */
  private recorded = new Map<string, Uint8Array[]>();
  private busyTimer: ReturnType<typeof setTimeout> | null = null;
  private unsubscribe: () => void;

  constructor(
    private readonly store: OwnSampleStore,
    runner: OwnClassesRunner,
    initial: OwnClassesConfig | undefined,
    save: (c: OwnClassesConfig) => void,
    /** the experiment's RS seeds (`protocols.rsSeeds`), read when the orderings are shown */
    private readonly rsSeeds: () => readonly number[] = () => [0, 42, 1993],
    /** where a blank self-hosted folder points (the app's models/ folder) */
    defaultFolder = '/models/',
    probe: EncoderProbe = BROWSER_PROBE,
  ) {
    super(runner, save, defaultFolder, probe);
    this.cfg = ownClassesOf({ ownClasses: initial });
    this.formFromConfig();
    this.encoderApproved = this.cfg.encoder.weights.kind === 'self-hosted';
    this.syncEncoderAccess();
    this.notice = store.notice;
    this.unsubscribe = runner.subscribe((st) => {
      this.session = { status: st.status, done: st.done, total: st.total, etaSeconds: st.etaSeconds, current: st.current };
      const active = st.status === 'running' || st.status === 'paused';
      const text = !active ? null : st.current?.progress ? this.progressText(st.current.progress) : 'Starting…';
      // a start that ends within BUSY_AFTER_MS (adding a class to a closed-form head) shows no progress box: no
      // flash, and no page laid out again while the row is computed
      if (this.busyTimer !== null) clearTimeout(this.busyTimer);
      this.busyTimer = null;
      if (text === null || this.busy !== null || st.status === 'paused') this.busy = text;
      else this.busyTimer = setTimeout(() => (this.busy = this.session.status === 'running' || this.session.status === 'paused' ? text : null), BUSY_AFTER_MS);
    });
  }

  get active(): boolean {
    return this.session.status === 'running' || this.session.status === 'paused';
  }
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
      if ((this.counts[c] ?? 0) < this.perClass || this.prints[c] === undefined) break;
      out.push(c);
    }
    return out;
  }
  /** R of the history (rows of the classes taught so far) */
  get matrix(): number[][] {
    return matrixOf(this.rows);
  }
  get trainedClasses(): string[] {
    return this.rows.at(-1)?.classes ?? [];
  }
  /** why another class cannot be added now (the strategy's or the set's bound), or null */
  get sizeProblem(): string | null {
    return ownSizeProblem(this.cfg.classes.length + 1, this.perClass, this.cfg.strategy)?.message ?? null;
  }
  get updateVerdict(): Verdict | null {
    if (this.rows.length === 0) return null;
    const update = updateVerdict(this.matrix, this.trainedClasses, this.cfg.strategy);
    const sentences = [{ id: 'own-update', text: update.text }];
    const j = this.joint;
    if (j && j.classes.length === this.trainedClasses.length && j.classes.every((c, i) => c === this.trainedClasses[i])) {
      const last = this.rows.at(-1)!;
      const final = last.row.reduce((s, a, k) => s + a * last.testCounts[k], 0) / last.testCounts.reduce((s, n) => s + n, 0);
      sentences.push({ id: 'own-joint', text: jointVerdict(j.accuracy, final, this.cfg.strategy, j.classes.length) });
    }
    return verdictOf(updateHeadline(update, this.trainedClasses.slice(0, this.rows.length)), sentences);
  }
  get orderingsVerdict(): Verdict | null {
    if (!this.orderings) return null;
    const headline = orderingsHeadline(this.orderings.overview, this.cfg.strategy, this.orderingClasses.length);
    return verdictOf(headline, orderingsSentences(this.orderings, this.cfg.strategy, this.orderingClasses));
  }

  /** What a lesson on this lab checks: the latest update of each strategy shown (null before the first). */
  get observation(): OwnClassesObservation | null {
    const runs = Object.entries(this.byStrategy).map(([strategy, r]) => ({ strategy, classes: r!.classes, matrix: r!.matrix }));
    return runs.length > 0 ? { lab: 'own-classes', runs } : null;
  }

  /**
   * Open the lab: the classes the link names are restored from this browser's samples (those not here are said),
   * the classes stored here that the link does not name are offered, and the encoder's readiness is asked.
   */
  async load(): Promise<void> {
    const here = await this.store.classes();
    const byName = new Map(here.map((c) => [c.name, c]));
    const counts = new Map<string, number>();
    for (const c of here) counts.set(c.name, await this.store.count(c.name));
    this.missing = this.cfg.classes.filter((c) => !counts.get(c));
    this.stored = here
      .filter((c) => !this.cfg.classes.includes(c.name) && (counts.get(c.name) ?? 0) > 0)
      .map((c) => ({ name: c.name, count: counts.get(c.name)! }));
    await this.store.saveClasses([...this.cfg.classes, ...this.stored.map((s) => s.name)]);
    for (const [i, c] of this.cfg.classes.entries()) {
      this.counts[c] = counts.get(c) ?? 0;
      await this.settle(c, byName.get(c), i >= this.cfg.classes.length - THUMB_CLASSES);
    }
    void this.checkEncoder();
    if (this.completeClasses.length > 0) await this.teach();
  }

  /** A class's fingerprint once complete (kept in the store), and its thumbnails when asked. */
  private async settle(name: string, record: StoredClass | undefined, thumbs: boolean): Promise<void> {
    const complete = (this.counts[name] ?? 0) >= this.perClass;
    if (complete && record?.fingerprint?.per === this.perClass) this.prints[name] = record.fingerprint.value;
    const needList = thumbs || (complete && this.prints[name] === undefined);
    if (!needList) return;
    const list = await this.store.samples(name);
    if (complete && this.prints[name] === undefined)
      await this.fingerprint(
        name,
        list.slice(0, this.perClass).map((s) => s.bytes),
      );
    if (thumbs)
      this.setThumbs(
        name,
        list.slice(-THUMBS).map((s) => s.bytes),
      );
  }

  private async fingerprint(name: string, bytes: readonly Uint8Array[]): Promise<void> {
    const value = sampleFingerprint(bytes);
    this.prints[name] = value;
    await this.store.setFingerprint(name, { per: this.perClass, value });
  }

  private setThumbs(name: string, bytes: readonly Uint8Array[]): void {
    for (const u of this.thumbs[name] ?? []) URL.revokeObjectURL(u);
    this.thumbs[name] = bytes.map((b) => URL.createObjectURL(new Blob([b as BlobPart])));
  }

  /** Restore classes stored here (all offered, or one) after the listed ones. */
  async restore(names: readonly string[] = this.stored.map((s) => s.name)): Promise<void> {
    const room = OWN_LIMITS.classes - this.cfg.classes.length;
    const take = names.filter((n) => this.stored.some((s) => s.name === n)).slice(0, Math.max(0, room));
    if (take.length === 0) return;
    const problem = ownSizeProblem(this.cfg.classes.length + take.length, this.perClass, this.cfg.strategy);
    if (problem) {
      this.error = problem.message;
      return;
    }
    for (const n of take) {
      this.cfg.classes.push(n);
      this.counts[n] = this.stored.find((s) => s.name === n)!.count;
    }
    this.stored = this.stored.filter((s) => !take.includes(s.name));
    this.commit();
    const here = new Map((await this.store.classes()).map((c) => [c.name, c]));
    for (const n of take) await this.settle(n, here.get(n), this.cfg.classes.indexOf(n) >= this.cfg.classes.length - THUMB_CLASSES);
    await this.store.saveClasses([...this.cfg.classes, ...this.stored.map((s) => s.name)]);
    if (this.completeClasses.length > 0) await this.teach();
  }

  addClass(): string | null {
    const name = this.newName.trim();
    const problem = classNameProblem(name, this.cfg.classes) ?? this.sizeProblem ?? this.storedProblem(name);
    if (problem) return problem;
    this.cfg.classes.push(name);
    this.counts[name] = 0;
    this.thumbs[name] = [];
    this.newName = '';
    this.commit();
    void this.store.saveClasses([...this.cfg.classes, ...this.stored.map((s) => s.name)]);
    return null;
  }

  /** A name taken by a class stored here but not listed: its samples would mix with the new ones. */
  private storedProblem(name: string): string | null {
    return this.stored.some((s) => s.name === name)
      ? `This browser already holds samples of “${name}” (offered above): restore them, or forget them first.`
      : null;
  }

  /** A recorded or dropped sample: stored at once, its features computed now; the class's last sample adds the class. */
  async addSample(name: string, bytes: Uint8Array): Promise<void> {
    const index = this.counts[name] ?? 0;
    if (index >= this.perClass) return;
    const taken = performance.now();
    if (this.firstSampleAt === null) this.firstSampleAt = taken;
    this.counts[name] = index + 1;
    const kept = this.recorded.get(name) ?? [];
    // the samples of this visit, in order from the first: a class begun before a reload is read back instead
    if (kept.length === index) this.recorded.set(name, [...kept, bytes]);
    await this.store.put({ name, index, bytes });
    this.runner.sampleAdded($state.snapshot(this.cfg) as OwnClassesConfig, name, index, bytes);
    const url = URL.createObjectURL(new Blob([bytes as BlobPart]));
    const thumbs = this.thumbs[name] ?? [];
    if (thumbs.length >= THUMBS) URL.revokeObjectURL(thumbs[0]);
    this.thumbs[name] = [...thumbs, url].slice(-THUMBS);
    if (index + 1 !== this.perClass) return;
    const here = this.recorded.get(name);
    this.recorded.delete(name);
    await this.fingerprint(name, here?.length === this.perClass ? here : (await this.store.samples(name)).slice(0, this.perClass).map((s) => s.bytes));
    if (this.completeClasses.includes(name)) await this.teach(taken, name);
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
    switch (p.stage) {
      case 'encode':
        return `Computing features: ${p.done} of ${p.total} images`;
      case 'train':
        return p.total > 1 ? `Computing R: ${p.done} of ${p.total} rows` : 'Training…';
      case 'joint':
        return 'Training a head on every class at once…';
      default:
        return p.total > 0 ? `Orderings: ${p.done.toLocaleString('en')} of ${p.total.toLocaleString('en')}` : 'Orderings…';
    }
  }

  private refs(names: readonly string[]): OwnClassRef[] {
    return names.map((name) => ({ name, fingerprint: this.prints[name] }));
  }

  /**
   * The history of every complete class: stored rows are shown as they are, missing ones computed and stored.
   * `since`/`last`: the moment the last sample of class `last` was taken (the time to its row is shown).
   */
  async teach(since: number | null = null, last: string | null = null): Promise<void> {
    const classes = this.completeClasses;
    if (classes.length === 0) return;
    this.error = null;
    try {
      const cfg = $state.snapshot(this.cfg) as OwnClassesConfig;
      const out = await this.runner.teach(cfg, this.refs(classes));
      // cancelled: the table shown stays that of the last finished update
      if (!out) return;
      this.rows = out.rows;
      this.changed = out.changed ? changeText(out.changed, classes) : null;
      this.byStrategy[cfg.strategy] = { classes, matrix: this.matrix };
      if (this.orderingClasses.join('\u0000') !== classes.join('\u0000')) this.orderings = null;
      const now = performance.now();
      if (classes.length === 1 && this.timings.firstResultMs === null && this.firstSampleAt !== null) this.timings.firstResultMs = now - this.firstSampleAt;
      if (since !== null) this.timings = { ...this.timings, lastUpdateMs: now - since, lastClass: last, phases: out.phases };
    } catch (e) {
      this.error = this.encoderError(e);
    }
  }

  async setStrategy(s: OwnStrategy): Promise<void> {
    const problem = ownSizeProblem(this.cfg.classes.length, this.perClass, s);
    if (problem) {
      this.error = problem.message;
      return;
    }
    this.cfg.strategy = s;
    this.commit();
    this.orderings = null;
    if (this.rows.length > 0 || this.completeClasses.length > 0) await this.teach();
  }

  /** Frames a second while recording. */
  setFps(fps: number): void {
    this.cfg.fps = fps;
    this.commit();
  }

  /** Every ordering of the complete classes (or a seeded sample of them), with EDGE's and RS's picks. */
  async everyOrdering(): Promise<void> {
    this.error = null;
    try {
      const cfg = $state.snapshot(this.cfg) as OwnClassesConfig;
      const classes = this.completeClasses;
      if (classes.length < 2) throw new Error(`Orderings need at least 2 complete classes; there are ${classes.length}.`);
      const namesEdge = this.namesEdge && this.sameClasses(classes) ? ($state.snapshot(this.namesEdge) as OwnEdge) : null;
      const out = await this.runner.orderings(cfg, this.refs(classes), [...this.rsSeeds()], namesEdge);
      if (!out) return;
      this.orderings = out.result;
      this.edge = out.edge;
      if (!this.sameClasses(classes)) {
        this.namesEdge = null;
        this.namesSource = null;
      }
      this.orderingClasses = classes;
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
  }

  private sameClasses(classes: readonly string[]): boolean {
    return classes.length === this.orderingClasses.length && classes.every((c, i) => c === this.orderingClasses[i]);
  }

  /**
   * The names panel's embeddings (one vector per class name, or null while there are none): EDGE on them when they
   * are of the classes the orderings cover, in that order; their picks' numbers are then computed.
   */
  setNameVectors(source: { classes: readonly string[]; vectors: readonly Float32Array[]; description: string } | null): void {
    const fits = source !== null && this.orderingClasses.length > 0 && this.sameClasses(source.classes);
    const edge = fits ? ownNamesEdge(source.vectors, source.classes) : null;
    const changed = JSON.stringify(edge) !== JSON.stringify(this.namesEdge);
    this.namesEdge = edge;
    this.namesSource = fits ? source.description : null;
    if (changed && this.orderings && !this.active) void this.everyOrdering();
  }

  /** The names panel's settings: kept in the section (the link) once they have embedded the names. */
  namesChanged(s: ClipSettingsOut | null): void {
    if (!s || !s.prompt || !s.weights || !this.namesEdge) return;
    const names = { model: s.model, dtype: s.dtype, prompt: s.prompt, weights: s.weights };
    if (JSON.stringify(names) === JSON.stringify(this.cfg.names)) return;
    this.cfg.names = names;
    this.commit();
  }

  /** The joint head on the classes taught (the same head and training, every class at once). */
  async computeJoint(): Promise<void> {
    this.error = null;
    try {
      const classes = this.trainedClasses;
      const accuracy = await this.runner.joint($state.snapshot(this.cfg) as OwnClassesConfig, this.refs(classes));
      if (accuracy !== null) this.joint = { classes: [...classes], accuracy };
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
    const started = performance.now();
    const added: string[] = [];
    const skipped: string[] = [];
    for (const c of classes) {
      const problem =
        classNameProblem(c.name, this.cfg.classes) ??
        this.storedProblem(c.name) ??
        ownSizeProblem(this.cfg.classes.length + 1, this.perClass, this.cfg.strategy)?.message ??
        null;
      if (problem) {
        skipped.push(`“${c.name}” (${problem})`);
        continue;
      }
      const all = ownSampleList(c.train, c.test, this.cfg.trainPerClass, this.cfg.testPerClass);
      this.cfg.classes.push(c.name);
      for (let i = 0; i < all.length; i++) await this.store.put({ name: c.name, index: i, bytes: all[i] });
      this.counts[c.name] = all.length;
      if (all.length >= this.perClass) await this.fingerprint(c.name, all.slice(0, this.perClass));
      added.push(c.name);
    }
    await this.store.saveClasses([...this.cfg.classes, ...this.stored.map((s) => s.name)]);
    for (const name of this.cfg.classes.slice(-THUMB_CLASSES))
      if (added.includes(name))
        this.setThumbs(
          name,
          (await this.store.samples(name)).slice(-THUMBS).map((s) => s.bytes),
        );
    this.commit();
    await this.teach();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    return `Imported ${added.length} class${added.length === 1 ? '' : 'es'}${added.length > 8 ? ` in ${seconds} s` : ''}${skipped.length ? `; left out ${skipped.slice(0, 3).join(', ')}${skipped.length > 3 ? ` and ${skipped.length - 3} more` : ''}` : ''}.`;
  }

  /**
   * One class removed (a recording gone wrong): its samples deleted from this browser, its features forgotten, the
   * classes after it move up one task, and the rows from its place on are computed again (the page says so).
   */
  async removeClass(name: string): Promise<void> {
    if (this.active || !this.cfg.classes.includes(name)) return;
    await this.store.forget(name);
    this.runner.forgetFeatures(name);
    this.recorded.delete(name);
    for (const u of this.thumbs[name] ?? []) URL.revokeObjectURL(u);
    this.cfg.classes = this.cfg.classes.filter((c) => c !== name);
    delete this.counts[name];
    delete this.thumbs[name];
    delete this.prints[name];
    this.orderings = null;
    this.byStrategy = {};
    this.commit();
    await this.store.saveClasses([...this.cfg.classes, ...this.stored.map((s) => s.name)]);
    if (this.completeClasses.length > 0) await this.teach();
    else {
      this.rows = [];
      this.changed = null;
    }
  }

  /** Forget the classes stored here that the lab does not list (their samples, features and records). */
  async forgetStored(): Promise<void> {
    for (const s of this.stored) {
      await this.store.forget(s.name);
      this.runner.forgetFeatures(s.name);
    }
    this.stored = [];
  }

  /** "Forget my samples": every sample, feature and stored row deleted from this browser, the classes and results cleared. */
  async forgetAll(): Promise<void> {
    this.runner.cancel();
    await this.store.forget(null);
    this.runner.forgetFeatures(null);
    this.recorded.clear();
    for (const list of Object.values(this.thumbs)) for (const u of list) URL.revokeObjectURL(u);
    this.cfg.classes = [];
    this.counts = {};
    this.thumbs = {};
    this.prints = {};
    this.stored = [];
    this.missing = [];
    this.rows = [];
    this.changed = null;
    this.orderings = null;
    this.joint = null;
    this.byStrategy = {};
    this.commit();
  }

  /** The trained head's bound in words (shown beside the strategies). */
  get headBound(): string {
    return `Fine-tune and Replay train a head again for every class: up to ${OWN_LIMITS.headClasses} classes. SimpleCIL, NCM, FeCAM and RanPAC compute each class's statistics once: up to ${OWN_LIMITS.classes}.`;
  }

  /** Whether a strategy can take the classes listed now. */
  strategyFits(s: OwnStrategy): boolean {
    return !isHeadStrategy(s) || this.cfg.classes.length <= OWN_LIMITS.headClasses;
  }

  protected async encoderReady(): Promise<void> {
    if (this.completeClasses.length > 0 && !this.active) await this.teach();
  }

  protected encoderSwitched(): void {
    this.orderings = null;
  }

  dispose(): void {
    if (this.busyTimer !== null) clearTimeout(this.busyTimer);
    this.runner.cancel();
    this.unsubscribe();
    for (const list of Object.values(this.thumbs)) for (const u of list) URL.revokeObjectURL(u);
  }
}
