// Builds the training-worker harness (tests/e2e/harness/train.html, a test page, not part of the app) with Vite
// into node_modules/.cache/cil-lab-train-harness/build-<key>/, where the key hashes everything the build reads (this
// folder, src/ and package-lock.json): every spec and benchmark that needs the harness of the same sources uses one
// build (a lock lets one process build while the others wait for it), and a finished build is never written again, so
// a spec and a benchmark running at the same time never empty each other's build. Builds of other sources are
// removed after an hour. Serves it on 127.0.0.1 with a tiny static server that falls back to public/ (the built-in
// data and public/tfjs/*.wasm), so the app's public files are served as the app serves them without being copied into
// every build.
// Used by tests/e2e/train-worker.spec.ts and tests/e2e/ground-truth-gpu.spec.ts (harness-spec.ts) and by the browser
// benchmarks (scripts/bench-harness.mjs).
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, '..', '..', '..');
const cacheDir = join(repoRoot, 'node_modules', '.cache', 'cil-lab-train-harness');
/** A lock older than this was left by a process that died while building: taken over. */
const STALE_LOCK_MS = 10 * 60_000;
/** Builds (and unfinished ones) of other sources older than this are removed. */
const OLD_BUILD_MS = 60 * 60_000;

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

/** What the harness build reads, hashed: its own folder, src/ and the installed packages (package-lock.json). */
export function harnessKey() {
  const hash = createHash('sha256');
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const st = statSync(path);
      if (st.isDirectory()) walk(path);
      else if (st.isFile()) hash.update(`${relative(repoRoot, path)}\0`).update(readFileSync(path));
    }
  };
  walk(here);
  walk(join(repoRoot, 'src'));
  hash.update(readFileSync(join(repoRoot, 'package-lock.json')));
  return hash.digest('hex').slice(0, 16);
}

async function viteBuild(outDir) {
  const { build } = await import('vite');
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
}

/** Remove builds of other sources, and unfinished builds, older than OLD_BUILD_MS (longer than any spec or benchmark serves one). */
function pruneOldBuilds(keep) {
  for (const name of readdirSync(cacheDir)) {
    if (name === keep || !/^(build|tmp)-/.test(name)) continue;
    const path = join(cacheDir, name);
    if (Date.now() - statSync(path).mtimeMs > OLD_BUILD_MS) rmSync(path, { recursive: true, force: true });
  }
}

/**
 * The Vite production build of the harness page for the current sources (quiet): built once, by whichever process
 * asks first; resolves with its folder.
 */
export async function buildHarness() {
  mkdirSync(cacheDir, { recursive: true });
  const key = harnessKey();
  const dir = join(cacheDir, `build-${key}`);
  const complete = join(dir, '.complete');
  const lock = join(cacheDir, `lock-${key}`);
  while (!existsSync(complete)) {
    try {
      mkdirSync(lock);
    } catch {
      // another process is building it: wait for it (or take over a lock its builder left behind)
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    try {
      if (!existsSync(complete)) {
        const tmp = mkdtempSync(join(cacheDir, 'tmp-'));
        await viteBuild(tmp);
        writeFileSync(join(tmp, '.complete'), '');
        rmSync(dir, { recursive: true, force: true });
        renameSync(tmp, dir);
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  pruneOldBuilds(`build-${key}`);
  return dir;
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
    },
  };
}
