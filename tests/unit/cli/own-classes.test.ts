/**
 * `cil-lab own-classes` on the lesson's recorded sample set (tests/fixtures/own-classes/four-things.zip) and the tiny
 * CLIP vision fixture: its numbers are those of the lab's own jobs (src/engine/own-classes/job.ts) on the same
 * samples, its verdict the page's sentences; bad input exits 2 with one line; --help prints the command's help.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ownNamesEdge } from '../../../src/core/own-classes/edge';
import { ownFeatureSet, OWN_SAMPLE_SIZE } from '../../../src/core/own-classes/settings';
import { createTextEmbedder } from '../../../src/engine/clip/text-embedder';
import { updateVerdict } from '../../../src/core/own-classes/verdict';
import { readSamplesZip, writeSamplesZip } from '../../../src/data/own-samples-zip';
import { resizeToRgb } from '../../../src/data/parsers/image-folder-zip';
import { decodePng } from '../../../src/data/parsers/png';
import { selectBackend } from '../../../src/engine/backend';
import { RunControl } from '../../../src/engine/control';
import { jobContext } from '../../../src/engine/jobs/job';
import { ownEncodeJob, ownJointJob, ownOrderingsJob, ownOverviewJob, ownTrainJob } from '../../../src/engine/own-classes/job';
import { everyOwnOrder } from '../../../src/core/own-classes/orders';
import { captureCli } from './capture';

const cli = captureCli();
const ZIP = 'tests/fixtures/own-classes/four-things.zip';
const ENCODER = 'tests/fixtures/clip-vision-tiny';
const tmp = mkdtempSync(join(tmpdir(), 'cil-own-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** What the lab's jobs give on the zip: the page's steps (decode, scale to 96 × 96, encode, one task per class). */
async function byTheJobs(seed: number) {
  const ctx = jobContext(() => Promise.reject(new Error('none')), new RunControl());
  const encoder = {
    source: 'encoder' as const,
    model: 'clip-vision-tiny',
    precision: 'fp32' as const,
    weights: { kind: 'self-hosted' as const, path: resolve('tests/fixtures') },
  };
  const side = OWN_SAMPLE_SIZE * OWN_SAMPLE_SIZE * 3;
  const classes = [];
  let dim = 0;
  for (const c of readSamplesZip(readFileSync(ZIP))) {
    const files = [...c.train, ...c.test];
    const images = new Uint8Array(files.length * side);
    files.forEach((b, i) => {
      const img = decodePng(b);
      images.set(resizeToRgb(img.data, img.width, img.height, [OWN_SAMPLE_SIZE, OWN_SAMPLE_SIZE]), i * side);
    });
    const out = await ownEncodeJob({ encoder, images, shape: [OWN_SAMPLE_SIZE, OWN_SAMPLE_SIZE, 3], count: files.length, device: 'cpu' }, ctx, () => {});
    dim = out.dim;
    classes.push({ name: c.name, rows: out.features, train: c.train.length });
  }
  const set = ownFeatureSet(classes, dim);
  await selectBackend('wasm', { strict: true });
  const out: Record<string, { matrix: number[][]; finals: number[]; aias: number[] }> = {};
  const classKeys = set.classNames.map((n, k) => `${k}:${n}`);
  for (const strategy of ['finetune', 'simplecil'] as const) {
    const run = await ownTrainJob({ set, strategy, seed }, ctx, () => {});
    if (strategy === 'finetune') {
      const runs = await ownOrderingsJob({ set, strategy, seed, orders: everyOwnOrder(4) }, ctx, () => {});
      out[strategy] = { matrix: run.matrix, finals: runs.map((r) => r.finalAccuracy), aias: runs.map((r) => r.aia) };
    } else {
      const o = (await ownOverviewJob({ set, strategy, seed, classKeys, sample: null, picks: [] }, ctx, () => {})).overview;
      out[strategy] = { matrix: run.matrix, finals: [...o.finals], aias: [...o.aias] };
    }
  }
  const joint = await ownJointJob({ set, seed }, ctx, () => {});
  return { set, out, joint };
}

describe('cil-lab own-classes', () => {
  it("prints the lab's numbers and sentences for the same samples, encoder and seed", { timeout: 120_000 }, async () => {
    const r = await cli('own-classes', '--samples', ZIP, '--encoder', ENCODER, '--precision', 'fp32', '--seed', '1', '--orderings', 'all', '--backend', 'wasm');
    expect(r.code, r.err).toBe(0);
    const want = await byTheJobs(1);
    expect(r.json.classes).toEqual(['red mug', 'blue cup', 'yellow duck', 'green pen']);
    expect(r.json.samples).toEqual(r.json.classes.map((name: string) => ({ name, train: 6, test: 3 })));
    expect(r.json.encoder).toEqual({ model: 'clip-vision-tiny', precision: 'fp32', source: 'self-hosted' });
    expect(r.json.strategies.map((s: any) => s.strategy)).toEqual(['finetune', 'simplecil']);
    for (const s of r.json.strategies) {
      const w = want.out[s.strategy];
      expect(s.matrix).toEqual(w.matrix.map((row) => row.map(r6)));
      expect(s.orderings.runs).toHaveLength(24);
      expect(s.orderings.runs.map((x: any) => x.finalAccuracy)).toEqual(w.finals.map(r6));
      expect(s.orderings.runs.map((x: any) => x.aia)).toEqual(w.aias.map(r6));
      expect(s.orderings.exact).toBe(true);
      expect(s.orderings.summary.aia).toEqual({
        min: r6(Math.min(...w.aias)),
        max: r6(Math.max(...w.aias)),
        mean: r6(w.aias.reduce((a, b) => a + b, 0) / 24),
        taught: r6(w.aias[0]),
        better: w.aias.filter((a) => a > w.aias[0] + 1e-12).length,
      });
      expect(s.verdict.sentences[0].text).toBe(updateVerdict(w.matrix, want.set.classNames, s.strategy).text);
      expect(s.verdict.sentences[1].text).toMatch(/^A head trained on all 4 classes at once/);
      expect(s.orderings.verdict.sentences).toHaveLength(3);
    }
    expect(r.json.joint.finalAccuracy).toBe(r6(want.joint.accuracy));
    expect(r.json.strategies[1].teach.msPerClass.max).toBeGreaterThan(0);
    expect(r.json.strategies[0].orderings.metric).toBe('final');
    expect(r.json.strategies[1].orderings.metric).toBe('aia');
    // the lesson's finding, as the command sees it
    expect(r.json.strategies[0].verdict.sentences[0].text).toContain('It forgot');
    expect(r.json.strategies[1].verdict.sentences[0].text).toContain('no forgetting');
  });

  it('--names adds EDGE on the class names’ CLIP text embeddings (bare names), as the page’s names panel does', { timeout: 120_000 }, async () => {
    const args = ['--samples', ZIP, '--encoder', ENCODER, '--precision', 'fp32', '--strategy', 'simplecil', '--orderings', 'all', '--backend', 'wasm'];
    const r = await cli('own-classes', ...args, '--names', 'tests/fixtures/clip-tiny');
    expect(r.code, r.err).toBe(0);
    expect(r.json.names).toEqual({ model: 'clip-tiny', dtype: 'q8', source: 'self-hosted', prompt: 'bare' });
    const embedder = await createTextEmbedder({
      modelId: 'clip-tiny',
      dtype: 'q8',
      device: 'cpu',
      source: { kind: 'self-hosted', path: resolve('tests/fixtures') },
    });
    const vectors = await embedder.embed(r.json.classes);
    await embedder.dispose();
    const want = ownNamesEdge(vectors, r.json.classes);
    const o = r.json.strategies[0].orderings;
    expect({ hard: o.edgeNames.hard, easy: o.edgeNames.easy }).toEqual(want);
    const finalOfOrder = (order: number[]) => o.runs.find((x: any) => x.order.join() === order.join()).finalAccuracy;
    expect(o.edgeNames.hardFinal).toBe(finalOfOrder(want.hard));
    expect(o.edgeNames.easyFinal).toBe(finalOfOrder(want.easy));
    expect(o.verdict.sentences).toHaveLength(4);
    expect(o.verdict.sentences[3].text).toMatch(/^EDGE on your class names \(the cosine of CLIP’s text embeddings/);
    // without --names, no names part
    const plain = await cli('own-classes', ...args);
    expect(plain.json.names).toBeUndefined();
    expect(plain.json.strategies[0].orderings.edgeNames).toBeUndefined();
    expect(plain.json.strategies[0].orderings.runs).toEqual(o.runs);
  });

  it('--orderings N draws that many orderings at random with --sample-seed, the taught order placed among them', { timeout: 120_000 }, async () => {
    const args = ['--samples', ZIP, '--encoder', ENCODER, '--precision', 'fp32', '--strategy', 'fecam', '--backend', 'wasm'];
    const a = await cli('own-classes', ...args, '--orderings', '10', '--sample-seed', '4');
    expect(a.code, a.err).toBe(0);
    const o = a.json.strategies[0].orderings;
    expect(o).toMatchObject({ exact: false, omega: '24', sampleSeed: 4, metric: 'aia' });
    expect(o.summary.orderings).toBe(10);
    expect(o.runs).toBeUndefined();
    const all = (await cli('own-classes', ...args, '--orderings', 'all')).json.strategies[0].orderings;
    // every sampled value is one of the truth's, inside its range
    expect(o.summary.aia.min).toBeGreaterThanOrEqual(all.summary.aia.min);
    expect(o.summary.aia.max).toBeLessThanOrEqual(all.summary.aia.max);
    expect(o.summary.aia.taught).toBe(all.summary.aia.taught);
    expect(o.verdict.sentences[0].text).toMatch(/^Over 10 orderings drawn at random \(seeded\) from the 24 orderings of your 4 classes/);
    const again = await cli('own-classes', ...args, '--orderings', '10', '--sample-seed', '4');
    expect(again.json.strategies[0].orderings.summary).toEqual(o.summary);
  });

  it('refuses bad input with one line and exit code 2', { timeout: 60_000 }, async () => {
    const jpeg = join(tmp, 'jpeg.zip');
    const fake = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xd9]);
    writeFileSync(
      jpeg,
      writeSamplesZip([
        { name: 'mug', train: [fake, fake], test: [fake] },
        { name: 'pen', train: [fake, fake], test: [fake] },
      ]),
    );
    const garbage = join(tmp, 'garbage.zip');
    writeFileSync(garbage, 'not a zip');
    for (const [args, message] of [
      [['--encoder', ENCODER], /Give --samples ZIP/],
      [['--samples', ZIP], /Give --encoder/],
      [['--samples', join(tmp, 'missing.zip'), '--encoder', ENCODER], /no such file/],
      [['--samples', garbage, '--encoder', ENCODER], /garbage\.zip/],
      [['--samples', ZIP, '--encoder', ENCODER, '--strategy', 'ewc'], /Unknown --strategy "ewc"/],
      [['--samples', ZIP, '--encoder', ENCODER, '--orderings', 'some'], /--orderings takes "all" \(every ordering of the classes\) or a number/],
      [['--samples', ZIP, '--encoder', ENCODER, '--orderings', '201'], /--orderings: A sample of orderings takes 1 to 200 of them for a trained head/],
      [['--samples', ZIP, '--encoder', ENCODER, '--sample-seed', '3'], /--sample-seed draws the orderings of --orderings N/],
      [['--samples', ZIP, '--encoder', 'Xenova/clip-vit-base-patch32'], /--allow-remote/],
      [['--samples', ZIP, '--encoder', ENCODER, '--train-per-class', '4'], /together/],
      [['--samples', jpeg, '--encoder', ENCODER], /PNG samples only/],
      [['--samples', ZIP, '--encoder', ENCODER, '--dataset', 'digits'], /not a flag of cil-lab own-classes/],
      [['--samples', ZIP, '--encoder', ENCODER, '--names', 'tests/fixtures/clip-tiny'], /add --orderings all \(or N\)/],
      [
        ['--samples', ZIP, '--encoder', ENCODER, '--orderings', 'all', '--names', 'tests/fixtures/clip-tiny', '--names-dtype', 'fp16'],
        /Unknown --names-dtype "fp16"/,
      ],
      [['--samples', ZIP, '--encoder', ENCODER, '--orderings', 'all', '--names', 'openai/clip'], /--allow-remote/],
      [['--samples', ZIP, '--encoder', ENCODER, '--names-dtype', 'q8'], /--names-dtype goes with --names/],
    ] as const) {
      const r = await cli('own-classes', ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.err, args.join(' ')).toMatch(message);
    }
  });

  it('--help prints its help', async () => {
    const r = await cli('own-classes', '--help');
    expect(r.code).toBe(0);
    expect(r.out).toContain('cil-lab own-classes --samples ZIP --encoder FOLDER_OR_ID');
    expect(r.out).toContain('--orderings');
    const all = await cli('--help');
    expect(all.out).toMatch(/Your classes\s+own-classes/);
  });
});
