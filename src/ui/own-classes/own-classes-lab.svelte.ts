/**
 * The Your-classes lab's state and actions (docs/science.md §10), on its classes and samples
 * (./own-samples-lab.svelte.ts, on the encoder's readiness ./own-encoder-lab.svelte.ts): the runner's progress, the
 * history of R (rows stored once, src/core/own-classes/history.ts) with what changed, the strategy, every ordering's
 * result with EDGE on the images and on the class names, the joint head, and the verdicts and lesson observation on
 * them.
 */
import { ownSizeProblem, type OwnClassesConfig, type OwnStrategy } from '../../core/labs/own-classes/section';
import { ownNamesEdge, type OwnEdge } from '../../core/own-classes/edge';
import { changeText, matrixOf, type HistoryRow } from '../../core/own-classes/history';
import { orderingsSentences, type OwnOrderingsResult } from '../../core/own-classes/orders';
import { jointVerdict, orderingsHeadline, updateHeadline, updateVerdict } from '../../core/own-classes/verdict';
import type { OwnClassesObservation } from '../../core/lessons';
import type { Verdict } from '../../core/verdict/types';
import type { OwnClassesRunner, OwnClassRef, OwnProgress, OwnRunnerState } from '../../services/own-classes-runner';
import type { OwnSampleStore } from '../../services/own-classes-store';
import type { ClipSettingsOut } from '../../core/similarity/clip-panel';
import { BROWSER_PROBE, type EncoderProbe } from './own-encoder-lab.svelte';
import { OwnSamplesLab } from './own-samples-lab.svelte';

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

export class OwnClassesLab extends OwnSamplesLab {
  /** what the runner is doing now, in words (null: nothing running or paused) */
  busy: string | null = $state(null);
  session: Pick<OwnRunnerState, 'status' | 'done' | 'total' | 'etaSeconds' | 'current'> = $state({
    status: 'idle',
    done: 0,
    total: 0,
    etaSeconds: null,
    current: null,
  });
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
  private busyTimer: ReturnType<typeof setTimeout> | null = null;
  private unsubscribe: () => void;

  constructor(
    store: OwnSampleStore,
    runner: OwnClassesRunner,
    initial: OwnClassesConfig | undefined,
    save: (c: OwnClassesConfig) => void,
    /** the experiment's RS seeds (`protocols.rsSeeds`), read when the orderings are shown */
    private readonly rsSeeds: () => readonly number[] = () => [0, 42, 1993],
    /** where a blank self-hosted folder points (the app's models/ folder) */
    defaultFolder = '/models/',
    probe: EncoderProbe = BROWSER_PROBE,
  ) {
    super(store, runner, initial, save, defaultFolder, probe);
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
  /** R of the history (rows of the classes taught so far) */
  get matrix(): number[][] {
    return matrixOf(this.rows);
  }
  get trainedClasses(): string[] {
    return this.rows.at(-1)?.classes ?? [];
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
    this.set({ fps });
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

  /**
   * One class removed (a recording gone wrong): its samples deleted from this browser, its features forgotten, the
   * classes after it move up one task, and the rows from its place on are computed again (the page says so).
   */
  async removeClass(name: string): Promise<void> {
    if (this.active || !this.cfg.classes.includes(name)) return;
    await this.dropClass(name);
    this.orderings = null;
    this.byStrategy = {};
    this.commit();
    await this.saveClassList();
    if (this.completeClasses.length > 0) await this.teach();
    else {
      this.rows = [];
      this.changed = null;
    }
  }

  /** "Forget my samples": every sample, feature and stored row deleted from this browser, the classes and results cleared. */
  async forgetAll(): Promise<void> {
    this.runner.cancel();
    await this.dropAll();
    this.rows = [];
    this.changed = null;
    this.orderings = null;
    this.joint = null;
    this.byStrategy = {};
    this.commit();
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
    this.revokeThumbs();
  }
}
