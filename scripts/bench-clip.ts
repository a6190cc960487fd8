/**
 * Embedding time per 100 class names with the tiny CLIP fixture (tests/fixtures/clip-tiny) in Node
 * (run: `npx tsx scripts/bench-clip.ts`). The browser devices (webgpu, wasm) are measured by the e2e tests.
 *
 * Texts: the 100 CIFAR-100 class names with the prompt "a photo of a {}". For each dtype (q8, fp32): load once,
 * one warm-up pass, then the median of 15 passes of `embed(100 texts)` (default batch size 32). The fixture's
 * network is tiny, so the figure is mostly tokenizer + onnxruntime call overhead, not the cost of a real CLIP.
 * The LAST line printed is the JSON summary: {"results":[{"device","where":"node","dtype","msPer100","loadMs"}]}.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CIFAR100 } from '../src/core/classes/builtin';
import { promptTexts } from '../src/core/similarity/prompts';
import { createTextEmbedder, type ClipDtype } from '../src/engine/clip/text-embedder';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const texts = promptTexts(CIFAR100.classes.slice(0, 100), { kind: 'template', template: 'a photo of a {}' });
const REPS = 15;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const round = (x: number, d: number): number => Number(x.toFixed(d));

const results: { device: string; where: 'node'; dtype: ClipDtype; msPer100: number; loadMs: number }[] = [];
for (const dtype of ['q8', 'fp32'] as const) {
  const t0 = performance.now();
  const embedder = await createTextEmbedder({
    modelId: 'clip-tiny',
    dtype,
    device: 'cpu',
    source: { kind: 'self-hosted', path: join(root, 'tests', 'fixtures') },
  });
  const loadMs = performance.now() - t0;
  await embedder.embed(texts);
  const times: number[] = [];
  for (let r = 0; r < REPS; r++) {
    const s = performance.now();
    const rows = await embedder.embed(texts);
    times.push(performance.now() - s);
    if (rows.length !== 100) throw new Error(`expected 100 embeddings, got ${rows.length}`);
  }
  const ms = median(times);
  console.log(`${dtype.padEnd(4)} on ${embedder.device} (node): ${ms.toFixed(2)} ms per 100 class names (median of ${REPS}); load ${loadMs.toFixed(0)} ms`);
  results.push({ device: embedder.device, where: 'node', dtype, msPer100: round(ms, 2), loadMs: round(loadMs, 1) });
  await embedder.dispose();
}
console.log(JSON.stringify({ results }));
