import { useRef, useSyncExternalStore } from 'react';
import type { AuthSnapshot } from '../core/authState';
import { useAuthClient } from './useAuthClient';

interface Memo<T> {
  snapshot: AuthSnapshot;
  selector: (snapshot: AuthSnapshot) => T;
  selection: T;
}

/** Reads `selector(snapshot)` and re-renders only when `isEqual` says the selection changed. */
export function useSelectedAuthState<T>(
  hook: string,
  selector: (snapshot: AuthSnapshot) => T,
  isEqual: (previous: T, next: T) => boolean = Object.is,
): T {
  const client = useAuthClient(hook);
  const memo = useRef<Memo<T> | null>(null);
  const select = () => {
    const snapshot = client.getSnapshot();
    const previous = memo.current;
    if (previous !== null && previous.snapshot === snapshot && previous.selector === selector) {
      return previous.selection;
    }
    const next = selector(snapshot);
    const selection =
      previous !== null && isEqual(previous.selection, next) ? previous.selection : next;
    memo.current = { snapshot, selector, selection };
    return selection;
  };
  return useSyncExternalStore(client.subscribe, select, select);
}

/**
 * Reads one slice of the auth state; the component re-renders only when that slice changes.
 *
 * @example
 * const name = useAuthState((state) => state.user?.profile.name);
 */
export function useAuthState<T>(
  selector: (snapshot: AuthSnapshot) => T,
  isEqual?: (previous: T, next: T) => boolean,
): T {
  return useSelectedAuthState('useAuthState', selector, isEqual);
}
