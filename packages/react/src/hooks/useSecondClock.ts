import { useCallback, useSyncExternalStore } from 'react';

const currentSecond = () => Math.floor(Date.now() / 1000);
const noClock = () => 0;

/**
 * The wall clock in whole seconds since the epoch, re-rendering once a second while `ticking`;
 * 0 while not ticking, and on the server.
 */
export function useSecondClock(ticking: boolean): number {
  const subscribe = useCallback(
    (tick: () => void) => {
      if (!ticking) return () => undefined;
      const timer = setInterval(tick, 1000);
      return () => clearInterval(timer);
    },
    [ticking],
  );
  return useSyncExternalStore(subscribe, ticking ? currentSecond : noClock, noClock);
}
