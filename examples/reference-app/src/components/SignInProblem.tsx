import { describeSignInError, useAuthActions, useAuthState } from '@oidc-kit/react';

/** A banner for a failed sign-in or an ended session, with the way forward. */
export function SignInProblem() {
  // The error only (null while signed in): a token renewal re-renders nothing here.
  const error = useAuthState((state) => (state.status === 'authenticated' ? null : state.error));
  const { signIn, dismissError } = useAuthActions();
  if (error === null) return null;
  const ended = error.code === 'session_expired' || error.code === 'signed_out_elsewhere';
  return (
    <div className={`banner ${ended ? 'info' : 'problem'}`} role={ended ? 'status' : 'alert'}>
      <p>
        {error.code === 'signed_out_elsewhere'
          ? 'You signed out in another tab.'
          : error.code === 'session_expired'
            ? 'Your session ended. Sign in again to continue.'
            : describeSignInError(error)}
      </p>
      <div className="banner-actions">
        <button type="button" className="button" onClick={() => void signIn()}>
          {ended ? 'Sign in' : 'Try again'}
        </button>
        <button type="button" className="button secondary" onClick={dismissError}>
          Dismiss
        </button>
      </div>
    </div>
  );
}
