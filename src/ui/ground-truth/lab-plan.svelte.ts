/**
 * The Ground-truth lab's plan (docs/science.md §2; EDGE paper §5): the similarity of the chosen classes (WordNet,
 * computed by the orderings worker), the plan of orderings × strategies × seeds it gives, what prefix sharing saves,
 * and the seeded sample order the fast path finishes the orderings in (core/ground-truth/schedule.ts). The second
 * layer of `GroundTruthLab`, over the inputs (./lab-inputs.svelte.ts).
 */
import { planGroundTruth, type GroundTruthPlan } from '../../core/ground-truth/plan';
import { planPrefixes } from '../../core/ground-truth/prefix-plan';
import { sampleOrder, scheduleOrderings } from '../../core/ground-truth/schedule';
import { matrixFromRows } from '../../core/orderings/matrix';
import { createOrderingsClient, type OrderingsRequest } from '../../services/orderings-client';
import { orderingText } from './format';
import { errorText, GroundTruthInputsState, type LabLink } from './lab-inputs.svelte';
import { wordnetPinsFor } from '../../core/config/wordnet-pins';

/** What the lab needs of the orderings worker (services/orderings-client.ts). */
export interface LabOrderingsClient {
  compute(req: OrderingsRequest): Promise<{ matrix: number[][] }>;
  dispose(): void;
}

export class GroundTruthPlanState extends GroundTruthInputsState {
  protected readonly orderings: LabOrderingsClient;
  similarity = $state.raw<{ key: string; matrix: number[][] } | null>(null);
  similarityError = $state('');
  private simRequest = 0;

  constructor(link: LabLink, orderings?: LabOrderingsClient) {
    super(link);
    this.orderings = orderings ?? createOrderingsClient();
  }

  readonly classNames = $derived(this.classIdx.map((i) => this.classList.classes[i]));
  /** WordNet with the experiment's pins (a class the config pins by name), else the class list's own synsets */
  readonly simPins = $derived(
    wordnetPinsFor(
      JSON.parse(this.pinsKey) as Record<string, string>,
      this.classNames,
      this.classIdx.map((i) => this.classList.synsets[i]),
    ),
  );
  readonly simKey = $derived(`${this.classList.id}:${this.classIdx.join(',')}:${JSON.stringify(this.simPins)}`);
  /** true when the similarity of the current classes is to be computed (not known yet, WordNet, an image dataset) */
  readonly similarityNeeded = $derived(
    this.classNames.length >= 2 && this.similarity?.key !== this.simKey && this.similarityKind === 'wordnet' && !this.foreignDataset,
  );

  /** Compute S's matrix for the current classes (a later request wins over an earlier one still in flight). */
  async loadSimilarity(): Promise<void> {
    if (!this.similarityNeeded) return;
    const key = this.simKey;
    const names = [...this.classNames];
    const pins = this.simPins;
    const id = ++this.simRequest;
    try {
      const v = await this.orderings.compute({
        classes: names,
        taskSizes: [names.length],
        similarity: { kind: 'wordnet', pins },
        options: { protocols: [], distribution: false },
      });
      if (id !== this.simRequest) return;
      this.similarity = { key, matrix: v.matrix };
      this.similarityError = '';
    } catch (e) {
      if (id === this.simRequest) this.similarityError = errorText(e);
    }
  }

  readonly planned = $derived.by((): { plan: GroundTruthPlan | null; error: string } => {
    const sim = this.similarity;
    if (
      !sim ||
      sim.key !== this.simKey ||
      this.similarityKind !== 'wordnet' ||
      this.foreignDataset ||
      !this.sizesInput.sizes.length ||
      this.strategyIds.length === 0 ||
      this.parsed.errors.rsSeeds ||
      this.parsed.errors.seeds
    )
      return { plan: null, error: '' };
    try {
      const plan = planGroundTruth({
        classes: this.classIdx,
        taskSizes: this.sizesInput.sizes,
        similarity: matrixFromRows(sim.matrix),
        protocolOptions: { protocols: ['rs', 'edge'], rsSeeds: this.parsed.rsSeeds, medianSeed: this.medianSeed },
        strategies: this.strategyIds,
        seeds: this.parsed.seeds,
        // the lab's own settings (its table's fields)
        ...this.own,
      });
      return { plan, error: '' };
    } catch (e) {
      return { plan: null, error: errorText(e) };
    }
  });
  readonly plan = $derived(this.planned.plan);
  /** what the fast path saves for this plan (per strategy and seed: every group trains the same orderings) */
  readonly prefixSaving = $derived.by(() => {
    const plan = this.plan;
    if (!plan || plan.orderings.length < 2) return null;
    const trie = planPrefixes(plan.orderings.map((o) => o.tasks));
    return { shared: trie.sharedTasks, naive: trie.naiveTasks };
  });
  readonly plannedTruth = $derived(this.plan ? this.plan.truthCount : 0);
  /** WordNet can rate every pair of classes alike (the digits' names are all hyponyms of "digit"): then S is flat */
  readonly flatS = $derived.by(() => {
    const plan = this.plan;
    if (!plan || plan.orderings.length < 2) return false;
    const scores = plan.orderings.map((o) => o.score);
    return Math.max(...scores) - Math.min(...scores) < 1e-12;
  });
  readonly runsPerOrdering = $derived(this.strategyIds.length * Math.max(1, this.parsed.seeds.length));

  /** The ordering keys in the seeded sample order the fast path finishes them in (core/ground-truth/schedule.ts). */
  readonly sampleKeys = $derived(this.plan ? sampleOrder(this.plan, this.own.sampleSeed) : null);
  /** 'sample', or 'depth-first' when the sample order would keep too many copies (deep tries; schedule.ts). */
  readonly scheduleMode = $derived.by(() => {
    const plan = this.plan;
    const keys = this.sampleKeys;
    if (!plan || !keys || plan.orderings.length < 2) return 'sample' as const;
    const rank = new Map(keys.map((k, r) => [k, r]));
    return scheduleOrderings(
      plan.orderings.map((o) => o.tasks),
      (i) => rank.get(plan.orderings[i].key) ?? i,
      this.own.sampleSeed,
    ).mode;
  });
  /** An ordering's key in words ("T1 zero, three → T2 one, five"). */
  describe = (key: string): string => {
    const o = this.plan?.orderings.find((x) => x.key === key);
    return o ? orderingText(o.tasks, this.classList.classes) : key;
  };
}
