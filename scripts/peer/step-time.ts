/**
 * The floor's unit for bench:peer's Node side: milliseconds per fused training step on the benchmark config's own
 * batches (tests/e2e/harness/peer-bench.ts `timeConfigSteps`, the same function the Chromium pool's workers run),
 * warm, in one Node process as `cil-lab run` trains:
 *   node --import tsx scripts/peer/step-time.ts [--quick] [--ms=3000]
 * The images are those `cil-lab run` plans with the benchmark's flags (./bench-peer-lib.mjs cliArgs). Last line:
 * {"msPerStep", "steps", "msPerPrediction"} (the evaluation's forward pass per test example).
 */
import { join } from 'node:path';
import { planRunCommand } from '../../src/cli/run';
import { imagesOnly } from '../../src/engine/dataset';
import { timeConfigSteps } from '../../tests/e2e/harness/peer-bench';
// @ts-expect-error a plain .mjs script without type declarations
import { benchConfig, cliArgs } from './bench-peer-lib.mjs';

const argv = process.argv.slice(2);
const cfg = benchConfig(argv.includes('--quick'));
const ms = Number(argv.find((a) => a.startsWith('--ms='))?.slice('--ms='.length) ?? 3000);
const args = cliArgs(cfg, 'wasm').slice(1);
const values: Record<string, string> = {};
for (let i = 0; i < args.length; i += 2) values[args[i].replace(/^--/, '')] = args[i + 1];
const planned = await planRunCommand(values, { root: join(import.meta.dirname, '..', '..') });
const r = await timeConfigSteps(imagesOnly(planned.ds, 'The step-time probe'), cfg, { minMs: ms });
console.log(`node step: ${r.msPerStep.toFixed(2)} ms per fused step over ${r.steps} steps of this config's batches (warm, 1 process)`);
console.log(`node prediction: ${(r.msPerPrediction * 1000).toFixed(1)} µs per test example over ${r.predictions} (the evaluation's forward pass, warm)`);
console.log(JSON.stringify({ msPerStep: Math.round(r.msPerStep * 1000) / 1000, steps: r.steps, msPerPrediction: Math.round(r.msPerPrediction * 1e5) / 1e5 }));
