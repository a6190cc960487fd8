/**
 * The Orderings page's "Export orderings" gives the very text `cil-lab orders --format F` prints, for the default
 * experiment (Fashion-MNIST classes 0–5, 3 tasks, WordNet, every protocol, RS seeds 0/42/1993): the page's request
 * (page-request.ts, what OrderingsPage.svelte sends the worker, distribution included) against the CLI run in-process.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/main';
import { defaultConfig, experimentClassNames } from '../../../src/core/config/schema';
import { orderingsLab } from '../../../src/core/labs/orderings';
import { getClassList } from '../../../src/core/classes/builtin';
import { EXPORT_FORMATS } from '../../../src/core/protocols/export';
import { orderingsVerdict } from '../../../src/core/verdict/orderings';
import { computeOrderingsView, type OrderingsView } from '../../../src/core/protocols/orderings-view';
import { PROTOCOL_IDS } from '../../../src/core/protocols/types';
import type { WordnetGraph } from '../../../src/core/similarity/wordnet-synsets';
import { parseSeeds } from '../../../src/ui/orderings/page-inputs';
import { orderingsRequest, protocolExtrasOf } from '../../../src/ui/orderings/page-request';
import { EXPORT_CHOICES, compactRanges, exportFileName, exportStem, exportText, ordersCommand } from '../../../src/ui/orderings/orderings-export';

let graph: WordnetGraph;
let view: OrderingsView;
const config = defaultConfig();
const inputs = orderingsLab.view(config);
const list = getClassList(inputs.datasetId);

beforeAll(() => {
  graph = JSON.parse(readFileSync('public/data/wordnet-nouns.json', 'utf8')) as WordnetGraph;
  // exactly what the page sends for the default config
  const idx = [...inputs.selected].sort((a, b) => a - b);
  const req = orderingsRequest({
    names: idx.map((i) => list.classes[i]),
    sizes: config.taskSizes,
    similarity: { kind: 'wordnet', pins: idx.map((i) => list.synsets[i]) },
    protocols: PROTOCOL_IDS.filter((p) => inputs.enabled[p]),
    seeds: parseSeeds(inputs.seedsText),
    extras: protocolExtrasOf(config.protocols),
  });
  expect(req.classes).toEqual(experimentClassNames(config));
  view = computeOrderingsView(req, { wordnet: () => graph });
}, 60_000);

afterEach(() => vi.restoreAllMocks());

async function cli(...argv: string[]): Promise<string> {
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((out += String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const code = await main(argv);
  vi.restoreAllMocks();
  expect(code).toBe(0);
  return out;
}

describe('the page’s export = cil-lab orders for the default experiment', () => {
  const meta = () => ({ dataset: list.id, taskSizes: view.taskSizes });
  const args = ['orders', '--dataset', 'fashion-mnist', '--subset', '0-5', '--tasks', '3'];

  it('the default experiment is the CLI’s: every protocol, the same classes', () => {
    expect(view.classes).toEqual(['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal']);
    expect(view.omega).toBe('90');
    expect(view.sequences.length).toBe(3 + 3 + 2 + 2 + 2 + 2);
    // the page also computes the histogram (exact: all 90 orderings in its bins); the export leaves it out
    expect(view.distribution).toMatchObject({ kind: 'exact', count: 90 });
    expect(view.distribution!.bins.reduce((a, b) => a + b.count, 0)).toBe(90);
  });

  for (const format of ['pycil', 'mammoth', 'avalanche', 'csv'] as const) {
    it(`${format}: the same text`, async () => {
      const page = exportText(view, format, meta());
      const printed = await cli(...args, '--format', format);
      expect(`${page}\n`).toBe(printed);
    });
  }

  it('json: the same document, verdict included (indented on the page, one line from the CLI)', async () => {
    const v = orderingsVerdict(view);
    const page = exportText(view, 'json', { ...meta(), headline: v.headline, verdict: v.sentences });
    const printed = await cli(...args, '--format', 'json');
    expect(JSON.parse(page)).toEqual(JSON.parse(printed));
    expect(page).toContain('\n  "classes": [');
    // the page's verdict (computed with its histogram) says what the CLI's says (computed without)
    expect((JSON.parse(page) as { verdict: { id: string }[] }).verdict.map((s) => s.id)).toContain('edge-tie');
  });

  it('the command the page shows prints that text', async () => {
    const cmd = ordersCommand(
      { dataset: list.id, selected: inputs.selected, taskSizes: view.taskSizes, seeds: [0, 42, 1993], protocols: PROTOCOL_IDS },
      'pycil',
    );
    expect(cmd).toBe('npx cil-lab orders --dataset fashion-mnist --subset 0-5 --tasks 3 --format pycil');
    const printed = await cli(...cmd!.split(' ').slice(2));
    expect(printed).toBe(`${exportText(view, 'pycil', meta())}\n`);
    expect(ordersCommand({ dataset: 'cifar10', selected: [0, 1, 2, 5], taskSizes: [2, 1, 1], seeds: [7], protocols: ['rs', 'edge'] }, 'csv')).toBe(
      'npx cil-lab orders --dataset cifar10 --subset 0-2,5 --task-sizes 2,1,1 --protocol rs,edge --seeds 7 --format csv',
    );
    expect(ordersCommand({ taskSizes: [2, 2] }, 'csv')).toBeNull();
  });
});

describe('export menu helpers', () => {
  it('offers every format of the CLI, with file names', () => {
    expect(EXPORT_CHOICES.map((c) => c.format).sort()).toEqual([...EXPORT_FORMATS].sort());
    const stem = exportStem('fashion-mnist', 6, 3);
    expect(stem).toBe('class-orders_fashion-mnist_6-classes_3-tasks');
    expect(exportFileName(stem, 'pycil')).toBe('class-orders_fashion-mnist_6-classes_3-tasks_pycil.txt');
    expect(exportFileName(stem, 'avalanche')).toBe('class-orders_fashion-mnist_6-classes_3-tasks_avalanche.py');
    expect(exportFileName(stem, 'json')).toBe('class-orders_fashion-mnist_6-classes_3-tasks.json');
    expect(exportStem('my list/2', 4, 2)).toBe('class-orders_my-list-2_4-classes_2-tasks');
  });

  it('compactRanges', () => {
    expect(compactRanges([3, 0, 1, 2, 7, 9, 10])).toBe('0-3,7,9-10');
    expect(compactRanges([5])).toBe('5');
  });
});
