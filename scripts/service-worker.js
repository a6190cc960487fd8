/*
 * CIL Lab's service worker (docs/deploy.md). The build writes it to <outDir>/sw.js with `MANIFEST` (the
 * app shell's files, the built-in data files with a content hash each, and a version) written in front of it by
 * scripts/sw-plugin.ts. Registered by src/shell/sw-register.ts, in production builds only.
 *
 * - App shell (index.html, assets/*, the tfjs .wasm files): cached at install, served cache-first. A new build is
 *   a new worker that installs next to the old one and waits; the page offers "Reload" (src/shell/UpdateNotice).
 * - Built-in data (data/*): cached in the background once the worker controls a page (message 'cache-data'), each
 *   file checked against its SHA-256 so a stale HTTP-cache copy is never kept; served from the cache while the
 *   cached copy has the manifest's hash, otherwise from the network (and an older copy when offline).
 * - Anything else under the scope (onnxruntime files, self-hosted models): network first, a copy kept for offline.
 * - Requests to other origins (the Hugging Face hub's CLIP downloads) are not touched: transformers.js caches what
 *   it downloads itself.
 * - Cross-origin isolation where the host cannot set headers (GitHub Pages): every response served here gets
 *   Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: credentialless when it has none.
 */
/* global MANIFEST */
/// <reference lib="webworker" />

const SCOPE = new URL(self.registration.scope);
const PREFIX = `cil-lab:${SCOPE.pathname}`;
const SHELL = `${PREFIX}:shell:${MANIFEST.version}`;
const DATA = `${PREFIX}:data`;
const RUNTIME = `${PREFIX}:runtime`;
const REV_HEADER = 'x-cil-lab-rev';

const abs = (p) => new URL(p, SCOPE).href;
const SHELL_URLS = MANIFEST.shell.map(abs);
const SHELL_SET = new Set(SHELL_URLS);
const DATA_REV = new Map(MANIFEST.data.map((d) => [abs(d.path), d.rev]));
const INDEX = abs('index.html');

/** The response with COOP/COEP added when the host sent none (opaque responses cannot be changed, nor need it). */
function isolate(res) {
  if (!res || res.type === 'opaque' || res.type === 'opaqueredirect' || res.status === 0) return res;
  if (res.headers.has('Cross-Origin-Embedder-Policy') && res.headers.has('Cross-Origin-Opener-Policy')) return res;
  const headers = new Headers(res.headers);
  if (!headers.has('Cross-Origin-Opener-Policy')) headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  if (!headers.has('Cross-Origin-Embedder-Policy')) headers.set('Cross-Origin-Embedder-Policy', 'credentialless');
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

/** A copy of `res` whose headers say which content hash it was checked against. */
function stamped(body, res, rev) {
  const headers = new Headers(res.headers);
  headers.set(REV_HEADER, rev);
  return new Response(body, { status: res.status, statusText: res.statusText, headers });
}

async function sha256(buf) {
  const d = new Uint8Array(await crypto.subtle.digest('SHA-256', buf));
  return Array.from(d, (b) => b.toString(16).padStart(2, '0')).join('');
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL);
      const fetchNow = [];
      for (const u of SHELL_URLS) {
        // a hashed asset of an earlier version is the same file: copy it instead of downloading it again
        const old = u.includes('/assets/') ? await caches.match(u) : undefined;
        if (old) await cache.put(u, old);
        else fetchNow.push(new Request(u, { cache: 'reload' }));
      }
      await cache.addAll(fetchNow);
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const k of await caches.keys()) if (k.startsWith(`${PREFIX}:shell:`) && k !== SHELL) await caches.delete(k);
      const data = await caches.open(DATA);
      for (const req of await data.keys()) if (!DATA_REV.has(req.url)) await data.delete(req);
      await self.clients.claim();
    })(),
  );
});

let caching;
/** Cache every built-in data file not cached yet at its manifest hash (one at a time; best effort). */
function cacheData() {
  caching ??= (async () => {
    const cache = await caches.open(DATA);
    for (const [u, rev] of DATA_REV) {
      try {
        const hit = await cache.match(u);
        if (hit && hit.headers.get(REV_HEADER) === rev) continue;
        // the HTTP cache may already hold it (the page just loaded it); a stale copy fails the hash and is fetched anew
        for (const mode of ['default', 'reload']) {
          const res = await fetch(u, { cache: mode });
          if (!res.ok) break;
          const buf = await res.arrayBuffer();
          if ((await sha256(buf)) === rev) {
            await cache.put(u, stamped(buf, res, rev));
            break;
          }
        }
      } catch {
        // offline or the host is gone: the next visit tries again
      }
    }
  })().finally(() => {
    caching = undefined;
  });
  return caching;
}

self.addEventListener('message', (event) => {
  const type = event.data && event.data.type;
  if (type === 'skip-waiting') void self.skipWaiting();
  else if (type === 'cache-data') event.waitUntil(cacheData());
});

/** Network first; a good answer is also kept in `cacheName` (under `key`); offline, the kept copy. */
async function networkFirst(event, req, key, cacheName) {
  try {
    const res = await fetch(req);
    if (res.ok && res.type === 'basic') {
      const copy = res.clone();
      event.waitUntil(
        caches
          .open(cacheName)
          .then((c) => c.put(key, copy))
          .catch(() => undefined),
      );
    }
    return res;
  } catch (e) {
    const hit = await caches.open(cacheName).then((c) => c.match(key));
    if (hit) return hit;
    throw e;
  }
}

async function respond(event, url) {
  const req = event.request;
  const key = url.origin + url.pathname;
  if (req.mode === 'navigate' && (url.pathname === SCOPE.pathname || key === INDEX)) {
    const hit = await caches.match(INDEX, { cacheName: SHELL });
    return hit ?? fetch(req);
  }
  if (SHELL_SET.has(key)) {
    const hit = await caches.match(key, { cacheName: SHELL });
    return hit ?? fetch(req);
  }
  const rev = DATA_REV.get(key);
  if (rev !== undefined) {
    const hit = await caches.open(DATA).then((c) => c.match(key));
    if (hit && hit.headers.get(REV_HEADER) === rev) return hit;
    try {
      // not kept from here: cacheData() keeps data files only once checked against their hash
      return await fetch(req);
    } catch (e) {
      if (hit) return hit; // an older copy beats nothing when offline
      throw e;
    }
  }
  return networkFirst(event, req, key, RUNTIME);
}

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET' || req.headers.has('range')) return;
  const url = new URL(req.url);
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return; // other origins: untouched
  if (url.pathname === `${SCOPE.pathname}sw.js`) return;
  event.respondWith(respond(event, url).then(isolate));
});
