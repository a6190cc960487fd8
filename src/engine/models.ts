/**
 * The two networks, written with tfjs-core ops over plain weight tensors: an MLP (flattened input → hidden widths with
 * ReLU → one output unit per class of the run) and a CNN (2 × [conv 3×3 'same' + ReLU + max-pool 2×2] → dense ReLU →
 * one unit per class). Plain tensors rather than tfjs-layers, so a network is a list of weight tensors and one
 * forward function, and snapshots, clones (LwF's and iCaRL's frozen old model) and restores (GDumb) are copies of
 * typed arrays. One output head over all classes (docs/science.md, Conventions): unit u is the u-th class of the
 * ordering, so the classes seen after task t are a prefix of the head and masking the unseen is a slice.
 */
import * as tf from '@tensorflow/tfjs-core';
import { createDefaultRng } from '../core/random/default-rng';
import type { InitScheme } from './defaults';

export interface NetworkSpec {
  kind: 'mlp' | 'cnn';
  /** [height, width, channels] of one input image */
  inputShape: [number, number, number];
  /** output units (all classes of the run) */
  outputs: number;
  /** MLP hidden widths */
  hidden?: number[];
  /** CNN: filters of the two conv blocks, and the dense width */
  filters?: number[];
  dense?: number;
  /** initialisation scheme (see `initWeights`); absent = 'he-glorot' */
  init?: InitScheme;
}

export interface ParamInfo {
  name: string;
  shape: number[];
  /** 'uniform-fan-in': U(±1/√fan_in), PyTorch's weights and biases */
  init: 'he' | 'glorot' | 'zeros' | 'uniform-fan-in';
  fanIn: number;
  fanOut: number;
}

/** Spatial size after a 2×2 max-pool with stride 2 and 'same' padding. */
const pooled = (n: number): number => Math.ceil(n / 2);

/** The weight tensors of a network, in forward order, each with how the spec's scheme initialises it. */
export function paramInfo(spec: NetworkSpec): ParamInfo[] {
  const info = paramLayout(spec);
  return spec.init === 'pytorch' ? info.map((p) => ({ ...p, init: 'uniform-fan-in' as const })) : info;
}

function paramLayout(spec: NetworkSpec): ParamInfo[] {
  const [h, w, c] = spec.inputShape;
  const out: ParamInfo[] = [];
  const dense = (name: string, fanIn: number, fanOut: number, init: 'he' | 'glorot'): void => {
    out.push({ name: `${name}/kernel`, shape: [fanIn, fanOut], init, fanIn, fanOut });
    out.push({ name: `${name}/bias`, shape: [fanOut], init: 'zeros', fanIn, fanOut });
  };
  if (spec.kind === 'mlp') {
    let width = h * w * c;
    (spec.hidden ?? []).forEach((units, i) => {
      dense(`hidden${i + 1}`, width, units, 'he');
      width = units;
    });
    dense('output', width, spec.outputs, 'glorot');
    return out;
  }
  const filters = spec.filters ?? [];
  if (filters.length !== 2) throw new Error(`The CNN has two conv blocks: give 2 filter counts, got ${filters.length}.`);
  let ch = c;
  let hh = h;
  let ww = w;
  filters.forEach((f, i) => {
    out.push({ name: `conv${i + 1}/kernel`, shape: [3, 3, ch, f], init: 'he', fanIn: 9 * ch, fanOut: 9 * f });
    out.push({ name: `conv${i + 1}/bias`, shape: [f], init: 'zeros', fanIn: 9 * ch, fanOut: 9 * f });
    ch = f;
    hh = pooled(hh);
    ww = pooled(ww);
  });
  const flat = hh * ww * ch;
  const d = spec.dense ?? 128;
  dense('dense', flat, d, 'he');
  dense('output', d, spec.outputs, 'glorot');
  return out;
}

/** The half-width of the uniform distribution a weight tensor is drawn from (0 for zeros). */
export function initLimit(p: Pick<ParamInfo, 'init' | 'fanIn' | 'fanOut'>): number {
  switch (p.init) {
    case 'zeros':
      return 0;
    case 'he':
      return Math.sqrt(6 / p.fanIn);
    case 'glorot':
      return Math.sqrt(6 / (p.fanIn + p.fanOut));
    case 'uniform-fan-in':
      return 1 / Math.sqrt(p.fanIn);
  }
}

/**
 * Seeded initial weights, from our numpy-compatible generator, never tfjs's random ops (which differ by backend):
 * same spec + seed → the same numbers everywhere. Two schemes (`NetworkSpec.init`, the config's `training.init`;
 * docs/science.md "Initialisation and matching PyTorch"): 'he-glorot' (the default; He-uniform √(6/fan_in) before a
 * ReLU, Glorot-uniform √(6/(fan_in+fan_out)) for the output layer, zero biases: Keras's conventions) and 'pytorch'
 * (torch.nn.Linear / Conv2d's reset_parameters: kaiming_uniform(a=√5), i.e. U(±1/√fan_in), and U(±1/√fan_in) for the
 * biases too; fan_in = a dense layer's inputs, 9·channels for a 3×3 conv): our numbers, PyTorch's distribution.
 */
export function initWeights(spec: NetworkSpec, seed: number): Float32Array[] {
  const rng = createDefaultRng(seed >>> 0);
  return paramInfo(spec).map((p) => {
    const n = p.shape.reduce((a, b) => a * b, 1);
    const out = new Float32Array(n);
    if (p.init === 'zeros') return out;
    const limit = initLimit(p);
    for (let i = 0; i < n; i++) out[i] = (2 * rng.random() - 1) * limit;
    return out;
  });
}

/**
 * Native tf.conv2d only on the GPU backends. tfjs-backend-wasm 4.22 has no Conv2DBackpropFilter kernel (the
 * weight gradient), and tfjs-backend-cpu's conv gradients are plain JS loops about 5× slower than the im2col
 * form below (measured: 8×8×16 → 32 filters, batch 32, forward + backward: 934 ms vs 169 ms).
 */
function useNativeConv(): boolean {
  const b = tf.getBackend();
  return (b === 'webgl' || b === 'webgpu') && tf.getKernel('Conv2DBackpropFilter', b) !== undefined;
}

/**
 * 3×3 convolution, stride 1, 'same' padding (cross-correlation, as tf.conv2d). Off the GPU the same operation is
 * written as im2col — the nine shifted views concatenated along channels, times the kernel reshaped to [9·C, F] —
 * whose gradients need only pad, slice, concat and matMul, which every backend has.
 */
export function conv3x3Same(x: tf.Tensor4D, kernel: tf.Tensor): tf.Tensor4D {
  if (useNativeConv()) return tf.conv2d(x, kernel as tf.Tensor4D, 1, 'same');
  const [b, h, w, c] = x.shape;
  const f = kernel.shape[3] as number;
  const padded = tf.pad(x, [
    [0, 0],
    [1, 1],
    [1, 1],
    [0, 0],
  ]);
  const views: tf.Tensor4D[] = [];
  for (let dy = 0; dy < 3; dy++) for (let dx = 0; dx < 3; dx++) views.push(tf.slice(padded, [0, dy, dx, 0], [b, h, w, c]));
  const cols = tf.reshape(tf.concat(views, 3), [b * h * w, 9 * c]);
  return tf.reshape(tf.matMul(cols, tf.reshape(kernel, [9 * c, f])), [b, h, w, f]);
}

/** A network: weight tensors (Variables when trainable) and its forward passes. */
export interface Network {
  readonly spec: NetworkSpec;
  readonly info: ParamInfo[];
  /** weight tensors in `info` order */
  readonly params: tf.Tensor[];
  /** the same tensors as Variables (empty for a frozen network) */
  readonly variables: tf.Variable[];
  /** width of the penultimate layer (what `features` returns) */
  readonly featureSize: number;
  /** penultimate-layer activations [n, featureSize] (the input, flattened, for an MLP without hidden layers) */
  features(x: tf.Tensor4D): tf.Tensor2D;
  /** output layer on features: logits over every output unit [n, outputs] */
  head(features: tf.Tensor2D): tf.Tensor2D;
  /** logits over every output unit [n, outputs] */
  logits(x: tf.Tensor4D): tf.Tensor2D;
  /**
   * Copies of the weights (read back from the device unless they were set from arrays since). `copy: false`: the
   * arrays the network holds where it holds them, not to be changed (the fused step copies them into its memory).
   */
  readWeights(options?: { copy?: boolean }): Promise<Float32Array[]>;
  /** Overwrite the weights (copies `weights`; `copy: false` hands them over: the caller no longer changes them). */
  setWeights(weights: Float32Array[], options?: { copy?: boolean }): void;
  dispose(): void;
}

function checkWeights(info: ParamInfo[], weights: Float32Array[]): void {
  if (weights.length !== info.length) throw new Error(`Expected ${info.length} weight arrays, got ${weights.length}.`);
  info.forEach((p, i) => {
    const n = p.shape.reduce((a, b) => a * b, 1);
    if (weights[i].length !== n) throw new Error(`Weight ${p.name}: expected ${n} values, got ${weights[i].length}.`);
  });
}

/** Build a network from weights. `trainable: false` gives a frozen copy (plain tensors, no gradients). */
export function createNetwork(spec: NetworkSpec, weights: Float32Array[], options: { trainable?: boolean } = {}): Network {
  const info = paramInfo(spec);
  checkWeights(info, weights);
  const trainable = options.trainable ?? true;
  const params: tf.Tensor[] = info.map((p, i) => {
    const t = tf.tensor(weights[i].slice(), p.shape, 'float32');
    if (!trainable) return t;
    const v = tf.variable(t, true);
    t.dispose();
    return v;
  });
  return networkOver(spec, params, trainable);
}

/**
 * A network whose weights are the given tensors (in `paramInfo` order): Variables when `trainable`, else any
 * tensors — e.g. slices of a population's stacked weights taken inside a gradient tape (population.ts), so a
 * strategy's loss terms see one member's weights and their gradients reach the stack.
 */
export function networkOver(spec: NetworkSpec, params: tf.Tensor[], trainable: boolean): Network {
  const info = paramInfo(spec);
  const variables = trainable ? (params as tf.Variable[]) : [];
  const nHidden = spec.kind === 'mlp' ? (spec.hidden ?? []).length : 0;
  const [h, w, c] = spec.inputShape;
  const featureSize = spec.kind === 'mlp' ? (nHidden > 0 ? (spec.hidden as number[])[nHidden - 1] : h * w * c) : (spec.dense ?? 128);
  const outIdx = info.length - 2;

  const features = (x: tf.Tensor4D): tf.Tensor2D =>
    tf.tidy(() => {
      const n = x.shape[0];
      if (spec.kind === 'mlp') {
        let a = tf.reshape(x, [n, h * w * c]) as tf.Tensor2D;
        for (let l = 0; l < nHidden; l++) a = tf.relu(tf.add(tf.matMul(a, params[2 * l] as tf.Tensor2D), params[2 * l + 1])) as tf.Tensor2D;
        return a;
      }
      let a: tf.Tensor4D = x;
      for (let l = 0; l < 2; l++) {
        a = tf.relu(tf.add(conv3x3Same(a, params[2 * l]), params[2 * l + 1])) as tf.Tensor4D;
        a = tf.maxPool(a, 2, 2, 'same');
      }
      const flat = tf.reshape(a, [n, a.shape[1] * a.shape[2] * a.shape[3]]);
      return tf.relu(tf.add(tf.matMul(flat, params[4] as tf.Tensor2D), params[5])) as tf.Tensor2D;
    });
  const head = (f: tf.Tensor2D): tf.Tensor2D => tf.tidy(() => tf.add(tf.matMul(f, params[outIdx] as tf.Tensor2D), params[outIdx + 1]) as tf.Tensor2D);
  /** the weights last set by `setWeights`, with the dataIds they were set under (stale once any tensor is assigned) */
  let known: { ids: object[]; weights: Float32Array[] } | null = null;
  /**
   * Weights set from JavaScript and not yet written to the tensors: the write waits until something reads the
   * tensors. The fused step (kernels/fused-mlp.ts) reads and writes weights as arrays only, so a prefix-shared ground
   * truth on wasm sets a snapshot, trains and sets the result without a tensor ever being written.
   */
  let pending: Float32Array[] | null = null;
  const sync = (): void => {
    if (!pending) return;
    const ws = pending;
    pending = null;
    tf.tidy(() => {
      variables.forEach((v, i) => v.assign(tf.tensor(ws[i].slice(), info[i].shape, 'float32')));
    });
    known = { ids: params.map((p) => p.dataId), weights: ws };
  };
  return {
    spec,
    info,
    get params() {
      sync();
      return params;
    },
    get variables() {
      sync();
      return variables;
    },
    featureSize,
    features: (x) => (sync(), features(x)),
    head: (f) => (sync(), head(f)),
    logits: (x) => (sync(), tf.tidy(() => head(features(x)))),
    async readWeights({ copy = true } = {}) {
      const out = (ws: Float32Array[]): Float32Array[] => (copy ? ws.map((w) => w.slice()) : ws);
      if (pending) return out(pending);
      // weights set from JavaScript (the fused step's, a snapshot's) and not assigned since are known here: a copy of
      // them spares the read back from the device. Every write to a tensor goes through assign (training,
      // strategies), which gives it a new dataId.
      if (known && known.ids.every((id, i) => params[i].dataId === id)) return out(known.weights);
      const data = await Promise.all(params.map((p) => p.data()));
      return data.map((d) => Float32Array.from(d as Float32Array));
    },
    setWeights(ws, { copy = true } = {}) {
      if (!trainable) throw new Error('A frozen network cannot be overwritten; build a new one.');
      checkWeights(info, ws);
      pending = copy ? ws.map((w) => w.slice()) : ws.slice();
    },
    dispose() {
      pending = null;
      for (const p of params) p.dispose();
    },
  };
}
