/**
 * The plan `cil-lab analyze` hands to deriveGroundTruth for imported runs, so its numbers are the lab's.
 *
 *   - |Ω| ≤ `enumerateLimit` (default 20 000, the lab's largest budget): exactly the lab's plan with a budget of
 *     |Ω| (planGroundTruth): the truth is every ordering of Ω, the imported runs fill it (an incomplete import is
 *     "57 of 90 truth orderings so far", as in the lab), RS and EDGE orderings are matched by canonical key.
 *   - larger Ω: the truth is the distinct orderings of the imported runs (in file order), labelled
 *     "the N imported orderings"; the RS and EDGE orderings are computed the same way (runProtocols) and feed their
 *     estimates whether or not they are among them. Whether the imported orderings are a uniform sample of Ω is the
 *     user's to say; the label does not claim it.
 */
import { planGroundTruth } from '../ground-truth/plan';
import type { PlanLike, PlanOrdering } from '../ground-truth/derive';
import { countOrderings } from '../orderings/count';
import { canonicalOrdering, orderingKey, parseOrderingKey } from '../orderings/key';
import { similarityScore } from '../orderings/score';
import { validateTaskSizes } from '../orderings/task-sizes';
import type { SquareMatrix } from '../orderings/types';
import { runProtocols } from '../protocols/run';

export interface AnalysisPlanInput {
  /** dataset class index of each position */
  classes: number[];
  taskSizes: number[];
  /** over positions */
  similarity: SquareMatrix;
  rsSeeds: number[];
  medianSeed?: number;
  /** canonical keys (over dataset class indices) of the imported runs, in file order */
  importedKeys: string[];
  strategies: string[];
  seeds: number[];
  enumerateLimit?: number;
}

export function analysisPlan(input: AnalysisPlanInput): PlanLike & { omega: string } {
  const sizes = validateTaskSizes(input.classes.length, input.taskSizes);
  const omega = countOrderings(sizes);
  const limit = input.enumerateLimit ?? 20_000;
  if (omega <= BigInt(limit)) {
    const plan = planGroundTruth({
      classes: input.classes,
      taskSizes: sizes,
      similarity: input.similarity,
      protocolOptions: { protocols: ['rs', 'edge'], rsSeeds: input.rsSeeds, medianSeed: input.medianSeed ?? 0 },
      strategies: input.strategies.length ? input.strategies : ['imported'],
      seeds: input.seeds.length ? [...new Set(input.seeds)] : [0],
      budget: Number(omega),
      sampleSeed: 0,
    });
    return { orderings: plan.orderings, protocolOrderings: plan.protocolOrderings, exhaustive: true, truthLabel: plan.truthLabel, omega: plan.omega };
  }
  const pos = new Map(input.classes.map((c, p) => [c, p]));
  const toLocal = (tasks: number[][]) => tasks.map((t) => t.map((c) => pos.get(c)!));
  const byKey = new Map<string, PlanOrdering & { roles: PlanOrdering['roles'][number][]; labels: string[] }>();
  const report = runProtocols(input.similarity, sizes, { protocols: ['rs', 'edge'], rsSeeds: input.rsSeeds, medianSeed: input.medianSeed ?? 0 });
  const draws: { role: 'rs' | 'edge-hard' | 'edge-easy' | 'edge-median'; label: string; key: string }[] = [];
  for (const s of report.sequences) {
    const role =
      s.protocol === 'rs'
        ? 'rs'
        : s.label === 'EDGE hard'
          ? 'edge-hard'
          : s.label === 'EDGE easy'
            ? 'edge-easy'
            : s.label.startsWith('EDGE median')
              ? 'edge-median'
              : null;
    if (!role) continue;
    const tasks = canonicalOrdering(s.tasks.map((t) => t.map((p) => input.classes[p])));
    const key = orderingKey(tasks);
    let o = byKey.get(key);
    if (!o) byKey.set(key, (o = { key, tasks, roles: [], labels: [], score: similarityScore(s.tasks, input.similarity) }));
    if (!o.roles.includes(role)) o.roles.push(role);
    o.labels.push(s.label);
    draws.push({ role, label: s.label, key });
  }
  let truth = 0;
  for (const key of input.importedKeys) {
    let o = byKey.get(key);
    if (!o) {
      const tasks = parseOrderingKey(key);
      byKey.set(key, (o = { key, tasks, roles: [], labels: [], score: similarityScore(toLocal(tasks), input.similarity) }));
    }
    if (!o.roles.includes('truth')) {
      o.roles.unshift('truth');
      truth++;
    }
  }
  const orderings: PlanOrdering[] = [...byKey.values()].map(({ labels, ...o }) => (labels.length ? { ...o, label: labels.join(' · ') } : o));
  return {
    orderings,
    protocolOrderings: draws,
    exhaustive: false,
    truthLabel: `the ${truth} imported orderings (of ${omega.toString()}; not necessarily a uniform sample)`,
    omega: omega.toString(),
  };
}
