/**
 * Teaching mode's readout of a ground truth (Play / Pause / Step): how many of the plan's orderings are fully trained,
 * of how many, and the next one to train. Pure (tested in tests/unit/core/ground-truth/progress.test.ts).
 */
export function orderingProgress(
  jobs: readonly { orderingKey: string; strategy: string; seed: number }[],
  runs: readonly { orderingKey: string; strategy: string; seed: number }[],
): { done: number; total: number; next: string | null; runsOfNext: number } {
  const have = new Set(runs.map((r) => JSON.stringify([r.orderingKey, r.strategy, r.seed])));
  const left = new Map<string, number>();
  const order: string[] = [];
  for (const j of jobs) {
    if (!left.has(j.orderingKey)) {
      left.set(j.orderingKey, 0);
      order.push(j.orderingKey);
    }
    if (!have.has(JSON.stringify([j.orderingKey, j.strategy, j.seed]))) left.set(j.orderingKey, left.get(j.orderingKey)! + 1);
  }
  // the runner trains the jobs in plan order, skipping stored ones: the next ordering is the first with runs left
  const next = order.find((k) => left.get(k)! > 0) ?? null;
  return { done: order.filter((k) => left.get(k) === 0).length, total: order.length, next, runsOfNext: next ? left.get(next)! : 0 };
}
