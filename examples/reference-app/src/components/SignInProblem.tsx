import { describeSignInError, useAuthActions, useAuthState } from '@oidc-kit/react';
import ui from '../styles/ui.module.css';

/** A banner for a failed sign-in or an ended session, with the way forward. */
export function SignInProblem() {
  // The error only (null while signed in): a token renewal re-renders nothing here.
  const error = useAuthState((state) => (state.status === 'authenticated' ? null : state.error));
  const { signIn, dismissError } = useAuthActions();
  if (error === null) return null;
  const ended = error.code === 'session_expired' || error.code === 'signed_out_elsewhere';
  return (
    <div
      className={`${ui.banner} ${ended ? ui.info : ui.problem}`}
      role={ended ? 'status' : 'alert'}
    >
      <p>
        {error.code === 'signed_out_elsewhere'
          ? 'You signed out in another tab.'
          : error.code === 'session_expired'
            ? 'Your session ended. Sign in again to continue.'
            : describeSignInError(error)}
      </p>
      <div className={ui.bannerActions}>
        <button type="button" className={ui.button} onClick={() => void signIn()}>
          {ended ? 'Sign in' : 'Try again'}
        </button>
        <button type="button" className={`${ui.button} ${ui.secondary}`} onClick={dismissError}>
          Dismiss
        </button>
      </div>
    </div>
  );
}
