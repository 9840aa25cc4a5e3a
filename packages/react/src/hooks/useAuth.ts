import { useMemo } from 'react';
import type { User } from 'oidc-client-ts';
import type { SignInOptions, SignOutOptions } from '../core/AuthClient';
import type { AuthStatus } from '../core/authState';
import type { AuthError } from '../core/errors';
import { useAuthClient } from './useAuthClient';
import { useSelectedAuthState } from './useSelectedAuthState';

/** What {@link useAuth} returns. */
export interface UseAuthResult {
  status: AuthStatus;
  isAuthenticated: boolean;
  /** True while the session is being restored or a sign-in / sign-out is under way. */
  isLoading: boolean;
  user: User | null;
  error: AuthError | null;
  signIn(options?: SignInOptions): Promise<void>;
  signOut(options?: SignOutOptions): Promise<void>;
  renew(): Promise<User | null>;
  getAccessToken(): Promise<string | null>;
  /** Forgets the last error (an `error` status becomes `unauthenticated`). */
  dismissError(): void;
}

/**
 * The whole auth state and the actions. Re-renders on every change, renewals included; read a
 * slice with `useAuthState` or `useUser` where that matters.
 *
 * @example
 * const { isAuthenticated, user, signIn } = useAuth();
 */
export function useAuth(): UseAuthResult {
  const client = useAuthClient('useAuth');
  const snapshot = useSelectedAuthState('useAuth', (state) => state);
  const actions = useMemo(
    () => ({
      signIn: (options?: SignInOptions) => client.signIn(options),
      signOut: (options?: SignOutOptions) => client.signOut(options),
      renew: () => client.renew(),
      getAccessToken: () => client.getAccessToken(),
      dismissError: () => client.dismissError(),
    }),
    [client],
  );
  return useMemo(
    () => ({
      status: snapshot.status,
      isAuthenticated: snapshot.status === 'authenticated',
      isLoading: ['loading', 'signing-in', 'signing-out'].includes(snapshot.status),
      user: snapshot.user,
      error: snapshot.error,
      ...actions,
    }),
    [snapshot, actions],
  );
}
