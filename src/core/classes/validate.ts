/** Checks on a list of class names: none empty, none repeated (case-insensitive, trimmed). */
export class ClassListError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClassListError';
  }
}

export function validateClassNames(names: string[]): string[] {
  if (names.length === 0) throw new ClassListError('The class list is empty: add at least two classes.');
  const trimmed = names.map((n) => n.trim());
  const empty = trimmed.findIndex((n) => n.length === 0);
  if (empty >= 0) throw new ClassListError(`Class ${empty + 1} has an empty name.`);
  const seen = new Map<string, number>();
  trimmed.forEach((n, i) => {
    const k = n.toLowerCase();
    if (seen.has(k)) {
      throw new ClassListError(`"${n}" appears twice (classes ${seen.get(k)! + 1} and ${i + 1}); class names must be unique.`);
    }
    seen.set(k, i);
  });
  return trimmed;
}

/** Parse free text (one name per line, or comma-separated on one line) into names. */
export function parseClassNames(text: string): string[] {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  const parts = lines.length === 1 ? lines[0].split(',') : lines;
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}
