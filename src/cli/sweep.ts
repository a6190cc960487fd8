/**
 * `cil-lab sweep`: the runs of one `cil-lab run` experiment (`--orderings all|N`, `--protocol rs --seeds
 * …`, or `--config F` / `--link URL`) split into n disjoint shards that train on separate machines, each appending
 * one JSON line per finished run to its own file; `cil-lab sweep merge` joins the files into one results file that
 * `cil-lab analyze --results` and the app's Import read (docs/sweeps.md).
 *
 * The shard file (JSON lines):
 * - line 1, the header: `{"cil_lab_sweep": 1, "experiment": H, "shard": i, "shards": n, "unit_depth": d, "keys": […]}`
 *   where H hashes everything that decides the numbers (dataset, classes, subset, backend, the run settings and the
 *   runs' keys) and `keys` lists every run of the experiment (so merge knows which runs are missing);
 * - then one line per finished run, exactly the record `cil-lab run` prints for it (src/cli/run.ts `runRecord`).
 * Each line is written with one write and fsync'd, so a killed node leaves at most one partial last line, which the
 * next run of the same shard cuts off before it continues. A re-run skips the runs already in the file.
 *
 * Which shard trains which run: src/core/sweep/shard.ts (prefix subtrees hashed with jump consistent hashing). Within
 * a shard the runs take `run`'s fast path (prefix sharing + population, engine/shared-train.ts), whose numbers equal
 * the one-by-one runs', so the merged results equal the single-process `cil-lab run` output on the same backend.
 */
import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, openSync, ftruncateSync, statSync, writeSync } from 'node:fs';
import { basename } from 'node:path';
import { planPrefixes } from '../core/ground-truth/prefix-plan';
import { hash64, jumpHash, planShards, runKey, unitKey, type SweepRun } from '../core/sweep/shard';
import { trainShared } from '../engine/shared-train';
import { trainRun } from '../engine/trainer';
import { UsageError } from './args';
import { checkOutputPath, readInput, readTextInput, writeOutput } from './inputs';
import { planRunCommand, runRecord } from './run';
import { resolveShardIndex } from './sweep-index';

type Values = Record<string, string | boolean | undefined>;

export const SWEEP_HELP = `  cil-lab sweep <the flags of run: --orderings all|N … | --protocol rs --seeds …, or --config F / --link URL>
                [--shard i/n | --shards n with an array job's index] --out SHARD.jsonl
                 → trains shard i (from 0) of n, one JSON line per finished run; a re-run resumes (docs/sweeps.md)
                   index from JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID−SLURM_ARRAY_TASK_MIN (+ _COUNT),
                   AWS_BATCH_JOB_ARRAY_INDEX, CLOUD_RUN_TASK_INDEX/_COUNT or BATCH_TASK_INDEX/_COUNT
  cil-lab sweep merge SHARD.jsonl … [--out results.json] [--allow-missing]
                 → one {runs: […]} file for "cil-lab analyze --results" and the app's Import; duplicates and missing runs checked`;

export const SWEEP_FORMAT = 1;

export interface SweepHeader {
  cil_lab_sweep: number;
  experiment: string;
  shard: number;
  shards: number;
  unit_depth: number;
  dataset: string;
  classes: string[];
  task_sizes: number[];
  strategy: string;
  seed: number;
  backend: string;
  runs: number;
  keys: string[];
}

interface ParsedShardFile {
  header: SweepHeader | null;
  records: { line: number; record: Record<string, unknown> }[];
  /** bytes of the complete, valid lines (the file is cut here before appending) */
  goodBytes: number;
  /** a partial or unreadable last line was found past goodBytes */
  partial: boolean;
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The key of a run record (the same as the experiment's key of that run). */
function recordKey(r: Record<string, unknown>): string | null {
  if (!Array.isArray(r.tasks) || typeof r.strategy !== 'string' || typeof r.seed !== 'number') return null;
  if (!r.tasks.every((t) => Array.isArray(t) && t.every((c) => Number.isInteger(c) && c >= 0))) return null;
  return runKey({ tasks: r.tasks as number[][], strategy: r.strategy, seed: r.seed });
}

const isFraction = (x: unknown): boolean => typeof x === 'number' && Number.isFinite(x) && x >= 0 && x <= 1;

/** What is wrong with a run record's numbers (accuracies are fractions, as `cil-lab run` writes them), or null. */
function recordProblem(r: Record<string, unknown>): string | null {
  if (!isFraction(r.final_accuracy)) return `its final_accuracy must be a number from 0 to 1; got ${JSON.stringify(r.final_accuracy)?.slice(0, 40)}`;
  if (r.aia !== undefined && r.aia !== null && !isFraction(r.aia)) return `its aia must be a number from 0 to 1; got ${JSON.stringify(r.aia)?.slice(0, 40)}`;
  if (r.matrix !== undefined && !(Array.isArray(r.matrix) && r.matrix.every((row) => Array.isArray(row) && row.every((x) => x === null || isFraction(x)))))
    return 'its matrix must be rows of accuracies from 0 to 1';
  return null;
}

/** The run a key stands for (keys are strategy/seed/ordering key). */
function runOfKey(key: string): SweepRun {
  const a = key.indexOf('/');
  const b = key.indexOf('/', a + 1);
  const tasks = key
    .slice(b + 1)
    .split('|')
    .map((t) => (t === '' ? [] : t.split(',').map(Number)));
  return { strategy: key.slice(0, a), seed: Number(key.slice(a + 1, b)), tasks };
}

function isHeader(x: unknown): x is SweepHeader {
  return isObject(x) && x.cil_lab_sweep === SWEEP_FORMAT && typeof x.experiment === 'string' && Array.isArray(x.keys) && typeof x.shards === 'number';
}

/**
 * A shard file's header and records. A last line that is cut short (no newline) or unreadable is a killed write:
 * it is reported as `partial` and left out; an unreadable line before the last is an error.
 */
export function parseShardFile(bytes: Uint8Array, path: string): ParsedShardFile {
  const text = new TextDecoder().decode(bytes);
  const lines = text.split('\n');
  // the text after the last newline is a line cut short (empty when the file ends with a newline)
  const tail = lines.pop() ?? '';
  let partial = tail.trim() !== '';
  let goodBytes = 0;
  let header: SweepHeader | null = null;
  const records: ParsedShardFile['records'] = [];
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    const size = new TextEncoder().encode(raw).length + 1;
    if (raw.trim() === '') {
      goodBytes += size;
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      if (i === lines.length - 1 && !partial) {
        partial = true;
        break;
      }
      throw new UsageError(`${path}, line ${i + 1}: not a JSON line (the file is damaged before its last line).`);
    }
    if (header === null) {
      if (!isHeader(parsed)) throw new UsageError(`${path} is not a cil-lab sweep shard file (its first line is not a sweep header).`);
      header = parsed;
    } else {
      if (!isObject(parsed) || recordKey(parsed) === null) throw new UsageError(`${path}, line ${i + 1}: not a run record (tasks, strategy, seed).`);
      const problem = recordProblem(parsed);
      if (problem) throw new UsageError(`${path}, line ${i + 1}: not a run record of cil-lab sweep: ${problem}.`);
      records.push({ line: i + 1, record: parsed });
    }
    goodBytes += size;
  }
  return { header, records, goodBytes, partial };
}

/** Everything that decides a run's numbers, hashed: two shard files with the same hash belong to one experiment. */
function experimentHash(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16);
}

async function sweepShard(
  v: Values,
  options: { root: string; env: Readonly<Record<string, string | undefined>>; onNote?: (n: string) => void },
): Promise<string> {
  const out = typeof v.out === 'string' ? v.out : undefined;
  if (!out) throw new UsageError('Give --out SHARD.jsonl, the file this shard appends its runs to.');
  // a regular file or a new one, before anything trains (a folder, /dev/null or /dev/zero is refused)
  checkOutputPath(out);
  const shard = resolveShardIndex(typeof v.shard === 'string' ? v.shard : undefined, typeof v.shards === 'string' ? v.shards : undefined, options.env);
  const p = await planRunCommand(v, options);
  // again now that the inputs are read: the shard file is never one of them (an .npz of --features, a dataset file)
  checkOutputPath(out);
  const runs: SweepRun[] = p.configs.map((c) => ({ tasks: c.tasks, strategy: c.strategy, seed: c.seed ?? 0 }));
  if (shard.count > runs.length)
    throw new UsageError(
      `${shard.count} shards for ${runs.length} run${runs.length === 1 ? '' : 's'}: a sweep has at most one shard per run (use --shard i/n with n ≤ ${runs.length}).`,
    );
  const keys = runs.map(runKey);
  const seen = new Map<string, number>();
  keys.forEach((k, i) => {
    if (seen.has(k)) throw new UsageError(`Runs ${seen.get(k)! + 1} and ${i + 1} of this experiment are the same run (${k}): a sweep needs distinct runs.`);
    seen.set(k, i);
  });
  const { tasks: _tasks, ...settings } = p.configs[0];
  const experiment = experimentHash({
    v: SWEEP_FORMAT,
    dataset: p.builtin ? p.datasetArg : basename(p.datasetArg),
    classes: p.classes,
    classNames: p.classes.map((c) => p.ds.classNames[c]),
    subset: p.subset,
    backend: p.backend,
    settings,
    keys,
    // runs on features are another experiment for every other feature set (left out on pixels: ids stay as they were)
    ...(p.features ? { features: p.features.digest } : {}),
  });
  const plan = planShards(runs, shard.count);
  const header: SweepHeader = {
    cil_lab_sweep: SWEEP_FORMAT,
    experiment,
    shard: shard.index,
    shards: shard.count,
    unit_depth: plan.depth,
    dataset: p.builtin ? p.datasetArg : basename(p.datasetArg),
    classes: p.classes.map((c) => p.ds.classNames[c]),
    task_sizes: p.sizes,
    strategy: p.strategy,
    seed: runs[0].seed,
    backend: p.backend,
    runs: keys.length,
    keys,
  };
  const mine = plan.shardOf.flatMap((s, i) => (s === shard.index ? [i] : []));
  const mineKeys = new Set(mine.map((i) => keys[i]));

  // resume: the runs already in the file; a cut-off last line is removed
  const done = new Set<string>();
  let fresh = true;
  let cutPartial = false;
  if (statSync(out, { throwIfNoEntry: false })) {
    // read with the bound every input has (a shard file of 5 000 runs is a few MB)
    const bytes = readInput(out, 'the --out shard file');
    const parsed = parseShardFile(bytes, out);
    // a file without a complete header is cut to nothing only when it is the start of a sweep header (a shard killed
    // while writing it); any other file is not ours to overwrite
    if (!parsed.header && parsed.partial && !new TextDecoder().decode(bytes.subarray(0, 64)).trimStart().startsWith('{"cil_lab_sweep"')) {
      throw new UsageError(`${out} is not a cil-lab sweep shard file (its first line is not a sweep header): give another --out.`);
    }
    if (parsed.header) {
      fresh = false;
      const h = parsed.header;
      if (h.experiment !== experiment) {
        throw new UsageError(
          `${out} belongs to another experiment (${h.experiment}; these flags make ${experiment}): give another --out, or the flags that wrote it.`,
        );
      }
      if (h.shard !== shard.index || h.shards !== shard.count) {
        throw new UsageError(`${out} holds shard ${h.shard}/${h.shards}, not ${shard.index}/${shard.count}: give this shard its own --out file.`);
      }
      for (const { line, record } of parsed.records) {
        const k = recordKey(record)!;
        if (!mineKeys.has(k)) throw new UsageError(`${out}, line ${line}: run ${k} is not one of shard ${shard.index}/${shard.count}'s runs.`);
        done.add(k);
      }
    }
    if (parsed.partial || !parsed.header) {
      const fd = openSync(out, 'r+');
      try {
        ftruncateSync(fd, parsed.header ? parsed.goodBytes : 0);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      cutPartial = parsed.partial;
      if (cutPartial) options.onNote?.(`${out}: a partial last line (a killed write) was removed; that run trains again`);
    }
  }

  let fd: number;
  try {
    fd = openSync(out, 'a');
  } catch (e) {
    throw new UsageError(`Cannot write --out "${out}": ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}.`);
  }
  const todo = mine.filter((i) => !done.has(keys[i]));
  const t0 = performance.now();
  let tasksTrained = 0;
  let path = 'nothing to train';
  try {
    const append = (obj: unknown): void => {
      // one write per line, then fsync: a kill leaves at most one partial last line
      writeSync(fd, `${JSON.stringify(obj)}\n`);
      fsyncSync(fd);
    };
    if (fresh) append(header);
    const configs = todo.map((i) => p.configs[i]);
    const trie = planPrefixes(configs.map((c) => c.tasks));
    const fast = configs.length > 1 && p.fastAllowed;
    if (fast) {
      path = 'fast (prefix sharing + population)';
      tasksTrained = trie.sharedTasks;
      await trainShared(p.ds, configs, { population: p.population }, { onRunDone: (k, result) => append(runRecord(p, todo[k], result)) });
    } else if (configs.length > 0) {
      path = 'one run at a time';
      tasksTrained = trie.naiveTasks;
      for (let k = 0; k < configs.length; k++) append(runRecord(p, todo[k], await trainRun(p.ds, configs[k])));
    }
    for (const n of p.notes) options.onNote?.(n);
    return JSON.stringify({
      out,
      experiment,
      shard: shard.index,
      shards: shard.count,
      source: shard.source,
      unitDepth: plan.depth,
      runs: keys.length,
      inShard: mine.length,
      alreadyDone: done.size,
      trained: todo.length,
      partialLineRemoved: cutPartial,
      training: { path, tasksTrained, naiveTasks: trie.naiveTasks, seconds: Math.round((performance.now() - t0) / 100) / 10 },
    });
  } finally {
    closeSync(fd);
  }
}

/** A record without its timing (`seconds`): what must be equal for two copies of a run to be the same result. */
function sameResult(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const strip = (r: Record<string, unknown>): string => JSON.stringify({ ...r, seconds: undefined });
  return strip(a) === strip(b);
}

function listed(items: string[], max = 5): string {
  return items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
}

/** `cil-lab sweep merge F…`: one results file from the shard files. */
export function sweepMerge(files: string[], v: Values, onNote?: (n: string) => void): string {
  if (files.length === 0) throw new UsageError('Give the shard files to merge: cil-lab sweep merge shard-*.jsonl --out results.json.');
  let header: SweepHeader | null = null;
  let headerFile = '';
  const byKey = new Map<string, { record: Record<string, unknown>; where: string }>();
  let collapsed = 0;
  const conflicts: string[] = [];
  const shardCounts = new Set<number>();
  for (const file of files) {
    const text = readTextInput(file, 'the shard file');
    const parsed = parseShardFile(new TextEncoder().encode(text), file);
    if (!parsed.header) throw new UsageError(`${file} has no sweep header: it is empty, or not a shard file of cil-lab sweep.`);
    if (parsed.partial) onNote?.(`${file}: its partial last line (a killed write) is left out; re-run that shard to train the run again`);
    if (header && parsed.header.experiment !== header.experiment) {
      throw new UsageError(
        `${file} belongs to another experiment (${parsed.header.experiment}) than ${headerFile} (${header.experiment}): merge the shards of one experiment.`,
      );
    }
    if (!header) {
      header = parsed.header;
      headerFile = file;
    }
    shardCounts.add(parsed.header.shards);
    const expected = new Set(header.keys);
    for (const { line, record } of parsed.records) {
      const key = recordKey(record)!;
      const where = `${file}:${line}`;
      if (!expected.has(key)) throw new UsageError(`${where}: run ${key} is not a run of experiment ${header.experiment}.`);
      const prev = byKey.get(key);
      if (!prev) byKey.set(key, { record, where });
      else if (sameResult(prev.record, record)) collapsed++;
      else conflicts.push(`${key} (${prev.where} and ${where})`);
    }
  }
  const h = header!;
  if (conflicts.length > 0) {
    throw new UsageError(
      `${conflicts.length} run(s) appear twice with different results: ${listed(conflicts, 3)}. Were they trained on different backends or versions?`,
    );
  }
  if (collapsed > 0) onNote?.(`${collapsed} run(s) appear more than once with the same result: kept once`);
  if (shardCounts.size > 1) onNote?.(`the files split the experiment into different numbers of shards (${[...shardCounts].join(', ')}); each run is kept once`);
  const missing = h.keys.filter((k) => !byKey.has(k));
  if (missing.length > 0) {
    // which shard (of the first file's split) each missing run belongs to
    const shardOfKey = (k: string): number => jumpHash(hash64(unitKey(runOfKey(k), h.unit_depth)), h.shards);
    const shards = [...new Set(missing.map(shardOfKey))].sort((a, b) => a - b);
    const msg = `${missing.length} of ${h.keys.length} runs are missing (shard${shards.length > 1 ? 's' : ''} ${shards.map((s) => `${s}/${h.shards}`).join(', ')}): ${listed(missing)}`;
    if (v['allow-missing'] !== true) throw new UsageError(`${msg}. Run those shards (again), or give --allow-missing.`);
    onNote?.(msg);
  }
  const runs = h.keys.flatMap((k) => (byKey.has(k) ? [byKey.get(k)!.record] : []));
  const result = JSON.stringify({
    runs,
    sweep: {
      experiment: h.experiment,
      dataset: h.dataset,
      classes: h.classes,
      task_sizes: h.task_sizes,
      backend: h.backend,
      expected: h.keys.length,
      merged: runs.length,
      missing,
      files: files.length,
    },
  });
  const out = typeof v.out === 'string' ? v.out : undefined;
  if (!out) return result;
  const written = writeOutput(out, result);
  return JSON.stringify({
    out: written,
    experiment: h.experiment,
    expected: h.keys.length,
    merged: runs.length,
    missing: missing.length,
    duplicatesCollapsed: collapsed,
  });
}

/** `cil-lab sweep …` or `cil-lab sweep merge …`. */
export async function sweepCommand(
  v: Values,
  positionals: string[],
  options: { root: string; env: Readonly<Record<string, string | undefined>>; onNote?: (n: string) => void },
): Promise<string> {
  if (positionals[0] === 'merge') return sweepMerge(positionals.slice(1), v, options.onNote);
  if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}" for cil-lab sweep: did you mean "cil-lab sweep merge FILES…"?`);
  return sweepShard(v, options);
}
