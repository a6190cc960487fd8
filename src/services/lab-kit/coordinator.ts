/**
 * Tabs of one browser on the same experiment ("two tabs on the same experiment both train all
 * tasks"): the run session (./run-session.ts `coordinator`) asks for an exclusive Web Lock named after the lab and the
 * config; the tab that holds it trains, the others follow the shared store (IndexedDB), told of each stored result
 * over a BroadcastChannel, and the next in line takes over when the trainer stops (closed, cancelled, done).
 * Where the browser has no Web Locks or BroadcastChannel, `webLocksCoordinator` gives null: every tab trains on its own,
 * as before.
 */
import type { SessionCoordinator } from './run-session';

export function webLocksCoordinator(lab: string): SessionCoordinator | null {
  const locks = typeof navigator !== 'undefined' ? (navigator as Navigator & { locks?: LockManager }).locks : undefined;
  if (!locks || typeof BroadcastChannel === 'undefined') return null;
  const channel = new BroadcastChannel(`cil-lab-runs-${lab}`);
  const name = (key: string) => `cil-lab-train-${lab}-${key}`;
  /** Hold the lock until the returned release is called; null when `ifAvailable` and someone else holds it. */
  const hold = (key: string, options: LockOptions): Promise<(() => void) | null> =>
    new Promise((resolve, reject) => {
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      locks
        .request(name(key), options, async (lock) => {
          if (!lock) {
            resolve(null);
            return;
          }
          resolve(release);
          await held;
        })
        .catch(reject);
    });
  return {
    tryAcquire: (key) => hold(key, { mode: 'exclusive', ifAvailable: true }),
    acquire: async (key, signal) => {
      const release = await hold(key, { mode: 'exclusive', signal });
      if (!release) throw new Error('the lock was not granted');
      return release;
    },
    stored: (key) => channel.postMessage({ stored: key }),
    onStored(key, listener) {
      const on = (e: MessageEvent): void => {
        if ((e.data as { stored?: string } | null)?.stored === key) listener();
      };
      channel.addEventListener('message', on);
      return () => channel.removeEventListener('message', on);
    },
  };
}
