/**
 * A deep copy of a node whose ids are new, with the references inside it (`url(#…)` in any attribute, `href="#…"`)
 * rewritten to match. A document's ids must be unique: a reference resolves to the first element with its id, so a
 * copied chart beside its original would paint with the original's gradient or clip path, and nothing at all where
 * the original is hidden (the printed lesson handout, whose page hides the chart it copies).
 */
export function cloneWithFreshIds<T extends Node>(node: T, suffix: string): T {
  const copy = node.cloneNode(true) as T;
  if (!(copy instanceof Element)) return copy;
  const all = [copy, ...copy.querySelectorAll('*')];
  const renamed = new Map<string, string>();
  for (const el of all) {
    if (!el.id) continue;
    renamed.set(el.id, `${el.id}${suffix}`);
    el.id = `${el.id}${suffix}`;
  }
  if (renamed.size === 0) return copy;
  for (const el of all) {
    for (const a of [...el.attributes]) {
      let v = a.value.replace(/url\(#([^)]+)\)/g, (m, id: string) => (renamed.has(id) ? `url(#${renamed.get(id)})` : m));
      if (/(^|:)href$/.test(a.name) && v.startsWith('#') && renamed.has(v.slice(1))) v = `#${renamed.get(v.slice(1))}`;
      if (v !== a.value) el.setAttributeNS(a.namespaceURI, a.name, v);
    }
  }
  return copy;
}
