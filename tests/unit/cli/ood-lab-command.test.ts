/**
 * App and CLI give the same settings: the command the Open-world lab shows (src/services/ood-export.ts),
 * parsed by the CLI's own argument parser (src/cli/flags.ts OPTIONS), is read back by `cil-lab ood` as exactly the
 * lab's settings — and a share link's `openWorld` section too (--link), with flags beside it winning.
 */
import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { OPEN_WORLD_DEFAULTS, OPEN_WORLD_PRESETS, type OpenWorldSettings } from '../../../src/core/labs/open-world/settings';
import { encodeConfigToHash } from '../../../src/core/config/url-codec';
import { defaultConfig } from '../../../src/core/config/validate';
import { foldOpenWorld } from '../../../src/core/ood/experiment';
import { joinNegativeNumbers } from '../../../src/cli/args';
import { OPTIONS } from '../../../src/cli/flags';
import { oodLabSettings } from '../../../src/cli/ood';
import { captureCli } from './capture';
import { oodCommandArgs, oodCommandLine } from '../../../src/services/ood-export';

const parse = (args: string[]) =>
  parseArgs({ args: joinNegativeNumbers(args, OPTIONS), options: OPTIONS, strict: true }).values as Record<string, string | boolean | undefined>;

describe("the lab's cil-lab ood command", () => {
  const cases: [string, OpenWorldSettings][] = [
    ['defaults', OPEN_WORLD_DEFAULTS],
    ['quick', OPEN_WORLD_PRESETS.quick],
    ['ablation', OPEN_WORLD_PRESETS.ablation],
    [
      'RS order, caps, another strategy, odd margins',
      {
        ...OPEN_WORLD_DEFAULTS,
        orderSeed: 7,
        trainPerClass: 40,
        testPerClass: 15,
        strategy: 'ewc',
        memory: 321,
        seed: 4294967295, // the largest seed a link takes (a negative one is refused, as in a link)
        hidden: [64],
        marginIn: -12.5,
        marginOut: -3,
        oodSets: ['fashion-mnist:6,7', 'emoji'],
      },
    ],
  ];
  for (const [name, s] of cases) {
    it(`parses back to the same settings: ${name}`, () => {
      expect(oodLabSettings(parse(oodCommandArgs(s)))).toEqual(s);
    });
  }
  it('is shown as one shell line', () => {
    expect(oodCommandLine(OPEN_WORLD_PRESETS.quick)).toBe(
      'npx cil-lab ood --dataset digits --classes 0,1,2,3,4,5 --tasks 3 --strategy replay --memory 200 --epochs 6 --hidden 128 --seed 0 --detectors msp,energy,ber --ood digits:6-9,fashion-mnist --head-epochs 3 --margin-in -10 --margin-out -4',
    );
  });
  it("the lab's start (3 seeds) is one line with --seeds 0-2, which the CLI trains as three runs", () => {
    const line = oodCommandLine(OPEN_WORLD_PRESETS['near-far']);
    expect(line).toContain(' --seeds 0-2 ');
    expect(line).not.toContain(' --seed ');
  });
  it('an incomplete command keeps the flags route (engine defaults), null here', () => {
    expect(oodLabSettings(parse(['--dataset', 'digits', '--classes', '0-5', '--tasks', '3']))).toBeNull();
  });
  it('--link reads the openWorld section; flags beside it win; run-only flags are refused', () => {
    const config = { ...defaultConfig(), openWorld: { ...OPEN_WORLD_PRESETS.quick, epochs: 2 } };
    const hash = encodeConfigToHash(config);
    const link = `http://127.0.0.1/${hash.startsWith('#') ? '' : '#'}${hash}`;
    expect(oodLabSettings(parse(['--link', link]))).toEqual({ ...OPEN_WORLD_PRESETS.quick, epochs: 2 });
    expect(oodLabSettings(parse(['--link', link, '--seed', '5']))).toEqual({ ...OPEN_WORLD_PRESETS.quick, epochs: 2, seed: 5 });
    expect(() => oodLabSettings(parse(['--link', link, '--lr', '0.1']))).toThrow(/not --lr/);
  });
  it('--link made on the lab today (its ID experiment in the common sections) reads the same settings', () => {
    const s = { ...OPEN_WORLD_PRESETS['near-far'], classes: [4, 0, 1, 5, 2, 3], epochs: 2 };
    const hash = encodeConfigToHash(foldOpenWorld(defaultConfig(), s));
    expect(oodLabSettings(parse(['--link', `http://127.0.0.1/${hash}`]))).toEqual({ ...s, classes: [0, 4, 1, 5, 2, 3] });
    expect(oodLabSettings(parse(['--link', `http://127.0.0.1/${hash}`, '--dataset', 'digits']))).toMatchObject({ dataset: 'digits', epochs: 2 });
  });
  it('--link whose common sections the lab cannot train is refused in one line, not replaced', () => {
    const config = foldOpenWorld(defaultConfig(), OPEN_WORLD_PRESETS.default);
    config.training.lr = 0.01;
    const hash = encodeConfigToHash(config);
    expect(() => oodLabSettings(parse(['--link', `http://127.0.0.1/${hash}`]))).toThrow(
      'The Open-world lab cannot train what this experiment sets: lr 0.01 (it would train lr 0.001).',
    );
  });
});

const cli = captureCli();
describe("cil-lab ood with the lab's command", () => {
  it("runs the lab's settings (the worker's openWorldInput) and prints the report", async () => {
    const s: OpenWorldSettings = {
      ...OPEN_WORLD_PRESETS.quick,
      classes: [0, 1, 2, 3],
      tasks: 2,
      epochs: 1,
      hidden: [16],
      trainPerClass: 20,
      testPerClass: 10,
      headEpochs: 1,
      detectors: ['msp', 'ber'],
    };
    const r = await cli('ood', ...oodCommandArgs(s), '--backend', 'cpu');
    expect(r.code, r.err).toBe(0);
    expect(r.json.accuracy).toHaveLength(2);
    expect(r.json.results).toHaveLength(2 * 2 * 2);
    expect(r.json.head.epochs).toBe(1);
    expect(r.json.config.model).toEqual({ kind: 'mlp', hidden: [16] });
  }, 120000);
});
