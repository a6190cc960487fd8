/**
 * The Ground-truth lab's "Every ordering, exactly" panel (docs/science.md §9 "The whole distribution"): a pre-trained
 * method's AIA and final accuracy over every ordering of Ω — 369 600 for 12 classes in 4 tasks — computed in a
 * training worker (engine/features/distribution-job.ts) with progress, Pause and Cancel, drawn as histograms; RS's
 * and EDGE's orderings of the lab's plan placed in it; and any order the user writes or imports placed too ("Your
 * order sits at the 81st percentile of AIA…"). Beyond EXACT_DISTRIBUTION_LIMIT orderings it samples, the sample size
 * the EDGE paper's Theorem 1 asks for (ε = 0.1, δ = 0.05: the Orderings lab's calculator's defaults).
 *
 * It reads the lab through `DistributionLab` (GroundTruthLab satisfies it); unit-tested without a browser
 * (tests/unit/ui/whole-distribution.test.ts).
 */
import type { ExperimentConfig } from '../../core/config/schema';
import type { GroundTruthPlan } from '../../core/ground-truth/plan';
import { countOrderings, formatOmega } from '../../core/orderings/count';
import { parseOrderingKey, splitIntoTasks } from '../../core/orderings/key';
import { theorem1SampleSize } from '../../core/protocols/bounds';
import { rsClassOrder } from '../../core/protocols/rs';
import { EXACT_DISTRIBUTION_LIMIT } from '../../core/ptm/accuracy-distribution';
import { firstSessionWidth, isPtmStrategyId, ptmMethodLabel, type PtmStrategy } from '../../core/ptm/defaults';
import type { DistributionReport, PlacedReport } from '../../core/ptm/distribution-report';
import { readClassOrder } from '../../core/results-import/class-order';
import type { ImportedRun } from '../../core/results-import/types';
import { placementSentences, whoOf } from '../../core/verdict/order-placement';
import type { VerdictSentence } from '../../core/verdict/types';
import type { DistributionJobEvent, DistributionJobInput, DistributionJobOutput, WorkerFeatures } from '../../services/train-client';
import { isRunCancelled } from '../../services/train-client';
import { errorText } from './lab-inputs.svelte';

/** Theorem 1's ε and δ when Ω is sampled (the Orderings lab's sample-size calculator's defaults; `run --summary`'s). */
export const SAMPLE_EPSILON = 0.1;
export const SAMPLE_DELTA = 0.05;

/** What the panel's worker does (train-client.ts; a fake in the unit tests). */
export interface DistributionWorker {
  distribution?(input: DistributionJobInput, onEvent: (e: DistributionJobEvent) => void): Promise<DistributionJobOutput>;
  pause(): Promise<void> | void;
  resume(): Promise<void> | void;
  cancel(): Promise<void> | void;
}

/** What the panel reads of the lab (GroundTruthLab). */
export interface DistributionLab {
  readonly onFeatures: boolean;
  readonly ptmIds: readonly string[];
  /** the experiment's classes, dataset class indices ascending: position p ↔ classIdx[p] */
  readonly classIdx: readonly number[];
  readonly classList: { readonly classes: readonly string[] };
  readonly sizesInput: { readonly sizes: readonly number[] };
  readonly checked: { readonly hash: string | null; readonly config: ExperimentConfig; readonly errors: readonly unknown[] };
  readonly plan: GroundTruthPlan | null;
  readonly parsed: { readonly rsSeeds: readonly number[]; readonly seeds: readonly number[] };
  leaseFeatureWorker(): Promise<{ lease: { main: DistributionWorker; release(): void }; source: WorkerFeatures; config: ExperimentConfig }>;
}

/** An order the user placed: written in the panel, or imported from a results file (a PyCIL/PILOT log's runs). */
export interface UserOrder {
  label: string;
  /** over dataset class indices */
  tasks: number[][];
  order?: number[];
  /** the log's own accuracies for it (fractions), when imported */
  logged?: { aia: number | null; final: number | null };
  /** "line 12" of the imported file */
  where?: string;
}

export type DistributionStatus = 'idle' | 'running' | 'paused' | 'done' | 'error';

/** How Ω is covered: every ordering, or a uniform sample of Theorem 1's size. */
export type Coverage = { kind: 'all'; omega: bigint } | { kind: 'sample'; omega: bigint; size: number; seed: number };

export class WholeDistributionState {
  /** the method chosen (a PTM strategy id of the lab's); null: the first */
  method = $state<string | null>(null);
  status = $state<DistributionStatus>('idle');
  stage = $state('');
  progress = $state<{ done: number; total: number; states: number } | null>(null);
  /** the last result, the key it is for and the orders it placed (its report's `places`, in that order) */
  result = $state.raw<{ key: string; output: DistributionJobOutput; orders: UserOrder[] } | null>(null);
  error = $state('');
  /** the orders placed so far (written or imported), and what a written one said was wrong */
  orders = $state.raw<UserOrder[]>([]);
  placeError = $state('');
  private worker: DistributionWorker | null = null;
  /** orders placed while a computation was in flight: placed when it ends */
  private pending = false;
  private startedAt = 0;
  /** seconds the last computation took in the page (lease, worker and transfer included) */
  wallSeconds = $state<number | null>(null);
  /** the worker's seconds for the distribution shown (set-up and orderings), kept when a later call only placed orders */
  computedSeconds = $state.raw<DistributionJobOutput['seconds'] | null>(null);

  constructor(private readonly lab: DistributionLab) {}

  /** The lab's pre-trained methods this panel can summarise (first-session adaptation excluded: its state depends on the first task). */
  readonly methods = $derived.by(() =>
    this.lab.ptmIds.filter((id) => {
      const s = this.strategyOf(id);
      return s !== null && firstSessionWidth(s) === 0;
    }),
  );
  readonly chosen = $derived(this.method !== null && this.methods.includes(this.method) ? this.method : (this.methods[0] ?? null));
  readonly available = $derived.by(() => this.lab.onFeatures && this.methods.length > 0);
  /** why the panel cannot run now, in one sentence ('' when it can) */
  readonly blocked = $derived.by((): string => {
    if (this.lab.checked.errors.length > 0 || !this.lab.checked.hash) return 'Fix the settings first.';
    if (!this.lab.plan) return 'Waiting for the plan (RS’s and EDGE’s orderings)…';
    return '';
  });
  readonly coverage = $derived.by((): Coverage | null => {
    const sizes = this.lab.sizesInput.sizes;
    if (sizes.length === 0) return null;
    const omega = countOrderings([...sizes]);
    if (omega <= BigInt(EXACT_DISTRIBUTION_LIMIT)) return { kind: 'all', omega };
    const bound = theorem1SampleSize(omega, SAMPLE_EPSILON, SAMPLE_DELTA);
    const size = bound.L === null ? EXACT_DISTRIBUTION_LIMIT : Number(bound.L < BigInt(EXACT_DISTRIBUTION_LIMIT) ? bound.L : BigInt(EXACT_DISTRIBUTION_LIMIT));
    return { kind: 'sample', omega, size, seed: this.lab.checked.config.groundTruth.sampleSeed };
  });
  /** "Every ordering: 369 600" / "A uniform sample: 10 820 of 2.357e92" */
  readonly coverageText = $derived.by(() => {
    const c = this.coverage;
    if (!c) return '';
    return c.kind === 'all'
      ? `all ${formatOmega(c.omega)} orderings`
      : `a uniform sample of ${formatOmega(BigInt(c.size))} of ${formatOmega(c.omega)} orderings (Theorem 1 at ε = ${SAMPLE_EPSILON}, δ = ${SAMPLE_DELTA}; seed ${c.seed})`;
  });

  private strategyOf(id: string): PtmStrategy | null {
    const s = this.lab.checked.config.strategies.find((x) => x.id === id);
    return s && isPtmStrategyId(s.id) ? (s as unknown as PtmStrategy) : null;
  }
  readonly methodLabel = $derived.by(() => {
    const s = this.chosen ? this.strategyOf(this.chosen) : null;
    return s ? ptmMethodLabel(s) : '';
  });
  /** the training seed the method's random parts (RanPAC's projection) take: the experiment's first */
  readonly seed = $derived.by(() => this.lab.parsed.seeds[0] ?? 0);
  /** what the result depends on: a result of another key is not shown */
  readonly key = $derived.by(() =>
    JSON.stringify([
      this.lab.checked.hash,
      this.chosen,
      this.chosen ? this.strategyOf(this.chosen) : null,
      this.seed,
      this.coverage?.kind,
      this.lab.sizesInput.sizes,
    ]),
  );
  readonly current = $derived(this.result && this.result.key === this.key ? this.result.output : null);
  readonly report = $derived<DistributionReport | null>(this.current?.report ?? null);

  /** The orders placed, with their words (the report's `places` are in the order of `orders`). */
  readonly placed = $derived.by((): { order: UserOrder; placed: PlacedReport; sentences: VerdictSentence[] }[] => {
    const r = this.report;
    if (!r) return [];
    const orders = this.result?.orders ?? [];
    return r.places.map((p, k) => {
      const order = orders[k];
      const who = order?.where && !/^seed \d+$/.test(order.label) ? `The order of ${order.where}` : whoOf(order?.label ?? '');
      return { order, placed: p, sentences: placementSentences(r.summary, p, who, order?.logged) };
    });
  });

  /** RS's orderings (as numpy draws them) and EDGE's three, from the lab's plan, over dataset class indices. */
  private protocols(): { rs: DistributionJobInput['rs']; edge: DistributionJobInput['edge'] } {
    const plan = this.lab.plan;
    if (!plan) return { rs: [], edge: [] };
    const classes = this.lab.classIdx;
    const sizes = [...this.lab.sizesInput.sizes];
    const rs = this.lab.parsed.rsSeeds.map((seed) => {
      const order = rsClassOrder(seed, classes.length).map((p) => classes[p]);
      return { label: `RS seed ${seed}`, order, tasks: splitIntoTasks(order, sizes) };
    });
    const edge = plan.protocolOrderings.filter((d) => d.role !== 'rs').map((d) => ({ label: d.label, tasks: parseOrderingKey(d.key) }));
    return { rs, edge };
  }

  /** Compute (or, for new orders only, look up) the distribution in a worker; `orders`: the orders to place. */
  async run(orders: UserOrder[] = this.orders): Promise<void> {
    const id = this.chosen;
    const coverage = this.coverage;
    if (!id || !coverage || this.status === 'running' || this.status === 'paused' || this.blocked) return;
    const strategy = this.strategyOf(id)!;
    const key = this.key;
    this.status = 'running';
    this.orders = orders;
    this.pending = false;
    this.error = '';
    this.stage = 'Starting a worker…';
    this.progress = null;
    this.startedAt = performance.now();
    let lease: Awaited<ReturnType<DistributionLab['leaseFeatureWorker']>>['lease'] | null = null;
    try {
      const got = await this.lab.leaseFeatureWorker();
      lease = got.lease;
      const worker = lease.main;
      if (!worker.distribution) throw new Error('This training worker cannot compute the whole distribution.');
      this.worker = worker;
      const { config } = got;
      const { rs, edge } = this.protocols();
      const input: DistributionJobInput = {
        datasetId: config.dataset.id,
        features: got.source,
        classes: [...this.lab.classIdx],
        trainPerClass: config.data.trainPerClass,
        testPerClass: config.data.testPerClass,
        strategy,
        seed: this.seed,
        taskSizes: [...this.lab.sizesInput.sizes],
        orderings: coverage.kind === 'all' ? { kind: 'all' } : { kind: 'sample', size: coverage.size, seed: coverage.seed },
        rs,
        edge,
        place: orders.map((o) => ({ label: o.label, tasks: o.tasks, order: o.order })),
      };
      const output = await worker.distribution(input, (e) => this.onEvent(e));
      if (!output.reused || this.result?.key !== key) this.computedSeconds = output.reused ? null : output.seconds;
      this.result = { key, output, orders };
      this.status = 'done';
      this.wallSeconds = (performance.now() - this.startedAt) / 1000;
    } catch (e) {
      this.status = isRunCancelled(e) ? 'idle' : 'error';
      this.error = isRunCancelled(e) ? '' : errorText(e);
    } finally {
      this.worker = null;
      this.stage = '';
      lease?.release();
    }
    // orders placed meanwhile: the distribution is kept in the worker, so this only places them
    if (this.pending && this.status === 'done') await this.run(this.orders);
  }

  private onEvent(e: DistributionJobEvent): void {
    if (e.kind === 'stage') {
      this.stage =
        e.stage === 'features'
          ? e.extract
            ? `Computing the features (${e.extract.stage === 'pretrain' ? 'pre-training the backbone' : 'extracting'}: ${e.extract.done} of ${e.extract.total})…`
            : 'Computing the features…'
          : e.stage === 'setup'
            ? `Setting ${this.methodLabel} up…`
            : 'Every ordering…';
    } else this.progress = { done: e.done, total: e.total, states: e.states };
  }

  pause(): void {
    if (this.status !== 'running' || !this.worker) return;
    void this.worker.pause();
    this.status = 'paused';
  }
  resume(): void {
    if (this.status !== 'paused' || !this.worker) return;
    void this.worker.resume();
    this.status = 'running';
  }
  cancel(): void {
    void this.worker?.cancel();
  }

  /** Place a written order ("3 1 0 | 2 5 4 | …", names or positions in the class list): recomputed at once from the kept distribution. */
  async placeText(text: string): Promise<void> {
    const names = this.lab.classIdx.map((c) => this.lab.classList.classes[c]);
    const sizes = [...this.lab.sizesInput.sizes];
    try {
      const o = readClassOrder(text, names, sizes);
      this.placeError = '';
      const order = o.order.map((p) => this.lab.classIdx[p]);
      await this.place([{ label: 'given order', order, tasks: o.tasks.map((t) => t.map((p) => this.lab.classIdx[p])) }]);
    } catch (e) {
      this.placeError = `This order cannot be placed: ${(e as Error).message}.`;
    }
  }

  /** Place an imported file's runs (their class orders; a log's own accuracies kept beside them). */
  async placeImported(runs: readonly ImportedRun[], fromLog: boolean): Promise<void> {
    await this.place(
      runs.map((r) => ({
        label: fromLog ? `seed ${r.seed}` : r.where,
        where: r.where,
        tasks: r.tasks,
        logged: { aia: r.aia, final: r.finalAccuracy },
      })),
    );
  }

  private async place(added: UserOrder[]): Promise<void> {
    const same = (a: UserOrder, b: UserOrder) => JSON.stringify([a.label, a.tasks, a.order]) === JSON.stringify([b.label, b.tasks, b.order]);
    const orders = [...this.orders.filter((o) => !added.some((a) => same(a, o))), ...added];
    if (this.status === 'running' || this.status === 'paused') {
      this.orders = orders;
      this.pending = true;
      return;
    }
    await this.run(orders);
  }

  /** Forget the placed orders (the distribution stays). */
  clearOrders(): void {
    this.orders = [];
    if (this.result) this.result = { ...this.result, orders: [], output: { ...this.result.output, report: { ...this.result.output.report, places: [] } } };
  }
}
