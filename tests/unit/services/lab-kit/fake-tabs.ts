/** Tabs' coordinator in memory (the Web Locks one, ./coordinator.ts, in a test): one exclusive lock per key with a queue, and a broadcast to the other tabs. */
export function fakeTabs() {
  const holders = new Map<string, number>();
  const queue = new Map<string, { tab: number; grant: (release: () => void) => void }[]>();
  const listeners: { tab: number; key: string; fn: () => void }[] = [];
  const releaseOf = (key: string, tab: number) => () => {
    if (holders.get(key) !== tab) return;
    holders.delete(key);
    const next = queue.get(key)?.shift();
    if (next) {
      holders.set(key, next.tab);
      next.grant(releaseOf(key, next.tab));
    }
  };
  return (tab: number) => ({
    async tryAcquire(key: string) {
      if (holders.has(key)) return null;
      holders.set(key, tab);
      return releaseOf(key, tab);
    },
    acquire(key: string, signal: AbortSignal) {
      return new Promise<() => void>((resolve, reject) => {
        const entry = { tab, grant: resolve };
        queue.set(key, [...(queue.get(key) ?? []), entry]);
        signal.addEventListener('abort', () => {
          queue.set(
            key,
            (queue.get(key) ?? []).filter((e) => e !== entry),
          );
          reject(new Error('aborted'));
        });
      });
    },
    stored(key: string) {
      for (const l of listeners) if (l.tab !== tab && l.key === key) l.fn();
    },
    onStored(key: string, fn: () => void) {
      const l = { tab, key, fn };
      listeners.push(l);
      return () => listeners.splice(listeners.indexOf(l), 1);
    },
  });
}
