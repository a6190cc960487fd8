/**
 * The fused MLP training step on the wasm backend (docs/science.md appendix D.1 "The fused step"): one WebAssembly
 * SIMD module of our own (wasm/mlp-step.ts, compiled into mlp-step.wasm.ts) runs a whole step of an MLP (forward,
 * softmax cross-entropy over the first `headWidth` units, backward, tfjs's Adam or SGD) over weights resident in its
 * memory, instead of tfjs's ~170 kernel calls. `trainTask` (trainer.ts) chooses it where `fusedApplies`, so
 * `trainRun`, prefix sharing and the exactness tests take the same path. Its numbers differ from tfjs-backend-wasm's
 * in the last bits (another summation order) but are identical on every wasm engine (IEEE f32x4 only), and are
 * tested against tfjs's step and float64 numpy.
 */
import type { NetworkSpec } from '../models';
import { MLP_STEP_WASM_BASE64 } from './mlp-step.wasm';

/** Where a compressed batch goes: its CSR (rows) and CSC (columns) arrays and the arena cursor after them. */
type SparseOut = [rowPtr: number, rowIdx: number, rowVal: number, colPtr: number, colIdx: number, colVal: number, cursor: number];

interface KernelExports {
  memory: WebAssembly.Memory;
  compress(a: number, B: number, k: number, ...out: SparseOut): number;
  compressBytes(bytes: number, B: number, k: number, scale: number, ...out: SparseOut): number;
  forward(rowPtr: number, rowIdx: number, rowVal: number, B: number, w: number, n: number, bias: number, out: number, relu: number): void;
  softmaxXent(z: number, B: number, n: number, h: number, labels: number, dz: number, correctAt: number): number;
  gradW(colPtr: number, colIdx: number, colVal: number, k: number, dz: number, n: number, dw: number): void;
  gradBias(dz: number, B: number, n: number, db: number): void;
  gradInput(rowPtr: number, rowIdx: number, B: number, dz: number, n: number, w: number, k: number, out: number): void;
  adam(
    w: number,
    g: number,
    m: number,
    v: number,
    len: number,
    b1: number,
    omb1: number,
    b2: number,
    omb2: number,
    c1: number,
    c2: number,
    eps: number,
    negLr: number,
  ): void;
  sgd(w: number, g: number, len: number, negLr: number): void;
}

/**
 * v / 255 in float32 for every byte value: what batchImages stores (`src / 255` into a Float32Array); the kernels look
 * it up as the input layer's lists are made (`compressBytes`). Feature vectors (the `head` model) are copied into a
 * float input block and listed by the same `compress` as every hidden layer's activations.
 */
const SCALE = Float32Array.from({ length: 256 }, (_, v) => v / 255);

/**
 * Widths are padded to a multiple of 4 (the input to 16) with zero rows and columns; the padding stays zero through
 * training (its activations are ReLU(0) = 0 and its gradients 0, so Adam never moves it).
 */
export const pad4 = (n: number): number => Math.ceil(n / 4) * 4;

function decodeBase64(s: string): Uint8Array<ArrayBuffer> {
  const bin = atob(s);
  const out = new Uint8Array(new ArrayBuffer(bin.length));
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

let compiled: Promise<WebAssembly.Module | null> | null = null;

/** The compiled kernel module, or null where WebAssembly SIMD is missing (then tfjs trains). Compiled once. */
export function kernelModule(): Promise<WebAssembly.Module | null> {
  compiled ??= (async () => {
    if (typeof WebAssembly !== 'object') return null;
    const bytes = decodeBase64(MLP_STEP_WASM_BASE64);
    if (!WebAssembly.validate(bytes)) return null;
    return WebAssembly.compile(bytes);
  })().catch(() => null);
  return compiled;
}

let enabled = true;
/**
 * Turn the fused step off (tfjs trains every step) or on again, in this thread. For benchmarks and the tests that
 * compare the two; the app and the CLI leave it on.
 */
export function setFusedMlp(on: boolean): void {
  enabled = on;
}

/** The optimiser settings a task trains with (a fresh optimiser per task, as trainTask's callers create). */
export interface FusedOptimizer {
  kind: 'adam' | 'sgd';
  lr: number;
  beta1: number;
  beta2: number;
  epsilon: number;
}

interface LayerBuffers {
  /** input width (padded) and output width (padded) */
  k: number;
  n: number;
  /** byte offsets: weights, bias, their gradients */
  w: number;
  b: number;
  gw: number;
  gb: number;
  /** this layer's input activations [B × k] (the first layer's input is `FusedMlp.bytes` instead) */
  act: number;
  rowPtr: number;
  rowIdx: number;
  rowVal: number;
  colPtr: number;
  colIdx: number;
  colVal: number;
  cursor: number;
}

/** The result of one step: the batch's mean loss and how many of its rows the head's arg-max got right. */
export interface FusedStepResult {
  loss: number;
  correct: number;
}

/**
 * One MLP's weights, optimiser state and step buffers in a kernel instance of its own. Build with `FusedMlp.create`,
 * `setWeights`, then per batch `setBatch` + `step`; `weights()` reads them back in paramInfo order.
 */
export class FusedMlp {
  readonly batchSize: number;
  /** real (unpadded) widths: input, hidden..., outputs */
  readonly widths: number[];
  private readonly k: KernelExports;
  private readonly layers: LayerBuffers[];
  private readonly params: number;
  private readonly grads: number;
  private readonly m: number;
  private readonly v: number;
  /** floats in the parameter block (a multiple of 4) */
  private readonly count: number;
  private readonly logits: number;
  private readonly dz: [number, number];
  private readonly labels: number;
  private readonly correctAt: number;
  /** the batch's images as bytes [B × k of the first layer] and the byte → float table */
  private readonly bytes: number;
  private readonly scale: number;
  /** the batch's feature vectors as floats [B × k of the first layer], when the input is float32 */
  private readonly floats: number;
  /** whether the rows last gathered are floats (else bytes) */
  private floatInput = false;
  private accBeta1 = 0;
  private accBeta2 = 0;
  private opt: FusedOptimizer | null = null;

  private constructor(exports: KernelExports, spec: NetworkSpec, batchSize: number) {
    this.k = exports;
    this.batchSize = batchSize;
    const [h, w, c] = spec.inputShape;
    this.widths = [h * w * c, ...(spec.hidden ?? []), spec.outputs];
    const B = batchSize;
    let at = 65536; // past the module's own first page (the kernels keep nothing there; this leaves room)
    const take = (floats: number): number => {
      const off = at;
      at += Math.ceil(floats / 4) * 16;
      return off;
    };
    // the input width to a multiple of 16 (the byte rows are scanned 16 pixels at a time), the others to 4
    const dims = this.widths.map((w, i) => (i === 0 ? Math.ceil(w / 16) * 16 : pad4(w)));
    const L = dims.length - 1;
    // the parameter block and its three shadows (gradients, Adam's m and v) are contiguous, in the same layout
    const paramFloats = Array.from({ length: L }, (_, l) => dims[l] * dims[l + 1] + dims[l + 1]).reduce((a, b) => a + b, 0);
    this.count = paramFloats;
    this.params = take(paramFloats);
    this.grads = take(paramFloats);
    this.m = take(paramFloats);
    this.v = take(paramFloats);
    const maxWidth = Math.max(...dims);
    this.layers = [];
    let pOff = this.params;
    for (let l = 0; l < L; l++) {
      const k = dims[l];
      const n = dims[l + 1];
      const wOff = pOff;
      const bOff = wOff + k * n * 4;
      pOff = bOff + n * 4;
      this.layers.push({
        k,
        n,
        w: wOff,
        b: bOff,
        gw: wOff - this.params + this.grads,
        gb: bOff - this.params + this.grads,
        act: l === 0 ? 0 : take(B * k),
        rowPtr: take(B + 1),
        rowIdx: take(B * k),
        rowVal: take(B * k),
        colPtr: take(k + 1),
        colIdx: take(B * k),
        colVal: take(B * k),
        cursor: take(k),
      });
    }
    this.logits = take(B * dims[L]);
    this.dz = [take(B * maxWidth), take(B * maxWidth)];
    this.labels = take(B);
    this.correctAt = take(4);
    this.bytes = take(Math.ceil((B * dims[0]) / 4));
    this.scale = take(256);
    this.floats = take(B * dims[0]);
    const need = Math.ceil(at / 65536);
    const have = exports.memory.buffer.byteLength / 65536;
    if (need > have) exports.memory.grow(need - have);
    new Uint8Array(exports.memory.buffer, 65536, at - 65536).fill(0);
    this.f32(this.scale, 256).set(SCALE);
  }

  /** A kernel instance for `spec` (an MLP) and batches of up to `batchSize`; null where WebAssembly SIMD is missing. */
  static async create(spec: NetworkSpec, batchSize: number): Promise<FusedMlp | null> {
    if (spec.kind !== 'mlp') throw new Error('The fused step trains MLPs only.');
    const mod = await kernelModule();
    if (!mod) return null;
    const instance = await WebAssembly.instantiate(mod, {});
    return new FusedMlp(instance.exports as unknown as KernelExports, spec, batchSize);
  }

  private f32(offset: number, floats: number): Float32Array {
    return new Float32Array(this.k.memory.buffer, offset, floats);
  }

  /** Load weights (paramInfo order: kernel [in × out], bias [out] per layer) into the padded layout. */
  setWeights(weights: Float32Array[]): void {
    const L = this.layers.length;
    if (weights.length !== 2 * L) throw new Error(`Expected ${2 * L} weight arrays, got ${weights.length}.`);
    this.layers.forEach((layer, l) => {
      const kin = this.widths[l];
      const nout = this.widths[l + 1];
      const src = weights[2 * l];
      if (src.length !== kin * nout || weights[2 * l + 1].length !== nout) throw new Error(`Layer ${l + 1}: weights of the wrong size.`);
      const dst = this.f32(layer.w, layer.k * layer.n);
      dst.fill(0);
      for (let i = 0; i < kin; i++) dst.set(src.subarray(i * nout, (i + 1) * nout), i * layer.n);
      const b = this.f32(layer.b, layer.n);
      b.fill(0);
      b.set(weights[2 * l + 1]);
    });
  }

  /** Copies of the weights in paramInfo order, unpadded. */
  weights(): Float32Array[] {
    return this.unpadded((l) => [l.w, l.b]);
  }

  /** Kernel [in × out] and bias [out] per layer, unpadded, from the padded blocks `at` gives. */
  private unpadded(at: (layer: LayerBuffers) => [number, number]): Float32Array[] {
    const out: Float32Array[] = [];
    this.layers.forEach((layer, l) => {
      const kin = this.widths[l];
      const nout = this.widths[l + 1];
      const [wOff, bOff] = at(layer);
      const src = this.f32(wOff, layer.k * layer.n);
      const w = new Float32Array(kin * nout);
      for (let i = 0; i < kin; i++) w.set(src.subarray(i * layer.n, i * layer.n + nout), i * nout);
      out.push(w, this.f32(bOff, layer.n).slice(0, nout));
    });
    return out;
  }

  /** A fresh optimiser (zero moments, t = 0), as trainTask's callers create one per task. */
  resetOptimizer(opt: FusedOptimizer): void {
    this.opt = { ...opt };
    this.f32(this.m, this.count).fill(0);
    this.f32(this.v, this.count).fill(0);
    // tfjs keeps β^t in float32 variables that start at β
    this.accBeta1 = Math.fround(opt.beta1);
    this.accBeta2 = Math.fround(opt.beta2);
  }

  /**
   * Rows `at`..`at+nb` of examples `idx` into the input rows: bytes (scaled by `compressBytes`'s table) or float32
   * feature vectors (listed as they are). Padding columns stay zero (set once, never written).
   */
  private gather(images: Uint8Array | Float32Array, size: number, idx: ArrayLike<number>, at: number, nb: number): void {
    if (size !== this.widths[0])
      throw new RangeError(`${images instanceof Float32Array ? 'Feature vectors' : 'Images'} of ${size} values, the network takes ${this.widths[0]}.`);
    const k = this.layers[0].k;
    this.floatInput = images instanceof Float32Array;
    const rows = this.floatInput ? this.f32(this.floats, nb * k) : new Uint8Array(this.k.memory.buffer, this.bytes, nb * k);
    for (let r = 0; r < nb; r++) {
      const base = idx[at + r] * size;
      rows.set(images.subarray(base, base + size), r * k);
    }
  }

  /** The input layer's lists (CSR; and CSC unless `rowsOnly`) of the first `nb` rows gathered. */
  private compressInput(nb: number, rowsOnly: boolean): void {
    const a = this.layers[0];
    const [colPtr, colIdx, colVal, cursor] = rowsOnly ? [0, 0, 0, 0] : [a.colPtr, a.colIdx, a.colVal, a.cursor];
    if (this.floatInput) this.k.compress(this.floats, nb, a.k, a.rowPtr, a.rowIdx, a.rowVal, colPtr, colIdx, colVal, cursor);
    else this.k.compressBytes(this.bytes, nb, a.k, this.scale, a.rowPtr, a.rowIdx, a.rowVal, colPtr, colIdx, colVal, cursor);
  }

  /**
   * Predictions: the arg-max (first maximum) of the first `headWidth` logits of each example `idx` of `images`, in
   * batches of this instance's batch size. Uses the forward buffers only (not the gradients or the optimiser).
   */
  predict(images: Uint8Array | Float32Array, size: number, idx: ArrayLike<number>, headWidth: number): Int32Array {
    const k = this.k;
    const L = this.layers.length;
    const last = this.layers[L - 1];
    if (!(headWidth >= 1 && headWidth <= this.widths[L])) throw new RangeError(`Head width ${headWidth} is outside 1..${this.widths[L]}.`);
    const out = new Int32Array(idx.length);
    for (let at = 0; at < idx.length; at += this.batchSize) {
      const nb = Math.min(this.batchSize, idx.length - at);
      this.gather(images, size, idx, at, nb);
      this.compressInput(nb, true);
      for (let l = 0; l < L; l++) {
        const a = this.layers[l];
        if (l > 0) k.compress(a.act, nb, a.k, a.rowPtr, a.rowIdx, a.rowVal, 0, 0, 0, 0);
        k.forward(a.rowPtr, a.rowIdx, a.rowVal, nb, a.w, a.n, a.b, l < L - 1 ? this.layers[l + 1].act : this.logits, l < L - 1 ? 1 : 0);
      }
      const z = this.f32(this.logits, nb * last.n);
      for (let r = 0; r < nb; r++) {
        const o = r * last.n;
        let best = 0;
        for (let j = 1; j < headWidth; j++) if (z[o + j] > z[o + best]) best = j;
        out[at + r] = best;
      }
    }
    return out;
  }

  /**
   * The last hidden layer's activations (ReLU outputs, `widths[L − 1]` values per example) of examples `idx`, row-major:
   * what a network used as a frozen backbone gives as features (src/engine/features/backbone.ts). Forward buffers only.
   */
  hidden(images: Uint8Array | Float32Array, size: number, idx: ArrayLike<number>): Float32Array {
    const k = this.k;
    const L = this.layers.length;
    if (L < 2) throw new RangeError('A network without a hidden layer has no hidden activations.');
    const width = this.widths[L - 1];
    const act = this.layers[L - 1];
    const out = new Float32Array(idx.length * width);
    for (let at = 0; at < idx.length; at += this.batchSize) {
      const nb = Math.min(this.batchSize, idx.length - at);
      this.gather(images, size, idx, at, nb);
      this.compressInput(nb, true);
      for (let l = 0; l < L - 1; l++) {
        const a = this.layers[l];
        if (l > 0) k.compress(a.act, nb, a.k, a.rowPtr, a.rowIdx, a.rowVal, 0, 0, 0, 0);
        k.forward(a.rowPtr, a.rowIdx, a.rowVal, nb, a.w, a.n, a.b, this.layers[l + 1].act, 1);
      }
      const z = this.f32(act.act, nb * act.k);
      for (let r = 0; r < nb; r++) out.set(z.subarray(r * act.k, r * act.k + width), (at + r) * width);
    }
    return out;
  }

  /**
   * The batch: images (uint8, `size` values each, scaled by 1/255 as batchImages does) or feature vectors (float32,
   * as they are) of examples `idx`, and their output units.
   */
  setBatch(images: Uint8Array | Float32Array, size: number, idx: ArrayLike<number>, units: ArrayLike<number>): void {
    const nb = idx.length;
    if (nb > this.batchSize) throw new RangeError(`A batch of ${nb} exceeds the fused step's ${this.batchSize}.`);
    this.gather(images, size, idx, 0, nb);
    const y = new Int32Array(this.k.memory.buffer, this.labels, nb);
    for (let r = 0; r < nb; r++) y[r] = units[r];
  }

  /** Forward + backward on the first `nb` rows set by `setBatch`, the loss over the first `headWidth` units. */
  gradients(nb: number, headWidth: number): FusedStepResult {
    const k = this.k;
    const L = this.layers.length;
    const last = this.layers[L - 1];
    if (!(headWidth >= 1 && headWidth <= this.widths[L])) throw new RangeError(`Head width ${headWidth} is outside 1..${this.widths[L]}.`);
    this.compressInput(nb, false);
    for (let l = 0; l < L; l++) {
      const a = this.layers[l];
      if (l > 0) k.compress(a.act, nb, a.k, a.rowPtr, a.rowIdx, a.rowVal, a.colPtr, a.colIdx, a.colVal, a.cursor);
      k.forward(a.rowPtr, a.rowIdx, a.rowVal, nb, a.w, a.n, a.b, l < L - 1 ? this.layers[l + 1].act : this.logits, l < L - 1 ? 1 : 0);
    }
    const lossSum = k.softmaxXent(this.logits, nb, last.n, headWidth, this.labels, this.dz[0], this.correctAt);
    let cur = 0;
    for (let l = L - 1; l >= 0; l--) {
      const a = this.layers[l];
      k.gradW(a.colPtr, a.colIdx, a.colVal, a.k, this.dz[cur], a.n, a.gw);
      k.gradBias(this.dz[cur], nb, a.n, a.gb);
      if (l > 0) {
        k.gradInput(a.rowPtr, a.rowIdx, nb, this.dz[cur], a.n, a.w, a.k, this.dz[1 - cur]);
        cur = 1 - cur;
      }
    }
    return { loss: lossSum / nb, correct: new Int32Array(k.memory.buffer, this.correctAt, 1)[0] };
  }

  /** Apply the optimiser to the gradients of the last `gradients` call. */
  update(): void {
    const o = this.opt;
    if (!o) throw new Error('resetOptimizer before the first update.');
    if (o.kind === 'sgd') {
      this.k.sgd(this.params, this.grads, this.count, Math.fround(-o.lr));
      return;
    }
    const f = Math.fround;
    const c1 = f(1 - this.accBeta1);
    const c2 = f(1 - this.accBeta2);
    this.k.adam(this.params, this.grads, this.m, this.v, this.count, f(o.beta1), f(1 - o.beta1), f(o.beta2), f(1 - o.beta2), c1, c2, f(o.epsilon), f(-o.lr));
    this.accBeta1 = f(this.accBeta1 * f(o.beta1));
    this.accBeta2 = f(this.accBeta2 * f(o.beta2));
  }

  /** One training step: `gradients` then `update`. */
  step(nb: number, headWidth: number): FusedStepResult {
    const r = this.gradients(nb, headWidth);
    this.update();
    return r;
  }

  /** The gradients of the last `gradients` call in paramInfo order, unpadded (for tests). */
  gradientsOut(): Float32Array[] {
    return this.unpadded((l) => [l.gw, l.gb]);
  }
}

/** What `fusedApplies` looks at: the network, the config's augmentation and the strategy's hooks. */
export interface FusedCase {
  backend: string;
  spec: NetworkSpec;
  augment: unknown;
  strategy: { lossTerms?: unknown; adjustGradients?: unknown; afterStep?: unknown };
}

/**
 * Whether a task trains with the fused step: the wasm backend, an MLP, no augmentation, a strategy that adds nothing
 * to the loss or the gradients (no `lossTerms`, `adjustGradients`, `afterStep`: finetune, replay, GDumb, NCM's
 * skipped training), the step turned on, and WebAssembly SIMD present. CNNs, EWC, LwF, iCaRL, A-GEM, SI, evaluation
 * and the GPU backends stay on tfjs; on wasm, shared training trains one model at a time where this applies.
 */
export async function fusedApplies(c: FusedCase): Promise<boolean> {
  if (c.augment || c.strategy.lossTerms || c.strategy.adjustGradients || c.strategy.afterStep) return false;
  return fusedForwardApplies(c.backend, c.spec);
}

/**
 * Whether predictions from the network's logits go through the fused forward pass (evaluation): the wasm backend, an
 * MLP, the fused step turned on and WebAssembly SIMD present, whatever the strategy trains with.
 */
export async function fusedForwardApplies(backend: string, spec: NetworkSpec): Promise<boolean> {
  if (!enabled || backend !== 'wasm' || spec.kind !== 'mlp') return false;
  return (await kernelModule()) !== null;
}

const idle: { key: string; mlp: FusedMlp }[] = [];

/** A kernel instance for this network and batch size: one kept from an earlier task when free, else a new one. */
export async function acquireFusedMlp(spec: NetworkSpec, batchSize: number): Promise<FusedMlp | null> {
  const key = JSON.stringify([spec.inputShape, spec.hidden, spec.outputs, batchSize]);
  const i = idle.findIndex((e) => e.key === key);
  if (i >= 0) return idle.splice(i, 1)[0].mlp;
  const mlp = await FusedMlp.create(spec, batchSize);
  if (mlp) keys.set(mlp, key);
  return mlp;
}

const keys = new WeakMap<FusedMlp, string>();

/** Give an instance back for the next task (the last two are kept; their memory is reused, not freed). */
export function releaseFusedMlp(mlp: FusedMlp): void {
  const key = keys.get(mlp);
  if (key === undefined) return;
  idle.unshift({ key, mlp });
  idle.length = Math.min(idle.length, 2);
}
