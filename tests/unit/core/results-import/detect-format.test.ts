import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../../../src/core/results-import/detect-format';

describe('detectFormat', () => {
  it('tells the four formats apart by content', () => {
    expect(detectFormat('method,order,final_accuracy\n')).toBe('csv');
    expect(detectFormat('[{"order": [0, 1], "acc": 0.5}]')).toBe('json');
    expect(detectFormat('{"runs": []}')).toBe('json');
    expect(detectFormat('{"order": [0, 1], "acc": 0.5}\n{"order": [1, 0], "acc": 0.4}\n')).toBe('jsonl');
    expect(detectFormat('a => [1, 0]\nb => CNN top1 curve: [90.1]')).toBe('pycil-log');
    expect(detectFormat('', 'runs.jsonl')).toBe('jsonl');
  });
});
