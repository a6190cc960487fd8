import { describe, expect, it } from 'vitest';
import { parseClassNames, validateClassNames } from '../../../src/core/classes/validate';

describe('class names', () => {
  it('parses lines or one comma-separated line', () => {
    expect(parseClassNames('cat\n dog \n\nbird')).toEqual(['cat', 'dog', 'bird']);
    expect(parseClassNames('cat, dog,bird')).toEqual(['cat', 'dog', 'bird']);
  });
  it('rejects duplicates (case-insensitive), empty names and an empty list', () => {
    expect(() => validateClassNames(['cat', 'Cat'])).toThrow(/"Cat" appears twice \(classes 1 and 2\)/);
    expect(() => validateClassNames(['cat', ' '])).toThrow(/Class 2 has an empty name/);
    expect(() => validateClassNames([])).toThrow(/empty/);
  });
});
