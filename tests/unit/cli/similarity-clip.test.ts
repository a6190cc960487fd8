/**
 * `cil-lab similarity --source clip …` on the tiny fixture model and `cil-lab similarity --compare F1 F2 …`
 * against the scipy reference (tests/fixtures/compare.json, scripts/make-compare-fixtures.py). Offline.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fixture from '../../fixtures/compare.json';
import { captureCli } from './capture';
import { matrixFromRows } from '../../../src/core/orderings/matrix';
import { compareSimilarities } from '../../../src/core/similarity/compare';
import { cosineSimilarity } from '../../../src/core/similarity/cosine';
import { parseSimilarityUpload } from '../../../src/core/similarity/parse-upload';
import { createTextEmbedder } from '../../../src/engine/clip/text-embedder';

const MODEL = 'tests/fixtures/clip-tiny';
const A = 'tests/fixtures/compare/sim-a.json';
const B = 'tests/fixtures/compare/sim-b.csv';
const cli = captureCli();
let tmp: string;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'cil-sim-clip-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
describe('cil-lab similarity --source clip', () => {
  it('embeds the classes with the local fixture model and writes a similarity matrix', async () => {
    const r = await cli('similarity', '--source', 'clip', '--model-path', MODEL, '--classes', 'cat,dog,lawn_mower,tiger', '--prompt', 'a photo of a {}');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.json.classes).toEqual(['cat', 'dog', 'lawn_mower', 'tiger']);
    expect(r.json.prompts).toEqual(['a photo of a cat', 'a photo of a dog', 'a photo of a lawn mower', 'a photo of a tiger']);
    expect(r.json.model).toEqual({ id: 'clip-tiny', path: resolve(MODEL), source: 'self-hosted', dtype: 'q8', device: 'cpu' });
    expect(r.json.source).toBe('CLIP text embeddings (clip-tiny, q8, prompt template:a photo of a {}), cosine similarity');
    const m = r.json.matrix as number[][];
    expect(m).toHaveLength(4);
    for (let i = 0; i < 4; i++) {
      expect(m[i][i]).toBe(1);
      for (let j = 0; j < 4; j++) expect(m[i][j]).toBe(m[j][i]);
    }
    // the same numbers as embedding directly (one batch, same dtype)
    const e = await createTextEmbedder({ modelId: 'clip-tiny', dtype: 'q8', device: 'cpu', source: { kind: 'self-hosted', path: resolve('tests/fixtures') } });
    const direct = cosineSimilarity(await e.embed(r.json.prompts));
    await e.dispose();
    for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) expect(m[i][j]).toBeCloseTo(direct.data[i * 4 + j], 12);
  });

  it('bare names by default, fp32 on request, a parent folder with --model-id, and --out', async () => {
    const file = join(tmp, 'clip.json');
    const r = await cli(
      'similarity',
      '--source',
      'clip',
      '--model-path',
      'tests/fixtures',
      '--model-id',
      'clip-tiny',
      '--dtype',
      'fp32',
      '--classes',
      'cat,lawn_mower',
      '--out',
      file,
    );
    expect(r.code).toBe(0);
    expect(r.json).toEqual({ out: file, classes: 2, source: 'CLIP text embeddings (clip-tiny, fp32, prompt bare), cosine similarity' });
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(written.prompts).toEqual(['cat', 'lawn_mower']);
    expect(written.model.dtype).toBe('fp32');
    // the file is a valid similarity upload
    expect(parseSimilarityUpload(file, readFileSync(file)).classNames).toEqual(['cat', 'lawn_mower']);
  });

  it('per-class descriptions (paper App. E.3.2) with a template fallback', async () => {
    const file = join(tmp, 'desc.json');
    writeFileSync(file, JSON.stringify({ Melanoma: 'Irregular dark brown lesion with uneven borders.' }));
    const r = await cli(
      'similarity',
      '--source',
      'clip',
      '--model-path',
      MODEL,
      '--classes',
      'Melanoma,Nevi',
      '--descriptions',
      file,
      '--prompt',
      'a photo of {}',
    );
    expect(r.code).toBe(0);
    expect(r.json.prompts).toEqual(['Irregular dark brown lesion with uneven borders.', 'a photo of Nevi']);
  });

  it('without --model-path: a clear error, exit 2, nothing downloaded', async () => {
    const r = await cli('similarity', '--source', 'clip', '--classes', 'cat,dog');
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      'cil-lab: --source clip needs --model-path DIR, a local transformers.js model folder (config.json, tokenizer.json, tokenizer_config.json, onnx/text_model_quantized.onnx); or --allow-remote [--model-id ID] to download one from the Hugging Face hub (default Xenova/clip-vit-base-patch32).\n',
    );
  });

  it('a hub model id without --allow-remote: a clear error, exit 2', async () => {
    const r = await cli('similarity', '--source', 'clip', '--model-id', 'Xenova/clip-vit-base-patch16', '--classes', 'cat,dog');
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      'cil-lab: Loading Xenova/clip-vit-base-patch16 from the Hugging Face hub needs the network, which the CLI uses only with --allow-remote. Add --allow-remote, or download the model folder (config.json, tokenizer.json, tokenizer_config.json, onnx/text_model_quantized.onnx) and pass --model-path DIR.\n',
    );
  });

  it('bad folders, dtypes and prompts: exit 2 with what is wrong', async () => {
    const missing = await cli('similarity', '--source', 'clip', '--model-path', join(tmp, 'nope'), '--classes', 'cat,dog');
    expect(missing.code).toBe(2);
    expect(missing.err).toBe(`cil-lab: --model-path: the folder ${join(tmp, 'nope')} does not exist.\n`);
    const noConfig = await cli('similarity', '--source', 'clip', '--model-path', 'tests/fixtures', '--classes', 'cat,dog');
    expect(noConfig.code).toBe(2);
    expect(noConfig.err).toMatch(/holds no config\.json\. Give the model folder itself .* or the folder above it together with --model-id ORG\/NAME\./);
    const dtype = await cli('similarity', '--source', 'clip', '--model-path', MODEL, '--classes', 'cat,dog', '--dtype', 'fp16');
    expect(dtype.err).toBe('cil-lab: Unknown --dtype "fp16": use q8 or fp32.\n');
    const prompt = await cli('similarity', '--source', 'clip', '--model-path', MODEL, '--classes', 'cat,dog', '--prompt', 'a photo of a {} and {}');
    expect(prompt.code).toBe(2);
    expect(prompt.err).toBe('cil-lab: --prompt: The prompt template "a photo of a {} and {}" has 2 {}; it needs exactly one, where the class name goes.\n');
    const noClasses = await cli('similarity', '--source', 'clip', '--model-path', MODEL);
    expect(noClasses.code).toBe(2);
  });

  it('a model folder missing its ONNX file: the load error and its hint, exit 2', async () => {
    const dir = join(tmp, 'half-model');
    cpSync(MODEL, dir, { recursive: true });
    rmSync(join(dir, 'onnx', 'text_model_quantized.onnx'));
    const r = await cli('similarity', '--source', 'clip', '--model-path', dir, '--classes', 'cat,dog');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      new RegExp(`^cil-lab: The model file onnx/text_model_quantized\\.onnx was not found at ${dir}/onnx/text_model_quantized\\.onnx\\. Check the model id`),
    );
  });
});

describe('cil-lab similarity --compare', () => {
  it('MAE and Spearman ρ equal the scipy reference; CSG comes from EDGE on both matrices', async () => {
    const r = await cli('similarity', '--compare', A, B, '--tasks', '5');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.json.classes).toEqual(fixture.cli.classes);
    expect(r.json.pairCount).toBe(45);
    expect(r.json.mae).toBeCloseTo(fixture.cli.mae, 12);
    expect(r.json.spearman).toBeCloseTo(fixture.cli.spearman as number, 12);
    const a = parseSimilarityUpload(A, readFileSync(A));
    const b = parseSimilarityUpload(B, readFileSync(B), a.classNames);
    const c = compareSimilarities(a.matrix, b.matrix, [2, 2, 2, 2, 2]);
    expect(r.json.csgHard).toBe(c.csgHard);
    expect(r.json.csgEasy).toBe(c.csgEasy);
    expect(r.json.csg).toBe(c.csgHard);
    expect(r.json.taskSizes).toEqual([2, 2, 2, 2, 2]);
    expect(r.json.hard.a).toEqual(c.hard.a);
  });

  it('a file against itself: MAE 0, ρ 1, CSG 1', async () => {
    const r = await cli('similarity', '--compare', A, A, '--task-sizes', '4,3,3');
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ mae: 0, spearman: 1, csgHard: 1, csgEasy: 1, taskSizes: [4, 3, 3] });
  });

  it('files without class names are matched by position, with a warning', async () => {
    const file = join(tmp, 'bare.json');
    writeFileSync(file, JSON.stringify((fixture.matrices[0] as { a: number[][] }).a));
    const file2 = join(tmp, 'bare2.json');
    writeFileSync(file2, JSON.stringify((fixture.matrices[0] as { b: number[][] }).b));
    const r = await cli('similarity', '--compare', file, file2, '--tasks', '3');
    expect(r.code).toBe(0);
    expect(r.json.mae).toBeCloseTo(fixture.matrices[0].mae, 12);
    expect(r.json.spearman).toBeCloseTo(fixture.matrices[0].spearman as number, 12);
    expect(r.json.warnings).toContain('Neither file names its classes: rows were matched by position.');
    const direct = compareSimilarities(matrixFromRows(fixture.matrices[0].a), matrixFromRows(fixture.matrices[0].b), [2, 2, 2]);
    expect(r.json.csgHard).toBe(direct.csgHard);
  });

  it('usage errors exit 2', async () => {
    const one = await cli('similarity', '--compare', A, '--tasks', '5');
    expect(one.code).toBe(2);
    expect(one.err).toBe('cil-lab: --compare takes two files: --compare F1 F2 (what `cil-lab similarity` wrote, or any similarity upload: JSON, CSV, .npy).\n');
    const three = await cli('similarity', '--compare', A, B, A, '--tasks', '5');
    expect(three.code).toBe(2);
    expect(three.err).toMatch(/--compare takes two files; got 3/);
    const noTasks = await cli('similarity', '--compare', A, B);
    expect(noTasks.code).toBe(2);
    expect(noTasks.err).toBe('cil-lab: Give --tasks K or --task-sizes m1,m2,… (EDGE runs on both matrices for CSG).\n');
    const missing = await cli('similarity', '--compare', A, join(tmp, 'missing.json'), '--tasks', '5');
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/Cannot read the second similarity file ".*missing\.json": ENOENT\./);
    const stray = await cli('similarity', '--source', 'wordnet', '--classes', 'cat,dog', 'extra');
    expect(stray.code).toBe(2);
    expect(stray.err).toBe('cil-lab: Unexpected argument "extra".\n');
  });
});
