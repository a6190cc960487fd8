/**
 * Drill: bad command lines for every command. Each vector below is a mistake a clumsy or hostile user makes (missing
 * and negative values, non-numbers, empty list entries, huge numbers and ranges, sizes past the link's bounds, one
 * class, contradictions, unknown flags and commands, flags a command does not read, devices, fifos, folders, binary
 * files, missing folders, damaged links, an output over an input). Every one must exit 2 with exactly one line on
 * stderr, starting "cil-lab: ", with no stack trace and nothing on stdout, before any training starts. `npm test`
 * runs them in the test process; `npm run drills` (DRILLS=1) runs them again in one child process under a 2 GB heap,
 * where an abort of V8 would show. Prints the figures.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import LZString from 'lz-string';
import { zipSync } from 'fflate';
import { toBase64Url } from '../../../src/core/config/url-codec';
import { npyBytes, writeFeaturesNpz } from '../../../src/data/features/npz';
import { runBatch } from '../cli/argv-batch';
import { captureCli } from '../cli/capture';

const cli = captureCli();
const tmp = mkdtempSync(join(tmpdir(), 'cil-drill-'));
const binary = join(tmp, 'classes.bin');
writeFileSync(
  binary,
  Uint8Array.from({ length: 600 }, (_, i) => (i * 37) % 256),
);
const notUtf8 = join(tmp, 'latin1.txt');
writeFileSync(notUtf8, Uint8Array.from([0x63, 0x61, 0x74, 0x0a, 0xe9, 0xe8, 0x0a, 0x64, 0x6f, 0x67]));
const oneClass = join(tmp, 'one.txt');
writeFileSync(oneClass, 'cat\n');
const empty = join(tmp, 'empty.txt');
writeFileSync(empty, '');
const folder = join(tmp, 'a-folder');
mkdirSync(folder);
const missing = join(tmp, 'nope.json');
const noFolder = join(tmp, 'no-such-folder', 'out.json');
const sim6 = 'tests/fixtures/cli/sim6.json';
const LONG = Boolean(process.env.DRILLS);

const sim6copy = join(tmp, 'sim6.json');
writeFileSync(sim6copy, readFileSync(sim6));
const shardHeader = { cil_lab_sweep: 1, experiment: 'e1', shard: 0, shards: 1, unit_depth: 1, keys: ['finetune/0/0,1|2,3'] };
const shardRecord = (acc: unknown) => ({
  tasks: [
    [0, 1],
    [2, 3],
  ],
  strategy: 'finetune',
  seed: 0,
  final_accuracy: acc,
});
const shardFile = join(tmp, 'shard-0.jsonl');
writeFileSync(shardFile, `${JSON.stringify(shardHeader)}\n${JSON.stringify(shardRecord(0.5))}\n`);
const highFile = join(tmp, 'high.jsonl');
writeFileSync(highFile, `${JSON.stringify(shardHeader)}\n${JSON.stringify(shardRecord('high'))}\n`);

// a small valid feature set (4 classes of 3 rows, 8 dimensions), and .npz files whose arrays lie about their shape
const npz = join(tmp, 'f.npz');
writeFileSync(
  npz,
  writeFeaturesNpz({
    features: Float32Array.from({ length: 12 * 8 }, (_, i) => Math.sin(i)),
    n: 12,
    d: 8,
    labels: Int32Array.from({ length: 12 }, (_, i) => i % 4),
    split: Uint8Array.from({ length: 12 }, (_, i) => (i < 8 ? 0 : 1)),
    classNames: ['a', 'b', 'c', 'd'],
  }),
);
const lying = (featureShape: number[], labelShape: number[]) => {
  const file = join(tmp, `lies-${featureShape.join('x')}-${labelShape.join('x')}.npz`);
  writeFileSync(
    file,
    zipSync({
      'features.npy': npyBytes('<f4', featureShape, new Uint8Array(64)),
      'labels.npy': npyBytes('<i8', labelShape, new Uint8Array(32)),
      'class_names.npy': npyBytes('<U1', [2], Uint8Array.from([97, 0, 0, 0, 98, 0, 0, 0])),
    }),
  );
  return file;
};
const LIES = [lying([1e9, 1e9], [1e9]), lying([2 ** 40, 16], [2 ** 40]), lying([4, 4], [4000000000]), lying([4, 4, 4], [4]), lying([-1, 4], [4])];
const notNpz = join(tmp, 'not.npz');
writeFileSync(notNpz, 'not a zip');

const COUNT = ['count', '--classes', '6'];
const ORDERS = ['orders', '--classes', 'cat,dog,car,truck,apple,pear', '--tasks', '3', '--similarity', `file:${sim6}`];
const FILES = ['/dev/zero', folder, missing, binary];

/** [what, argv] */
function vectors(): [string, string[]][] {
  const v: [string, string[]][] = [];
  const add = (what: string, argv: string[]) => v.push([what, argv]);
  // commands, flags, values
  add('no such command', ['frobnicate']);
  add('no such command (typo)', ['order', '--classes', '6']);
  add('unknown flag', [...COUNT, '--taks', '3']);
  add('flag without its value', [...COUNT, '--tasks']);
  add('a stray word', [...COUNT, '--tasks', '3', 'extra']);
  add('a boolean flag given a value', ['similarity', '--allow-remote=yes', '--classes', 'a,b']);
  add('single-dash flag', ['count', '-classes', '6', '--tasks', '3']);
  add('a flag that looks negative but is not a number', ['orders', '--classes', '-cat,dog', '--tasks', '1']);
  // numbers where numbers are expected
  for (const t of ['-3', '0', 'x', '1.5', '', '7', '1e3', '99999999999999999999', '-0', '--1', ' '])
    add(`count --tasks ${JSON.stringify(t)}`, [...COUNT, '--tasks', t]);
  for (const s of ['3,,3', ',3,3', '3,3,', '2,2', '-2,8', 'a,b,c', '', ',', '2;2;2', '6,0', '1e1,-4'])
    add(`count --task-sizes ${JSON.stringify(s)}`, [...COUNT, '--task-sizes', s]);
  for (const c of ['-1', '0', 'abc', '', '1.5']) add(`count --classes ${JSON.stringify(c)}`, ['count', '--classes', c, '--tasks', '2']);
  add('count without --tasks', COUNT);
  for (const s of ['0', '-5', '1000000000', 'x', '91']) add(`enumerate --sample ${s}`, ['enumerate', '--classes', '6', '--tasks', '3', '--sample', s]);
  for (const l of ['0', '-1', '1000000000', 'x']) add(`enumerate --limit ${l}`, ['enumerate', '--classes', '100', '--tasks', '10', '--limit', l]);
  add('enumerate too many to list', ['enumerate', '--classes', '100', '--tasks', '10']);
  add('enumerate --seed 1.5', ['enumerate', '--classes', '6', '--tasks', '3', '--sample', '3', '--seed', '1.5']);
  for (const [flag, value] of [
    ['omega', '-90'],
    ['omega', 'x'],
    ['omega', ''],
    ['omega', '1.5'],
    ['epsilon', '2'],
    ['epsilon', '-0.1'],
    ['epsilon', 'x'],
    ['epsilon', '0'],
    ['delta', '0'],
    ['delta', '1'],
    ['delta', '-1'],
    ['range', '-1'],
    ['range', '0'],
    ['range', 'x'],
  ] as const)
    add(`bounds --${flag} ${value}`, ['bounds', '--omega', '90', `--${flag}`, value]);
  add('bounds without --omega', ['bounds']);
  // classes
  for (const c of ['abc', 'cat', 'cat,,dog', '', ',', ' , ', 'cat,Cat'])
    add(`orders --classes ${JSON.stringify(c)}`, ['orders', '--classes', c, '--tasks', '1']);
  add('orders without classes', ['orders', '--tasks', '2']);
  for (const t of ['0', '-1', '4', 'x', '7']) add(`orders --tasks ${t}`, ['orders', '--classes', 'cat,dog,car', '--tasks', t]);
  for (const d of ['imagenet', '', 'CIFAR-100']) add(`orders --dataset ${JSON.stringify(d)}`, ['orders', '--dataset', d, '--tasks', '2']);
  for (const s of ['3', '99', '5-2', 'a', '0-200', '3,3']) add(`orders --subset ${s}`, ['orders', '--dataset', 'cifar10', '--subset', s, '--tasks', '2']);
  for (const p of ['lucky', 'rs,,edge', 'RS;EDGE']) add(`orders --protocol ${p}`, [...ORDERS, '--protocol', p]);
  for (const f of ['xml', '', 'PyCIL ']) add(`orders --format ${JSON.stringify(f)}`, [...ORDERS, '--format', f]);
  for (const e of ['0', '-1', 'x']) add(`orders --exact-limit ${e}`, [...ORDERS, '--exact-limit', e]);
  for (const s of ['1,,2', 'x', '-1', '4294967296']) add(`orders --seeds ${s}`, [...ORDERS, '--protocol', 'rs', '--seeds', s]);
  add('exact over the limit', ['orders', '--dataset', 'cifar100', '--tasks', '10', '--protocol', 'exact']);
  // files: devices, folders, missing, binary
  for (const f of FILES)
    add(`orders --similarity file:${f}`, ['orders', '--classes', 'cat,dog,car,bus,apple,pear', '--tasks', '3', '--similarity', `file:${f}`]);
  add('orders --similarity nope', ['orders', '--classes', 'a,b', '--tasks', '2', '--similarity', 'nope']);
  add('orders --similarity file: (no path)', ['orders', '--classes', 'a,b', '--tasks', '2', '--similarity', 'file:']);
  for (const f of [...FILES, notUtf8, oneClass, empty]) add(`orders --classes-file ${f}`, ['orders', '--classes-file', f, '--tasks', '2']);
  for (const f of [...FILES, notUtf8, empty]) add(`orders --config ${f}`, ['orders', '--config', f]);
  for (const l of ['garbage', '#v1.', '#v1.AAAA', '#v2.AAAA', `#v1.${'.'.repeat(130_000)}x`, 'https://example.org/#v1.%ZZ', '#v1.AAAAAAAA%0A'])
    add(`orders --link ${l.slice(0, 30)}`, ['orders', '--link', l]);
  add('--config and --link together', ['count', '--config', sim6, '--link', '#v1.AAAA']);
  add('a similarity file for other classes', ['orders', '--classes', 'a,b,c', '--tasks', '3', '--similarity', `file:${sim6}`]);
  // outputs
  add('similarity --out into a missing folder', ['similarity', '--source', `file:${sim6}`, '--classes', 'cat,dog,car,truck,apple,pear', '--out', noFolder]);
  add('similarity --out onto a folder', ['similarity', '--source', `file:${sim6}`, '--classes', 'cat,dog,car,truck,apple,pear', '--out', folder]);
  add('similarity --source nope', ['similarity', '--source', 'nope', '--classes', 'a,b']);
  add('similarity --source file:/dev/zero', ['similarity', '--source', 'file:/dev/zero', '--classes', 'a,b']);
  add('similarity --compare with a device', ['similarity', '--compare', '/dev/zero', sim6, '--tasks', '3']);
  // score
  for (const o of ['3,,1', 'x', '1,1,2,0,3,4', '0,1,2,3,4,9', '0,1,2,3', ''])
    add(`score --order ${JSON.stringify(o)}`, [
      'score',
      '--order',
      o,
      '--tasks',
      '2',
      '--classes',
      'cat,dog,car,truck,apple,pear',
      '--similarity',
      `file:${sim6}`,
    ]);
  add('score without --similarity', ['score', '--order', '0,1,2,3', '--tasks', '2']);
  // stats, conformal, analyze: files
  for (const f of FILES) add(`stats --values ${f}`, ['stats', '--values', f]);
  for (const f of FILES) add(`conformal --calibration ${f}`, ['conformal', '--calibration', f, '--test', f, '--alpha', '0.1']);
  for (const f of FILES) add(`analyze --results ${f}`, ['analyze', '--results', f]);
  // run: fails before training
  add('run --epochs 0', ['run', '--dataset', 'digits', '--tasks', '5', '--epochs', '0']);
  add('run --epochs -2', ['run', '--dataset', 'digits', '--tasks', '5', '--epochs', '-2']);
  add('run --strategy nope', ['run', '--dataset', 'digits', '--tasks', '5', '--strategy', 'nope']);
  add('run --task-sizes 5,,5', ['run', '--dataset', 'digits', '--task-sizes', '5,,5']);
  add('run --dataset /dev/zero', ['run', '--dataset', '/dev/zero', '--tasks', '2']);
  add('run --dataset missing', ['run', '--dataset', missing, '--tasks', '2']);
  add('run --classes 0-99', ['run', '--dataset', 'digits', '--classes', '0-99', '--tasks', '2']);
  labVectors(add);
  return v;
}

/** Values no size flag takes (each is past a bound, negative, not a number or not whole). */
const HUGE = ['99999999999999999999', '1e308', '-1', 'NaN', 'Infinity', 'x', ''];
const link = (config: unknown) => `#v1.${toBase64Url(LZString.compressToUint8Array(JSON.stringify(config)))}`;

/** The newer commands (ood, stream, curriculum, reservoir, sweep, cpcf, conformal, stats, analyze, ood-metrics, ood-scores): sizes past their bounds, contradictions, files that are not files. */
function labVectors(add: (what: string, argv: string[]) => void): void {
  const OOD = ['ood', '--dataset', 'digits', '--classes', '0-5', '--tasks', '3'];
  for (const flag of ['epochs', 'memory', 'head-epochs', 'train-per-class', 'test-per-class', 'first-epochs', 'batch-size', 'seed', 'ood-seed'])
    for (const x of HUGE.slice(0, 6)) add(`ood --${flag} ${x}`, [...OOD, `--${flag}`, x]);
  for (const x of ['0-4000000000', '0-99999999999', '5-2', '0,0', '0', 'a', '', '0-9,0-9', '11'])
    add(`ood --classes ${x}`, ['ood', '--dataset', 'digits', '--classes', x, '--tasks', '1']);
  for (const x of ['fashion-mnist:0-4000000000', 'digits:4-7', 'svhn', 'digits:', 'digits:6--9', ',', 'emoji:0-99999999999999999999', 'digits'])
    add(`ood --ood ${x}`, [...OOD, '--ood', x]);
  for (const h of ['4096,4096,4096,4096,4096,4096,4096,4096', '0', '-5', 'x', '9999999', Array(9).fill('8').join(',')])
    add(`ood --hidden ${h.slice(0, 20)}`, [...OOD, '--hidden', h]);
  for (const x of ['1e308', '0', '-1', 'x', '11']) add(`ood --head-lr ${x}`, [...OOD, '--head-lr', x]);
  for (const x of ['webgpu', 'webgl', 'tpu', '']) add(`ood --backend ${x}`, [...OOD, '--backend', x]);
  add('ood --margin-in 5 --margin-out -5', [...OOD, '--margin-in', '5', '--margin-out', '-5']);
  add('ood --margin-in 1e9', [...OOD, '--margin-in', '1e9']);
  add('ood --task-sizes 3,3 --tasks 2', ['ood', '--dataset', 'digits', '--classes', '0-5', '--task-sizes', '3,3', '--tasks', '2']);
  add('ood --detectors ""', [...OOD, '--detectors', '']);
  add('ood --detectors nope', [...OOD, '--detectors', 'msp,nope']);
  add('ood --strategy nope', [...OOD, '--strategy', 'nope']);
  add('ood --dataset cifar10', ['ood', '--dataset', 'cifar10', '--tasks', '2']);
  add('ood --shard (not its flag)', [...OOD, '--shard', '0/2']);
  for (const cfg of [
    { openWorld: { oodSets: ['digits:6-99999999999999999999'] } },
    { openWorld: { hidden: Array(8).fill(4096) } },
    { openWorld: { epochs: 5000 } },
    { time: { buckets: 99 } },
  ])
    add(`ood --link ${JSON.stringify(cfg).slice(0, 40)}`, ['ood', '--link', link(cfg)]);
  // stream
  const ST = ['stream', '--protocol', 'iid'];
  for (const flag of ['buckets', 'per-class', 'strength', 'train-ratio', 'k', 'epochs', 'lr', 'batch-size', 'seed'])
    for (const x of HUGE.slice(0, 6)) add(`stream --${flag} ${x}`, [...ST, `--${flag}`, x]);
  for (const x of ['river', '']) add(`stream --stream ${x}`, [...ST, '--stream', x]);
  for (const x of ['future', '', 'iid,iid', 'iid,,streaming']) add(`stream --protocol ${x}`, ['stream', '--protocol', x]);
  for (const x of ['dynamic:7', 'dynamic:0', '-1', 'x', '']) add(`stream --alpha ${x}`, [...ST, '--buffer', 'reservoir', '--alpha', x]);
  add('stream --k without reservoir', [...ST, '--k', '5']);
  add('stream --hidden 2049', [...ST, '--hidden', '2049']);
  add('stream --hidden ×5', [...ST, '--hidden', '8,8,8,8,8']);
  add('stream --config a folder', [...ST, '--config', folder]);
  add('stream --config /dev/zero', [...ST, '--config', '/dev/zero']);
  add('stream --link damaged', [...ST, '--link', '#v1.AAAA']);
  add('stream --link a bad time section', [...ST, '--link', link({ time: { perClass: 2 } })]);
  add('stream --dataset cifar', [...ST, '--dataset', 'cifar']);
  add('stream --backend webgpu', [...ST, '--backend', 'webgpu']);
  add('stream --strategy (not its flag)', [...ST, '--strategy', 'ewc']);
  // curriculum
  for (const flag of ['epochs', 'hidden', 'train-per-class', 'test-per-class', 'seed', 'memory', 'first-epochs', 'batch-size', 'lr'])
    for (const x of HUGE.slice(0, 5)) add(`curriculum --${flag} ${x}`, ['curriculum', `--${flag}`, x]);
  for (const x of ['', ' , ', 'nope', 'finetune,finetune']) add(`curriculum --strategy ${JSON.stringify(x)}`, ['curriculum', '--strategy', x]);
  for (const x of ['', 'digits', 'digits,nope', 'digits,digits', Array(8).fill('digits').join(',')])
    add(`curriculum --datasets ${x.slice(0, 20)}`, ['curriculum', '--datasets', x]);
  for (const x of ['sideways', 'digits,fashion-mnist', '']) add(`curriculum --order ${x}`, ['curriculum', '--order', x]);
  add('curriculum --scenario both-ish', ['curriculum', '--scenario', 'both-ish']);
  add('curriculum --link damaged', ['curriculum', '--link', '#v1.AAAA']);
  add('curriculum --link huge epochs', ['curriculum', '--link', link({ curriculum: { epochs: 5000 } })]);
  // reservoir
  const RES = ['reservoir', '--alpha', '1'];
  add('reservoir 20 000 buckets', [...RES, '--bucket-sizes', Array(20_000).fill(10).join(','), '--k', '10']);
  for (const x of HUGE) add(`reservoir --k ${x}`, [...RES, '--bucket-sizes', '100,100', '--k', x]);
  for (const x of HUGE) add(`reservoir --trials ${x}`, [...RES, '--bucket-sizes', '100,100', '--k', '10', '--trials', x]);
  for (const x of ['1000000000,1000000000', '99999999999999999999', '-1,5', '', '10,,10', 'x'])
    add(`reservoir --bucket-sizes ${x}`, [...RES, '--bucket-sizes', x, '--k', '10']);
  add('reservoir kept past the bound', [...RES, '--bucket-sizes', Array(1000).fill(1000).join(','), '--k', '100000']);
  add('reservoir --seed 2^32', [...RES, '--bucket-sizes', '10', '--k', '5', '--seed', '4294967296']);
  // sweep
  const SW = ['sweep', '--dataset', 'digits', '--classes', '0-3', '--tasks', '2', '--orderings', 'all'];
  for (const x of ['0/99999999999999999999', '0/100000', '5/2', '-1/2', 'x', '0/0', '0/7'])
    add(`sweep --shard ${x}`, [...SW, '--shard', x, '--out', join(tmp, 's.jsonl')]);
  for (const out of ['/dev/zero', '/dev/null', folder, noFolder]) add(`sweep --out ${out}`, [...SW, '--shard', '0/2', '--out', out]);
  add('sweep without --out', [...SW, '--shard', '0/2']);
  add('sweep --shards 0', [...SW, '--shards', '0', '--out', join(tmp, 's.jsonl')]);
  add('sweep merge nothing', ['sweep', 'merge']);
  for (const f of FILES) add(`sweep merge ${f}`, ['sweep', 'merge', f]);
  add('sweep merge a non-shard file', ['sweep', 'merge', sim6]);
  add('sweep merge --out onto its input', ['sweep', 'merge', shardFile, '--out', shardFile]);
  add('sweep merge an accuracy of "high"', ['sweep', 'merge', highFile]);
  add('sweep frobnicate', ['sweep', 'frobnicate']);
  // run and cpcf: sizes past the link's bounds
  const RUN = ['run', '--dataset', 'digits', '--tasks', '5'];
  for (const flag of ['epochs', 'memory', 'batch-size', 'lr', 'train-per-class', 'seed', 'first-epochs', 'population', 'orderings', 'limit', 'sample-seed'])
    for (const x of ['99999999999999999999', '-1', 'x']) add(`run --${flag} ${x}`, [...RUN, '--strategy', 'replay', `--${flag}`, x]);
  add('run --hidden 99999', [...RUN, '--hidden', '99999']);
  add('run --hidden ×9', [...RUN, '--hidden', Array(9).fill('8').join(',')]);
  add('run --model cnn --hidden huge', [...RUN, '--hidden', '4096,4096,4096,4096,4096,4096,4096,4096']);
  add('run --backend webgpu', [...RUN, '--backend', 'webgpu']);
  add('run --dataset mnist (names only)', ['run', '--dataset', 'mnist', '--tasks', '2']);
  add('run --dataset a fifo-like device', ['run', '--dataset', '/dev/null', '--tasks', '2']);
  add('run --classes 0', ['run', '--dataset', 'digits', '--classes', '0', '--tasks', '1']);
  add('run --tasks and --task-sizes', ['run', '--dataset', 'digits', '--task-sizes', '5,5', '--tasks', '2']);
  add('run --strategy-options lambda=1e99', ['run', '--dataset', 'digits', '--tasks', '5', '--strategy', 'ewc', '--strategy-options', 'lambda=1e99']);
  for (const x of ['0-99999999', '0-1000,1001-2000', '4294967296', 'x'])
    add(`cpcf --seeds ${x}`, ['cpcf', '--dataset', 'digits', '--task-sizes', '5,1,1,1,1,1', '--seeds', x]);
  for (const x of ['0', '1', '2', 'x']) add(`cpcf --alpha ${x}`, ['cpcf', '--dataset', 'digits', '--task-sizes', '5,1,1,1,1,1', '--alpha', x]);
  add('cpcf --preset nope', ['cpcf', '--preset', 'nope']);
  // the file commands
  for (const f of [...FILES, notUtf8, empty]) add(`ood-metrics --id ${f}`, ['ood-metrics', '--id', f, '--ood', f]);
  for (const f of [...FILES, notUtf8, empty]) add(`ood-scores --logits ${f}`, ['ood-scores', '--logits', f]);
  add('ood-scores --detectors nope', ['ood-scores', '--logits', sim6, '--detectors', 'nope']);
  for (const f of [notUtf8, empty]) add(`stats --values ${f}`, ['stats', '--values', f]);
  add('stats --truth without --estimate', ['stats', '--truth', sim6]);
  for (const x of ['0', '1', 'x', '-0.5']) add(`conformal --alpha ${x}`, ['conformal', '--calibration', sim6, '--test', sim6, '--alpha', x]);
  for (const d of ['imagenet21k', 'mnist-c', '']) add(`analyze --dataset ${d}`, ['analyze', '--results', sim6, '--dataset', d]);
  add('analyze --classes 0-4000000000', ['analyze', '--results', sim6, '--dataset', 'digits', '--classes', '0-4000000000']);
  add('analyze --tasks and --task-sizes', ['analyze', '--results', sim6, '--dataset', 'digits', '--tasks', '2', '--task-sizes', '5,5']);
  add('analyze --seeds 2^32', ['analyze', '--results', sim6, '--seeds', '4294967296']);
  add('enumerate --classes 99999999999', ['enumerate', '--classes', '99999999999', '--tasks', '2']);
  add('count --classes 4000000000', ['count', '--classes', '4000000000', '--tasks', '2']);
  add('orders --exact-limit 1e12', [...ORDERS, '--exact-limit', '999999999999']);
  add('orders --seeds ×1001', [...ORDERS, '--protocol', 'rs', '--seeds', Array.from({ length: 1001 }, (_, i) => i).join(',')]);
  add('bounds --config (not its flag)', ['bounds', '--omega', '90', '--config', sim6]);
  add('similarity --out onto its input', ['similarity', '--source', `file:${sim6copy}`, '--classes', 'cat,dog,car,truck,apple,pear', '--out', sim6copy]);
  featureVectors(add);
}

/** The feature surface: `cil-lab features`, `--features` on run, sweep and cpcf, and the commands that refuse it. */
function featureVectors(add: (what: string, argv: string[]) => void): void {
  const OUT = join(tmp, 'out.npz');
  const FE = ['features', '--dataset', 'digits', '--classes', '0-5'];
  // features: the source
  for (const x of ['pixels', '', 'encoder:', 'file:', 'nope.txt', 'backbone,encoder', 'BACKBONE'])
    add(`features --source ${JSON.stringify(x)}`, [...FE, '--source', x, '--out', OUT]);
  add('features without --source', [...FE, '--out', OUT]);
  add('features without --out', [...FE, '--source', 'backbone']);
  add('features without --dataset', ['features', '--source', 'backbone', '--out', OUT]);
  add('features: the backbone with every class', ['features', '--dataset', 'digits', '--source', 'backbone', '--out', OUT]);
  // missing and wrong folders and files
  add('features encoder:a missing folder', [...FE, '--source', `encoder:${join(tmp, 'no-model')}`, '--out', OUT]);
  add('features encoder:a folder without config.json', [...FE, '--source', `encoder:${folder}`, '--out', OUT]);
  add('features encoder:hub id without --allow-remote', [...FE, '--source', 'encoder:Xenova/clip-vit-base-patch32', '--out', OUT]);
  add('features --out into a missing folder', [...FE, '--source', 'backbone', '--out', noFolder]);
  add('features --out onto a folder', [...FE, '--source', 'backbone', '--out', folder]);
  add('features --out onto its input', ['features', '--source', `file:${npz}`, '--out', npz]);
  for (const f of [...FILES, notNpz]) add(`features --source file:${f}`, ['features', '--source', `file:${f}`, '--out', OUT]);
  for (const f of LIES) add(`features --source file: an .npz that lies (${f.slice(-24)})`, ['features', '--source', `file:${f}`, '--out', OUT]);
  // huge and wrong class ranges, sizes past their bounds
  for (const x of ['0-4000000000', '0-99999999999999999999', '5-2', '0,0', 'a', '', '0-9,0-9', '11'])
    add(`features --classes ${JSON.stringify(x)}`, ['features', '--dataset', 'digits', '--classes', x, '--source', 'backbone', '--out', OUT]);
  add('features --classes 0-4000000000 of an .npz', ['features', '--source', `file:${npz}`, '--classes', '0-4000000000', '--out', OUT]);
  add('features --classes 7 of an .npz with 4', ['features', '--source', `file:${npz}`, '--classes', '0,7', '--out', OUT]);
  for (const flag of ['backbone-seed', 'train-per-class', 'test-per-class', 'batch-size'])
    for (const x of HUGE.slice(0, 6)) add(`features --${flag} ${x}`, [...FE, '--source', 'backbone', `--${flag}`, x, '--out', OUT]);
  for (const x of ['fp64', '', 'q4'])
    add(`features --precision ${JSON.stringify(x)}`, [...FE, '--source', `encoder:${folder}`, '--precision', x, '--out', OUT]);
  add('features --epochs (not its flag)', [...FE, '--source', 'backbone', '--epochs', '3', '--out', OUT]);
  add('features --dataset names only', ['features', '--dataset', 'cifar100', '--source', 'backbone', '--out', OUT]);
  add('features --dataset /dev/zero', ['features', '--dataset', '/dev/zero', '--source', 'backbone', '--out', OUT]);
  // --features on run, sweep and cpcf
  const RUNF = ['run', '--features', npz, '--tasks', '2'];
  for (const f of [...FILES.map((x) => `file:${x}`), notNpz, join(tmp, 'missing.npz'), ...LIES])
    add(`run --features ${f.slice(-30)}`, ['run', '--features', f, '--tasks', '2']);
  for (const x of ['pixels', '', 'encoder:', 'file:', 'nope.txt']) add(`run --features ${JSON.stringify(x)}`, ['run', '--features', x, '--tasks', '2']);
  for (const x of ['0-4000000000', '0-99999999999', '0', '0,9', '0,0']) add(`run --features F.npz --classes ${x}`, [...RUNF, '--classes', x]);
  add('run --features with --model mlp', [...RUNF, '--model', 'mlp']);
  add('run --model head without --features', ['run', '--dataset', 'digits', '--tasks', '2', '--model', 'head']);
  add('run --features --hidden 8,8', [...RUNF, '--hidden', '8,8']);
  add('run --features --hidden 99999', [...RUNF, '--hidden', '99999']);
  add('run --features --augment on', ['run', '--dataset', 'digits', '--classes', '0-3', '--features', 'backbone', '--tasks', '2', '--augment', 'on']);
  add('run --features backbone without --dataset', ['run', '--features', 'backbone', '--tasks', '2']);
  add('run --features backbone on every class', ['run', '--dataset', 'digits', '--features', 'backbone', '--tasks', '2']);
  add('run --features another dataset’s .npz', ['run', '--dataset', 'fashion-mnist', '--features', npz, '--tasks', '2']);
  add('run --features encoder: hub id without --allow-remote', [
    'run',
    '--dataset',
    'digits',
    '--classes',
    '0-3',
    '--features',
    'encoder:Xenova/x',
    '--tasks',
    '2',
  ]);
  for (const x of HUGE.slice(0, 6))
    add(`run --features backbone --backbone-seed ${x}`, [
      'run',
      '--dataset',
      'digits',
      '--classes',
      '0-3',
      '--features',
      'backbone',
      '--tasks',
      '2',
      '--backbone-seed',
      x,
    ]);
  add('run --backbone-seed without --features', ['run', '--dataset', 'digits', '--tasks', '5', '--backbone-seed', '3']);
  add('run --precision without --features', ['run', '--dataset', 'digits', '--tasks', '5', '--precision', 'fp32']);
  for (const flag of ['epochs', 'train-per-class', 'seed', 'lr'])
    for (const x of ['99999999999999999999', '-1', 'x']) add(`run --features --${flag} ${x}`, [...RUNF, `--${flag}`, x]);
  add('run --features --train-per-class none', [...RUNF, '--train-per-class', 'none']);
  for (const strategy of ['simplecil', 'ranpac', 'fecam']) {
    add(`run --strategy ${strategy} without --features`, ['run', '--tasks', '2', '--strategy', strategy]);
    add(`run --strategy ${strategy} --seeds 2^32`, [...RUNF, '--strategy', strategy, '--protocol', 'rs', '--seeds', '4294967296']);
    add(`run --strategy ${strategy} --limit huge`, [...RUNF, '--strategy', strategy, '--orderings', 'all', '--limit', '99999999999999999999']);
    add(`run --strategy ${strategy} --tasks and --task-sizes`, ['run', '--features', npz, '--tasks', '2', '--task-sizes', '2,2', '--strategy', strategy]);
  }
  add('run --strategy ranpac --strategy-options projection=lots', [...RUNF, '--strategy', 'ranpac', '--strategy-options', 'projection=lots']);
  add('run --strategy simplecil --orderings sample:99999999999', [...RUNF, '--strategy', 'simplecil', '--orderings', 'sample:99999999999']);
  add('run --strategy fecam --features /dev/zero', ['run', '--features', 'file:/dev/zero', '--tasks', '2', '--strategy', 'fecam']);
  const SWF = ['sweep', '--features', npz, '--tasks', '2', '--orderings', 'all'];
  add('sweep --features --out onto the .npz', [...SWF, '--shard', '0/2', '--out', npz]);
  add('sweep --features --shard 0/99999999999999999999', [...SWF, '--shard', '0/99999999999999999999', '--out', join(tmp, 's.jsonl')]);
  add('sweep --features a lying .npz', ['sweep', '--features', LIES[0], '--tasks', '2', '--orderings', 'all', '--shard', '0/2', '--out', join(tmp, 's.jsonl')]);
  add('sweep --features --hidden 8,8', [...SWF, '--hidden', '8,8', '--shard', '0/2', '--out', join(tmp, 's.jsonl')]);
  add('cpcf --features a lying .npz', ['cpcf', '--features', LIES[1], '--task-sizes', '1,1']);
  add('cpcf --features --seeds 0-99999999', ['cpcf', '--features', npz, '--task-sizes', '2,1,1', '--seeds', '0-99999999']);
  add('cpcf --features --model cnn', ['cpcf', '--features', npz, '--task-sizes', '2,1,1', '--model', 'cnn']);
  // the commands that refuse --features, with their reason or as a flag they do not read
  add('stream --features', ['stream', '--protocol', 'iid', '--features', npz]);
  add('curriculum --features', ['curriculum', '--features', 'backbone']);
  add('ood --features', ['ood', '--dataset', 'digits', '--tasks', '2', '--features', npz]);
  add('ood --backbone-seed (not its flag)', ['ood', '--dataset', 'digits', '--tasks', '2', '--backbone-seed', '1']);
  for (const cmd of [
    ['count', '--classes', '6', '--tasks', '2'],
    ['enumerate', '--classes', '6', '--tasks', '2'],
    ['reservoir', '--bucket-sizes', '10,10', '--k', '5', '--alpha', '1'],
    ['stats', '--values', sim6],
    ['analyze', '--results', sim6],
    ['bounds', '--omega', '90'],
    ['conformal', '--calibration', sim6, '--test', sim6],
  ])
    add(`${cmd[0]} --features (not its flag)`, [...cmd, '--features', npz]);
  // --similarity features / --source features
  add('orders --similarity features without --features', ['orders', '--dataset', 'mnist', '--subset', '0-5', '--tasks', '3', '--similarity', 'features']);
  add('orders --similarity features, a lying .npz', ['orders', '--tasks', '2', '--similarity', 'features', '--features', LIES[2]]);
  add('orders --train-per-class without --features', ['orders', '--dataset', 'mnist', '--subset', '0-5', '--tasks', '3', '--train-per-class', '5']);
  add('orders --similarity features --features backbone of a class list', [
    'orders',
    '--classes',
    'a,b,c,d',
    '--tasks',
    '2',
    '--similarity',
    'features',
    '--features',
    'backbone',
  ]);
  add('similarity --source features without --features', ['similarity', '--source', 'features', '--classes', 'a,b']);
  add('similarity --source features, classes the .npz lacks', ['similarity', '--source', 'features', '--features', npz, '--classes', 'a,zebra']);
  add('similarity --source features --features /dev/zero', ['similarity', '--source', 'features', '--features', 'file:/dev/zero']);
}

describe('drill: bad command lines', () => {
  const all = vectors();
  it(`${all.length} bad argument vectors: each exits non-zero with one line on stderr, no stack trace, nothing on stdout`, async () => {
    expect(all.length).toBeGreaterThanOrEqual(300);
    const codes = new Map<number, number>();
    const bad: string[] = [];
    let longest = 0;
    const t0 = performance.now();
    for (const [what, argv] of all) {
      const t1 = performance.now();
      const r = await cli(...argv);
      codes.set(r.code, (codes.get(r.code) ?? 0) + 1);
      longest = Math.max(longest, r.err.length);
      const lines = r.err.split('\n');
      const problems = [
        r.code === 0 ? 'exit 0' : '',
        !(lines.length === 2 && lines[1] === '') ? `${lines.length - 1} stderr lines` : '',
        !r.err.startsWith('cil-lab: ') ? 'no "cil-lab: " prefix' : '',
        /\n\s+at |\bat .*\.ts:\d+/.test(r.err) ? 'stack trace' : '',
        r.out !== '' ? 'stdout' : '',
        r.err.length < 20 ? 'message too short' : '',
      ].filter(Boolean);
      if (process.env.DRILL_VERBOSE) console.log(`${what} (${(performance.now() - t1).toFixed(0)} ms)\n    ${r.err.trim()}`);
      if (problems.length > 0) bad.push(`${what} → ${problems.join(', ')}: ${JSON.stringify(r.err.slice(0, 300))}`);
    }
    console.log(
      `CLI drill: ${all.length} bad argument vectors in ${((performance.now() - t0) / 1000).toFixed(1)} s; exit codes ${[...codes].map(([c, n]) => `${c}: ${n}`).join(', ')}; ` +
        `${all.length - bad.length} with one clear stderr line, ${bad.length} not; longest message ${longest} characters`,
    );
    expect(bad).toEqual([]);
    // bad input is the user's to fix: exit 2 (1 is for the unexpected)
    expect(codes.get(2)).toBe(all.length);
  }, 300_000);

  it.runIf(LONG)(
    'every vector again in a child process under a 2 GB heap: none aborts V8, none exits 0',
    async () => {
      const all = vectors();
      const t0 = performance.now();
      const results = await runBatch(
        all.map(([, argv]) => argv),
        { timeoutMs: 600_000, maxOldSpaceMb: 2048 },
      );
      const died = results.filter((r) => r.died);
      const zero = results.filter((r) => r.code === 0);
      console.log(
        `CLI drill (child process): ${results.length} of ${all.length} vectors ran in one process in ${((performance.now() - t0) / 1000).toFixed(1)} s; ` +
          `${died.length} aborted it, ${zero.length} exited 0, ${results.filter((r) => r.code === 2).length} exited 2`,
      );
      expect(died.map((r) => `${r.argv.join(' ').slice(0, 120)}: ${r.died}`)).toEqual([]);
      expect(zero.map((r) => r.argv.join(' ').slice(0, 120))).toEqual([]);
      expect(results).toHaveLength(all.length);
    },
    700_000,
  );
});
