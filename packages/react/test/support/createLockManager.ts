import type { LockManagerLike } from '../../src/core/tabSync';

/**
 * A Web Locks stand-in shared by the "tabs" of one test, as `navigator.locks` is by the tabs of one
 * origin: one holder per name, FIFO; `requests` lists the names asked for.
 */
export function createLockManager(): LockManagerLike & { requests: string[] } {
  const queues = new Map<string, Promise<unknown>>();
  const requests: string[] = [];
  return {
    requests,
    request<T>(name: string, callback: () => Promise<T>): Promise<T> {
      requests.push(name);
      const previous = queues.get(name) ?? Promise.resolve();
      const run = previous.then(callback, callback);
      queues.set(
        name,
        run.catch(() => undefined),
      );
      return run;
    },
  };
}
