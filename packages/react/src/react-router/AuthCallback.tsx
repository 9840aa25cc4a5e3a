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

/** An authorization response's parameters (RFC 6749 §4.1.2), in the query or the fragment. */
const responseParameter = /[?&#](?:code|state|error)=/;

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
  const { search, hash } = useLocation();
  // The router still shows the response's address: the client is on its way to the return path.
  if (responseParameter.test(search + hash)) return fallback;
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
