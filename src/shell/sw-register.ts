/**
 * The service worker, page side (docs/deploy.md): register `sw.js` (built by scripts/sw-plugin.mjs) under
 * the app's base path, in production builds only — under the Vite dev server (`npm start`) a service worker would
 * serve stale modules, and the dev server has no sw.js anyway.
 *
 * Three jobs:
 * - offline: once the worker controls the page, ask it to cache the built-in data files too (in the background,
 *   after the app shell; a file already cached at the same revision is not fetched again);
 * - cross-origin isolation on hosts that cannot set headers (GitHub Pages): the worker adds COOP/COEP to what it
 *   serves, so the page is isolated from the first load it serves; the first visit reloads once when the worker
 *   takes control (`shouldReloadForIsolation`);
 * - updates: a new worker waits; `onUpdate(apply)` is called and `apply()` lets it take over and reloads the page.
 */

export interface RegisterOptions {
  /** called when a new version is installed and waiting; `apply()` switches to it and reloads */
  onUpdate?: (apply: () => void) => void;
  /** the app's base path (import.meta.env.BASE_URL) */
  base?: string;
  /** register at all (import.meta.env.PROD): never under the dev server */
  enabled?: boolean;
}

/** The sessionStorage key that remembers the one isolation reload of this tab. */
export const ISOLATION_RELOAD_KEY = 'cil-lab:isolation-reload';

/**
 * Reload once so that the service worker serves the page with COOP/COEP: only when the page is not isolated, a
 * worker controls it (so the reload goes through the worker), the browser can isolate at all (a secure context),
 * and this tab has not reloaded for it already (a browser that ignores the headers — e.g. one without COEP
 * `credentialless` — must not loop).
 */
export function shouldReloadForIsolation(s: { isolated: boolean; controlled: boolean; secure: boolean; alreadyReloaded: boolean }): boolean {
  return !s.isolated && s.controlled && s.secure && !s.alreadyReloaded;
}

function sessionFlag(): { get(): boolean; set(): void; clear(): void } {
  const store = (() => {
    try {
      return globalThis.sessionStorage;
    } catch {
      return undefined; // storage blocked: no reload loop guard, so no reload either (see below)
    }
  })();
  return {
    get: () => (store ? store.getItem(ISOLATION_RELOAD_KEY) === '1' : true),
    set: () => store?.setItem(ISOLATION_RELOAD_KEY, '1'),
    clear: () => store?.removeItem(ISOLATION_RELOAD_KEY),
  };
}

let started = false;

/** Register the service worker (once per page). Resolves to the registration, or undefined when not registered. */
export async function registerServiceWorker(opts: RegisterOptions = {}): Promise<ServiceWorkerRegistration | undefined> {
  const enabled = opts.enabled ?? import.meta.env.PROD;
  const base = opts.base ?? import.meta.env.BASE_URL;
  if (!enabled || started || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return undefined;
  started = true;
  const sw = navigator.serviceWorker;
  const flag = sessionFlag();
  if (globalThis.crossOriginIsolated) flag.clear();

  const reloadForIsolation = (): boolean => {
    const go = shouldReloadForIsolation({
      isolated: Boolean(globalThis.crossOriginIsolated),
      controlled: Boolean(sw.controller),
      secure: Boolean(globalThis.isSecureContext),
      alreadyReloaded: flag.get(),
    });
    if (go) {
      flag.set();
      location.reload();
    }
    return go;
  };

  let updating = false;
  sw.addEventListener('controllerchange', () => {
    if (updating) location.reload();
    else if (!reloadForIsolation()) sw.controller?.postMessage({ type: 'cache-data' });
  });

  let reg: ServiceWorkerRegistration;
  try {
    reg = await sw.register(`${base}sw.js`, { scope: base });
  } catch (e) {
    // (a browser or test harness that blocks service workers; a host that does not serve sw.js): the app works
    // as before, online and without the fallback isolation
    console.info(`[cil-lab] no service worker: ${(e as Error)?.message ?? String(e)}`);
    return undefined;
  }
  // a harness that stubs register() (Playwright with request routing or serviceWorkers: 'block') resolves to undefined
  if (!reg) return undefined;
  if (reloadForIsolation()) return reg;
  sw.controller?.postMessage({ type: 'cache-data' });

  const offer = (w: ServiceWorker) =>
    opts.onUpdate?.(() => {
      updating = true;
      w.postMessage({ type: 'skip-waiting' });
    });
  // a new version found on an earlier load and still waiting, or one found now (the browser checks sw.js on
  // every navigation); the first install (no controller yet) is not an update
  if (reg.waiting && sw.controller) offer(reg.waiting);
  reg.addEventListener('updatefound', () => {
    const w = reg.installing;
    w?.addEventListener('statechange', () => {
      if (w.state === 'installed' && sw.controller) offer(w);
    });
  });
  return reg;
}
