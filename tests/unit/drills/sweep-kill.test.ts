/**
 * Drill: a sweep shard killed mid-run (SIGKILL, as a preempted node dies), re-run, and merged. The shard's process is
 * killed once its file holds at least one finished run; the re-run resumes from its file (the runs already there are
 * not trained again; a partial last line is cut); the merge of the shards equals the single-process `cil-lab run`
 * (every field but the timing), and `sweep merge --out` onto one of its input shards is refused with the shard left as
 * it was. Prints the figures.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureCli } from '../cli/capture';

const cli = captureCli();
const ROOT = resolve(__dirname, '..', '..', '..');
// 4 classes in tasks of 2, 1, 1: 12 orderings, one run at a time (so there is a moment between two runs to kill)
const E = [
  '--dataset',
  'fashion-mnist',
  '--classes',
  '0-3',
  '--task-sizes',
  '2,1,1',
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
  '--fast',
  'off',
];
const ENGINE_VARS = /^(JOB_COMPLETION_INDEX|SLURM_ARRAY_TASK_|AWS_BATCH_JOB_ARRAY_INDEX|CLOUD_RUN_TASK_|BATCH_TASK_)/;
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !ENGINE_VARS.test(k)));
const lines = (f: string): string[] => readFileSync(f, 'utf8').split('\n').filter(Boolean);
const noTime = (r: Record<string, unknown>) => ({ ...r, seconds: undefined });

/** Run shard `i/n` into `out`; with `killAfterRuns`, SIGKILL it once the file holds that many finished runs. */
function shard(i: number, n: number, out: string, killAfterRuns?: number): Promise<{ code: number | null; signal: string | null; out: string }> {
  return new Promise((done) => {
    const p = spawn(process.execPath, [join(ROOT, 'bin', 'cil-lab.mjs'), 'sweep', ...E, '--shard', `${i}/${n}`, '--out', out], { cwd: ROOT, env });
    let stdout = '';
    p.stdout.on('data', (d) => (stdout += d));
    let poll: NodeJS.Timeout | undefined;
    if (killAfterRuns !== undefined) {
      poll = setInterval(() => {
        let size = 0;
        try {
          size = statSync(out).size;
        } catch {
          return;
        }
        if (size > 0 && lines(out).length >= 1 + killAfterRuns) {
          clearInterval(poll);
          p.kill('SIGKILL');
        }
      }, 10);
    }
    p.on('close', (code, signal) => {
      if (poll) clearInterval(poll);
      done({ code, signal, out: stdout });
    });
  });
}

describe('drill: a sweep shard killed, re-run and merged', () => {
  it('kill -9 mid-shard, re-run resumes, merge equals the single-process run; merge refuses to overwrite an input', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cil-sweep-kill-'));
    const [f0, f1] = [join(dir, 'shard-0.jsonl'), join(dir, 'shard-1.jsonl')];
    const t0 = performance.now();
    const killed = await shard(0, 2, f0, 2);
    expect(killed.signal, 'the shard finished before it could be killed').toBe('SIGKILL');
    const kept = lines(f0).length - 1;
    expect(kept).toBeGreaterThanOrEqual(2);
    const [resumed, other] = await Promise.all([shard(0, 2, f0), shard(1, 2, f1)]);
    expect([resumed.code, other.code]).toEqual([0, 0]);
    const r0 = JSON.parse(resumed.out);
    expect(r0.alreadyDone).toBe(kept);
    expect(r0.trained).toBe(r0.inShard - kept);
    // nothing lost, nothing twice: every run of the shard once in its file
    expect(lines(f0).length - 1).toBe(r0.inShard);

    const single = await cli('run', ...E);
    expect(single.code, single.err).toBe(0);
    const merged = join(dir, 'results.json');
    const m = await cli('sweep', 'merge', f0, f1, '--out', merged);
    expect(m.code, m.err).toBe(0);
    expect(m.json).toMatchObject({ expected: 12, merged: 12, missing: 0, duplicatesCollapsed: 0 });
    expect(JSON.parse(readFileSync(merged, 'utf8')).runs.map(noTime)).toEqual(single.json.runs.map(noTime));

    const before = readFileSync(f1, 'utf8');
    const over = await cli('sweep', 'merge', f0, f1, '--out', f1);
    expect(over.code).toBe(2);
    expect(over.err).toMatch(/it is one of this command's input files/);
    expect(readFileSync(f1, 'utf8')).toBe(before);
    console.log(
      `sweep drill: shard 0/2 killed (SIGKILL) with ${kept} of ${r0.inShard} runs in its file; the re-run trained the other ${r0.trained} and none twice; ` +
        `merged 12/12 runs = the single-process run; merge --out onto an input refused, the input unchanged; ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  }, 600_000);
});
