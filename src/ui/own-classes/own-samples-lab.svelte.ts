/**
 * The Your-classes lab's classes and their samples (docs/science.md §10), on the encoder's readiness
 * (./own-encoder-lab.svelte.ts): the classes stored in this browser are the truth (a link names classes, the store
 * holds their samples), each class's count, thumbnails and fingerprint, the classes stored here that the link does not
 * list (offered to restore) and those it lists that are not here (said); adding, recording, dropping, importing,
 * exporting, removing and forgetting samples. Recording itself (the camera) is ./Recorder.svelte's; it hands each
 * sample here, which stores it at once, has its features computed while recording goes on, and adds the class once it
 * is complete. ./own-classes-lab.svelte.ts builds the lab on it: the history of R, every ordering, the joint head.
 */
import { classNameProblem, ownSizeProblem, isHeadStrategy, OWN_LIMITS, type OwnClassesConfig, type OwnStrategy } from '../../core/labs/own-classes/section';
import { sampleFingerprint } from '../../core/own-classes/history';
import { ownSampleList } from '../../core/own-classes/settings';
import { readSamplesZip, writeSamplesZip } from '../../data/own-samples-zip';
import type { OwnClassesRunner } from '../../services/own-classes-runner';
import type { OwnSampleStore, StoredClass } from '../../services/own-classes-store';
import { OwnEncoderLab, type EncoderProbe } from './own-encoder-lab.svelte';

/** Thumbnails kept per class, and of how many of the latest classes (the rest show their count only). */
const THUMBS = 6;
const THUMB_CLASSES = 8;

export abstract class OwnSamplesLab extends OwnEncoderLab {
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
  error: string | null = $state(null);
  notice: string | null = $state(null);
  /** when the first sample of this visit was taken (the time to the first result is shown) */
  protected firstSampleAt: number | null = null;
  /** the bytes of the samples of the classes being recorded now (for their fingerprint, without reading them back) */
  private recorded = new Map<string, Uint8Array[]>();

  constructor(
    private readonly store: OwnSampleStore,
    runner: OwnClassesRunner,
    initial: OwnClassesConfig | undefined,
    save: (c: OwnClassesConfig) => void,
    defaultFolder: string,
    probe: EncoderProbe,
  ) {
    super(runner, initial, save, defaultFolder, probe);
    this.notice = store.notice;
  }

  /** A run is going on or paused (a class is not removed under it). */
  abstract get active(): boolean;
  /**
   * The history of every complete class (./own-classes-lab.svelte.ts). `since`/`last`: the moment the last sample of
   * class `last` was taken.
   */
  abstract teach(since?: number | null, last?: string | null): Promise<void>;

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
  /** why another class cannot be added now (the strategy's or the set's bound), or null */
  get sizeProblem(): string | null {
    return ownSizeProblem(this.cfg.classes.length + 1, this.perClass, this.cfg.strategy)?.message ?? null;
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
    await this.saveClassList();
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
    await this.saveClassList();
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
    void this.saveClassList();
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
    await this.saveClassList();
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

  /** The class list as this browser keeps it: the lab's classes, then those stored here that it does not list. */
  protected async saveClassList(): Promise<void> {
    await this.store.saveClasses([...this.cfg.classes, ...this.stored.map((s) => s.name)]);
  }

  /** One class's samples deleted from this browser, its features forgotten, and the class taken off the list. */
  protected async dropClass(name: string): Promise<void> {
    await this.store.forget(name);
    this.runner.forgetFeatures(name);
    this.recorded.delete(name);
    for (const u of this.thumbs[name] ?? []) URL.revokeObjectURL(u);
    this.cfg.classes = this.cfg.classes.filter((c) => c !== name);
    delete this.counts[name];
    delete this.thumbs[name];
    delete this.prints[name];
  }

  /** Forget the classes stored here that the lab does not list (their samples, features and records). */
  async forgetStored(): Promise<void> {
    for (const s of this.stored) {
      await this.store.forget(s.name);
      this.runner.forgetFeatures(s.name);
    }
    this.stored = [];
  }

  /** Every sample, feature and stored row deleted from this browser, and the classes cleared. */
  protected async dropAll(): Promise<void> {
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
  }

  /** The trained head's bound in words (shown beside the strategies). */
  get headBound(): string {
    return `Fine-tune and Replay train a head again for every class: up to ${OWN_LIMITS.headClasses} classes. SimpleCIL, NCM, FeCAM and RanPAC compute each class's statistics once: up to ${OWN_LIMITS.classes}.`;
  }

  /** Whether a strategy can take the classes listed now. */
  strategyFits(s: OwnStrategy): boolean {
    return !isHeadStrategy(s) || this.cfg.classes.length <= OWN_LIMITS.headClasses;
  }

  /** The thumbnails' object URLs given back (the page is closed). */
  protected revokeThumbs(): void {
    for (const list of Object.values(this.thumbs)) for (const u of list) URL.revokeObjectURL(u);
  }
}
