import { describe, expect, it } from 'vitest';
import { cameraAvailability, cameraMessage, cameraProblemOf } from '../../../src/ui/own-classes/camera';
import { classBars, finalHistogram, matrixCells, protocolRows } from '../../../src/ui/own-classes/bars';

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
  it('bins final accuracies by 10 points, 100 % in the last bin', () => {
    expect(finalHistogram([0, 0.05, 0.1, 0.55, 1, 1], 0.55)).toEqual({ bins: [2, 1, 0, 0, 0, 1, 0, 0, 0, 2], taughtBin: 5 });
  });
});

describe('Your-classes protocols table', () => {
  it('lists the truth’s range, EDGE’s two orderings and RS’s, names as text', () => {
    const rows = protocolRows(
      { min: 0.25, max: 0.75, orderings: 6 },
      { hard: [0, 1, 2], easy: [2, 1, 0], finals: { hard: 0.25, easy: 0.75 } },
      [{ seed: 0, order: [1, 0, 2], final: 0.5 }],
      ['mug', '<b>pen', 'cup'],
    );
    expect(rows).toEqual([
      { label: 'Truth', kind: 'truth', order: 'all 6 orderings', accuracy: '25 % – 75 %' },
      { label: 'EDGE hard · images', kind: 'edge', order: 'mug → <b>pen → cup', accuracy: '25 %' },
      { label: 'EDGE easy · images', kind: 'edge', order: 'cup → <b>pen → mug', accuracy: '75 %' },
      { label: 'RS seed 0', kind: 'rs', order: '<b>pen → mug → cup', accuracy: '50 %' },
    ]);
  });
  it('says a truth with one value once', () => {
    const rows = protocolRows({ min: 1, max: 1, orderings: 2 }, { hard: [0, 1], easy: [1, 0], finals: { hard: 1, easy: 1 } }, [], ['a', 'b']);
    expect(rows[0].accuracy).toBe('100 % in all');
  });
  it('adds EDGE’s orderings on the class names after those on the images', () => {
    const rows = protocolRows({ min: 0.25, max: 0.75, orderings: 2 }, { hard: [0, 1], easy: [1, 0], finals: { hard: 0.25, easy: 0.75 } }, [], ['mug', 'pen'], {
      hard: [1, 0],
      easy: [0, 1],
      finals: { hard: 0.75, easy: 0.25 },
    });
    expect(rows.map((r) => [r.label, r.kind, r.order, r.accuracy])).toEqual([
      ['Truth', 'truth', 'all 2 orderings', '25 % – 75 %'],
      ['EDGE hard · images', 'edge', 'mug → pen', '25 %'],
      ['EDGE easy · images', 'edge', 'pen → mug', '75 %'],
      ['EDGE hard · names', 'edge-names', 'pen → mug', '75 %'],
      ['EDGE easy · names', 'edge-names', 'mug → pen', '25 %'],
    ]);
  });
});
