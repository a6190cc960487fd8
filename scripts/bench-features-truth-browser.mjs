#!/usr/bin/env node
/**
 * `npm run bench:features-truth-browser`: the three figures of `npm run bench:features-truth` (the pre-trained methods'
 * ground truth by class set on synthetic 512-dimensional features: the default-sized problem with every method and
 * RanPAC at several M; all 113 400 orderings of 10 classes in 5 tasks; 10 000 sampled orderings of 100 classes in 10
 * tasks) in Chromium, in a worker of the harness page as the app's training worker runs them (the same code,
 * scripts/lib/ptm-truth-bench.ts). With `--with-node` the Node figures first, then each Chromium row beside its Node
 * row (the ratio), then one JSON line `{"results": [... {"where": "node" | "chromium", ...}]}`. Speed is printed,
 * never asserted. Arguments as the Node script: --quick, --only 1,2,3, --ranpac-m 2000,1000,500,256.
 *
 * Not measured here: the trained head with finetune in Chromium (the Ground-truth e2e spec
 * tests/e2e/ground-truth-features.spec.ts runs it; its time is in the page's progress), and memory (a worker has no
 * heap figure).
 */
import { parseArgs } from 'node:util';
import { nodeHalf, openHarness, withHarnessBrowser } from './bench-harness.mjs';

const { values } = parseArgs({
  options: { quick: { type: 'boolean' }, only: { type: 'string' }, 'ranpac-m': { type: 'string' }, 'with-node': { type: 'boolean' } },
});
const opts = {
  quick: values.quick === true,
  only: (values.only ?? '1,2,3').split(',').map((s) => s.trim()),
  ranpacM: (values['ranpac-m'] ?? '2000,1000,500,256').split(',').map(Number),
};
const passOn = [...(opts.quick ? ['--quick'] : []), '--only', opts.only.join(','), '--ranpac-m', opts.ranpacM.join(',')];

const node = values['with-node'] ? nodeHalf('bench-features-truth.ts', passOn).map((r) => ({ ...r, where: 'node' })) : [];
const chromium = await withHarnessBrowser(async (browser, url) => {
  const page = await openHarness(browser, url);
  const rows = await page.evaluate((o) => window.harness.ptmTruth(o), opts);
  console.log(`chromium ${browser.version()} (in a worker of the harness page)${opts.quick ? ' --quick: the figures mean nothing' : ''}:`);
  for (const r of rows) {
    const twin = node.find((n) => n.figure === r.figure && n.method === r.method);
    const ratio = twin && twin.totalSeconds > 0 ? `, ${(r.totalSeconds / twin.totalSeconds).toFixed(2)}× Node's ${twin.totalSeconds.toFixed(2)} s` : '';
    console.log(
      `  ${r.figure}. ${r.method.padEnd(42)} setup ${r.setupSeconds.toFixed(2)} s  first ${r.firstResultSeconds.toFixed(2)} s  all ${r.totalSeconds.toFixed(2)} s${ratio}  ${r.states} states (${r.orderings} orderings)`,
    );
  }
  return rows.map((r) => ({ ...r, where: 'chromium' }));
});
console.log(JSON.stringify({ bench: 'features-truth-browser', quick: opts.quick, results: [...node, ...chromium] }));
