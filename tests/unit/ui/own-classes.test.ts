import { describe, expect, it } from 'vitest';
import { cameraAvailability, cameraMessage, cameraProblemOf } from '../../../src/ui/own-classes/camera';
import { classBars, histogramCsv, matrixCells, matrixCsv, orderingsHistogram, protocolRows } from '../../../src/ui/own-classes/bars';
import { overviewOfRuns } from '../../../src/core/own-classes/order-states';
import { ownOrderingsResult } from '../../../src/core/own-classes/orders';

describe('Your-classes camera messages', () => {
  it('tells each failure apart and always offers dropped images', () => {
    expect(cameraProblemOf('NotAllowedError')).toBe('denied');
    expect(cameraProblemOf('NotFoundError')).toBe('none');
    expect(cameraProblemOf('NotReadableError')).toBe('busy');
    expect(cameraProblemOf('TypeError')).toBe('other');
    expect(cameraAvailability(false, false)).toBe('insecure');
    expect(cameraAvailability(true, false)).toBe('none');
    expect(cameraAvailability(true, true)).toBeNull();
    const messages = (['insecure', 'denied', 'none', 'busy', 'ended', 'other'] as const).map((p) =>
      cameraMessage(p, { origin: 'http://10.0.0.2:4173', kept: 7 }),
    );
    expect(new Set(messages).size).toBe(6);
    for (const m of messages) expect(m).toMatch(/drop images .* instead \(everything recorded so far is kept\)/);
    expect(messages[0]).toMatch(/secure page .* http:\/\/10\.0\.0\.2:4173/);
    expect(messages[4]).toMatch(/The 7 samples recorded are kept/);
  });
});

describe('Your-classes bars', () => {
  const R = [
    [1, 0, 0],
    [0.3, 0.9, 0],
    [0.1, 0.8, 1],
  ];
  it('gives each class its accuracy now, its best before and whether it was forgotten', () => {
    expect(classBars(R, ['a', 'b', 'c', 'd'])).toEqual([
      { name: 'a', accuracy: 0.1, label: '10 %', before: 1, forgotten: true },
      { name: 'b', accuracy: 0.8, label: '80 %', before: 0.9, forgotten: false },
      { name: 'c', accuracy: 1, label: '100 %', before: null, forgotten: false },
    ]);
    expect(classBars([], [])).toEqual([]);
  });
  it('writes R as percentages, blank above the diagonal', () => {
    expect(matrixCells(R)).toEqual([
      ['100 %', '', ''],
      ['30 %', '90 %', ''],
      ['10 %', '80 %', '100 %'],
    ]);
  });
  it('bins a number over orderings into 20 bins over its span (at least 5 points), the taught order’s bin marked', () => {
    const h = orderingsHistogram([0.9, 0.95, 1, 0.97], 0.95);
    expect([h.lo, h.hi]).toEqual([0.9, 1]);
    expect(h.bins).toHaveLength(20);
    expect(h.bins.reduce((a, b) => a + b, 0)).toBe(4);
    expect(h.bins[19]).toBe(1); // 100 % in the last bin
    expect(h.taughtBin).toBe(10);
    const flat = orderingsHistogram([0.5, 0.5], 0.5);
    expect(flat.hi - flat.lo).toBeGreaterThanOrEqual(0.05);
    expect(flat.lo).toBeLessThan(0.5);
    expect(flat.hi).toBeGreaterThan(0.5);
    expect(histogramCsv(flat, 'AIA').rows.filter((r) => r[3] === 'yes')).toHaveLength(1);
  });
  it('writes R’s taught cells as CSV with the class names', () => {
    expect(matrixCsv(R, ['a', 'b', 'c']).rows).toEqual([
      [1, 'a', 1, 'a', 1],
      [2, 'b', 1, 'a', 0.3],
      [2, 'b', 2, 'b', 0.9],
      [3, 'c', 1, 'a', 0.1],
      [3, 'c', 2, 'b', 0.8],
      [3, 'c', 3, 'c', 1],
    ]);
  });
});

describe('Your-classes protocols table', () => {
  const overview = (finals: number[], aias: number[]) =>
    overviewOfRuns(
      finals.map((final, i) => ({ final, aia: aias[i] })),
      { final: finals[0], aia: aias[0] },
      3,
      true,
    );
  it('lists the truth’s ranges, your order, EDGE’s two orderings and RS’s (final · AIA), names as text', () => {
    const o = overview([0.25, 0.75, 0.5, 0.5, 0.5, 0.5], [0.6, 0.8, 0.7, 0.7, 0.7, 0.7]);
    const r = ownOrderingsResult(o, 'finetune', { hard: [0, 1, 2], easy: [2, 1, 0] }, [{ seed: 0, order: [1, 0, 2] }], null, [
      { final: 0.25, aia: 0.6 },
      { final: 0.75, aia: 0.8 },
      { final: 0.5, aia: 0.7 },
    ]);
    expect(protocolRows(r, ['mug', '<b>pen', 'cup'])).toEqual([
      { label: 'Truth', kind: 'truth', order: 'all 6 orderings', accuracy: '25 % – 75 % · 60 % – 80 %' },
      { label: 'Yours', kind: 'taught', order: 'mug → <b>pen → cup', accuracy: '25 % · 60 %' },
      { label: 'EDGE hard · images', kind: 'edge', order: 'mug → <b>pen → cup', accuracy: '25 % · 60 %' },
      { label: 'EDGE easy · images', kind: 'edge', order: 'cup → <b>pen → mug', accuracy: '75 % · 80 %' },
      { label: 'RS seed 0', kind: 'rs', order: '<b>pen → mug → cup', accuracy: '50 % · 70 %' },
    ]);
  });
  it('says a flat range once, a sample as a sample, EDGE on names after EDGE on images, and cuts long orders', () => {
    const o = { ...overview([1, 1], [0.9, 0.9]), exact: false };
    const p = { final: 1, aia: 0.9 };
    const r = ownOrderingsResult(o, 'simplecil', { hard: [0, 1], easy: [1, 0] }, [], { hard: [1, 0], easy: [0, 1] }, [p, p, p, p]);
    const rows = protocolRows(r, ['mug', 'pen']);
    expect(rows[0]).toEqual({ label: 'Sample', kind: 'truth', order: '2 orderings drawn at random', accuracy: '100 % in all · 90 % in all' });
    expect(rows.map((x) => x.kind)).toEqual(['truth', 'taught', 'edge', 'edge', 'edge-names', 'edge-names']);
    const names = Array.from({ length: 12 }, (_, i) => `c${i}`);
    const long = ownOrderingsResult(o, 'simplecil', { hard: names.map((_, i) => i), easy: names.map((_, i) => 11 - i) }, [], null, [p, p]);
    expect(protocolRows(long, names)[2].order).toBe('c0 → c1 → c2 → c3 → … (12 classes)');
  });
});
