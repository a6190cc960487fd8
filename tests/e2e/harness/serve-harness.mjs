// Builds the training-worker harness (tests/e2e/harness/train.html, a test page, not part of the app) with Vite
// into a fresh folder under node_modules/.cache/cil-lab-train-harness/ (one per build, so a spec and a benchmark
// running at the same time never empty each other's build; the server's close() removes it), and serves it on
// 127.0.0.1 with a tiny static server that falls back to public/ (the built-in data and public/tfjs/*.wasm), so
// the app's public files are served as the app serves them without being copied into every build.
// Used by tests/e2e/train-worker.spec.ts and scripts/bench-train-browser.mjs.
import { createReadStream, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, '..', '..', '..');
const cacheDir = join(repoRoot, 'node_modules', '.cache', 'cil-lab-train-harness');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Vite production build of the harness page (quiet); resolves with the folder it was built into. */
export async function buildHarness() {
  const { build } = await import('vite');
  mkdirSync(cacheDir, { recursive: true });
  const outDir = mkdtempSync(join(cacheDir, 'build-'));
  await build({
    configFile: false,
    root: here,
    base: '/',
    logLevel: 'warn',
    publicDir: false,
    worker: { format: 'es' },
    build: {
      outDir,
      emptyOutDir: true,
      rollupOptions: { input: join(here, 'train.html') },
      reportCompressedSize: false,
      chunkSizeWarningLimit: 100_000,
    },
  });
  return outDir;
}

/** Serve a built harness (then public/) on a free port; resolves with its URL and a close function. */
export async function serveHarness(outDir) {
  const roots = [outDir, join(repoRoot, 'public')];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const rel = normalize(path === '/' ? '/train.html' : path).replace(/^([/\\])+/, '');
    for (const root of roots) {
      const file = join(root, rel);
      if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) continue;
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'content-length': statSync(file).size,
        'cache-control': 'no-store',
      });
      createReadStream(file).pipe(res);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end(`not found: ${path}`);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', () => r(undefined)));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/train.html`,
    close: async () => {
      server.closeAllConnections?.();
      await new Promise((r) => server.close(() => r(undefined)));
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
