import { useMemo } from 'react';
import type { User } from 'oidc-client-ts';
import type { AuthStatus } from '../core/authState';
import { isUnderWay } from '../core/authState';
import type { AuthError } from '../core/errors';
import { useAuthClient } from './useAuthClient';
import { useSelectedAuthState } from './useSelectedAuthState';
import { useClientActions } from './useAuthActions';
import type { AuthActions } from './useAuthActions';

/** What {@link useAuth} returns. */
export interface UseAuthResult extends AuthActions {
  status: AuthStatus;
  isAuthenticated: boolean;
  /** True while the session is being restored or a sign-in / sign-out is under way. */
  isLoading: boolean;
  user: User | null;
  error: AuthError | null;
}

/**
 * The whole auth state and the actions. Re-renders on every change, renewals included; read a
 * slice with `useAuthState` or `useUser`, and take the actions alone with `useAuthActions`, where
 * that matters.
 *
 * @example
 * const { isAuthenticated, user, signIn } = useAuth();
 */
export function useAuth(): UseAuthResult {
  const client = useAuthClient('useAuth');
  const snapshot = useSelectedAuthState('useAuth', (state) => state);
  const actions = useClientActions(client);
  return useMemo(
    () => ({
      status: snapshot.status,
      isAuthenticated: snapshot.status === 'authenticated',
      isLoading: isUnderWay(snapshot.status),
      user: snapshot.user,
      error: snapshot.error,
      ...actions,
    }),
    [snapshot, actions],
  );
}
