import { describeSignInError, useAuth } from '@oidc-kit/react';

/** A banner for a failed sign-in or an ended session, with the way forward. */
export function SignInProblem() {
  const { status, error, signIn, dismissError } = useAuth();
  if (error === null || status === 'authenticated') return null;
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
