/**
 * Drill (issue 16): bad command lines. Each vector below is a mistake a clumsy or hostile user makes (missing and
 * negative values, non-numbers, empty list entries, huge numbers, one class, unknown flags and commands, devices,
 * folders, binary files, missing folders, damaged links). Every one must exit non-zero with exactly one line on
 * stderr, starting "cil-lab: ", with no stack trace and nothing on stdout. Prints the figures.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
  return v;
}

describe('drill: bad command lines', () => {
  const all = vectors();
  it(`${all.length} bad argument vectors: each exits non-zero with one line on stderr, no stack trace, nothing on stdout`, async () => {
    expect(all.length).toBeGreaterThanOrEqual(100);
    const codes = new Map<number, number>();
    const bad: string[] = [];
    let longest = 0;
    const t0 = performance.now();
    for (const [what, argv] of all) {
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
      if (process.env.DRILL_VERBOSE) console.log(`${what}\n    ${r.err.trim()}`);
      if (problems.length > 0) bad.push(`${what} → ${problems.join(', ')}: ${JSON.stringify(r.err.slice(0, 300))}`);
    }
    console.log(
      `CLI drill: ${all.length} bad argument vectors in ${((performance.now() - t0) / 1000).toFixed(1)} s; exit codes ${[...codes].map(([c, n]) => `${c}: ${n}`).join(', ')}; ` +
        `${all.length - bad.length} with one clear stderr line, ${bad.length} not; longest message ${longest} characters`,
    );
    expect(bad).toEqual([]);
    // bad input is the user's to fix: exit 2 (1 is for the unexpected)
    expect(codes.get(2)).toBe(all.length);
  });
});
