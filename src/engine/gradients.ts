/**
 * Gradient registration. tfjs-core alone registers no gradient functions (the union package @tensorflow/tfjs
 * imports `@tensorflow/tfjs-core/dist/register_all_gradients` for that), and training needs them.
 *
 * - Browser / worker (Vite): that ES module is imported directly.
 * - Node: tfjs-core's ES modules use extension-less and directory imports that Node's ESM loader rejects, so the
 *   ES module cannot be loaded there. tfjs-layers' CommonJS Node bundle registers the same gradient configs (into
 *   the registry shared through tfjs's global namespace) when loaded, so Node loads that instead. The engine uses
 *   no layers API.
 */
import { isNode } from './node-env';

let ready: Promise<void> | null = null;

export function ensureGradients(): Promise<void> {
  if (!ready) {
    ready = (async () => {
      if (isNode()) {
        // a variable specifier: the browser bundle must not pull tfjs-layers in
        const layers = '@tensorflow/tfjs-layers';
        await import(/* @vite-ignore */ layers);
      } else {
        await import('@tensorflow/tfjs-core/dist/register_all_gradients');
      }
    })();
  }
  return ready;
}
