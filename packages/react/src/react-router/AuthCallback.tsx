import type { ReactNode } from 'react';
import { Link } from 'react-router';
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
 * the app to the return path (React Router follows); meanwhile this shows progress, a failed
 * sign-in with "Try again", or, opened with no sign-in to finish, a link home.
 *
 * @example
 * { path: '/callback', element: <AuthCallback /> }
 */
export function AuthCallback({
  fallback = <AuthPending />,
  home = '/',
}: AuthCallbackProps): ReactNode {
  const { status, error, signIn } = useAuth();
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
