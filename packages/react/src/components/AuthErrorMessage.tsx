import type { ReactNode } from 'react';
import type { AuthError } from '../core/errors';
import { describeSignInError } from './describeSignInError';

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
