/**
 * Open a lesson's URL (a path with `?lesson=…` and the experiment's `#v1.…`): a new history entry, then a fresh
 * load, so every lab starts from the lesson's experiment exactly as a shared link would (the browser's Back returns
 * to the experiment before).
 */
import { shareLink } from '../../services/share-link.svelte';

export function openLessonUrl(url: string): void {
  // the current experiment's pending hash write happens now, not after the lesson's URL is in place
  shareLink().flush();
  const target = new URL(url, location.href);
  if (target.href !== location.href) history.pushState(null, '', target.href);
  location.reload();
}
