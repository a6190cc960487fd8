/**
 * Ground truth at speed: many orderings of one experiment trained together, with prefix sharing (every distinct task
 * prefix trained once, src/core/ground-truth/prefix-plan.ts; its children continue from a copy of its model and its
 * strategy's state) and population training (population.ts: up to P prefixes of one depth in lockstep). The results
 * equal training each ordering alone with `trainRun` (trainer.ts) and the same seeds; the order of work, the memory
 * kept and pull mode across workers are docs/architecture.md's "Ground-truth scheduling". Softmax recording
 * (`probs`, CPCF) is not supported here: the Forgetting lab trains one run at a time.
 */
import * as tf from '@tensorflow/tfjs-core';
import { planPrefixes, type PrefixNode } from '../core/ground-truth/prefix-plan';
import { orderingPaths } from '../core/ground-truth/schedule';
import { ensureBackend, isSoftwareGpu } from './backend';
import { cloneState } from './checkpoint';
import { resolveTrainConfig, TrainConfigError } from './config';
import { RunControl, pausePointOf } from './control';
import { checkModelFitsData, validateDataset } from './dataset';
import { accuracyFrom, sortedUnion, unitsOf, type ScoreFn } from './evaluate';
import { ensureGradients } from './gradients';
import { fusedApplies } from './kernels/fused-mlp';
import { headPrefix } from './losses';
import { createNetwork, initWeights, type Network } from './models';
import { planRun, type RunPlan } from './plan';
import { choosePopulation, populationSupported, trainPopulationTask, type PopulationMember } from './population';
import { createStrategy, type Strategy } from './strategies/index';
import { levelInitialPredictions, levelRefusal, openLevelRun, trainByLevels, type LevelRun } from './gpu/level-train';
import { initialWeightsSeed, networkSpec, planSummary, taskContext, testPredictions, trainTask } from './trainer';
import type { TrainDataset, ProgressEvent, ResolvedTrainConfig, StrategyState, TrainRunConfig, TrainRunResult } from './types';

export interface SharedTrainOptions {
  /** models trained in lockstep: 'auto' (by backend, population.ts `choosePopulation`), or a number (1 = prefix sharing only) */
  population?: number | 'auto';
  /** false: no prefix sharing either — every ordering from scratch, one after another (the naive path, for comparison) */
  share?: boolean;
  /**
   * The order in which the orderings are to finish (indices into the configs; any left out follow depth-first):
   * e.g. the seeded sample order of src/core/ground-truth/schedule.ts. Default: depth-first.
   */
  order?: number[];
  /**
   * false: on WebGPU, train with tfjs (populations) instead of the level-batched kernels (gpu/level-train.ts); for the
   * benchmark that compares the two. Default true.
   */
  levels?: boolean;
}

/** The answer to a pull (`SharedTrainHooks.next`). */
export interface SharedNext {
  /** the next ordering to train here (index into the configs), or null: no more */
  index: number | null;
  /** orderings another worker took since the last answer: never trained here (their prefixes' copies are let go) */
  taken?: number[];
  /**
   * A prefix of the ordering that another worker trained (its `onCheckpoint`): the ordering continues from it, and
   * nothing above it is trained here (src/core/ground-truth/deal.ts).
   */
  from?: SharedCheckpoint;
}

/**
 * A trained prefix handed from one worker to another (pull mode): the trie node's key, the model and strategy state
 * after its last task (plain arrays; absent for a leaf, which nothing continues from), and rows 0..depth of R of
 * every ordering through it (`index` into the configs), so the receiver reports those orderings' R without
 * evaluating anything again. About 1 MB for the default MLP (784-256-128-6).
 */
export interface SharedCheckpoint {
  key: string;
  weights?: Float32Array[];
  state?: StrategyState;
  rows: { index: number; rows: number[][] }[];
}

export interface SharedProgress {
  /** tasks trained so far and planned (prefix nodes; naive: Σ tasks) */
  tasksDone: number;
  tasksPlanned: number;
  /** tasks the naive path would train */
  naiveTasks: number;
  runsDone: number;
  runs: number;
  /** models in the population training now */
  population: number;
  /** optimiser steps trained so far (epochs × batches of each task trained here) */
  stepsDone: number;
  /** test examples predicted so far: one per example in each evaluation pass here (the untrained model's included) */
  predictionsDone: number;
  /** the step of the task in flight */
  step: ProgressEvent | null;
  /**
   * What trains the models: 'level' (every prefix of one depth at once in our WebGPU kernels, gpu/level-train.ts),
   * 'fused' (one model at a time in the fused wasm step) or 'tfjs' (tfjs's kernels, one model or a population).
   */
  kernels?: 'level' | 'fused' | 'tfjs';
  /** on WebGPU when the level-batched kernels do not apply: why (one sentence) */
  note?: string;
}

export interface SharedTrainHooks {
  control?: RunControl;
  /** called between steps; throws when the backend is gone (fallback.ts) */
  guard?: () => void;
  onProgress?: (p: SharedProgress) => void;
  /** an ordering finished: `index` into the configs given */
  onRunDone?: (index: number, result: TrainRunResult) => void;
  /**
   * Pull mode (several workers sharing one order): asked whenever nothing pulled is left to train; the orderings
   * are trained in the order they are pulled, each from the nearest prefix trained here or from the checkpoint the
   * answer brings (`from`). Overrides `options.order`.
   */
  next?: () => SharedNext | Promise<SharedNext>;
  /**
   * Pull mode: a node was trained here through which some ordering not pulled here goes; its checkpoint, for the
   * worker that may be dealt that ordering (src/core/ground-truth/deal.ts). Called before training goes on.
   */
  onCheckpoint?: (c: SharedCheckpoint) => void;
}

/** What must be equal for runs to share training: the resolved config without the ordering (and UI pacing). */
function resolvedGroupKey(cfg: ResolvedTrainConfig): string {
  return JSON.stringify({ ...cfg, tasks: undefined, progressEvery: undefined, yieldEveryMs: undefined });
}

interface Snapshot {
  weights: Float32Array[];
  state: StrategyState;
}

/**
 * Trains `configs` (one experiment, many orderings) sharing prefixes. Why it equals `trainRun` ordering by ordering
 * (tested to 1e-5 on cpu, and on wasm, in shared-train.test.ts):
 * - the weights and the strategy state after task t are all that carries over to task t+1 (a fresh optimiser every
 *   task; strategies hold only plain arrays between tasks), so a child restored from its parent's copy continues
 *   exactly as the naive run;
 * - task t of a prefix uses the prefix's seed, examples and output units, identical in every ordering below it;
 * - row t of R is evaluated once per node for the tasks seen (j ≤ t), and per ordering for the tasks not seen yet:
 *   0 by construction with the 'seen' head, evaluated with the ordering's own units with the 'all' head;
 * - the untrained accuracies b_j are evaluated per ordering on the initial model, as `trainRun` does.
 * Order: the next node trained is the ready node of the lowest-ranked unfinished ordering through it (rank: its place
 * in `options.order`, else depth-first, or pull order with `hooks.next`); a population adds up to P−1 ready nodes
 * of the same depth, next in rank. In pull mode a node another worker's ordering needs is published
 * (`onCheckpoint`) and a pull may bring one (`from`), so no node trains twice. Each ordering is reported through
 * `onRunDone` as soon as its last task is evaluated.
 */
export async function trainShared(
  dataset: TrainDataset,
  configs: TrainRunConfig[],
  options: SharedTrainOptions = {},
  hooks: SharedTrainHooks = {},
): Promise<TrainRunResult[]> {
  const started = performance.now();
  await ensureGradients();
  await ensureBackend();
  if (configs.length === 0) return [];
  validateDataset(dataset);
  const cfgs = configs.map(resolveTrainConfig);
  const base = cfgs[0];
  checkModelFitsData(dataset, base);
  const key = resolvedGroupKey(base);
  cfgs.forEach((c, i) => {
    if (resolvedGroupKey(c) !== key) throw new TrainConfigError(`Run ${i} differs from run 0 in more than its ordering; shared training needs one experiment.`);
    if (c.probs) throw new TrainConfigError('Shared training does not record softmax outputs; train runs with `probs` one at a time.');
  });
  const plans: RunPlan[] = cfgs.map((c) => planRun(dataset, c));
  const outputs = plans[0].outputs;
  if (plans.some((p) => p.outputs !== outputs)) throw new TrainConfigError('Shared training needs every ordering to cover the same classes.');
  const spec = networkSpec(dataset, base, outputs);
  const share = options.share ?? true;
  const trie = share ? planPrefixes(cfgs.map((c) => c.tasks)) : null;
  // naive: one chain of nodes per ordering (no sharing)
  const nodes: PrefixNode[] = trie ? trie.nodes : naiveChains(cfgs.map((c) => c.tasks));
  const naiveTasks = cfgs.reduce((n, c) => n + c.tasks.length, 0);
  const probe = createStrategy(base.strategy, base.strategyOptions as never);
  const backendName = tf.getBackend();
  const softwareGpu = backendName === 'webgl' || backendName === 'webgpu' ? await isSoftwareGpu(backendName) : false;
  // where the fused step applies (wasm), one model at a time: it is faster there than any tfjs population
  const fused = await fusedApplies({ backend: backendName, spec, augment: base.augment, strategy: probe });
  const P = populationSupported(spec, probe) && !fused ? choosePopulation(options.population ?? 'auto', backendName, spec, base.batchSize, { softwareGpu }) : 1;
  // on WebGPU, every prefix of one depth at once in our kernels where the strategy's training is the plain loss
  let level: LevelRun | null = null;
  let levelWhy: string | undefined;
  if (backendName === 'webgpu' && share && !hooks.next && options.levels !== false) {
    const why = levelRefusal({ spec, augment: base.augment, strategy: probe, strategyOptions: base.strategyOptions });
    const most = typeof options.population === 'number' ? Math.max(1, Math.floor(options.population)) : Infinity;
    const opened = why === null ? await openLevelRun(dataset, spec, base, nodes, most) : { run: null, why };
    level = opened.run;
    levelWhy = opened.why ?? undefined;
  }
  const initialState = probe.getState();
  probe.dispose();

  const pausePoint = pausePointOf(hooks, base.yieldEveryMs);

  const K = cfgs.map((c) => c.tasks.length);
  const rows: number[][][] = cfgs.map(() => []);
  const results: TrainRunResult[] = new Array(cfgs.length);
  const backends = [tf.getBackend()];
  const testUnits = plans.map((plan) => plan.tasks.map((tp) => unitsOf(dataset.test, tp.test, plan.unitOfClass)));
  const progress: SharedProgress = {
    tasksDone: 0,
    tasksPlanned: nodes.length,
    naiveTasks,
    runsDone: 0,
    runs: cfgs.length,
    population: 1,
    stepsDone: 0,
    predictionsDone: 0,
    step: null,
    kernels: level ? 'level' : fused ? 'fused' : 'tfjs',
    ...(levelWhy ? { note: levelWhy } : {}),
  };
  const report = (): void => hooks.onProgress?.({ ...progress });

  // b_j per ordering on the initial model (trainer.ts: 0 with the 'seen' head)
  const initial = initWeights(spec, initialWeightsSeed(base.seed));
  const untrained: number[][] = [];
  {
    const net = level ? null : createNetwork(spec, initial, { trainable: false });
    try {
      // one prediction pass: every ordering covers the same classes, and the initial model's prediction of an example
      // is the same unit in each (only which class that unit stands for differs)
      const examples = sortedUnion(plans[0].tasks.map((tp) => tp.test));
      const predAt =
        base.head !== 'all'
          ? null
          : level
            ? await levelInitialPredictions(level, initial, examples, outputs, dataset.test.labels.length)
            : await testPredictions(dataset, examples, net as Network, (x) => (net as Network).logits(x), true, outputs, base);
      if (predAt) progress.predictionsDone += examples.length;
      for (let o = 0; o < cfgs.length; o++) {
        const b: number[] = [];
        for (let j = 0; j < K[o]; j++) b.push(predAt ? accuracyFrom(predAt, plans[o].tasks[j].test, testUnits[o][j]) : 0);
        untrained.push(b);
      }
    } catch (e) {
      level?.mlp.destroy();
      throw e;
    } finally {
      net?.dispose();
    }
  }

  const snapshots = new Map<PrefixNode, Snapshot>();
  const done = new Set<PrefixNode>();
  const ready: PrefixNode[] = nodes.filter((n) => n.parent === null);
  const snapshotOf = (n: PrefixNode): Snapshot => (n.parent ? (snapshots.get(n.parent) as Snapshot) : { weights: initial, state: initialState });

  // --- the order of work (see `trainShared`): each ordering's rank, lower finishes first; Infinity = not ours (yet)
  const rank = new Float64Array(cfgs.length).fill(Infinity);
  const pull = hooks.next ?? null;
  if (!pull) {
    // depth-first: the order of the orderings' leaves in the trie (nodes are depth-first); an explicit order first
    let r = 0;
    for (const o of options.order ?? []) if (o >= 0 && o < cfgs.length && rank[o] === Infinity) rank[o] = r++;
    for (const n of nodes) if (n.children.length === 0) for (const o of n.orderings) if (rank[o] === Infinity) rank[o] = r++;
  }
  let pulls = 0;
  /** orderings another worker took (pull mode): never trained here */
  const gone = new Set<number>();
  const finished = new Set<number>();
  // orderings through a node not finished here and not gone: a node none of whose orderings are left is not trained
  const left = new Map<PrefixNode, number>(nodes.map((n) => [n, n.orderings.length]));
  const pathOf = orderingPaths({ nodes });
  /**
   * When `n` is due: the first rank among the orderings that still need it here. An ordering that is finished, or
   * continues from a deeper prefix already done here (a checkpoint adopted from another worker), no longer needs it;
   * counting it would train `n` a second time on this worker.
   */
  const priority = (n: PrefixNode): number => {
    let p = Infinity;
    for (const o of n.orderings) {
      if (rank[o] >= p || finished.has(o)) continue;
      if ((pathOf[o] ?? []).some((m) => m.depth > n.depth && done.has(m))) continue;
      p = rank[o];
    }
    return p;
  };
  /** A node's copy is let go once each child has trained or has no ordering left. */
  const maybeFree = (n: PrefixNode | null): void => {
    if (n && snapshots.has(n) && n.children.every((c) => done.has(c) || (left.get(c) as number) === 0)) snapshots.delete(n);
  };
  /** Ordering `o` finished here or went elsewhere: its nodes have one ordering fewer left. */
  const leave = (o: number): void => {
    for (const n of pathOf[o] ?? []) left.set(n, (left.get(n) as number) - 1);
    for (const n of pathOf[o] ?? []) maybeFree(n);
  };

  const finishRun = (o: number): void => {
    if (finished.has(o)) return;
    finished.add(o);
    const plan = plans[o];
    const cfg = cfgs[o];
    results[o] = {
      matrix: rows[o],
      untrained: untrained[o],
      ...planSummary(plan, cfg),
      backend: tf.getBackend(),
      backends: backends.slice(),
      // wall time of the shared training so far, spread evenly over the runs finished
      seconds: (performance.now() - started) / 1000 / (progress.runsDone + 1),
      config: cfg,
    };
    progress.runsDone++;
    leave(o);
    hooks.onRunDone?.(o, results[o]);
  };

  /** Row `node.depth` of R for every ordering through `node`, from its trained model. */
  const evaluate = async (node: PrefixNode, network: Network, strategy: Strategy, ctx: ReturnType<typeof taskContext>): Promise<void> => {
    const t = node.depth;
    const o0 = node.orderings[0];
    const score: ScoreFn = (x) => strategy.predictScores?.(ctx, x) ?? headPrefix(network.logits(x), ctx.headWidth);
    // one prediction pass over the test examples that can score: the seen tasks' ('seen' head), or every class's
    // ('all' head: the same set in every ordering through the node, each with its own units)
    const lists = plans[o0].tasks.slice(0, base.head === 'all' ? K[o0] : t + 1).map((tp) => tp.test);
    const examples = sortedUnion(lists);
    const predAt = await testPredictions(dataset, examples, network, score, !strategy.predictScores, ctx.headWidth, base);
    progress.predictionsDone += examples.length;
    recordRows(node, predAt);
  };

  /** Row `node.depth` of R for every ordering through `node`, from its predicted units (`predictionTable`). */
  const recordRows = (node: PrefixNode, predAt: Int32Array): void => {
    const t = node.depth;
    const o0 = node.orderings[0];
    const seen: number[] = [];
    for (let j = 0; j <= t; j++) seen.push(accuracyFrom(predAt, plans[o0].tasks[j].test, testUnits[o0][j]));
    // every ordering through the node, also those trained elsewhere: a checkpoint of this node or a descendant
    // carries their rows to the worker that finishes them
    for (const o of node.orderings) {
      const row = seen.slice();
      for (let j = t + 1; j < K[o]; j++) row.push(base.head === 'all' ? accuracyFrom(predAt, plans[o].tasks[j].test, testUnits[o][j]) : 0);
      rows[o][t] = row;
    }
  };

  /** After a node trained and was evaluated: keep its copy for its children, finish its leaf orderings. */
  const complete = async (node: PrefixNode, network: Network, strategy: Strategy): Promise<void> => {
    if (node.children.length > 0) {
      // the network's own arrays where it holds them: no one changes a snapshot's or a network's arrays in place
      snapshots.set(node, { weights: await network.readWeights({ copy: false }), state: cloneState(strategy.getState()) });
      ready.push(...node.children);
    }
    done.add(node);
    // pull mode: an ordering through it may be dealt to another worker, which then continues from this checkpoint
    if (hooks.onCheckpoint && node.orderings.some((o) => rank[o] === Infinity)) {
      const snap = snapshots.get(node);
      hooks.onCheckpoint({
        key: node.key,
        ...(snap ? { weights: snap.weights, state: snap.state } : {}),
        rows: node.orderings.map((o) => ({ index: o, rows: rows[o].slice(0, node.depth + 1) })),
      });
    }
    maybeFree(node.parent);
    maybeFree(node);
    progress.tasksDone++;
    // the orderings ending here that are this worker's (in pull mode, pulled here)
    for (const o of node.orderings) if (rank[o] !== Infinity && !gone.has(o) && rows[o].length === K[o] && node.depth === K[o] - 1) finishRun(o);
    report();
  };

  /**
   * Pull mode: ordering `o` continues from another worker's checkpoint of one of its prefixes (copies: in one
   * thread the sender keeps its arrays). The node counts as done here without training; its ancestors stay as they
   * are (not done here unless trained here), so an ordering through an ancestor only is never started from a copy
   * this worker does not hold.
   */
  const adopt = (o: number, from: SharedCheckpoint): void => {
    const node = (pathOf[o] ?? []).find((n) => n.key === from.key);
    if (!node) throw new RangeError(`Ordering ${o} does not start with the prefix "${from.key}" it was told to continue from.`);
    if (node.children.length > 0) {
      if (!from.weights || !from.state) throw new RangeError(`The checkpoint of prefix "${from.key}" has no weights to continue from.`);
      snapshots.set(node, { weights: from.weights.map((w) => w.slice()), state: cloneState(from.state) });
    }
    for (const r of from.rows) if (r.index >= 0 && r.index < cfgs.length) r.rows.forEach((row, t) => (rows[r.index][t] = row.slice()));
    done.add(node);
  };

  if (level) {
    const run = level;
    try {
      report();
      await trainByLevels(run, {
        dataset,
        spec,
        base,
        cfgs,
        plans,
        nodes,
        priority,
        initialWeights: initial,
        initialState,
        // the level strategies read examples and seeds, never the network's weights (they live on the GPU)
        taskContext: (t, cfg, plan) => taskContext(t, dataset, cfg, plan, NO_NETWORK, spec, pausePoint),
        pausePoint,
        record: recordRows,
        complete: (node) => {
          done.add(node);
          progress.tasksDone++;
          for (const o of node.orderings) if (rank[o] !== Infinity && rows[o].length === K[o] && node.depth === K[o] - 1) finishRun(o);
          report();
        },
        onStep: (() => {
          let before = 0;
          return (e: ProgressEvent, models: number, done: number) => {
            // a chunk's steps count from 1: its models' steps add to what the chunks before trained
            if (done === 1) before = progress.stepsDone;
            progress.population = models;
            progress.stepsDone = before + models * done;
            stepReport(e);
          };
        })(),
        onPredictions: (n) => (progress.predictionsDone += n),
      });
    } finally {
      run.mlp.destroy();
    }
    return results;
  }

  const network = createNetwork(spec, initial);
  const members: { strategy: Strategy; network: Network }[] = [];
  try {
    report();
    for (;;) {
      await pausePoint();
      // the ready node of the ordering due first (ties: depth-first); nodes with no ordering left, or done (a
      // checkpoint from another worker), are dropped
      for (let i = ready.length - 1; i >= 0; i--) if ((left.get(ready[i]) as number) === 0 || done.has(ready[i])) ready.splice(i, 1);
      const prio = new Map(ready.map((n) => [n, priority(n)]));
      ready.sort((a, b) => (prio.get(a) as number) - (prio.get(b) as number) || a.index - b.index);
      if (pull && (ready.length === 0 || prio.get(ready[0]) === Infinity)) {
        // pull mode: nothing of ours is left to train: ask for the next ordering (the caller deals them to free workers)
        const got = await pull();
        for (const o of got.taken ?? []) {
          if (o < 0 || o >= cfgs.length || gone.has(o) || finished.has(o) || rank[o] !== Infinity) continue;
          gone.add(o);
          leave(o);
        }
        const o = got.index;
        if (o === null || o === undefined) break;
        if (o < 0 || o >= cfgs.length || finished.has(o))
          throw new RangeError(`Shared training was asked for ordering ${o}, which is not among the ${cfgs.length} left.`);
        if (gone.has(o)) throw new RangeError(`Shared training was asked for ordering ${o}, which it was told another worker took.`);
        rank[o] = pulls++;
        if (got.from) adopt(o, got.from);
        // it continues from the deepest prefix done here (trained, or the checkpoint just adopted): the next node on
        // its path is ready now; when that prefix is its whole path (an ordering another one shares), it is finished
        const path = pathOf[o] ?? [];
        let at = -1;
        path.forEach((n, d) => (done.has(n) ? (at = d) : undefined));
        if (at === path.length - 1) finishRun(o);
        else if (!ready.includes(path[at + 1])) ready.push(path[at + 1]);
        continue;
      }
      if (ready.length === 0) break;
      const first = ready.shift() as PrefixNode;
      if (P === 1) {
        await trainNode(first);
        continue;
      }
      // a population: `first` and up to P−1 more ready nodes of its depth that are due (training-set size checked below)
      const wave = [first];
      for (let i = 0; i < ready.length && wave.length < P;) {
        if (ready[i].depth === first.depth && prio.get(ready[i]) !== Infinity) wave.push(...ready.splice(i, 1));
        else i++;
      }
      await trainWave(wave);
    }
  } finally {
    network.dispose();
    for (const m of members) {
      m.strategy.dispose();
      m.network.dispose();
    }
  }
  return results;

  async function trainNode(node: PrefixNode): Promise<void> {
    const snap = snapshotOf(node);
    const o0 = node.orderings[0];
    const cfg = cfgs[o0];
    const t = node.depth;
    network.setWeights(snap.weights, { copy: false });
    const strategy = createStrategy(cfg.strategy, cfg.strategyOptions as never);
    let optimizer: tf.Optimizer | null = null;
    try {
      strategy.setState(cloneState(snap.state));
      const ctx = taskContext(t, dataset, cfg, plans[o0], network, spec, pausePoint);
      await strategy.beforeTask(ctx);
      const set = strategy.trainingSet(ctx);
      const epochs = t === 0 ? cfg.firstTaskEpochs : cfg.epochs;
      if (set && set.length > 0 && epochs > 0) {
        optimizer = makeOptimizer(cfg);
        await trainTask(ctx, strategy, optimizer, set, epochs, cfg, { onProgress: stepReport }, pausePoint);
        optimizer.dispose();
        optimizer = null;
        progress.stepsDone += epochs * Math.ceil(set.length / cfg.batchSize);
      }
      await strategy.afterTask(ctx);
      await evaluate(node, network, strategy, ctx);
      strategy.dispose();
      await complete(node, network, strategy);
    } finally {
      if (optimizer) optimizer.dispose();
      strategy.dispose();
    }
  }

  async function trainWave(wave: PrefixNode[]): Promise<void> {
    const t = wave[0].depth;
    const built: (PopulationMember & { node: PrefixNode })[] = [];
    try {
      for (const node of wave) {
        const snap = snapshotOf(node);
        const o0 = node.orderings[0];
        const cfg = cfgs[o0];
        const net = createNetwork(spec, snap.weights);
        const strategy = createStrategy(cfg.strategy, cfg.strategyOptions as never);
        members.push({ strategy, network: net });
        strategy.setState(cloneState(snap.state));
        const ctx = taskContext(t, dataset, cfg, plans[o0], net, spec, pausePoint);
        await strategy.beforeTask(ctx);
        built.push({ node, strategy, ctx, set: strategy.trainingSet(ctx) ?? new Int32Array(0) });
      }
      const epochs = t === 0 ? base.firstTaskEpochs : base.epochs;
      // lockstep needs equal step counts: one population per training-set size
      const bySize = new Map<number, typeof built>();
      for (const m of built) bySize.set(m.set.length, [...(bySize.get(m.set.length) ?? []), m]);
      for (const [size, group] of bySize) {
        if (size === 0 || epochs === 0) continue;
        progress.population = group.length;
        if (group.length > 1) await trainPopulationTask(group, spec, base, epochs, pausePoint, stepReport);
        else {
          const optimizer = makeOptimizer(base);
          try {
            await trainTask(group[0].ctx, group[0].strategy, optimizer, group[0].set, epochs, base, { onProgress: stepReport }, pausePoint);
          } finally {
            optimizer.dispose();
          }
        }
        progress.stepsDone += group.length * epochs * Math.ceil(size / base.batchSize);
      }
      for (const m of built) {
        await m.strategy.afterTask(m.ctx);
        await evaluate(m.node, m.ctx.network, m.strategy, m.ctx);
        m.strategy.dispose();
        await complete(m.node, m.ctx.network, m.strategy);
      }
    } finally {
      for (const m of members.splice(0)) {
        m.strategy.dispose();
        m.network.dispose();
      }
    }
  }

  function stepReport(e: ProgressEvent): void {
    progress.step = e;
    report();
  }
}

/** The network of a level-batched task context: its weights live on the GPU, so nothing may ask for them here. */
const NO_NETWORK = new Proxy({} as Network, {
  get(_, key) {
    throw new Error(`Level-batched training keeps the weights on the GPU; a strategy asked for the network's ${String(key)}.`);
  },
});

/** A fresh optimiser, as `trainRun` creates for every task. */
function makeOptimizer(cfg: ResolvedTrainConfig): tf.Optimizer {
  return cfg.optimizer === 'sgd' ? tf.train.sgd(cfg.lr) : tf.train.adam(cfg.lr, cfg.beta1, cfg.beta2, cfg.epsilon);
}

/** Nodes of the naive path: one chain per ordering, nothing shared (depth-first order). */
function naiveChains(orderings: number[][][]): PrefixNode[] {
  const nodes: PrefixNode[] = [];
  orderings.forEach((ordering, o) => {
    let parent: PrefixNode | null = null;
    const prefix: number[][] = [];
    ordering.forEach((task, t) => {
      prefix.push(task.slice().sort((a, b) => a - b));
      const node: PrefixNode = {
        index: nodes.length,
        depth: t,
        tasks: prefix.map((p) => p.slice()),
        key: `${o}:${prefix.map((p) => p.join(',')).join('|')}`,
        parent,
        children: [],
        orderings: [o],
      };
      if (parent) parent.children.push(node);
      nodes.push(node);
      parent = node;
    });
  });
  return nodes;
}
