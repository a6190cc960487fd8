// CIL Lab's fused MLP training step: WebAssembly SIMD kernels, written in AssemblyScript (issue 19).
//
// Compiled by `npm run build:kernels` (scripts/build-kernels.mjs) into src/engine/kernels/mlp-step.wasm.ts, the
// module's bytes as base64; a unit test recompiles this file and checks the committed bytes are its output.
// The JavaScript side (src/engine/kernels/fused-mlp.ts) lays the buffers out in this module's memory and calls these
// functions in order for one step: compress + forward per layer, softmaxXent, then gradW / gradBias / gradInput per
// layer from the last, then adam (or sgd) over all parameters at once.
//
// Conventions: every pointer is a byte offset into this module's memory; matrices are row-major f32; every row
// length `n` passed here is a multiple of 4 (the JavaScript side pads widths with zero columns) and every row
// starts 16-byte aligned. Only IEEE f32x4 operations are used (no relaxed SIMD), so the same inputs give the same
// bits in every engine.
//
// Why sparse: the input images and every ReLU output are about half zeros. A product A·W is summed over A's
// nonzeros only (in increasing index order), which is the same sum as the dense one minus exact zeros.

/** CSR (row-wise) and, unless colPtr is 0, CSC (column-wise) lists of the nonzeros of A [B × k]; returns their count. */
export function compress(
  a: usize,
  B: i32,
  k: i32,
  rowPtr: usize,
  rowIdx: usize,
  rowVal: usize,
  colPtr: usize,
  colIdx: usize,
  colVal: usize,
  cursor: usize,
): i32 {
  const zero = f32x4.splat(0);
  let q: i32 = 0;
  for (let b: i32 = 0; b < B; b++) {
    store<i32>(rowPtr + ((<usize>b) << 2), q);
    const row = a + ((<usize>(b * k)) << 2);
    for (let i: i32 = 0; i < k; i += 4) {
      const v = v128.load(row + ((<usize>i) << 2));
      if (!v128.any_true(f32x4.ne(v, zero))) continue;
      // branch-free: write every candidate, advance only past nonzeros (zeros and nonzeros alternate unpredictably)
      for (let j: i32 = 0; j < 4; j++) {
        const x = load<f32>(row + ((<usize>(i + j)) << 2));
        store<i32>(rowIdx + ((<usize>q) << 2), i + j);
        store<f32>(rowVal + ((<usize>q) << 2), x);
        q += <i32>(x != 0);
      }
    }
  }
  store<i32>(rowPtr + ((<usize>B) << 2), q);
  if (colPtr != 0) columns(B, k, q, rowPtr, rowIdx, rowVal, colPtr, colIdx, colVal, cursor); // none for prediction
  return q;
}

/** The CSC lists from the CSR lists (q entries): counts, prefix sums, then the entries in row order. */
function columns(B: i32, k: i32, q: i32, rowPtr: usize, rowIdx: usize, rowVal: usize, colPtr: usize, colIdx: usize, colVal: usize, cursor: usize): void {
  memory.fill(cursor, 0, (<usize>k) << 2);
  for (let p: i32 = 0; p < q; p++) {
    const c = cursor + ((<usize>load<i32>(rowIdx + ((<usize>p) << 2))) << 2);
    store<i32>(c, load<i32>(c) + 1);
  }
  let start: i32 = 0;
  for (let i: i32 = 0; i < k; i++) {
    const c = cursor + ((<usize>i) << 2);
    const count = load<i32>(c);
    store<i32>(colPtr + ((<usize>i) << 2), start);
    store<i32>(c, start);
    start += count;
  }
  store<i32>(colPtr + ((<usize>k) << 2), start);
  for (let b: i32 = 0; b < B; b++) {
    const e = load<i32>(rowPtr + ((<usize>(b + 1)) << 2));
    for (let p = load<i32>(rowPtr + ((<usize>b) << 2)); p < e; p++) {
      const c = cursor + ((<usize>load<i32>(rowIdx + ((<usize>p) << 2))) << 2);
      const at = load<i32>(c);
      store<i32>(c, at + 1);
      store<i32>(colIdx + ((<usize>at) << 2), b);
      store<f32>(colVal + ((<usize>at) << 2), load<f32>(rowVal + ((<usize>p) << 2)));
    }
  }
}

/**
 * `compress` for the input layer straight from the images: `bytes` holds B rows of k uint8 pixels (row stride k, a
 * multiple of 16); a pixel's value is scale[pixel] (a table of 256 f32: v / 255 as the rest of the engine scales
 * images). Skips 16 zero pixels at a time. Same lists as `compress` of the scaled rows.
 */
export function compressBytes(
  bytes: usize,
  B: i32,
  k: i32,
  scale: usize,
  rowPtr: usize,
  rowIdx: usize,
  rowVal: usize,
  colPtr: usize,
  colIdx: usize,
  colVal: usize,
  cursor: usize,
): i32 {
  const zero = i8x16.splat(0);
  let q: i32 = 0;
  for (let b: i32 = 0; b < B; b++) {
    store<i32>(rowPtr + ((<usize>b) << 2), q);
    const row = bytes + <usize>(b * k);
    for (let i: i32 = 0; i < k; i += 16) {
      if (!v128.any_true(i8x16.ne(v128.load(row + <usize>i), zero))) continue;
      for (let j: i32 = 0; j < 16; j++) {
        const v = <i32>load<u8>(row + <usize>(i + j));
        store<i32>(rowIdx + ((<usize>q) << 2), i + j);
        store<f32>(rowVal + ((<usize>q) << 2), load<f32>(scale + ((<usize>v) << 2)));
        q += <i32>(v != 0);
      }
    }
  }
  store<i32>(rowPtr + ((<usize>B) << 2), q);
  if (colPtr != 0) columns(B, k, q, rowPtr, rowIdx, rowVal, colPtr, colIdx, colVal, cursor);
  return q;
}

/**
 * out[b, :] = (Σ over A's nonzeros (i, a) of row b: a · W[i, :]) + bias, then max(·, 0) when `relu`.
 * W is [k × n], out [B × n].
 */
export function forward(rowPtr: usize, rowIdx: usize, rowVal: usize, B: i32, w: usize, n: i32, bias: usize, out: usize, relu: i32): void {
  const zero = f32x4.splat(0);
  let c: i32 = 0;
  // column blocks outer, rows inner: a block of W (k rows × 16 columns) stays in the L1 cache across the batch
  for (; c + 16 <= n; c += 16) {
    const wc = w + ((<usize>c) << 2);
    const bc = bias + ((<usize>c) << 2);
    const b0 = v128.load(bc);
    const b1 = v128.load(bc, 16);
    const b2 = v128.load(bc, 32);
    const b3 = v128.load(bc, 48);
    for (let b: i32 = 0; b < B; b++) {
      const s = load<i32>(rowPtr + ((<usize>b) << 2));
      const e = load<i32>(rowPtr + ((<usize>(b + 1)) << 2));
      let a0 = zero,
        a1 = zero,
        a2 = zero,
        a3 = zero;
      for (let p = s; p < e; p++) {
        const x = f32x4.splat(load<f32>(rowVal + ((<usize>p) << 2)));
        const wp = wc + ((<usize>(load<i32>(rowIdx + ((<usize>p) << 2)) * n)) << 2);
        a0 = f32x4.add(a0, f32x4.mul(x, v128.load(wp)));
        a1 = f32x4.add(a1, f32x4.mul(x, v128.load(wp, 16)));
        a2 = f32x4.add(a2, f32x4.mul(x, v128.load(wp, 32)));
        a3 = f32x4.add(a3, f32x4.mul(x, v128.load(wp, 48)));
      }
      a0 = f32x4.add(a0, b0);
      a1 = f32x4.add(a1, b1);
      a2 = f32x4.add(a2, b2);
      a3 = f32x4.add(a3, b3);
      if (relu) {
        a0 = f32x4.max(a0, zero);
        a1 = f32x4.max(a1, zero);
        a2 = f32x4.max(a2, zero);
        a3 = f32x4.max(a3, zero);
      }
      const oc = out + ((<usize>(b * n + c)) << 2);
      v128.store(oc, a0);
      v128.store(oc, a1, 16);
      v128.store(oc, a2, 32);
      v128.store(oc, a3, 48);
    }
  }
  for (; c < n; c += 4) {
    const wc = w + ((<usize>c) << 2);
    const b0 = v128.load(bias + ((<usize>c) << 2));
    for (let b: i32 = 0; b < B; b++) {
      const s = load<i32>(rowPtr + ((<usize>b) << 2));
      const e = load<i32>(rowPtr + ((<usize>(b + 1)) << 2));
      let a0 = zero;
      for (let p = s; p < e; p++) {
        const x = f32x4.splat(load<f32>(rowVal + ((<usize>p) << 2)));
        a0 = f32x4.add(a0, f32x4.mul(x, v128.load(wc + ((<usize>(load<i32>(rowIdx + ((<usize>p) << 2)) * n)) << 2))));
      }
      a0 = f32x4.add(a0, b0);
      if (relu) a0 = f32x4.max(a0, zero);
      v128.store(out + ((<usize>(b * n + c)) << 2), a0);
    }
  }
}

/**
 * Mean softmax cross-entropy over the first `h` of `n` logits per row, against integer `labels` (i32 [B]).
 * Writes dz [B × n] = (softmax − one-hot) / B in the first h columns, 0 in the rest; returns the summed loss and
 * stores how many rows' arg-max (first maximum) is the label at `correctAt` (i32).
 */
export function softmaxXent(z: usize, B: i32, n: i32, h: i32, labels: usize, dz: usize, correctAt: usize): f64 {
  let loss: f64 = 0;
  let correct: i32 = 0;
  const inv: f64 = 1.0 / <f64>B;
  for (let b: i32 = 0; b < B; b++) {
    const row = z + ((<usize>(b * n)) << 2);
    const drow = dz + ((<usize>(b * n)) << 2);
    const y = load<i32>(labels + ((<usize>b) << 2));
    let m: f64 = <f64>load<f32>(row);
    let arg: i32 = 0;
    for (let j: i32 = 1; j < h; j++) {
      const v = <f64>load<f32>(row + ((<usize>j) << 2));
      if (v > m) {
        m = v;
        arg = j;
      }
    }
    if (arg == y) correct++;
    let s: f64 = 0;
    for (let j: i32 = 0; j < h; j++) s += Math.exp(<f64>load<f32>(row + ((<usize>j) << 2)) - m);
    loss += Math.log(s) - (<f64>load<f32>(row + ((<usize>y) << 2)) - m);
    for (let j: i32 = 0; j < h; j++) {
      const p = Math.exp(<f64>load<f32>(row + ((<usize>j) << 2)) - m) / s;
      store<f32>(drow + ((<usize>j) << 2), <f32>((p - (j == y ? 1.0 : 0.0)) * inv));
    }
    for (let j: i32 = h; j < n; j++) store<f32>(drow + ((<usize>j) << 2), 0);
  }
  store<i32>(correctAt, correct);
  return loss;
}

/** dW [k × n] = Aᵀ · dZ over A's nonzeros, column by column (the CSC lists of `compress`); dZ is [B × n]. */
export function gradW(colPtr: usize, colIdx: usize, colVal: usize, k: i32, dz: usize, n: i32, dw: usize): void {
  const zero = f32x4.splat(0);
  let c: i32 = 0;
  // column blocks outer, weight rows inner: a block of dZ (B rows × 16 columns) stays in the L1 cache
  for (; c + 16 <= n; c += 16) {
    const dc = dz + ((<usize>c) << 2);
    for (let i: i32 = 0; i < k; i++) {
      const s = load<i32>(colPtr + ((<usize>i) << 2));
      const e = load<i32>(colPtr + ((<usize>(i + 1)) << 2));
      let a0 = zero,
        a1 = zero,
        a2 = zero,
        a3 = zero;
      for (let p = s; p < e; p++) {
        const x = f32x4.splat(load<f32>(colVal + ((<usize>p) << 2)));
        const dp = dc + ((<usize>(load<i32>(colIdx + ((<usize>p) << 2)) * n)) << 2);
        a0 = f32x4.add(a0, f32x4.mul(x, v128.load(dp)));
        a1 = f32x4.add(a1, f32x4.mul(x, v128.load(dp, 16)));
        a2 = f32x4.add(a2, f32x4.mul(x, v128.load(dp, 32)));
        a3 = f32x4.add(a3, f32x4.mul(x, v128.load(dp, 48)));
      }
      const oc = dw + ((<usize>(i * n + c)) << 2);
      v128.store(oc, a0);
      v128.store(oc, a1, 16);
      v128.store(oc, a2, 32);
      v128.store(oc, a3, 48);
    }
  }
  for (; c < n; c += 4) {
    const dc = dz + ((<usize>c) << 2);
    for (let i: i32 = 0; i < k; i++) {
      const s = load<i32>(colPtr + ((<usize>i) << 2));
      const e = load<i32>(colPtr + ((<usize>(i + 1)) << 2));
      let a0 = zero;
      for (let p = s; p < e; p++) {
        const x = f32x4.splat(load<f32>(colVal + ((<usize>p) << 2)));
        a0 = f32x4.add(a0, f32x4.mul(x, v128.load(dc + ((<usize>(load<i32>(colIdx + ((<usize>p) << 2)) * n)) << 2))));
      }
      v128.store(dw + ((<usize>(i * n + c)) << 2), a0);
    }
  }
}

/** db [n] = Σ_b dZ[b, :]. */
export function gradBias(dz: usize, B: i32, n: i32, db: usize): void {
  for (let c: i32 = 0; c < n; c += 4) {
    let a = f32x4.splat(0);
    for (let b: i32 = 0; b < B; b++) a = f32x4.add(a, v128.load(dz + ((<usize>(b * n + c)) << 2)));
    v128.store(db + ((<usize>c) << 2), a);
  }
}

/**
 * The gradient reaching the previous layer's pre-activations: out [B × k] = (dZ · Wᵀ) ⊙ [A > 0], computed only where
 * A (that layer's ReLU output, given by its CSR lists) is nonzero and 0 elsewhere. W is [k × n], dZ [B × n].
 */
export function gradInput(rowPtr: usize, rowIdx: usize, B: i32, dz: usize, n: i32, w: usize, k: i32, out: usize): void {
  memory.fill(out, 0, (<usize>(B * k)) << 2);
  const zero = f32x4.splat(0);
  for (let b: i32 = 0; b < B; b++) {
    const s = load<i32>(rowPtr + ((<usize>b) << 2));
    const e = load<i32>(rowPtr + ((<usize>(b + 1)) << 2));
    const drow = dz + ((<usize>(b * n)) << 2);
    const orow = out + ((<usize>(b * k)) << 2);
    for (let p = s; p < e; p++) {
      const i = load<i32>(rowIdx + ((<usize>p) << 2));
      const wrow = w + ((<usize>(i * n)) << 2);
      let a0 = zero,
        a1 = zero;
      let c: i32 = 0;
      for (; c + 8 <= n; c += 8) {
        a0 = f32x4.add(a0, f32x4.mul(v128.load(drow + ((<usize>c) << 2)), v128.load(wrow + ((<usize>c) << 2))));
        a1 = f32x4.add(a1, f32x4.mul(v128.load(drow + ((<usize>c) << 2), 16), v128.load(wrow + ((<usize>c) << 2), 16)));
      }
      for (; c < n; c += 4) a0 = f32x4.add(a0, f32x4.mul(v128.load(drow + ((<usize>c) << 2)), v128.load(wrow + ((<usize>c) << 2))));
      const a = f32x4.add(a0, a1);
      const sum = f32x4.extract_lane(a, 0) + f32x4.extract_lane(a, 1) + (f32x4.extract_lane(a, 2) + f32x4.extract_lane(a, 3));
      store<f32>(orow + ((<usize>i) << 2), sum);
    }
  }
}

/**
 * Adam over `len` parameters (a multiple of 4), in tfjs's float32 order (tfjs-core's AdamOptimizer):
 * m ← β1·m + (1−β1)·g; v ← β2·v + (1−β2)·g²; w ← (m/c1) / (√(v/c2) + ε) · (−lr) + w, with c1 = 1 − β1^t and
 * c2 = 1 − β2^t computed by the caller.
 */
export function adam(w: usize, g: usize, m: usize, v: usize, len: i32, b1: f32, omb1: f32, b2: f32, omb2: f32, c1: f32, c2: f32, eps: f32, negLr: f32): void {
  const B1 = f32x4.splat(b1);
  const OMB1 = f32x4.splat(omb1);
  const B2 = f32x4.splat(b2);
  const OMB2 = f32x4.splat(omb2);
  const C1 = f32x4.splat(c1);
  const C2 = f32x4.splat(c2);
  const EPS = f32x4.splat(eps);
  const NLR = f32x4.splat(negLr);
  const end = (<usize>len) << 2;
  for (let o: usize = 0; o < end; o += 16) {
    const gi = v128.load(g + o);
    const mi = f32x4.add(f32x4.mul(v128.load(m + o), B1), f32x4.mul(gi, OMB1));
    const vi = f32x4.add(f32x4.mul(v128.load(v + o), B2), f32x4.mul(f32x4.mul(gi, gi), OMB2));
    v128.store(m + o, mi);
    v128.store(v + o, vi);
    const step = f32x4.mul(f32x4.div(f32x4.div(mi, C1), f32x4.add(f32x4.sqrt(f32x4.div(vi, C2)), EPS)), NLR);
    v128.store(w + o, f32x4.add(step, v128.load(w + o)));
  }
}

/** Plain SGD in tfjs's order: w ← (−lr)·g + w. */
export function sgd(w: usize, g: usize, len: i32, negLr: f32): void {
  const NLR = f32x4.splat(negLr);
  const end = (<usize>len) << 2;
  for (let o: usize = 0; o < end; o += 16) v128.store(w + o, f32x4.add(f32x4.mul(NLR, v128.load(g + o)), v128.load(w + o)));
}
