// The dataset picker's class counts (src/ui/orderings/class-counts.ts) against the prepared image datasets: a list
// whose images are fewer than its names says so, with the number that really loads.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_CLASS_LISTS } from '../../../src/core/classes/builtin';
import { IMAGE_CLASS_COUNTS, classCountLabel } from '../../../src/ui/orderings/class-counts';

const meta = (id: string) =>
  JSON.parse(readFileSync(join(__dirname, '../../../public/data', id, 'meta.json'), 'utf8')) as { classes: string[]; classListId: string };

describe('class counts in the dataset picker', () => {
  it('every image dataset with fewer classes than its name list is in the table, with the count meta.json loads', () => {
    for (const id of ['emoji', 'fashion-mnist', 'digits']) {
      const m = meta(id);
      const list = BUILTIN_CLASS_LISTS.find((l) => l.id === m.classListId)!;
      if (m.classes.length < list.classes.length) expect(IMAGE_CLASS_COUNTS[list.id], id).toBe(m.classes.length);
      else expect(IMAGE_CLASS_COUNTS[list.id], id).toBeUndefined();
    }
  });
  it('says both numbers when they differ', () => {
    const emoji = BUILTIN_CLASS_LISTS.find((l) => l.id === 'emoji')!;
    expect(classCountLabel('emoji', emoji.classes.length)).toBe(`${emoji.classes.length} names, ${meta('emoji').classes.length} with images`);
    expect(classCountLabel('cifar100', 100)).toBe('100');
  });
});
