/**
 * The sweep templates in deploy/batch/ and the Dockerfile. The Slurm script runs here as written, with
 * the variables Slurm sets for a 2-task array (and for a re-submitted single index); the Kubernetes, GitHub Actions
 * and Docker files cannot run here (no cluster, no Actions runner, no Docker daemon), so their wiring is checked:
 * the shard count in both places, the index variable, the merge step, the entrypoint.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '..', '..', '..');
const read = (p: string): string => readFileSync(join(ROOT, p), 'utf8');
const EXPERIMENT =
  '--dataset fashion-mnist --classes 0-3 --tasks 2 --train-per-class 10 --test-per-class 5 --epochs 1 --hidden 8 --backend cpu --orderings all';
const ENGINE_VARS = [
  'JOB_COMPLETION_INDEX',
  'SLURM_ARRAY_TASK_ID',
  'SLURM_ARRAY_TASK_MIN',
  'SLURM_ARRAY_TASK_COUNT',
  'AWS_BATCH_JOB_ARRAY_INDEX',
  'CLOUD_RUN_TASK_INDEX',
  'BATCH_TASK_INDEX',
];

function sh(cmd: string[], env: Record<string, string>): Promise<{ code: number | null; out: string; err: string }> {
  const base = { ...process.env };
  for (const k of ENGINE_VARS) delete base[k];
  return new Promise((done) => {
    const p = spawn(cmd[0], cmd.slice(1), { cwd: ROOT, env: { ...base, ...env } });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('close', (code) => done({ code, out, err }));
  });
}

describe('sweep templates', () => {
  it('the Slurm array script trains its shard from the array variables; a re-submitted index resumes; merge', async () => {
    const out = mkdtempSync(join(tmpdir(), 'cil-slurm-'));
    const env = (id: number, extra: Record<string, string> = {}) => ({
      EXPERIMENT,
      OUT: out,
      SLURM_ARRAY_TASK_ID: String(id),
      SLURM_ARRAY_TASK_MIN: '0',
      SLURM_ARRAY_TASK_COUNT: '2',
      ...extra,
    });
    const tasks = await Promise.all([0, 1].map((i) => sh(['bash', 'deploy/batch/slurm-sweep.sh'], env(i))));
    expect(tasks.map((t) => t.code)).toEqual([0, 0]);
    const sums = tasks.map((t) => JSON.parse(t.out));
    expect(sums.map((s) => [s.shard, s.shards, s.source])).toEqual([
      [0, 2, 'SLURM_ARRAY_TASK_ID'],
      [1, 2, 'SLURM_ARRAY_TASK_ID'],
    ]);
    expect(sums[0].trained + sums[1].trained).toBe(6);
    // `CIL_SHARDS=2 sbatch --array=1 …`: Slurm says a 1-task array starting at 1; the script gives the total
    const again = await sh(['bash', 'deploy/batch/slurm-sweep.sh'], env(1, { CIL_SHARDS: '2', SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_COUNT: '1' }));
    expect(again.code, again.err).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ shard: 1, shards: 2, trained: 0, alreadyDone: sums[1].trained });
    const merged = await sh(
      ['node', 'bin/cil-lab.mjs', 'sweep', 'merge', join(out, 'shard-0.jsonl'), join(out, 'shard-1.jsonl'), '--out', join(out, 'results.json')],
      {},
    );
    expect(merged.code, merged.err).toBe(0);
    expect(JSON.parse(merged.out)).toMatchObject({ expected: 6, merged: 6, missing: 0 });
    expect(read('deploy/batch/slurm-sweep.sh')).toMatch(/^#SBATCH --array=0-\d+$/m);
  }, 120_000);

  it('Kubernetes: an Indexed Job whose completions equal --shards, per-index files on a shared volume, a merge Job', () => {
    const job = read('deploy/batch/kubernetes-sweep.yaml');
    expect(job).toMatch(/completionMode: Indexed/);
    const completions = Number(/completions: (\d+)/.exec(job)?.[1]);
    expect(Number(/--shards (\d+)/.exec(job)?.[1])).toBe(completions);
    expect(job).toMatch(/--out "\/results\/shard-\$\{JOB_COMPLETION_INDEX\}\.jsonl"/);
    expect(job).toMatch(/accessModes: \[ReadWriteMany\]/);
    const merge = read('deploy/batch/kubernetes-merge.yaml');
    expect(merge).toMatch(/sweep merge \/results\/shard-\*\.jsonl --out \/results\/results\.json/);
    expect(merge).toMatch(/claimName: cil-lab-results/);
  });

  it('GitHub Actions: started by hand only, one matrix job per shard, a merge job', () => {
    const wf = read('deploy/batch/github-actions-sweep.yml');
    const on = /^on:\n((?: {2}.*\n)+)/m.exec(wf)?.[1] ?? '';
    expect(on).toMatch(/^ {2}workflow_dispatch:/m);
    expect(on).not.toMatch(/^ {2}(push|pull_request|schedule|workflow_run):/m);
    const shards = Number(/SHARDS: (\d+)/.exec(wf)?.[1]);
    const list = JSON.parse(/shard: (\[[\d, ]+\])/.exec(wf)?.[1] ?? '[]');
    expect(list).toEqual(Array.from({ length: shards }, (_, i) => i));
    expect(wf).toMatch(/--shard \$\{\{ matrix\.shard \}\}\/\$SHARDS/);
    expect(wf).toMatch(/needs: shard/);
    expect(wf).toMatch(/sweep merge sweep-out\/shard-\*\.jsonl --out sweep-out\/results\.json/);
    // the user's flags reach the shell through an environment variable, never pasted into the script
    const uses = wf.split('\n').filter((l) => l.includes('${{ inputs.'));
    expect(uses).toEqual(['          EXPERIMENT: ${{ inputs.experiment }}']);
  });

  it('Dockerfile: Node 20, npm ci with .npmrc (and onnxruntime-node download skipped) before the sources, data prepared at build, cil-lab as entrypoint', () => {
    const d = read('Dockerfile');
    expect(d).toMatch(/^FROM node:20-bookworm/m);
    const copyDeps = d.indexOf('COPY package.json package-lock.json .npmrc ./');
    const ci = d.indexOf('RUN ONNXRUNTIME_NODE_INSTALL=skip npm ci');
    const copyAll = d.indexOf('COPY . .');
    const prep = d.indexOf('npm run prepare-data');
    expect(copyDeps).toBeGreaterThan(0);
    expect(ci).toBeGreaterThan(copyDeps);
    expect(copyAll).toBeGreaterThan(ci);
    expect(prep).toBeGreaterThan(copyAll);
    expect(d).toMatch(/^ENTRYPOINT \["node", "\/app\/bin\/cil-lab\.mjs"\]$/m);
    const ignore = read('.dockerignore').split('\n');
    for (const p of ['node_modules', '.git', 'public/data']) expect(ignore).toContain(p);
    // what the build needs is not ignored
    for (const p of ['scripts', 'src', 'bin', 'tests', '.npmrc', 'package-lock.json']) expect(ignore).not.toContain(p);
  });
});
