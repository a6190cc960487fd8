/**
 * Gradient registration. tfjs-core alone registers no gradient functions (the union package @tensorflow/tfjs
 * imports `@tensorflow/tfjs-core/dist/register_all_gradients` for that), and training needs them.
 *
 * - Browser / worker (Vite): that ES module is imported directly.
 * - Node: tfjs-core's ES modules use extension-less and directory imports that Node's ESM loader rejects, so the
 *   ES module cannot be loaded there. tfjs-layers' CommonJS Node bundle registers the same gradient configs (into
 *   the registry shared through tfjs's global namespace) when loaded, so Node loads that instead. The engine uses
 *   no layers API.
 *
 * One gradient is then replaced: matMul's, on the wasm backend only. tfjs-backend-wasm 4.22 multiplies through
 * XNNPACK only when neither operand is transposed; `transposeA`/`transposeB` take a plain loop that is 10–15×
 * slower (measured in Node, 64×784 by 784×256: 0.58 ms plain, 8.9 ms with transposeA, 7.2 ms with transposeB —
 * `npx tsx scripts/bench-matmul.ts`). The stock gradient of y = a·b is dy·bᵀ and aᵀ·dy through those flags, so
 * the backward pass of a dense layer ran almost entirely on the slow path. On wasm the replacement transposes
 * explicitly (a copy, fast) and multiplies without flags: the same products, summed in XNNPACK's order. Every
 * other backend keeps the stock gradient (there the flags cost nothing, and an extra transpose would only add a
 * kernel launch).
 */
import * as tf from '@tensorflow/tfjs-core';
import { isNode } from './node-env';

/** The product of `x` (transposed when `tx`) and `y` (transposed when `ty`) with explicit, flag-free transposes. */
function plainMatMul(x: tf.Tensor, y: tf.Tensor, tx: boolean, ty: boolean): tf.Tensor {
  const xt = tx ? tf.transpose(x) : x;
  const yt = ty ? tf.transpose(y) : y;
  return tf.matMul(xt as tf.Tensor2D, yt as tf.Tensor2D);
}

/** matMul's gradient with the wasm fast path (see the header); installed once, after the stock gradients. */
let stockMatMulGradient: tf.GradConfig | null = null;

/** Benchmarks only: put tfjs's own matMul gradient back (the "before" figure of `npm run bench:groundtruth`). */
export function restoreStockMatMulGradient(): void {
  if (stockMatMulGradient) tf.registerGradient(stockMatMulGradient);
}

export function installWasmMatMulGradient(): void {
  const current = tf.getGradient('BatchMatMul');
  if ((current as { cilLab?: boolean } | undefined)?.cilLab && stockMatMulGradient) return;
  const stock = (current as { cilLab?: boolean } | undefined)?.cilLab ? stockMatMulGradient : current;
  if (!stock) return;
  stockMatMulGradient = stock;
  const config: tf.GradConfig & { cilLab: boolean } = {
    kernelName: 'BatchMatMul',
    inputsToSave: ['a', 'b'],
    cilLab: true,
    gradFunc: (dy, saved, attrs) => {
      const [a, b] = saved;
      const { transposeA, transposeB } = attrs as unknown as { transposeA: boolean; transposeB: boolean };
      if (tf.getBackend() !== 'wasm' || a.rank !== 2 || b.rank !== 2) return stock.gradFunc(dy, saved, attrs);
      const g = dy as tf.Tensor;
      if (!transposeA && !transposeB) return { a: () => plainMatMul(g, b, false, true), b: () => plainMatMul(a, g, true, false) };
      if (!transposeA && transposeB) return { a: () => plainMatMul(g, b, false, false), b: () => plainMatMul(g, a, true, false) };
      if (transposeA && !transposeB) return { a: () => plainMatMul(b, g, false, true), b: () => plainMatMul(a, g, false, false) };
      return { a: () => plainMatMul(b, g, true, true), b: () => plainMatMul(g, a, true, true) };
    },
  };
  tf.registerGradient(config);
}

let ready: Promise<void> | null = null;

export function ensureGradients(): Promise<void> {
  if (!ready) {
    ready = (async () => {
      if (isNode()) {
        // a variable specifier: the browser bundle must not pull tfjs-layers in
        const layers = '@tensorflow/tfjs-layers';
        await import(/* @vite-ignore */ layers);
      } else {
        await import('@tensorflow/tfjs-core/dist/register_all_gradients');
      }
      installWasmMatMulGradient();
    })();
  }
  return ready;
}
