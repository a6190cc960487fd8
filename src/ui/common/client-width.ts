import type { Attachment } from 'svelte/attachments';

/**
 * `bind:clientWidth` without its forced layout: Svelte's binding reads `clientWidth` as soon as the element is
 * mounted, which lays out the whole page inside the task that inserted it (1 000 classes in the Orderings lab: a
 * 130 ms layout inside an already long task). This reads it only in a ResizeObserver
 * callback, after the browser's own layout. The width is 0 until then: callers draw nothing for width 0.
 */
export function clientWidth(set: (width: number) => void): Attachment<HTMLElement> {
  return (el) => {
    const ro = new ResizeObserver(() => set(el.clientWidth));
    ro.observe(el);
    return () => ro.disconnect();
  };
}
