import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import type { AccessRequirements } from '../core/checkAccess';
import type { AuthError } from '../core/errors';
import { sessionOverErrors } from '../core/sessionOverErrors';
import { readGuardAttempt, writeGuardAttempt } from '../core/guardAttempts';
import { useAccess } from '../hooks/useAccess';
import { useAuthClient } from '../hooks/useAuthClient';
import { useSelectedAuthState } from '../hooks/useSelectedAuthState';

/** Props of {@link RequireAuth}. */
export interface RequireAuthProps extends AccessRequirements {
  children?: ReactNode;
  /** Shown while the session is restored or a sign-in is under way. */
  fallback?: ReactNode;
  /** Shown to a signed-in user who does not meet the requirements. Default: a "Forbidden" message. */
  forbidden?: ReactNode;
  /** Shown after a failed sign-in. Default: the message and a "Try again" button. */
  error?: ReactNode | ((error: AuthError, retry: () => void) => ReactNode);
  /** Where to return after sign-in. Default: the current location. */
  returnTo?: string;
  /** Try `prompt=none` first (no login page if the provider session is alive), then interactive. */
  silent?: boolean;
}

function currentLocation(): string {
  const location = globalThis.location;
  return location === undefined ? '/' : `${location.pathname}${location.search}${location.hash}`;
}

/** The default shown while waiting. */
export function AuthPending(): ReactNode {
  return (
    <p role="status" aria-live="polite">
      Checking your session…
    </p>
  );
}

/** The default shown to a signed-in user who lacks access. */
export function AuthForbidden(): ReactNode {
  return (
    <section role="alert" aria-labelledby="oidc-kit-forbidden">
      <h1 id="oidc-kit-forbidden">Forbidden</h1>
      <p>You are signed in, but this page needs a role your account does not have.</p>
      <a href="/">Go to the home page</a>
    </section>
  );
}

/**
 * The user-facing sentence for a failure: the one place oidc-kit words it, for the guard's error
 * screen, the React Router guard and your own screens. `error.message` is for developers.
 */
export function describeSignInError(error: AuthError): string {
  switch (error.code) {
    case 'provider_error':
      return error.providerError === 'access_denied'
        ? 'Sign-in was cancelled.'
        : 'The sign-in service refused the sign-in.';
    case 'network':
    case 'timeout':
      return 'The sign-in service could not be reached. Check your connection.';
    case 'popup_blocked':
      return 'The browser blocked the sign-in window.';
    case 'popup_closed':
      return 'The sign-in window was closed before sign-in finished.';
    case 'session_expired':
      return 'Your session has ended. Sign in again.';
    case 'signed_out_elsewhere':
      return 'You signed out in another tab.';
    default:
      // In development the full message helps more than a sentence; production says it plainly.
      return process.env.NODE_ENV !== 'production' ? error.message : 'Sign-in did not complete.';
  }
}

/** The default shown after a failed sign-in: what happened and a way to retry. */
export function AuthErrorMessage({
  error,
  retry,
}: {
  error: AuthError;
  retry: () => void;
}): ReactNode {
  return (
    <section role="alert" aria-labelledby="oidc-kit-sign-in-failed">
      <h1 id="oidc-kit-sign-in-failed">Sign-in failed</h1>
      <p>{describeSignInError(error)}</p>
      <button type="button" onClick={retry}>
        Try again
      </button>
    </section>
  );
}

/**
 * Shows its children to a signed-in user who meets the requirements; starts sign-in for a
 * signed-out one, once per navigation: after a failed or abandoned sign-in it shows the error
 * with "Try again" instead of redirecting again, so it can never loop. A signed-in user without
 * access sees `forbidden` and is not sent to sign in.
 *
 * @example
 * <RequireAuth roles={['admin']}><AdminPage /></RequireAuth>
 */
export function RequireAuth({
  children,
  fallback = <AuthPending />,
  forbidden = <AuthForbidden />,
  error: renderError,
  returnTo,
  silent = false,
  roles,
  scopes,
  when,
}: RequireAuthProps): ReactNode {
  const client = useAuthClient('RequireAuth');
  const access = useAccess({ roles, scopes, when });
  const error = useSelectedAuthState('RequireAuth', (state) => state.error);
  const status = useSelectedAuthState('RequireAuth', (state) => state.status);
  const target = returnTo ?? currentLocation();

  const attempt =
    status === 'unauthenticated' || status === 'error' ? readGuardAttempt(target) : null;
  const silentFailed =
    attempt?.silent === true &&
    error?.code === 'provider_error' &&
    sessionOverErrors.has(error.providerError ?? '');
  // Redirect when signed out and not yet tried for this path, or once more after a failed
  // silent attempt; never after an interactive attempt came back without a session.
  const redirect = (status === 'unauthenticated' && attempt === null) || silentFailed;
  const interactive = silentFailed || !silent;

  useEffect(() => {
    if (status === 'authenticated') writeGuardAttempt(null);
  }, [status]);

  // StrictMode runs effects twice on mount: one sign-in per guard and path all the same.
  const started = useRef<string | null>(null);
  useEffect(() => {
    const key = `${target}\n${interactive}`;
    if (!redirect || started.current === key) return;
    started.current = key;
    writeGuardAttempt({ returnTo: target, silent: !interactive });
    void client.signIn({ returnTo: target, prompt: interactive ? undefined : 'none' });
  }, [redirect, interactive, target, client]);

  const retry = () => {
    writeGuardAttempt({ returnTo: target, silent: false });
    void client.signIn({ returnTo: target });
  };

  if (access === 'allowed') return children;
  if (access === 'denied') return forbidden;
  if (redirect || access === 'pending') return fallback;
  if (error !== null) {
    if (typeof renderError === 'function') return renderError(error, retry);
    return renderError ?? <AuthErrorMessage error={error} retry={retry} />;
  }
  // Came back from an interactive attempt without a session and without an error.
  return (
    <section role="alert" aria-labelledby="oidc-kit-sign-in-needed">
      <h1 id="oidc-kit-sign-in-needed">Sign-in needed</h1>
      <p>This page is for signed-in users.</p>
      <button type="button" onClick={retry}>
        Sign in
      </button>
    </section>
  );
}
