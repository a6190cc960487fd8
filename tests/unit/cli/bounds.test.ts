/**
 * The command line says no in one way: bad input exits 2 with one line that names the flag and, for a size, its
 * bound (src/core/config/limits.ts, the same checker as a share link); an internal error exits 1 with one line and a
 * hint to report it; a closed pipe ends quietly; a fifo or device is refused as input and as output; outputs never
 * replace an input. Each case below is a command line that once crashed, ran away or exited 0 on nonsense.
 * The ones that could hang or abort V8 run in a child process (argv-batch.ts) with a time limit.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import LZString from 'lz-string';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/main';
import { toBase64Url } from '../../../src/core/config/url-codec';
import { runBatch } from './argv-batch';
import { captureCli } from './capture';

const cli = captureCli();
const ROOT = resolve(__dirname, '..', '..', '..');
const tmp = mkdtempSync(join(tmpdir(), 'cil-bounds-'));
const link = (config: unknown) => `#v1.${toBase64Url(LZString.compressToUint8Array(JSON.stringify(config)))}`;
const OOD = ['ood', '--dataset', 'digits', '--classes', '0-5', '--tasks', '3'];

/** Exit 2, nothing on stdout, one line on stderr matching `re`. */
async function refused(argv: string[], re: RegExp): Promise<void> {
  const r = await cli(...argv);
  expect(r.code, `${argv.join(' ')} → ${r.err}`).toBe(2);
  expect(r.out).toBe('');
  expect(r.err.trim().split('\n'), r.err).toHaveLength(1);
  expect(r.err.trim()).toMatch(re);
}

describe('sizes are bounded before anything is allocated, with the bound in the message', () => {
  it('class ranges: --classes and --ood ranges of 4·10⁹ classes, and a link with one (they aborted V8)', async () => {
    await refused(
      [...OOD.slice(0, 3), '--classes', '0-4000000000', '--tasks', '2'],
      /^cil-lab: --classes: Class 4000000000 does not exist: digits has classes 0\.\.9\.$/,
    );
    await refused(
      [...OOD, '--ood', 'fashion-mnist:0-4000000000'],
      /^cil-lab: --ood: OOD set "fashion-mnist:0-4000000000": Class 4000000000 is beyond the bound: an experiment has at most 1 000 classes/,
    );
    await refused(
      ['ood', '--link', link({ openWorld: { oodSets: ['digits:6-99999999999999999999'] } })],
      /beyond the bound: an experiment has at most 1 000 classes/,
    );
    await refused(
      ['run', '--dataset', 'digits', '--classes', '0-99999999999', '--tasks', '2'],
      /^cil-lab: --classes: Class 99999999999 does not exist: digits has classes 0\.\.9\.$/,
    );
    await refused(
      ['orders', '--dataset', 'cifar100', '--subset', '0-4000000000', '--tasks', '2'],
      /^cil-lab: --subset: Class 4000000000 does not exist: cifar100 has classes 0\.\.99\.$/,
    );
  });

  it('reservoir: 20 000 buckets, a huge k, huge buckets or trials (heap out of memory, or ran on, or exit 0)', async () => {
    const R = ['reservoir', '--alpha', '1'];
    await refused([...R, '--bucket-sizes', Array(20_000).fill(10).join(','), '--k', '10'], /--bucket-sizes lists at most 1 000 numbers; got 20 000\./);
    await refused([...R, '--bucket-sizes', '100,100', '--k', '99999999999999999999'], /^cil-lab: --k must be at most 100 000; got 99999999999999999999\.$/);
    await refused([...R, '--bucket-sizes', '1000000000,1000000000', '--k', '100'], /One call runs at most 250 000 000 steps of Alg\. 1/);
    await refused([...R, '--bucket-sizes', '100,100', '--k', '100', '--trials', '1000000'], /One call runs at most 250 000 000 steps/);
    await refused([...R, '--bucket-sizes', '100,100', '--k', '100', '--trials', '99999999'], /^cil-lab: --trials must be at most 1 000 000; got 99999999\.$/);
  });

  it("ood: the model, epochs and memory have the link's bounds (25 M weights, 1 000, 10⁶)", async () => {
    await refused([...OOD, '--hidden', Array(8).fill(4096).join(',')], /^cil-lab: --hidden: A model can have at most 25 000 000 weights/);
    await refused([...OOD, '--epochs', '5000'], /^cil-lab: --epochs: Must be a whole number from 0 to 1000; got 5000\.$/);
    await refused([...OOD, '--memory', '999999999999'], /^cil-lab: --memory: Must be a whole number from 1 to 1000000; got 999999999999\.$/);
    // as the lab runs it (every setting named): the lab's own checker, the same bound
    const lab = [...OOD, '--strategy', 'replay', '--hidden', '64', '--seed', '0', '--detectors', 'msp', '--ood', 'digits:6-9'];
    await refused(
      [...lab, '--epochs', '5000', '--head-epochs', '3', '--margin-in', '-10', '--margin-out', '-4'],
      /^cil-lab: --epochs: Epochs must be a whole number from 1 to 1 000; got 5000\.$/,
    );
    await refused(['run', '--dataset', 'digits', '--tasks', '5', '--batch-size', '99999999'], /^cil-lab: --batch-size: Must be a whole number from 1 to 65536/);
  });

  it('stream and curriculum: epochs and sizes beyond the link are refused before training', async () => {
    await refused(['stream', '--protocol', 'iid', '--epochs', '5000'], /^cil-lab: --epochs: Must be a whole number from 1 to 100; got 5000\.$/);
    await refused(['stream', '--protocol', 'iid', '--per-class', '2'], /^cil-lab: --per-class: Must be a whole number from 4 to 600; got 2\.$/);
    await refused(['stream', '--protocol', 'iid', '--train-ratio', '0.01'], /^cil-lab: --train-ratio: Must be a number from 0\.1 to 0\.9; got 0\.01\.$/);
    await refused(['curriculum', '--epochs', '5000'], /^cil-lab: --epochs: Must be a whole number from 1 to 50; got 5000\.$/);
    await refused(['curriculum', '--train-per-class', '99999999'], /^cil-lab: --train-per-class: Must be a whole number from 1 to 6000; got 99999999\.$/);
    await refused(['curriculum', '--hidden', '99999'], /^cil-lab: --hidden: Must be a whole number from 1 to 1024; got 99999\.$/);
  });
});

describe('nonsense exits 2, never 0', () => {
  it('flags a command does not read, and --config/--link that would be ignored', async () => {
    await refused(['count', '--classes', '6', '--tasks', '3', '--strategy', 'ewc'], /^cil-lab: --strategy is not a flag of cil-lab count/);
    await refused(['reservoir', '--bucket-sizes', '10', '--k', '5', '--alpha', '1', '--config', 'x.json'], /--config is not a flag of cil-lab reservoir/);
    mkdirSync(join(tmp, 'folder'), { recursive: true });
    await refused(
      ['stream', '--protocol', 'iid', '--config', join(tmp, 'folder')],
      /Cannot read the config file ".*folder": it is a folder; give a regular file\./,
    );
    await refused(['stream', '--protocol', 'iid', '--link', '#v1.AAAA'], /^cil-lab: /);
  });

  it('contradictions and empty lists', async () => {
    await refused([...OOD, '--margin-in', '5', '--margin-out', '-5'], /^cil-lab: --margin-in \/ --margin-out: BER needs m_in < m_out/);
    await refused(['ood', '--dataset', 'digits', '--classes', '0', '--tasks', '1'], /^cil-lab: --classes: Must have from 2 to 1000 entries; got 1\.$/);
    await refused(
      ['ood', '--dataset', 'digits', '--classes', '0-5', '--task-sizes', '3,3', '--tasks', '2'],
      /^cil-lab: Give --tasks K or --task-sizes m1,m2,…, not both\.$/,
    );
    await refused(['count', '--classes', '6', '--task-sizes', '3,3', '--tasks', '2'], /not both/);
    await refused(['curriculum', '--strategy', ''], /^cil-lab: --strategy is empty\.$/);
    await refused(['curriculum', '--strategy', ' , '], /^cil-lab: --strategy is empty\.$/);
  });

  it('--head-lr 1e308 and --backend webgl are the user’s to fix (exit 2, not 1)', async () => {
    await refused([...OOD, '--head-lr', '1e308'], /^cil-lab: --head-lr must be a number in \(0, 10\]; got 1e308\.$/);
    await refused(
      [...OOD, '--backend', 'webgl'],
      /^cil-lab: Unknown --backend "webgl": use wasm, cpu or webgpu \(or auto\); webgl is the browser's, not Node's\.$/,
    );
    await refused(['run', '--dataset', 'digits', '--tasks', '5', '--backend', 'webgl'], /webgl is the browser's/);
  });

  it('one dataset id means one thing in every command: digits is the Digits dataset (MNIST’s ten classes)', async () => {
    const file = 'tests/fixtures/import/fmnist6-runs.csv';
    const r = await cli('analyze', '--results', file, '--dataset', 'digits', '--classes', '0-5', '--tasks', '3');
    expect(r.code, r.err).toBe(0);
    expect(r.json.classes).toEqual(['zero', 'one', 'two', 'three', 'four', 'five']);
    const o = await cli('orders', '--dataset', 'digits', '--subset', '0-5', '--tasks', '3', '--protocol', 'rs');
    expect(o.code, o.err).toBe(0);
    await refused(['run', '--dataset', 'mnist', '--tasks', '2'], /^cil-lab: --dataset mnist is a list of class names without images/);
  });
});

describe('sweep: outputs go to regular files and never over an input', () => {
  const shard = (name: string, finalAccuracy: unknown): string => {
    const header = {
      cil_lab_sweep: 1,
      experiment: 'e1',
      shard: 0,
      shards: 1,
      unit_depth: 1,
      dataset: 'digits',
      classes: [],
      task_sizes: [2, 2],
      strategy: 'finetune',
      seed: 0,
      backend: 'cpu',
      runs: 1,
      keys: ['finetune/0/0,1|2,3'],
    };
    const record = {
      tasks: [
        [0, 1],
        [2, 3],
      ],
      strategy: 'finetune',
      seed: 0,
      final_accuracy: finalAccuracy,
      matrix: [
        [0.9, 0],
        [0.5, 0.8],
      ],
    };
    const path = join(tmp, name);
    writeFileSync(path, `${JSON.stringify(header)}\n${JSON.stringify(record)}\n`);
    return path;
  };
  it('merge refuses to overwrite an input shard, which stays as it was', async () => {
    const a = shard('shard-0.jsonl', 0.65);
    const before = readFileSync(a, 'utf8');
    await refused(
      ['sweep', 'merge', a, '--out', a],
      /^cil-lab: Cannot write --out ".*shard-0\.jsonl": it is one of this command's input files; give another path \(the input is kept\)\.$/,
    );
    expect(readFileSync(a, 'utf8')).toBe(before);
    const ok = await cli('sweep', 'merge', a, '--out', join(tmp, 'merged.json'));
    expect(ok.code, ok.err).toBe(0);
    expect(JSON.parse(readFileSync(join(tmp, 'merged.json'), 'utf8')).runs).toHaveLength(1);
  });
  it('merge refuses an accuracy that is not a fraction', async () => {
    await refused(
      ['sweep', 'merge', shard('high.jsonl', 'high')],
      /high\.jsonl, line 2: not a run record of cil-lab sweep: its final_accuracy must be a number from 0 to 1; got "high"\.$/,
    );
    await refused(['sweep', 'merge', shard('pct.jsonl', 65)], /its final_accuracy must be a number from 0 to 1; got 65\.$/);
  });
  it('a shard count past the bound or past the runs is refused before training (it exited 0 having trained nothing)', async () => {
    const E = ['sweep', '--dataset', 'digits', '--classes', '0-3', '--tasks', '2', '--orderings', 'all', '--out', join(tmp, 's.jsonl')];
    await refused([...E, '--shard', '0/99999999999999999999'], /^cil-lab: The number of shards must be at most 10 000 \(--shard gives more\)\.$/);
    await refused([...E, '--shard', '0/7', '--backend', 'cpu'], /^cil-lab: 7 shards for 6 runs: a sweep has at most one shard per run/);
  });
  it('--out a folder or /dev/null is refused in one line (raw EISDIR / EINVAL, exit 1, before)', async () => {
    const E = ['sweep', '--dataset', 'digits', '--classes', '0-3', '--tasks', '2', '--orderings', 'all', '--shard', '0/2'];
    await refused([...E, '--out', tmp], /^cil-lab: Cannot write --out ".*": it is a folder; give the path of a regular file\.$/);
    await refused([...E, '--out', '/dev/null'], /^cil-lab: Cannot write --out "\/dev\/null": it is a device; give the path of a regular file\.$/);
  });
});

describe('one way to say no', () => {
  it('an internal error exits 1 with one line and a hint to report it, no stack', async () => {
    const writes: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => (writes.push(String(s)), true));
    // the first write of the output fails as a bug would: a TypeError, not an input error
    vi.spyOn(process.stdout, 'write').mockImplementationOnce(() => {
      throw new TypeError('Cannot read properties of undefined');
    });
    const code = await main(['count', '--classes', '6', '--tasks', '3']);
    vi.restoreAllMocks();
    expect(code).toBe(1);
    expect(writes).toEqual([
      'cil-lab: internal error (TypeError: Cannot read properties of undefined); this is a bug in cil-lab: please report it with the command line that caused it.\n',
    ]);
  });

  it('in a child: a fifo or /dev/zero as input or output ends at once with exit 2 (a fifo hung, /dev/zero read 13.9 GB)', async () => {
    const fifo = join(tmp, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const E = ['--dataset', 'digits', '--classes', '0-3', '--tasks', '2', '--orderings', 'all', '--shard', '0/2', '--backend', 'cpu'];
    const results = await runBatch(
      [
        ['stats', '--values', fifo],
        ['orders', '--config', fifo],
        ['sweep', ...E, '--out', '/dev/zero'],
        ['sweep', ...E, '--out', fifo],
        ['sweep', 'merge', '/dev/zero'],
      ],
      { timeoutMs: 60_000, maxOldSpaceMb: 512 },
    );
    for (const r of results) {
      expect(r.died, r.argv.join(' ')).toBeUndefined();
      expect(r.code, `${r.argv.join(' ')} → ${r.err}`).toBe(2);
      expect(r.err).toMatch(/^cil-lab: Cannot (read|write) .*: it is a (pipe|device); give (a|the path of a) regular file\.\n$/);
    }
  }, 90_000);

  it('piped into a reader that stops (| head): ends quietly, no EPIPE stack', async () => {
    const child = spawn(process.execPath, ['bin/cil-lab.mjs', 'enumerate', '--classes', '10', '--tasks', '5'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (c) => (err += String(c)));
    await new Promise<void>((ok) => child.stdout.once('data', () => ok()));
    child.stdout.destroy(); // the reader goes away, as head does after its lines
    const code = await new Promise<number | null>((ok) => child.on('close', (c) => ok(c)));
    expect(err).toBe('');
    expect(code).toBe(0);
  }, 60_000);

  it('`cil-lab CMD --help` prints that command’s usage and flags', async () => {
    const r = await cli('reservoir', '--help');
    expect(r.code).toBe(0);
    expect(r.out).toContain('cil-lab reservoir --bucket-sizes');
    expect(r.out).toContain('flags: --bucket-sizes --k --alpha --trials --seed');
  });
});

describe('npm', () => {
  it('no npm warning about an unknown .npmrc key; onnxruntime-node’s download is skipped by allowScripts and its env variable; webgpu is optional, its script not run', () => {
    const r = spawnSync('npm', ['config', 'get', 'fund'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.stderr).not.toMatch(/Unknown (project|user|env) config/);
    expect(readFileSync(join(ROOT, '.npmrc'), 'utf8')).not.toMatch(/onnxruntime/);
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).allowScripts).toEqual({ 'onnxruntime-node': false, webgpu: false });
    // Dawn's Node bindings only give the CLI --backend webgpu: a failed install of them must never fail `npm ci`
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).optionalDependencies).toEqual({ webgpu: expect.any(String) });
    expect(JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')).packages['node_modules/webgpu'].optional).toBe(true);
    expect(readFileSync(join(ROOT, 'scripts/setup.mjs'), 'utf8')).toContain("ONNXRUNTIME_NODE_INSTALL: 'skip'");
    // the installed package's install script reads that variable and skips
    const skip = spawnSync(process.execPath, ['-e', "console.log(require('onnxruntime-node/script/install-utils.js').parseInstallFlag())"], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' },
    });
    expect(skip.stdout.trim()).toBe('false');
  });
});
