/**
 * `cil-lab sweep`: three shards trained in parallel child processes — one given `--shard`, one the
 * Kubernetes index (`JOB_COMPLETION_INDEX` + `--shards 3`), one Slurm's array variables — merge into exactly the
 * runs of the single-process `cil-lab run --orderings all` (same backend: cpu; every field but the timing
 * `seconds`). Then: a re-run adds nothing, a cut-off last line is recovered, merge finds missing, duplicate and
 * conflicting runs, and the merged file is read as it is by `cil-lab analyze --results` and the app's Import.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/core/config/schema';
import { encodeConfigToHash } from '../../../src/core/config/url-codec';
import { importResults } from '../../../src/core/results-import/import-results';
import { captureCli } from './capture';

const cli = captureCli();
const ROOT = resolve(__dirname, '..', '..', '..');
// 5 classes in tasks of 2, 2, 1: 30 orderings
const SMALL = [
  '--dataset',
  'fashion-mnist',
  '--classes',
  '0-4',
  '--task-sizes',
  '2,2,1',
  '--train-per-class',
  '20',
  '--test-per-class',
  '10',
  '--epochs',
  '1',
  '--hidden',
  '16',
  '--backend',
  'cpu',
  '--orderings',
  'all',
];
const ENGINE_VARS = [
  'JOB_COMPLETION_INDEX',
  'SLURM_ARRAY_TASK_ID',
  'SLURM_ARRAY_TASK_MIN',
  'SLURM_ARRAY_TASK_MAX',
  'SLURM_ARRAY_TASK_COUNT',
  'AWS_BATCH_JOB_ARRAY_INDEX',
  'CLOUD_RUN_TASK_INDEX',
  'CLOUD_RUN_TASK_COUNT',
  'BATCH_TASK_INDEX',
  'BATCH_TASK_COUNT',
];

function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of ENGINE_VARS) delete env[k];
  return { ...env, ...extra };
}

function child(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done) => {
    const p = spawn(process.execPath, [join(ROOT, 'bin', 'cil-lab.mjs'), ...args], { cwd: ROOT, env });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('close', (code) => done({ code, out, err }));
  });
}

const lines = (f: string): string[] => readFileSync(f, 'utf8').split('\n').filter(Boolean);
const noTime = (r: any): any => ({ ...r, seconds: undefined });

describe('cil-lab sweep', () => {
  it('3 shards in parallel processes merge into the single-process run; resume, recovery and merge checks', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cil-sweep-'));
    const f = [0, 1, 2].map((i) => join(dir, `shard-${i}.jsonl`));
    const shards = Promise.all([
      child(['sweep', ...SMALL, '--shard', '0/3', '--out', f[0]], cleanEnv()),
      child(['sweep', ...SMALL, '--shards', '3', '--out', f[1]], cleanEnv({ JOB_COMPLETION_INDEX: '1' })),
      child(
        ['sweep', ...SMALL, '--out', f[2]],
        cleanEnv({ SLURM_ARRAY_TASK_ID: '7', SLURM_ARRAY_TASK_MIN: '5', SLURM_ARRAY_TASK_MAX: '7', SLURM_ARRAY_TASK_COUNT: '3' }),
      ),
    ]);
    const single = await cli('run', ...SMALL);
    expect(single.code).toBe(0);
    expect(single.json.runs.length).toBe(30);
    const results = await shards;
    for (const r of results) expect(r.err).not.toMatch(/cil-lab:/);
    expect(results.map((r) => r.code)).toEqual([0, 0, 0]);
    const sums = results.map((r) => JSON.parse(r.out));
    expect(sums.map((s) => s.source)).toEqual(['--shard', 'JOB_COMPLETION_INDEX', 'SLURM_ARRAY_TASK_ID']);
    expect(sums.map((s) => s.shard)).toEqual([0, 1, 2]);
    // disjoint slices covering all 30 runs, each non-empty
    expect(sums.reduce((a, s) => a + s.trained, 0)).toBe(30);
    for (const s of sums) expect(s.trained).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) expect(lines(f[i]).length).toBe(1 + sums[i].trained);

    // merge = the single-process output: the same runs, in the same order, with the same numbers
    const merged = join(dir, 'results.json');
    const m = await cli('sweep', 'merge', ...f, '--out', merged);
    expect(m.code).toBe(0);
    expect(m.json).toMatchObject({ expected: 30, merged: 30, missing: 0, duplicatesCollapsed: 0 });
    const mergedJson = JSON.parse(readFileSync(merged, 'utf8'));
    expect(mergedJson.runs.map(noTime)).toEqual(single.json.runs.map(noTime));

    // read as it is by analyze and by the app's Import (the same core import)
    const a = await cli('analyze', '--results', merged, '--dataset', 'fashion-mnist', '--classes', '0-4', '--task-sizes', '2,2,1');
    expect(a.code).toBe(0);
    expect(a.json.imported).toBe(30);
    const imp = importResults(readFileSync(merged, 'utf8'), 'results.json', {});
    expect(imp.error ?? null).toBeNull();
    expect(imp.runs.length).toBe(30);
    const byKey = new Map(imp.runs.map((r) => [r.orderingKey, r]));
    expect(byKey.size).toBe(30);
    for (const r of single.json.runs) {
      const got = byKey.get(r.tasks.map((t: number[]) => [...t].sort((x, y) => x - y).join(',')).join('|'));
      expect(got?.finalAccuracy).toBeCloseTo(r.final_accuracy, 12);
      expect(got?.aia).toBeCloseTo(r.aia, 12);
    }

    // a re-run of a finished shard trains nothing and adds no line
    const before = readFileSync(f[0], 'utf8');
    const again = await cli('sweep', ...SMALL, '--shard', '0/3', '--out', f[0]);
    expect(again.code).toBe(0);
    expect(again.json).toMatchObject({ trained: 0, alreadyDone: sums[0].trained });
    expect(readFileSync(f[0], 'utf8')).toBe(before);

    // a node killed mid-write: half a last line; the re-run cuts it, trains that one run again, same result
    const full = readFileSync(f[1], 'utf8');
    const ls = lines(f[1]);
    const cut = full.length - Math.floor(ls[ls.length - 1].length / 2) - 1;
    writeFileSync(f[1], full.slice(0, cut));
    const partialMerge = await cli('sweep', 'merge', ...f, '--out', merged);
    expect(partialMerge.code).toBe(2);
    expect(partialMerge.err).toMatch(/partial last line/);
    expect(partialMerge.err).toMatch(/1 of 30 runs are missing \(shard 1\/3\)/);
    const resumed = await cli('sweep', ...SMALL, '--shard', '1/3', '--out', f[1]);
    expect(resumed.code).toBe(0);
    expect(resumed.json).toMatchObject({ trained: 1, partialLineRemoved: true, alreadyDone: sums[1].trained - 1 });
    expect(lines(f[1]).map((l) => noTime(JSON.parse(l)))).toEqual(ls.map((l) => noTime(JSON.parse(l))));

    // missing runs: a shard left out
    const missing = await cli('sweep', 'merge', f[0], f[1], '--out', merged);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(new RegExp(`${sums[2].trained} of 30 runs are missing \\(shard 2/3\\): finetune/0/`));
    const allowed = await cli('sweep', 'merge', f[0], f[1], '--out', merged, '--allow-missing');
    expect(allowed.code).toBe(0);
    expect(allowed.json.merged).toBe(30 - sums[2].trained);
    expect(JSON.parse(readFileSync(merged, 'utf8')).runs.length).toBe(30 - sums[2].trained);

    // duplicates: the same file twice collapses with a note; a changed copy of a run is an error
    const dup = await cli('sweep', 'merge', ...f, f[0], '--out', merged);
    expect(dup.code).toBe(0);
    expect(dup.json).toMatchObject({ merged: 30, duplicatesCollapsed: sums[0].trained });
    expect(dup.err).toMatch(/appear more than once with the same result/);
    const l0 = lines(f[0]);
    const changed = JSON.parse(l0[1]);
    changed.final_accuracy += 0.01;
    const f3 = join(dir, 'shard-0-other.jsonl');
    writeFileSync(f3, `${l0[0]}\n${JSON.stringify(changed)}\n`);
    const conflict = await cli('sweep', 'merge', ...f, f3, '--out', merged);
    expect(conflict.code).toBe(2);
    expect(conflict.err).toMatch(/1 run\(s\) appear twice with different results: finetune\/0\//);

    // a file of another experiment (other settings) is refused before any training, for a shard and for merge
    const other = await cli('sweep', ...SMALL, '--epochs', '2', '--shard', '0/3', '--out', f[0]);
    expect(other.code).toBe(2);
    expect(other.err).toMatch(/belongs to another experiment/);
    expect(readFileSync(f[0], 'utf8')).toBe(before);
    const wrongShard = await cli('sweep', ...SMALL, '--shard', '2/3', '--out', f[0]);
    expect(wrongShard.code).toBe(2);
    expect(wrongShard.err).toMatch(/holds shard 0\/3, not 2\/3/);
    const f4 = join(dir, 'other-exp.jsonl');
    const otherHeader = { ...JSON.parse(l0[0]), experiment: '0000000000000000' };
    writeFileSync(f4, `${JSON.stringify(otherHeader)}\n`);
    const mixed = await cli('sweep', 'merge', f[0], f4);
    expect(mixed.code).toBe(2);
    expect(mixed.err).toMatch(/belongs to another experiment/);
  }, 240_000);

  it('clear one-line errors: index out of range, no index, no --out, not a shard file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cil-sweep-err-'));
    const out = join(dir, 's.jsonl');
    const range = await cli('sweep', ...SMALL, '--shard', '3/3', '--out', out);
    expect(range.code).toBe(2);
    expect(range.err).toMatch(/out of range: with 3 shards the indices are 0\.\.2/);
    const saved = Object.fromEntries(ENGINE_VARS.map((k) => [k, process.env[k]]));
    for (const k of ENGINE_VARS) delete process.env[k];
    try {
      const none = await cli('sweep', ...SMALL, '--out', out);
      expect(none.code).toBe(2);
      expect(none.err).toMatch(/No shard index/);
      process.env.JOB_COMPLETION_INDEX = '0';
      const conflict = await cli('sweep', ...SMALL, '--shard', '1/2', '--out', out);
      expect(conflict.err).toMatch(/Conflicting shard indices/);
    } finally {
      for (const k of ENGINE_VARS)
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
    }
    const noOut = await cli('sweep', ...SMALL, '--shard', '0/2');
    expect(noOut.err).toMatch(/Give --out/);
    // a file that is not a shard file is never overwritten, with or without a final newline
    const foreign = join(dir, 'results.json');
    writeFileSync(foreign, '{"runs": []}');
    const refused = await cli('sweep', ...SMALL, '--shard', '0/2', '--out', foreign);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/is not a cil-lab sweep shard file/);
    expect(readFileSync(foreign, 'utf8')).toBe('{"runs": []}');
    // a shard killed while writing its header: the next run starts the file afresh
    const TINY = [
      '--dataset',
      'fashion-mnist',
      '--classes',
      '0-3',
      '--tasks',
      '2',
      '--train-per-class',
      '10',
      '--test-per-class',
      '5',
      '--epochs',
      '1',
      '--hidden',
      '8',
      '--backend',
      'cpu',
      '--orderings',
      'all',
    ];
    const cutHeader = join(dir, 'cut.jsonl');
    writeFileSync(cutHeader, '{"cil_lab_sweep":1,"experim');
    const restarted = await cli('sweep', ...TINY, '--shard', '0/1', '--out', cutHeader);
    expect(restarted.code, restarted.err).toBe(0);
    expect(restarted.json).toMatchObject({ trained: 6, alreadyDone: 0, partialLineRemoved: true });
    expect(lines(cutHeader).map((l) => JSON.parse(l))[0]).toMatchObject({ cil_lab_sweep: 1, shard: 0, shards: 1, runs: 6 });
    const notShard = join(dir, 'x.jsonl');
    writeFileSync(notShard, '{"runs": []}\n');
    const bad = await cli('sweep', 'merge', notShard);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/not a cil-lab sweep shard file/);
    for (const r of [range, bad]) expect(r.err.trim().split('\n').length).toBe(1);
  }, 120_000);

  it('--link: a shared experiment as one shard equals run --link with the same flags', async () => {
    const c = defaultConfig();
    c.classes = [0, 1, 2, 3];
    c.taskSizes = [2, 2];
    c.data.trainPerClass = 20;
    c.data.testPerClass = 10;
    c.training.epochs = 1;
    c.training.firstTaskEpochs = 1;
    if (c.model.kind === 'mlp') c.model.hidden = [16];
    const link = `http://127.0.0.1:5173/${encodeConfigToHash(c)}`;
    const dir = mkdtempSync(join(tmpdir(), 'cil-sweep-link-'));
    const out = join(dir, 's.jsonl');
    const s = await cli('sweep', '--link', link, '--orderings', 'all', '--backend', 'cpu', '--shard', '0/1', '--out', out);
    expect(s.code).toBe(0);
    expect(s.json).toMatchObject({ runs: 6, trained: 6 });
    const r = await cli('run', '--link', link, '--orderings', 'all', '--backend', 'cpu');
    expect(r.code).toBe(0);
    const m = await cli('sweep', 'merge', out);
    expect(m.code).toBe(0);
    expect(m.json.runs.map(noTime)).toEqual(r.json.runs.map(noTime));
    expect(m.json.runs[0].config.model.hidden).toEqual([16]);
  }, 120_000);
});
