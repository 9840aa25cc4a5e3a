import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { ReactNode } from 'react';
import { AuthContext } from '@oidc-kit/react';
import { createMockAuthClient } from './createMockAuthClient';
import type { MockAuthClient, MockAuthOptions } from './createMockAuthClient';

/** Props of {@link MockAuthProvider}: a state to show, or a mock client you hold. */
export interface MockAuthProviderProps extends MockAuthOptions {
  children?: ReactNode;
  /** A client made with `createMockAuthClient`, to assert on its spies or change its state. */
  client?: MockAuthClient;
}

/**
 * Puts a mock auth client where `AuthProvider` puts the real one, so the real hooks and
 * components render any auth state in tests and stories, with no provider and no network.
 *
 * @example
 * render(
 *   <MockAuthProvider state="authenticated" user={createTestUser({ roles: ['admin'] })}>
 *     <AdminPage />
 *   </MockAuthProvider>,
 * );
 */
export function MockAuthProvider({
  children,
  client,
  ...options
}: MockAuthProviderProps): ReactNode {
  const [own] = useState(() => client ?? createMockAuthClient(options));
  const active = client ?? own;
  // Re-rendered on each change of the mock, as an update: React first runs the effects of its last
  // commit, so a component an async render has just mounted (a router's page after its loader)
  // has subscribed, and shows the change when `act(() => auth.set(...))` returns.
  useSyncExternalStore(active.subscribe, active.getSnapshot, active.getSnapshot);
  const { state, user, error, signOutReason } = options;
  // The state props the mock last took: it starts in them, so only a change is applied (a child's
  // action on mount, e.g. the guard's sign-in, runs first and must stand, as with the real client).
  const applied = useRef([state, user, error, signOutReason]);
  useEffect(() => {
    // As `AuthProvider` does: a test can check that its component runs under a started client.
    void active.start();
    return () => active.stop();
  }, [active]);
  useEffect(() => {
    const given = [state, user, error, signOutReason];
    if (client === undefined && given.some((value, index) => value !== applied.current[index])) {
      applied.current = given;
      own.set({ state, user, error, signOutReason });
    }
  }, [client, own, state, user, error, signOutReason]);
  return <AuthContext.Provider value={active}>{children}</AuthContext.Provider>;
}
