import type { LockManagerLike } from '../../src/core/tabSync';

/**
 * A Web Locks stand-in shared by the "tabs" of one test, as `navigator.locks` is by the tabs of one
 * origin: one holder per name, FIFO; `requests` lists the names asked for, `holding` the names held
 * now (one entry a holder); `query` tells the held and the waited-for ones, as the browser's does.
 */
export function createLockManager(): Required<LockManagerLike> & {
  requests: string[];
  holding: string[];
} {
  const queues = new Map<string, Promise<unknown>>();
  const requests: string[] = [];
  const holding: string[] = [];
  const waiting: string[] = [];
  const manager = {
    requests,
    holding,
    request<T>(name: string, callback: () => Promise<T>): Promise<T> {
      requests.push(name);
      waiting.push(name);
      const previous = queues.get(name) ?? Promise.resolve();
      const hold = async () => {
        waiting.splice(waiting.indexOf(name), 1);
        holding.push(name);
        try {
          return await callback();
        } finally {
          holding.splice(holding.indexOf(name), 1);
        }
      };
      const run = previous.then(hold, hold);
      queues.set(
        name,
        run.catch(() => undefined),
      );
      return run;
    },
    query() {
      return Promise.resolve({
        held: holding.map((name) => ({ name })),
        pending: waiting.map((name) => ({ name })),
      });
    },
  };
  return manager;
}
