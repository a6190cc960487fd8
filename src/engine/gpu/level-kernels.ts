/**
 * The WGSL kernels of level-batched training (level-mlp.ts): M MLPs of one shape, each with its own weights, Adam
 * moments and batch, trained in lockstep by one dispatch per layer and pass. They compute what the fused wasm step
 * computes (wasm/mlp-step.ts; docs/science.md appendix D.1) up to float summation order and the GPU's exp/sqrt:
 *
 * - forward, per layer: out[m, r, :] = Σ_k x[r, k]·W[m, k, :] (k increasing) + bias, ReLU on hidden layers;
 * - `xent`: softmax cross-entropy over the first `head` logits, dZ = (softmax − one-hot) / rows, in place; 0 past the
 *   head;
 * - `gradInput`: the gradient reaching a hidden layer's pre-activations, (dZ · Wᵀ) where its ReLU was active, else 0,
 *   read from the layer's weights before they are updated;
 * - `gradWAdam`: dW[k, :] = Σ_r x[r, k]·dZ[r, :] (rows increasing; the bias row Σ_r dZ[r, :]), then tfjs's Adam (or
 *   SGD) on those weights at once: m ← β1·m + (1−β1)·g; v ← β2·v + (1−β2)·g²; w ← (m/c1) / (√(v/c2) + ε) · (−lr) + w,
 *   with c1 = 1 − β1^t and c2 = 1 − β2^t from the caller (float32, as tfjs);
 * - `argmax`: the first maximum of the first `head` logits (evaluation).
 *
 * Every product is a register tile: an invocation computes 8 rows × 8 columns (or 8 inputs × 8 columns), so each
 * value it loads serves 8 multiply-adds. The products are dense: adding x·w for a zero x changes no sum, and a branch
 * that skips zeros costs more than it saves where WebGPU runs on the CPU (SwiftShader: measured, a skip made the
 * weight gradient 2× slower); the wasm step, which is CPU code, skips them.
 *
 * Layouts: every width is padded to a multiple of 8 with zeros that stay zero (their gradients are 0); a model's
 * parameters are one block of P floats in paramInfo order (kernel [K × N] row-major, then bias), models P apart;
 * activations [M × R × N] (R rows per model). The first layer reads its input straight from the dataset: images as
 * bytes (4 to a u32, scaled by /255 as batchImages scales them) or feature vectors as floats, by each row's example
 * index. One uniform block per step (a dynamic offset) says which rows, the head and Adam's constants.
 */

/** The shape every kernel is compiled for. */
export interface LevelShape {
  /** padded widths: input, hidden…, outputs (each a multiple of the tile, 8) */
  dims: number[];
  /** the input as bytes (images) or floats (feature vectors), and its words per example in the dataset buffers */
  input: 'bytes' | 'floats';
  inWords: number;
  /** rows per model in the activation buffers (≥ the batch size and the evaluation chunk) */
  R: number;
  /** floats per model's parameter block (a multiple of 4), and each layer's kernel and bias offsets in it (floats) */
  P: number;
  wOff: number[];
  bOff: number[];
}

/** The uniform of one dispatch group (one step, or one evaluation chunk): 256 bytes apart (dynamic offsets). */
export const UNIFORM_STRIDE = 256;

const HEADER = /* wgsl */ `
struct U {
  row0: u32, rows: u32, head: u32, sgd: u32,
  c1: f32, c2: f32, b1: f32, omb1: f32,
  b2: f32, omb2: f32, eps: f32, nlr: f32,
  stride: u32, p1: u32, p2: u32, p3: u32,
};
@group(0) @binding(0) var<uniform> u: U;
`;

/** Rows, output columns and inputs one invocation computes (a register tile: fewer loads per multiply-add). */
export const TILE = 8;

/** Widths are padded to a multiple of the tile (zeros that stay zero). */
export const padTile = (n: number): number => Math.ceil(n / TILE) * TILE;

/** A kernel: its WGSL, its workgroup size, and its grid for `rows` rows of `models` models. */
export interface KernelSpec {
  code: string;
  workgroup: [number, number];
  grid(rows: number, models: number): [number, number, number];
}

/** A workgroup of 64 invocations over a grid `columns` wide: x the smallest power of two ≥ columns (at most 64). */
export function workgroupOf(columns: number): [number, number] {
  let x = 1;
  while (x < columns && x < 64) x *= 2;
  return [x, 64 / x];
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
const T = range(TILE);
/** Two vec4s: the tile's 8 output columns. */
const C = [0, 1];

function spec(code: string, columns: number, rowsOf: (rows: number) => number): KernelSpec {
  const workgroup = workgroupOf(columns);
  return {
    code,
    workgroup,
    grid: (rows, models) => [Math.ceil(columns / workgroup[0]), Math.ceil(rowsOf(rows) / workgroup[1]), models],
  };
}

/** The tile's row indices, clamped to the step's last row (rows past it are computed, never stored). */
const tileRows = `let r0 = g.y * ${TILE}u;\n  if (r0 >= u.rows) { return; }\n  ${T.map((i) => `let ri${i} = min(r0 + ${i}u, u.rows - 1u);`).join(' ')}`;

/** Reading example `e`'s input of the first layer (bytes through /255, as batchImages scales them, or floats). */
function dataDecl(s: LevelShape): string {
  return s.input === 'bytes' ? `@group(0) @binding(3) var<storage, read> data: array<u32>;` : `@group(0) @binding(3) var<storage, read> data: array<f32>;`;
}
const byteAt = (word: string, b: number): string => `f32((${word} >> ${8 * b}u) & 255u) / 255.0`;

/**
 * Forward pass of layer `l`: bindings 1 W, 2 the rows' example indices and 3 the dataset (first layer) or 2 the input
 * activations, 5 the output. An invocation: 8 rows × 8 columns.
 */
export function forwardKernel(s: LevelShape, l: number): KernelSpec {
  const K = s.dims[l];
  const N4 = s.dims[l + 1] / 4;
  const CT = s.dims[l + 1] / TILE;
  const last = l === s.dims.length - 2;
  const acc = T.map((i) => C.map((c) => `var a${i}_${c} = vec4<f32>(0.0);`).join(' ')).join('\n  ');
  const fma = (x: (i: number) => string, k: string): string =>
    `${C.map((c) => `let w${c} = W[wbase + (${k}) * ${N4}u + ${c}u];`).join(' ')}\n      ${T.map((i) => `{ let x = ${x(i)}; ${C.map((c) => `a${i}_${c} = a${i}_${c} + x * w${c};`).join(' ')} }`).join('\n      ')}`;
  let inputs: string;
  let loop: string;
  if (l === 0 && s.input === 'bytes') {
    inputs = `@group(0) @binding(2) var<storage, read> idx: array<i32>;\n${dataDecl(s)}`;
    loop = `${T.map((i) => `let e${i} = u32(idx[m * u.stride + u.row0 + ri${i}]) * ${s.inWords}u;`).join(' ')}
  for (var q = 0u; q < ${s.inWords}u; q++) {
    ${T.map((i) => `let d${i} = data[e${i} + q];`).join(' ')}
    ${range(4)
      .map((b) => `{\n      ${fma((i) => byteAt(`d${i}`, b), `4u * q + ${b}u`)}\n    }`)
      .join('\n    ')}
  }`;
  } else {
    const src = l === 0 ? 'data' : 'inA';
    inputs =
      l === 0 ? `@group(0) @binding(2) var<storage, read> idx: array<i32>;\n${dataDecl(s)}` : `@group(0) @binding(2) var<storage, read> inA: array<f32>;`;
    const base =
      l === 0
        ? T.map((i) => `let e${i} = u32(idx[m * u.stride + u.row0 + ri${i}]) * ${s.inWords}u;`).join(' ')
        : T.map((i) => `let e${i} = (m * ${s.R}u + ri${i}) * ${K}u;`).join(' ');
    loop = `${base}
  for (var k = 0u; k < ${K}u; k++) {
    ${T.map((i) => `let x${i} = ${src}[e${i} + k];`).join(' ')}
    {
      ${fma((i) => `x${i}`, 'k')}
    }
  }`;
  }
  const store = T.map(
    (i) =>
      `if (r0 + ${i}u < u.rows) { ${C.map((c) => `outA[(m * ${s.R}u + r0 + ${i}u) * ${N4}u + j0 + ${c}u] = ${last ? `a${i}_${c} + b${c}` : `max(a${i}_${c} + b${c}, vec4<f32>(0.0))`};`).join(' ')} }`,
  ).join('\n  ');
  const code = /* wgsl */ `${HEADER}
@group(0) @binding(1) var<storage, read> W: array<vec4<f32>>;
${inputs}
@group(0) @binding(5) var<storage, read_write> outA: array<vec4<f32>>;
@compute @workgroup_size(${workgroupOf(CT).join(', ')})
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
  if (g.x >= ${CT}u) { return; }
  let m = g.z;
  let j0 = g.x * 2u;
  ${tileRows}
  let wbase = m * ${s.P / 4}u + ${s.wOff[l] / 4}u + j0;
  ${acc}
  ${loop}
  ${C.map((c) => `let b${c} = W[m * ${s.P / 4}u + ${s.bOff[l] / 4}u + j0 + ${c}u];`).join(' ')}
  ${store}
}`;
  return spec(code, CT, (rows) => Math.ceil(rows / TILE));
}

/** Softmax cross-entropy's gradient in place over the logits: bindings 1 logits (→ dZ), 2 the rows' output units. */
export function xentKernel(s: LevelShape): KernelSpec {
  const NL = s.dims[s.dims.length - 1];
  const code = /* wgsl */ `${HEADER}
@group(0) @binding(1) var<storage, read_write> Z: array<f32>;
@group(0) @binding(2) var<storage, read> units: array<i32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
  let r = g.x; let m = g.y;
  if (r >= u.rows) { return; }
  let z0 = (m * ${s.R}u + r) * ${NL}u;
  let y = u32(units[m * u.stride + u.row0 + r]);
  var mx = Z[z0];
  for (var j = 1u; j < u.head; j++) { mx = max(mx, Z[z0 + j]); }
  var sum = 0.0;
  for (var j = 0u; j < u.head; j++) { sum = sum + exp(Z[z0 + j] - mx); }
  let inv = 1.0 / f32(u.rows);
  for (var j = 0u; j < u.head; j++) {
    let p = exp(Z[z0 + j] - mx) / sum;
    Z[z0 + j] = (p - select(0.0, 1.0, j == y)) * inv;
  }
  for (var j = u.head; j < ${NL}u; j++) { Z[z0 + j] = 0.0; }
}`;
  return { code, workgroup: [64, 1], grid: (rows, models) => [Math.ceil(rows / 64), models, 1] };
}

/** The first maximum of the first `head` logits: bindings 1 logits, 2 predictions [M × stride]. */
export function argmaxKernel(s: LevelShape): KernelSpec {
  const NL = s.dims[s.dims.length - 1];
  const code = /* wgsl */ `${HEADER}
@group(0) @binding(1) var<storage, read> Z: array<f32>;
@group(0) @binding(2) var<storage, read_write> pred: array<i32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
  let r = g.x; let m = g.y;
  if (r >= u.rows) { return; }
  let z0 = (m * ${s.R}u + r) * ${NL}u;
  var best = 0u;
  for (var j = 1u; j < u.head; j++) { if (Z[z0 + j] > Z[z0 + best]) { best = j; } }
  pred[m * u.stride + u.row0 + r] = i32(best);
}`;
  return { code, workgroup: [64, 1], grid: (rows, models) => [Math.ceil(rows / 64), models, 1] };
}

/**
 * The gradient at hidden layer `l`'s pre-activations from layer l+1's: bindings 1 W (layer l+1, not yet updated),
 * 2 dZ of layer l+1, 3 layer l's ReLU outputs, 4 the result. An invocation: 8 rows × 8 units.
 */
export function gradInputKernel(s: LevelShape, l: number): KernelSpec {
  const K = s.dims[l + 1];
  const N4 = s.dims[l + 2] / 4;
  const KT = K / TILE;
  const code = /* wgsl */ `${HEADER}
@group(0) @binding(1) var<storage, read> W: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> dzN: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> act: array<f32>;
@group(0) @binding(4) var<storage, read_write> dzOut: array<f32>;
@compute @workgroup_size(${workgroupOf(KT).join(', ')})
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
  if (g.x >= ${KT}u) { return; }
  let m = g.z;
  let k0 = g.x * ${TILE}u;
  ${tileRows}
  let wbase = m * ${s.P / 4}u + ${s.wOff[l + 1] / 4}u + k0 * ${N4}u;
  ${T.map((i) => `let d${i} = (m * ${s.R}u + ri${i}) * ${N4}u;`).join(' ')}
  ${T.map((i) => T.map((k) => `var a${i}_${k} = 0.0;`).join(' ')).join('\n  ')}
  for (var j4 = 0u; j4 < ${N4}u; j4++) {
    ${T.map((k) => `let w${k} = W[wbase + ${k * N4}u + j4];`).join(' ')}
    ${T.map((i) => `{ let z = dzN[d${i} + j4]; ${T.map((k) => `a${i}_${k} = a${i}_${k} + dot(z, w${k});`).join(' ')} }`).join('\n    ')}
  }
  ${T.map(
    (i) =>
      `if (r0 + ${i}u < u.rows) { let o = (m * ${s.R}u + r0 + ${i}u) * ${K}u + k0; ${T.map((k) => `dzOut[o + ${k}u] = select(0.0, a${i}_${k}, act[o + ${k}u] != 0.0);`).join(' ')} }`,
  ).join('\n  ')}
}`;
  return spec(code, KT, (rows) => Math.ceil(rows / TILE));
}

/** Rows the weight-gradient loop takes per iteration (fewer iterations: less loop and mask bookkeeping per row). */
const ROW_UNROLL = 4;

/**
 * Layer `l`'s weight and bias gradients over the step's rows, and the optimiser's update of them: bindings 1 W,
 * 6 Adam's m, 7 its v, 8 dZ of layer l; the input from 2 the rows' example indices and 3 the dataset (first layer)
 * or 2 the input activations. An invocation: 8 inputs × 8 columns of the weights (the last row of invocations: the
 * bias's 8 columns).
 */
export function gradWAdamKernel(s: LevelShape, l: number): KernelSpec {
  const K = s.dims[l];
  const N4 = s.dims[l + 1] / 4;
  const CT = s.dims[l + 1] / TILE;
  const KT = K / TILE;
  let inputs: string;
  /** One row's contribution (row index expression `r`), in a block of its own. */
  let row: (r: string) => string;
  const fma = (r: string, x: (k: number) => string): string =>
    `let dr = (m * ${s.R}u + ${r}) * ${N4}u + j0; ${C.map((c) => `let z${c} = dz[dr + ${c}u];`).join(' ')}
      ${T.map((k) => `{ let x = ${x(k)}; ${C.map((c) => `a${k}_${c} = a${k}_${c} + x * z${c};`).join(' ')} }`).join('\n      ')}`;
  if (l === 0 && s.input === 'bytes') {
    inputs = `@group(0) @binding(2) var<storage, read> idx: array<i32>;\n${dataDecl(s)}`;
    row = (r) => `{
      let e = u32(idx[m * u.stride + u.row0 + ${r}]) * ${s.inWords}u + k0 / 4u;
      let q0 = data[e]; let q1 = data[e + 1u];
      ${fma(r, (k) => byteAt(k < 4 ? 'q0' : 'q1', k % 4))}
      }`;
  } else {
    inputs =
      l === 0 ? `@group(0) @binding(2) var<storage, read> idx: array<i32>;\n${dataDecl(s)}` : `@group(0) @binding(2) var<storage, read> inA: array<f32>;`;
    const base = (r: string): string => (l === 0 ? `u32(idx[m * u.stride + u.row0 + ${r}]) * ${s.inWords}u + k0` : `(m * ${s.R}u + ${r}) * ${K}u + k0`);
    const src = l === 0 ? 'data' : 'inA';
    row = (r) => `{
      let e = ${base(r)};
      ${T.map((k) => `let x${k} = ${src}[e + ${k}u];`).join(' ')}
      ${fma(r, (k) => `x${k}`)}
      }`;
  }
  const adam = (i: string, g: string): string => `adam(${i}, ${g});`;
  const code = /* wgsl */ `${HEADER}
@group(0) @binding(1) var<storage, read_write> W: array<vec4<f32>>;
${inputs}
@group(0) @binding(6) var<storage, read_write> M1: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read_write> M2: array<vec4<f32>>;
@group(0) @binding(8) var<storage, read> dz: array<vec4<f32>>;
fn adam(i: u32, g: vec4<f32>) {
  if (u.sgd == 1u) {
    W[i] = u.nlr * g + W[i];
    return;
  }
  let mi = M1[i] * u.b1 + g * u.omb1;
  let vi = M2[i] * u.b2 + (g * g) * u.omb2;
  M1[i] = mi;
  M2[i] = vi;
  W[i] = ((mi / u.c1) / (sqrt(vi / u.c2) + u.eps)) * u.nlr + W[i];
}
@compute @workgroup_size(${workgroupOf(CT).join(', ')})
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
  if (g.x >= ${CT}u || g.y > ${KT}u) { return; }
  let m = g.z;
  let j0 = g.x * 2u;
  if (g.y == ${KT}u) {
    ${C.map((c) => `var b${c} = vec4<f32>(0.0);`).join(' ')}
    for (var r = 0u; r < u.rows; r++) {
      let dr = (m * ${s.R}u + r) * ${N4}u + j0;
      ${C.map((c) => `b${c} = b${c} + dz[dr + ${c}u];`).join(' ')}
    }
    ${C.map((c) => adam(`m * ${s.P / 4}u + ${s.bOff[l] / 4}u + j0 + ${c}u`, `b${c}`)).join(' ')}
    return;
  }
  let k0 = g.y * ${TILE}u;
  ${T.map((k) => C.map((c) => `var a${k}_${c} = vec4<f32>(0.0);`).join(' ')).join('\n  ')}
  var r = 0u;
  for (; r + ${ROW_UNROLL}u <= u.rows; r += ${ROW_UNROLL}u) {
    ${range(ROW_UNROLL)
      .map((d) => row(`(r + ${d}u)`))
      .join('\n    ')}
  }
  for (; r < u.rows; r++) {
    ${row('r')}
  }
  let wbase = m * ${s.P / 4}u + ${s.wOff[l] / 4}u + k0 * ${N4}u + j0;
  ${T.map((k) => C.map((c) => adam(`wbase + ${k * N4 + c}u`, `a${k}_${c}`)).join(' ')).join('\n  ')}
}`;
  return spec(code, CT, () => KT + 1);
}
