import { useContext } from 'react';
import type { ReactNode } from 'react';
import { Link, useHref, useLocation } from 'react-router';
import {
  AuthContext,
  AuthError,
  AuthErrorMessage,
  AuthPending,
  useAuthActions,
  useAuthState,
} from '@oidc-kit/react';
// Bundled into this entry: a few lines each, not worth a public export.
import { missingProvider } from '../missingProvider';
import { reportRejection } from '../reportRejection';

/** Props of {@link AuthCallback}. */
export interface AuthCallbackProps {
  /** Shown while the sign-in response is processed. */
  fallback?: ReactNode;
  /**
   * Where "Try again" returns to, and the link when there is nothing to finish, in the router's
   * terms (under its `basename`). Default `/`.
   */
  home?: string;
  /**
   * Shown for a failed sign-in with no response left to finish (e.g. your own page explains it
   * already). Default: the message and a "Try again" button, which signs in again towards `home`.
   */
  error?: ReactNode | ((error: AuthError, retry: () => void) => ReactNode);
}

/** Whether a query holds an authorization response (RFC 6749 §4.1.2). */
function carriesResponse(search: string): boolean {
  const query = new URLSearchParams(search);
  return query.has('state') && (query.has('code') || query.has('error'));
}

/**
 * The element for the `redirect_uri` route. `AuthProvider` processes the callback and then moves
 * the app to the return path (React Router follows); until the route changes this shows progress,
 * whatever the outcome, and the page the user returns to explains a failure. Opened with no
 * sign-in response to finish, it shows the current error with "Try again", or a link home.
 *
 * @example
 * { path: '/callback', element: <AuthCallback /> }
 */
export function AuthCallback({
  fallback = <AuthPending />,
  home = '/',
  error: failureView,
}: AuthCallbackProps): ReactNode {
  // Checked first, so that the error names this component, not the hooks below.
  if (useContext(AuthContext) === null) {
    throw new AuthError(
      'config_invalid',
      process.env.NODE_ENV !== 'production' ? missingProvider('AuthCallback') : '',
      { field: 'AuthCallback' },
    );
  }
  // Slices, not useAuth(): a token renewal changes neither, and re-renders nothing here.
  const status = useAuthState((state) => state.status);
  const error = useAuthState((state) => state.error);
  const { signIn } = useAuthActions();
  // The sign-in's return path is the page's full path: under a router `basename`, with it.
  const homePath = useHref(home);
  // The router still shows a sign-in response that the client has taken out of the address bar:
  // it processed it and is moving the app on. Progress until the route changes, whatever the
  // outcome. (A response the client did not take, e.g. with no client running, stays there.)
  const routed = useLocation().search;
  if (carriesResponse(routed) && !carriesResponse(globalThis.location?.search ?? '')) {
    return fallback;
  }
  if (status === 'error' && error !== null) {
    const retry = () => void reportRejection(signIn({ returnTo: homePath }));
    return typeof failureView === 'function'
      ? failureView(error, retry)
      : (failureView ?? <AuthErrorMessage error={error} retry={retry} />);
  }
  if (status === 'authenticated' || status === 'unauthenticated') {
    return (
      <p role="status">
        Nothing left to finish here. <Link to={home}>Continue</Link>
      </p>
    );
  }
  return fallback;
}
