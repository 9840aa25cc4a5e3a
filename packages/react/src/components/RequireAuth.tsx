import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { accessOf } from '../core/checkAccess';
import type { Access, AccessRequirements } from '../core/checkAccess';
import type { AuthStatus } from '../core/authState';
import type { AuthError } from '../core/errors';
import { sessionOverErrors } from '../core/sessionOverErrors';
import { readGuardAttempt, writeGuardAttempt } from '../core/guardAttempts';
import { currentPath } from '../core/returnTo';
import { useAuthClient } from '../hooks/useAuthClient';
import { reportRejection } from '../reportRejection';
import { useSelectedAuthState } from '../hooks/useSelectedAuthState';
import { AuthErrorMessage } from './AuthErrorMessage';
import { AuthForbidden } from './AuthForbidden';
import { AuthPending } from './AuthPending';
import { AuthSignInNeeded } from './AuthSignInNeeded';
import { sameFields } from '../core/sameFields';

/** Props of {@link RequireAuth}. */
export interface RequireAuthProps extends AccessRequirements {
  children?: ReactNode;
  /** Shown while the session is restored or a sign-in is under way. */
  fallback?: ReactNode;
  /** Shown to a signed-in user who does not meet the requirements. Default: a "Forbidden" message. */
  forbidden?: ReactNode;
  /** Shown after a failed sign-in. Default: the message and a "Try again" button. */
  error?: ReactNode | ((error: AuthError, retry: () => void) => ReactNode);
  /**
   * Shown to a user who came back signed out with no error (the guard does not redirect twice).
   * Default: {@link AuthSignInNeeded}, a sign-in button.
   */
  signInNeeded?: ReactNode | ((signIn: () => void) => ReactNode);
  /** Where to return after sign-in. Default: the current location. */
  returnTo?: string;
  /** Try `prompt=none` first (no login page if the provider session is alive), then interactive. */
  silent?: boolean;
}

interface GuardView {
  access: Access;
  error: AuthError | null;
  status: AuthStatus;
  /** The session ended while the page was open (`signOutReason` set). */
  ended: boolean;
}

/**
 * Shows its children to a signed-in user who meets the requirements; starts sign-in for a
 * signed-out one, once per navigation: after a failed or abandoned sign-in it shows the error
 * with "Try again" instead of redirecting again, so it can never loop. A session that ended while
 * the page was open (signed out, elsewhere, idle, expired) shows `signInNeeded` instead of a
 * redirect, which could sign the user straight back in. A signed-in user without
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
  signInNeeded,
  returnTo,
  silent = false,
  roles,
  scopes,
  when,
}: RequireAuthProps): ReactNode {
  const client = useAuthClient('RequireAuth');
  // One subscription, to what the guard shows: a renewal that changes none of it re-renders nothing.
  const { access, error, status, ended } = useSelectedAuthState(
    'RequireAuth',
    (state): GuardView => ({
      access: accessOf(state, { roles, scopes, when }, (user) => client.readRoles(user)),
      error: state.error,
      status: state.status,
      ended: state.signOutReason !== null,
    }),
    sameFields,
  );
  const target = returnTo ?? currentPath();

  const attempt =
    status === 'unauthenticated' || status === 'error' ? readGuardAttempt(target) : null;
  const silentFailed =
    attempt?.silent === true &&
    error?.code === 'provider_error' &&
    sessionOverErrors.has(error.providerError ?? '');
  // Redirect when signed out and not yet tried for this path, or once more after a failed
  // silent attempt; never after an interactive attempt came back without a session, nor when the
  // session ended in this page (a local-only sign-out would be undone by the provider's session).
  const redirect = (status === 'unauthenticated' && attempt === null && !ended) || silentFailed;
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
    void reportRejection(
      client.signIn({ returnTo: target, prompt: interactive ? undefined : 'none' }),
    );
  }, [redirect, interactive, target, client]);

  const retry = () => {
    writeGuardAttempt({ returnTo: target, silent: false });
    void reportRejection(client.signIn({ returnTo: target }));
  };

  if (access === 'allowed') return children;
  if (access === 'denied') return forbidden;
  if (redirect || access === 'pending') return fallback;
  if (error !== null) {
    if (typeof renderError === 'function') return renderError(error, retry);
    return renderError ?? <AuthErrorMessage error={error} retry={retry} />;
  }
  // Came back from an interactive attempt without a session and without an error.
  if (typeof signInNeeded === 'function') return signInNeeded(retry);
  return signInNeeded ?? <AuthSignInNeeded signIn={retry} />;
}
