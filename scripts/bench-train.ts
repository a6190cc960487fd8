/**
 * `npx tsx scripts/bench-train.ts`: milliseconds per training step of the CPCF paper's MLP (784-256-128-10, ReLU;
 * docs/science.md §3) with batch 64 and Adam, on every TensorFlow.js backend available in Node (wasm, cpu). A step is
 * forward + backward + Adam update on one batch, with the loss read back (what the trainer does when it reports
 * progress every step). Random inputs from a seeded generator; the numbers do not affect the timing.
 *
 * Then the same step on the fused kernels the trainer uses on wasm (src/engine/kernels/fused-mlp.ts; `step: 'fused'`).
 * Prints one line per backend and, as the last line, `{"results": [{"backend", "where": "node", "step", "msPerStep"}]}`.
 * (The browser half of `npm run bench:train` — webgpu, webgl, wasm, cpu in Chromium — is a separate harness.)
 */
import { candidateBackends, selectBackend } from '../src/engine/backend';
import { STEP_BATCH, timeFusedStep, timeTrainingStep } from '../tests/e2e/harness/step-bench';

async function benchBackend(name: 'wasm' | 'cpu'): Promise<number> {
  await selectBackend(name, { strict: true });
  return (await timeTrainingStep()).msPerStep;
}

const results: { backend: string; where: 'node'; step: 'tfjs' | 'fused'; msPerStep: number }[] = [];
for (const name of candidateBackends() as ('wasm' | 'cpu')[]) {
  try {
    const ms = await benchBackend(name);
    results.push({ backend: name, where: 'node', step: 'tfjs', msPerStep: Math.round(ms * 100) / 100 });
    console.log(`node ${name}: ${ms.toFixed(2)} ms/step (MLP 784-256-128-10, batch ${STEP_BATCH}, Adam; tfjs ops)`);
  } catch (e) {
    console.log(`node ${name}: unavailable (${(e as Error).message})`);
  }
}
// the fused step the trainer takes on wasm (src/engine/kernels/fused-mlp.ts)
try {
  const { msPerStep } = await timeFusedStep();
  results.push({ backend: 'wasm', where: 'node', step: 'fused', msPerStep: Math.round(msPerStep * 100) / 100 });
  const tfjs = results.find((r) => r.backend === 'wasm' && r.step === 'tfjs');
  console.log(
    `node wasm: ${msPerStep.toFixed(2)} ms/step on the fused kernels (the same step; inputs half zeros, as Fashion-MNIST)${tfjs ? `, ${(tfjs.msPerStep / msPerStep).toFixed(1)}× tfjs's` : ''}`,
  );
} catch (e) {
  console.log(`node wasm fused step: unavailable (${(e as Error).message})`);
}
console.log(JSON.stringify({ results }));
