import { useMemo } from 'react';
import type { User } from 'oidc-client-ts';
import type { SignInOptions, SignOutOptions } from '../core/clientOptions';
import type { AuthContextValue } from '../authContext';
import { useAuthClient } from './useAuthClient';

/** What {@link useAuthActions} returns: stable functions, the same across renders. */
export interface AuthActions {
  signIn(options?: SignInOptions): Promise<void>;
  signOut(options?: SignOutOptions): Promise<void>;
  renew(): Promise<User | null>;
  getAccessToken(): Promise<string | null>;
  /** Forgets the last error (an `error` status becomes `unauthenticated`). */
  dismissError(): void;
}

/**
 * The auth actions without the state: a component that only acts (a "Try again" or "Dismiss"
 * button) does not re-render when the state changes.
 *
 * @example
 * const { signIn, dismissError } = useAuthActions();
 */
export function useAuthActions(): AuthActions {
  return useClientActions(useAuthClient('useAuthActions'));
}

/** The actions of `client`, memoised; `useAuth` shares it (and names itself in errors). */
export function useClientActions(client: AuthContextValue): AuthActions {
  return useMemo(
    () => ({
      signIn: (options?: SignInOptions) => client.signIn(options),
      signOut: (options?: SignOutOptions) => client.signOut(options),
      renew: () => client.renew(),
      getAccessToken: () => client.getAccessToken(),
      dismissError: () => client.dismissError(),
    }),
    [client],
  );
}
