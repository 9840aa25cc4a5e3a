import { useCallback, useSyncExternalStore } from 'react';
import { inactiveIdle } from '../core/idleSnapshot';
import { useAuthClient } from './useAuthClient';
import { useSelectedAuthState } from './useSelectedAuthState';
import { useSecondClock } from './useSecondClock';
import { useIdleReader } from '../warnIdleUnseen';

/** What {@link useIdle} returns. */
export interface IdleState {
  /** `warning` from the warning until the end (or `stay()`), else `active`. */
  status: 'active' | 'warning';
  /**
   * During the warning, milliseconds until the sign-out (to the second). `Infinity` otherwise:
   * while active, the end moves with every input; and while the clock is not known yet (server
   * render, hydration).
   */
  remaining: number;
  /** Keeps the session, in every tab, and closes the warning everywhere. */
  stay(): void;
}

/**
 * Idle sign-out (`idle` in the config), for a warning of your own: re-renders when the warning
 * shows and ends, and every second while it shows. Inert (`active`) when `idle` is off.
 *
 * @example
 * const { status, remaining, stay } = useIdle();
 * if (status === 'warning') return <p>Signing out in {Math.ceil(remaining / 1000)} s <button onClick={stay}>Stay</button></p>;
 */
export function useIdle(): IdleState {
  return useIdleFor('useIdle');
}

/** {@link useIdle}, naming `caller` in the error thrown outside `<AuthProvider>`. */
export function useIdleFor(caller: string): IdleState {
  const client = useAuthClient(caller);
  const { idle } = client;
  // The build's NODE_ENV never changes between renders; production bundles drop the hook.
  // eslint-disable-next-line react-hooks/rules-of-hooks
  if (process.env.NODE_ENV !== 'production') useIdleReader(client);
  // Called on `idle`, so that an engine whose methods need their object works too.
  const subscribe = useCallback((listener: () => void) => idle.subscribe(listener), [idle]);
  const read = useCallback(() => idle.getSnapshot(), [idle]);
  const stay = useCallback(() => idle.stay(), [idle]);
  const timed = useSyncExternalStore(subscribe, read, read);
  // Nobody is timed without a user: so in hydration too, which sees the snapshot the server
  // rendered (`loading`), though the client may show the warning already.
  const signedIn = useSelectedAuthState(caller, (state) => state.user !== null);
  const { status, deadline } = signedIn ? timed : inactiveIdle;
  const ticking = status === 'warning';
  // The clock, to the second, during the warning only.
  const now = useSecondClock(ticking) * 1000;
  return {
    status,
    // The server's clock is 0 (server render and hydration): no countdown from 1970.
    remaining: ticking && deadline !== null && now !== 0 ? Math.max(0, deadline - now) : Infinity,
    stay,
  };
}
