import type { LockManagerLike } from '../../src/core/tabSync';

/**
 * A Web Locks stand-in shared by the "tabs" of one test, as `navigator.locks` is by the tabs of one
 * origin: one holder per name, FIFO; `requests` lists the names asked for, `held` counts the locks
 * held now.
 */
export function createLockManager(): LockManagerLike & { requests: string[]; held: number } {
  const queues = new Map<string, Promise<unknown>>();
  const requests: string[] = [];
  const manager = {
    requests,
    held: 0,
    request<T>(name: string, callback: () => Promise<T>): Promise<T> {
      requests.push(name);
      const previous = queues.get(name) ?? Promise.resolve();
      const hold = async () => {
        manager.held += 1;
        try {
          return await callback();
        } finally {
          manager.held -= 1;
        }
      };
      const run = previous.then(hold, hold);
      queues.set(
        name,
        run.catch(() => undefined),
      );
      return run;
    },
  };
  return manager;
}
