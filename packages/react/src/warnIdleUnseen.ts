import { useEffect } from 'react';
import type { AuthContextValue } from './authContext';

// Development builds only (each hook is called under a `NODE_ENV` check): idle sign-out is set in
// the config, its warning rendered elsewhere; the config alone ends sessions with no warning.

/** The warnings and `useIdle()` readers mounted under each client. */
const readers = /* @__PURE__ */ new WeakMap<AuthContextValue, number>();
const warned = /* @__PURE__ */ new WeakSet<AuthContextValue>();

/** Counts a warning or `useIdle()` reader as showing `client`'s warning while it is mounted. */
export function useIdleReader(client: AuthContextValue): void {
  useEffect(() => {
    readers.set(client, (readers.get(client) ?? 0) + 1);
    return () => void readers.set(client, (readers.get(client) ?? 1) - 1);
  }, [client]);
}

/**
 * Warns once when `client`'s idle warning is due and, a second later, no warning is mounted to
 * show it: the session would end with no warning. A second, because the clock shows the warning as
 * soon as a session within it is restored, before React mounts what the session gates
 * (`<SignedIn>`) or loads a lazy warning.
 */
export function useIdleUnseenWarning(client: AuthContextValue): void {
  useEffect(() => {
    const due = () => client.idle.getSnapshot().status === 'warning';
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = client.idle.subscribe(() => {
      if (timer !== undefined || warned.has(client) || !due()) return;
      timer = setTimeout(() => {
        timer = undefined;
        if (!due() || (readers.get(client) ?? 0) > 0 || warned.has(client)) return;
        warned.add(client);
        console.warn(
          'oidc-kit: the idle warning is due, but nothing shows it, so the session will end with no warning: render <IdleWarning /> inside <AuthProvider>, or a warning of your own with useIdle().',
        );
      }, 1_000);
    });
    return () => {
      unsubscribe();
      clearTimeout(timer);
    };
  }, [client]);
}
