import { describe, expect, it } from 'vitest';
import { formatSequences } from '../../../src/core/protocols/export';
import type { Sequence } from '../../../src/core/orderings/types';

const seqs: Sequence[] = [
  {
    protocol: 'edge',
    label: 'EDGE hard',
    tasks: [
      [0, 3],
      [1, 2],
    ],
    order: [0, 3, 1, 2],
    score: 0.25,
  },
  {
    protocol: 'rs',
    label: 'RS seed 0',
    tasks: [
      [1, 2],
      [0, 3],
    ],
    order: [1, 2, 0, 3],
    score: 0.5,
  },
];

describe('order export formats', () => {
  it('PyCIL/PILOT: one JSON object keyed by label, each with its class_order', () => {
    expect(formatSequences(seqs, 'pycil')).toBe(
      '{\n  "EDGE hard": {"S": 0.25, "class_order": [0, 3, 1, 2]},\n  "RS seed 0": {"S": 0.5, "class_order": [1, 2, 0, 3]}\n}',
    );
  });
  it('Mammoth and Avalanche', () => {
    expect(formatSequences(seqs, 'mammoth').split('\n')[1]).toBe('--custom_class_order 0,3,1,2');
    expect(formatSequences(seqs, 'avalanche')).toContain('"RS seed 0": [1, 2, 0, 3]');
  });
  it('CSV quotes names that need it and round-trips JSON', () => {
    const csv = formatSequences(seqs, 'csv', { classes: ['a,b', 'c', 'd', 'e'] }).split('\n');
    expect(csv[0]).toBe('protocol,label,score,order,tasks,class_names');
    expect(csv[1]).toBe('edge,EDGE hard,0.25,0 3 1 2,0 3 | 1 2,"a,b e | c d"');
    expect(JSON.parse(formatSequences(seqs, 'json', { omega: '6' })).sequences).toEqual(seqs);
  });
});
