import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkCurriculum, CLASSES_PER_DATASET, CURRICULUM_DATASETS, DEFAULT_CURRICULUM, sourceClassIndices } from '../../../../src/core/curriculum/catalogue';
import { orderTasks } from '../../../../src/core/curriculum/labels';

describe('curriculum catalogue', () => {
  it('every emoji list names 10 distinct classes that load with train and test images', () => {
    const metaPath = join(__dirname, '../../../../public/data/emoji/meta.json');
    const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as { classes: string[]; train: { perClass: number[] }; test: { perClass: number[] } };
    const used = new Set<string>();
    for (const d of CURRICULUM_DATASETS) {
      expect(d.classes.length).toBe(CLASSES_PER_DATASET);
      expect(new Set(d.classes).size).toBe(CLASSES_PER_DATASET);
      if (d.source !== 'emoji') continue;
      for (const i of sourceClassIndices(d, meta.classes)) {
        expect(meta.train.perClass[i]).toBeGreaterThan(0);
        expect(meta.test.perClass[i]).toBeGreaterThan(0);
      }
      for (const c of d.classes) {
        expect(used.has(c), `${c} in two emoji datasets`).toBe(false);
        used.add(c);
      }
    }
  });

  it('the default has at least 4 datasets and checks', () => {
    expect(DEFAULT_CURRICULUM.length).toBeGreaterThanOrEqual(4);
    expect(checkCurriculum(DEFAULT_CURRICULUM).map((d) => d.id)).toEqual([...DEFAULT_CURRICULUM]);
    expect(() => checkCurriculum(['digits'])).toThrow(/at least 2/);
    expect(() => checkCurriculum(['digits', 'digits'])).toThrow(/twice/);
    expect(() => checkCurriculum(['digits', 'nope'])).toThrow(/Unknown/);
  });

  it('label offsets: dataset p holds labels 10p..10p+9', () => {
    expect(orderTasks([1, 0])).toEqual([
      [10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    ]);
  });
});
