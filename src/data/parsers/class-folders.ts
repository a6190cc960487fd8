/**
 * Class folders named as the app's class lists name their classes (src/core/classes/builtin-classes.json), so an
 * encoder's features of the visitor's own images line up with a built-in list by name:
 *
 * - ImageNet-R (`imagenet-r.tar`, and PILOT's `imagenet-r/train`, `imagenet-r/test`): one folder per class named by its
 *   WordNet id (n01443537, …) → the list's names (goldfish, …);
 * - CUB-200-2011 (`CUB_200_2011/images/001.Black_footed_Albatross/…`): numbered folders → the names without the number.
 *
 * Only when every folder is one of the list's: a mixed or unknown set keeps its folder names. Pure.
 */
import { getClassList } from '../../core/classes/builtin';
import builtin from '../../core/classes/builtin-classes.json' with { type: 'json' };

export interface NamedFolders {
  list: 'imagenet-r' | 'cub200';
  /** the class name of each folder, in the folders' order */
  names: string[];
}

export function classNamesOfFolders(folders: readonly string[]): NamedFolders | null {
  if (folders.length === 0) return null;
  const wnids = (builtin as unknown as Record<string, string[]>)['imagenet-r-wnids'];
  const inr = getClassList('imagenet-r').classes;
  const byWnid = new Map(wnids.map((w, k) => [w, inr[k]]));
  if (folders.every((f) => byWnid.has(f))) return { list: 'imagenet-r', names: folders.map((f) => byWnid.get(f)!) };
  const cub = new Set(getClassList('cub200').classes);
  const stripped = folders.map((f) => /^\d{3}\.(.+)$/.exec(f)?.[1]);
  if (stripped.every((n) => n !== undefined && cub.has(n))) return { list: 'cub200', names: stripped as string[] };
  return null;
}
