import { describeSignInError, useAuthActions, useAuthState } from '@oidc-kit/react';
import ui from '../styles/ui.module.css';

/**
 * A banner for a failed sign-in, a sign-out the provider could not complete, or an ended session,
 * with the way forward; and for a failed step-up or renewal beside a live session, which is kept.
 */
export function SignInProblem() {
  // The error only, whatever the status (a failed step-up keeps the session, with its error): a
  // token renewal re-renders nothing here.
  const error = useAuthState((state) => state.error);
  const signedIn = useAuthState((state) => state.status === 'authenticated');
  // Signed out here by the user, with an error: the provider's session could not be ended.
  const signOutFailed = useAuthState((state) => state.signOutReason === 'user');
  const { signIn, signOut, dismissError } = useAuthActions();
  if (error === null) return null;
  const ended = error.code === 'session_expired' || error.code === 'signed_out_elsewhere';
  const message = signOutFailed
    ? 'You are signed out of this app, but the sign-in service could not be reached: you may still be signed in at the sign-in service. On a shared computer, sign out again once it is back.'
    : error.code === 'signed_out_elsewhere'
      ? 'You signed out in another tab.'
      : error.code === 'session_expired'
        ? 'Your session ended. Sign in again to continue.'
        : signedIn && error.code === 'renew_failed'
          ? 'Your session could not be renewed just now; it is tried again before it expires.'
          : describeSignInError(error);
  return (
    <div
      className={`${ui.banner} ${ended ? ui.info : ui.problem}`}
      role={ended ? 'status' : 'alert'}
    >
      <p>
        {message}
        {signedIn && ' You are still signed in.'}
      </p>
      <div className={ui.bannerActions}>
        {/* Signed in, the session goes on: nothing to sign in to again from here. */}
        {!signedIn && (
          <button
            type="button"
            className={ui.button}
            onClick={() => void (signOutFailed ? signOut() : signIn())}
          >
            {signOutFailed ? 'Sign out again' : ended ? 'Sign in' : 'Try again'}
          </button>
        )}
        <button type="button" className={`${ui.button} ${ui.secondary}`} onClick={dismissError}>
          Dismiss
        </button>
      </div>
    </div>
  );
}
