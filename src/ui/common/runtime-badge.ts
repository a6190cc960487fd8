/**
 * What the runtime badge says about the wasm backend (src/ui/common/RuntimeBadge.svelte). Pure, so the
 * wording is unit-tested: a cross-origin-isolated page (SharedArrayBuffer available) runs tfjs's threaded SIMD
 * build with a thread pool over the machine's logical cores; otherwise the single-threaded build.
 */
export interface WasmRuntime {
  threaded: boolean;
  /** threads of the wasm backend's pool: the logical cores when threaded, 1 otherwise */
  threads: number;
  text: string;
  title: string;
}

export function wasmRuntime(env: { isolated: boolean; sharedArrayBuffer: boolean; cores: number | undefined }): WasmRuntime {
  const cores = Math.max(1, Math.floor(env.cores ?? 1) || 1);
  if (env.isolated && env.sharedArrayBuffer) {
    return {
      threaded: true,
      threads: cores,
      text: `wasm · ${cores} thread${cores === 1 ? '' : 's'}, cross-origin isolated`,
      title:
        "The page is cross-origin isolated, so the wasm backend runs TensorFlow.js's threaded SIMD build over this machine's " +
        `${cores} logical core${cores === 1 ? '' : 's'} (workers training at once share them).`,
    };
  }
  return {
    threaded: false,
    threads: 1,
    text: 'wasm · 1 thread (not isolated: see README Deploy)',
    title:
      'The page is not cross-origin isolated (the host sends no Cross-Origin-Opener-Policy / Cross-Origin-Embedder-Policy ' +
      'headers and no service worker added them yet), so the wasm backend runs single-threaded. docs/deploy.md gives the headers.',
  };
}
