import { useCallback, useRef, useSyncExternalStore } from 'react';
import type { AuthSnapshot } from '../core/authState';
import { useAuthClient } from './useAuthClient';

interface Memo<T> {
  snapshot: AuthSnapshot;
  selector: (snapshot: AuthSnapshot) => T;
  selection: T;
}

/**
 * The one subscription every hook and component reads the engine through: `selector(snapshot)`,
 * re-rendering only when `isEqual` says the selection changed. `hook` names the caller in the
 * error thrown outside `<AuthProvider>`.
 */
export function useSelectedAuthState<T>(
  hook: string,
  selector: (snapshot: AuthSnapshot) => T,
  isEqual: (previous: T, next: T) => boolean = Object.is,
): T {
  const client = useAuthClient(hook);
  const memo = useRef<Memo<T> | null>(null);
  const selectFrom = (snapshot: AuthSnapshot) => {
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
  // Called on the client, so that an engine whose methods need their object works too.
  const subscribe = useCallback((listener: () => void) => client.subscribe(listener), [client]);
  return useSyncExternalStore(
    subscribe,
    () => selectFrom(client.getSnapshot()),
    // Server render and hydration: what the server rendered, though the client may know more now.
    () => selectFrom(client.getServerSnapshot?.() ?? client.getSnapshot()),
  );
}
