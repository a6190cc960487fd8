/**
 * tests/fixtures/lab-verdicts-cli.json: outputs of the CLI (wasm backend), trimmed to what the labs' pages read, so
 * tests/unit/ui/lab-verdicts.test.ts can check that each page's verdict says the CLI's sentences for the same runs.
 *
 *   npx tsx scripts/make-lab-verdicts-fixture.ts      (a few minutes on a 2-core machine)
 *
 * Runs the CLI's own `main` (src/cli/main.ts) on the commands listed in the fixture's note and keeps its JSON.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliInProcess } from '../src/cli/in-process';
import { validateConfig } from '../src/core/config/validate';
import { encodeConfigToHash } from '../src/core/config/url-codec';
import { OPEN_WORLD_PRESETS } from '../src/core/labs/open-world/settings';
import { foldOpenWorld } from '../src/core/ood/experiment';
import { TIME_LAB_START } from '../src/core/labs/time/settings';

const root = join(import.meta.dirname, '..');
const OUT = join(root, 'tests', 'fixtures', 'lab-verdicts-cli.json');

/** One CLI command's JSON (stdout captured). */
const cli = async (argv: string[]): Promise<Record<string, any>> => JSON.parse(await cliInProcess(argv));

const pick = <T extends Record<string, unknown>>(o: T, keys: readonly string[]) => Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]]));

const STREAM = [
  '--protocol',
  'iid,streaming',
  '--buckets',
  '3',
  '--per-class',
  '20',
  '--epochs',
  '2',
  '--seeds',
  '0-2',
  '--strength',
  String(TIME_LAB_START.strength),
  '--control',
  '--backend',
  'wasm',
];
const oodSettings = { ...OPEN_WORLD_PRESETS.quick, epochs: 2, seeds: 2, trainPerClass: 60, testPerClass: 30 };
const oodLink = `https://x/${encodeConfigToHash(foldOpenWorld(validateConfig({ lab: 'open-world' }).config, oodSettings))}`;
const CPCF =
  'cpcf --dataset digits --classes 0-9 --task-sizes 5,1,1,1,1,1 --hidden 256,128 --first-epochs 20 --epochs 5 --lr 0.001 --batch-size 64 --head all --seeds 0-2 --backend wasm';
const CURRICULUM =
  'curriculum --datasets digits,fashion-mnist,emoji-food --order pair --strategy finetune --epochs 2 --train-per-class 10 --test-per-class 10 --hidden 32 --seeds 0-2 --backend wasm';

async function run(): Promise<void> {
  const stream = await cli(['stream', ...STREAM]);
  const streamRun = ['seed', 'protocol', 'matrix', 'metrics', 'compositions', 'backend'];
  const ood = await cli(['ood', '--link', oodLink, '--backend', 'wasm']);
  const cpcf = await cli(CPCF.split(' '));
  const curriculum = await cli(CURRICULUM.split(' '));
  const fixture = {
    _note:
      'Outputs of the CLI (wasm backend), trimmed to what the labs’ pages read, to check that each page’s verdict says the CLI’s sentences for the same runs ' +
      '(tests/unit/ui/lab-verdicts.test.ts). Made by: npx tsx scripts/make-lab-verdicts-fixture.ts, which runs ' +
      `node bin/cil-lab.mjs stream ${STREAM.join(' ')} (strength: the lab's start); node bin/cil-lab.mjs ood --link <the quick preset with epochs 2, 60/30 images per class, seeds 2> --backend wasm; ` +
      `node bin/cil-lab.mjs ${CPCF}; node bin/cil-lab.mjs ${CURRICULUM}.`,
    stream: {
      settings: { buckets: 3, perClass: 20, epochs: 2, k: 140, seeds: 3 },
      runs: stream.runs.map((r: Record<string, unknown>) => pick(r, streamRun)),
      control: stream.control.map((r: Record<string, unknown>) => pick(r, streamRun)),
      headline: stream.headline,
      verdict: stream.verdict,
    },
    ood: {
      settings: { preset: 'quick', epochs: 2, seeds: 2, trainPerClass: 60, testPerClass: 30 },
      runs: ood.runs.map((r: Record<string, unknown>) =>
        pick(r, ['results', 'accuracy', 'summary', 'steps', 'oodSets', 'dataset', 'order', 'tasks', 'matrix', 'backend', 'seconds', 'head', 'config']),
      ),
      headline: ood.headline,
      verdict: ood.verdict,
    },
    cpcf: {
      command: `node bin/cil-lab.mjs ${CPCF}`,
      runs: cpcf.runs.map((r: Record<string, unknown>) => pick(r, ['dataset', 'strategy', 'tasks', 'cpcf', 'aPrev', 'matrix', 'config', 'calibrationRatio'])),
      headline: cpcf.headline,
      verdict: cpcf.verdict,
    },
    curriculum: {
      command: `node bin/cil-lab.mjs ${CURRICULUM}`,
      settings: {
        datasets: ['digits', 'fashion-mnist', 'emoji-food'],
        order: 'm2i',
        scenario: 'both',
        strategies: ['finetune'],
        epochs: 2,
        hidden: 32,
        trainPerClass: 10,
        testPerClass: 10,
        seed: 0,
        seeds: 3,
      },
      seeds: curriculum.seeds.map((x: Record<string, any>) => ({ seed: x.seed, isolated: x.isolated, runs: x.runs })),
      headline: curriculum.headline,
      verdict: curriculum.verdict,
    },
  };
  writeFileSync(OUT, `${JSON.stringify(fixture, null, 1)}\n`);
  console.log('wrote', OUT);
}

await run();
