/**
 * Which words of a verdict get the glossary's explanation (src/core/glossary.ts, shown by ui/common/Term.svelte):
 * the first occurrence of each term in the whole verdict, so the sentences stay readable. Pure.
 */

export interface TermRule {
  /** A key of GLOSSARY. */
  key: string;
  /** Matches the term (its first match in a sentence is wrapped). */
  pattern: RegExp;
}

/** Whole-word matches; "S" only where it is a value ("S = 1.5289"). */
export const VERDICT_TERMS: readonly TermRule[] = [
  { key: 'omega-below', pattern: /Ω below/ },
  { key: 'edge-plus', pattern: /EDGE\+/ },
  { key: 'median', pattern: /“median”/ },
  { key: 'jsd', pattern: /\bJSD\b/ },
  { key: 'w1', pattern: /\bW1\b/ },
  { key: 'rs', pattern: /\bRS\b(?!\+)/ },
  { key: 's', pattern: /(?<![\w+])S(?= = )/ },
  { key: 'pearson', pattern: /(?<![\w+])R(?= = )/ },
  { key: 'box-cox', pattern: /\bBox-Cox\b/ },
  { key: 'normality', pattern: /\bnormality\b/ },
];

export interface TermSegment {
  text: string;
  /** The glossary key when this segment is a term. */
  key?: string;
}

/**
 * Split each sentence into plain text and terms; a term is marked only the first time it occurs across `sentences`.
 */
export function termSegments(sentences: readonly string[], rules: readonly TermRule[] = VERDICT_TERMS): TermSegment[][] {
  const used = new Set<string>();
  return sentences.map((sentence) => {
    const hits: { start: number; end: number; key: string }[] = [];
    for (const rule of rules) {
      if (used.has(rule.key)) continue;
      const m = rule.pattern.exec(sentence);
      if (!m) continue;
      const start = m.index;
      const end = start + m[0].length;
      if (hits.some((h) => start < h.end && h.start < end)) continue;
      hits.push({ start, end, key: rule.key });
      used.add(rule.key);
    }
    hits.sort((a, b) => a.start - b.start);
    const out: TermSegment[] = [];
    let at = 0;
    for (const h of hits) {
      if (h.start > at) out.push({ text: sentence.slice(at, h.start) });
      out.push({ text: sentence.slice(h.start, h.end), key: h.key });
      at = h.end;
    }
    if (at < sentence.length) out.push({ text: sentence.slice(at) });
    return out;
  });
}
