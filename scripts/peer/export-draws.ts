/**
 * Writes the draws of `npm run bench:peer`'s config (./draws.ts) for the paired PyTorch peer:
 *   node --import tsx scripts/peer/export-draws.ts [--quick] OUT.json
 * The runs are planned exactly as `cil-lab run` plans them (src/cli/run.ts planRunCommand, with the benchmark's
 * flags, ./bench-peer-lib.mjs cliArgs), so the file holds the draws of the runs bench:peer trains in Node.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { planRunCommand } from '../../src/cli/run';
// @ts-expect-error a plain .mjs script without type declarations
import { benchConfig, cliArgs } from './bench-peer-lib.mjs';
import { drawsOf } from './draws';
import { imagesOnly } from '../../src/engine/dataset';

const argv = process.argv.slice(2);
const out = argv.find((a) => !a.startsWith('--'));
if (!out) {
  console.error('usage: node --import tsx scripts/peer/export-draws.ts [--quick] OUT.json');
  process.exit(2);
}
const cfg = benchConfig(argv.includes('--quick'));
const args = cliArgs(cfg, 'cpu').slice(1);
const values: Record<string, string> = {};
for (let i = 0; i < args.length; i += 2) values[args[i].replace(/^--/, '')] = args[i + 1];
const planned = await planRunCommand(values, { root: join(import.meta.dirname, '..', '..') });
const draws = drawsOf(imagesOnly(planned.ds, 'The PyTorch peer'), planned.configs, cfg.trainPerClass);
writeFileSync(out, JSON.stringify(draws));
console.log(`draws: ${draws.orderings.length} orderings, ${draws.layers.length} layers → ${out}`);
