/// <reference types="vitest/config" />
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { serviceWorker } from './scripts/sw-plugin.ts';
import { tfjsThreadedFactory } from './scripts/tfjs-threads-plugin.ts';

/**
 * The Content-Security-Policy of public/_headers (the one place it is written), for the build's <meta> tag. Without
 * frame-ancestors, which a <meta> policy cannot carry (browsers ignore it there, with a warning).
 */
export function contentSecurityPolicy(headersFile = fileURLToPath(new URL('./public/_headers', import.meta.url))): string {
  const line = readFileSync(headersFile, 'utf8')
    .split('\n')
    .find((l) => /^\s+Content-Security-Policy:/.test(l));
  if (!line) throw new Error(`${headersFile} has no Content-Security-Policy line.`);
  return line
    .replace(/^\s+Content-Security-Policy:\s*/, '')
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d && !d.startsWith('frame-ancestors'))
    .join('; ');
}

/**
 * The CSP as a <meta> tag in the built index.html only: Vite's dev server injects inline scripts and styles (its
 * client, HMR, the error overlay) that the policy would block, so `npm start` runs without it (issue 16, item 12).
 */
function cspMeta(): Plugin {
  return {
    name: 'cil-lab:csp-meta',
    apply: 'build',
    transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: contentSecurityPolicy() }, injectTo: 'head-prepend' }],
  };
}

/**
 * Dev server only: onnxruntime-web imports its loader `ort/ort-wasm-simd-threaded.asyncify.mjs` from `wasmPaths` at run
 * time; in dev, Vite rewrites every such dynamic import to `…mjs?import` and then refuses it because the file is in
 * public/ ("should not be imported from source code"), with a full-page error overlay, so CLIP never loaded under
 * `npm start` (issue 16, item 13). The file is a ready-made ES module served as-is (as the build does): drop the query
 * for /ort/ so Vite's public-file middleware serves it.
 */
function ortPublicImports(): Plugin {
  return {
    name: 'cil-lab:ort-public-imports',
    apply: 'serve',
    configureServer(server) {
      const prefix = `${server.config.base.replace(/\/$/, '')}/ort/`;
      server.middlewares.use((req, _res, next) => {
        if (req.url?.startsWith(prefix) && /[?&]import(&|$)/.test(req.url))
          req.url = req.url.replace(/([?&])import(&|$)/, (_m, a: string, b: string) => (b ? a : '')).replace(/\?$/, '');
        next();
      });
    },
  };
}

/**
 * `vite preview` gzips every response whose type it does not know as if it were text, on every request: the built-in
 * data (`.u8`, 55 MB for Fashion-MNIST) and the models (`.onnx`) too, a few CPU-seconds of the server's and the
 * browser's each time a page loads them, for no gain on a local server (image bytes barely compress). They are sent as
 * they are; text (HTML, scripts, JSON) is still compressed.
 */
export const UNCOMPRESSED = /\.(u8|onnx|npz|bin|parquet)(\?|$)/i;
function previewBinaryAsIs(): Plugin {
  return {
    name: 'cil-lab:preview-binary-as-is',
    configurePreviewServer(server) {
      server.middlewares.use((req, _res, next) => {
        if (req.url && UNCOMPRESSED.test(req.url)) delete req.headers['accept-encoding'];
        next();
      });
    },
  };
}

/**
 * Unit tests that need a fresh module graph per file (see `test.projects`): the service worker's registration, which
 * resets the module registry to register again, and every file that replaces a module with `vi.mock` (in a worker that
 * keeps its modules, an earlier file may already have imported the real one, and the mock would never be seen).
 */
export const ISOLATED = ['tests/unit/shell/**/*.test.ts', 'tests/unit/cli/backend-webgpu.test.ts'];

export default defineConfig({
  plugins: [svelte(), cspMeta(), ortPublicImports(), previewBinaryAsIs(), serviceWorker()],
  // onnxruntime-web's default build bundles its 27 MB .wasm as an asset; the app serves it from public/ort/ instead
  // (scripts/prepare-ort.mjs; the embed worker sets wasmPaths), so resolve the build that loads it from there.
  resolve: { conditions: ['onnxruntime-web-use-extern-wasm', ...defaultClientConditions] },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
  // (the training workers bundle tfjs-backend-wasm: its threaded build needs tfjsThreadedFactory to survive minification)
  worker: { format: 'es', plugins: () => [tfjsThreadedFactory()] },
  test: {
    environment: 'node',
    testTimeout: 60_000,
    // a setup hook (beforeAll) gets a test's time: some build a dataset or a graph, seconds on a loaded machine
    hookTimeout: 60_000,
    // UNIT_WORKERS: test files run at once (default every core but one, and at least two: on a 2-core machine two at
    // once finish the unit tests sooner than one, README "Running the tests")
    maxWorkers: Number(process.env.UNIT_WORKERS ?? Math.max(2, availableParallelism() - 1)),
    // ASSERTION_COUNT_DIR=dir: write how many expect(…) calls each test ran (tests/assertion-count/vitest-setup.ts)
    setupFiles: process.env.ASSERTION_COUNT_DIR ? ['tests/assertion-count/vitest-setup.ts'] : [],
    // Two projects. `shared`, nearly every file: each worker keeps its modules from file to file (isolate: false), so
    // tfjs, the CLI and the engine are imported once per worker rather than once per file; that took a quarter off the
    // unit tests' CPU time (about 260 → 200 CPU-seconds), and every file still selects its backend and restores what
    // it stubs. `isolated`: the few files that need a fresh module graph, as Vitest gives every file by default.
    projects: [
      { extends: true, test: { name: 'shared', include: ['tests/unit/**/*.test.ts'], exclude: ISOLATED, isolate: false } },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
