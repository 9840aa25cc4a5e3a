import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { AuthErrorMessage, AuthPending, useAuth } from '@oidc-kit/react';

/** Props of {@link AuthCallback}. */
export interface AuthCallbackProps {
  /** Shown while the sign-in response is processed. */
  fallback?: ReactNode;
  /** Where "Try again" returns to, and the link when there is nothing to finish. Default `/`. */
  home?: string;
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
}: AuthCallbackProps): ReactNode {
  const { status, error, signIn } = useAuth();
  const query = new URLSearchParams(useLocation().search);
  // The router still shows a sign-in response (RFC 6749 §4.1.2), which the client processes and
  // then moves the app on from: progress until then, whatever the outcome.
  if (query.has('state') && (query.has('code') || query.has('error'))) return fallback;
  if (status === 'error' && error !== null) {
    return <AuthErrorMessage error={error} retry={() => void signIn({ returnTo: home })} />;
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
