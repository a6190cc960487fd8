/**
 * How evenly `cil-lab sweep` splits an experiment, and what prefix sharing it keeps (docs/sweeps.md, "How runs are
 * split"): tasks trained per shard for the chosen unit depth against whole orderings (depth K) and first tasks only.
 *   npx tsx deploy/batch/shard-balance.ts
 */
import { enumerateOrderings } from '../../src/core/orderings/enumerate';
import { sampleOrderingsByShuffle } from '../../src/core/orderings/sample';
import { planPrefixes } from '../../src/core/ground-truth/prefix-plan';
import { hash64, jumpHash, unitKey, unitDepth } from '../../src/core/sweep/shard';
const cases: [string, number[][][]][] = [
  ['6 classes, 3 tasks of 2, all (90)', [...enumerateOrderings([2, 2, 2])]],
  ['8 classes, 4 tasks of 2, all (2520)', [...enumerateOrderings([2, 2, 2, 2])]],
  ['6 classes, 6 tasks of 1, all (720)', [...enumerateOrderings([1, 1, 1, 1, 1, 1])]],
  ['10 classes, 5 tasks of 2, sample 1000', sampleOrderingsByShuffle([2, 2, 2, 2, 2], 1000, 0)],
];
for (const [name, ords] of cases) {
  const runs = ords.map((tasks) => ({ tasks, strategy: 'finetune', seed: 0 }));
  const one = planPrefixes(ords).sharedTasks;
  for (const n of [4, 16]) {
    const row = (depth: number) => {
      const shard = runs.map((r) => jumpHash(hash64(unitKey(r, depth)), n));
      const per = Array.from({ length: n }, (_, s) => { const o = ords.filter((_, i) => shard[i] === s); return o.length ? planPrefixes(o).sharedTasks : 0; });
      const total = per.reduce((a, b) => a + b, 0);
      return `depth ${depth}: total ${total} (${(total / one).toFixed(2)}× one process), largest shard ${Math.max(...per)} (ideal ${Math.ceil(one / n)})`;
    };
    const K = ords[0].length;
    const d = unitDepth(runs, n);
    console.log(`${name}, n=${n}: one process ${one} tasks; chosen depth ${d}`);
    for (const depth of [...new Set([1, d, K])].sort()) console.log('   ', row(depth));
  }
}
