import { isRouteErrorResponse, useRevalidator, useRouteError } from 'react-router';
import { SignInButton, describeSignInError, isAuthError, useAuthState } from '@oidc-kit/react';
import type { AuthGuardFailure } from '@oidc-kit/react/react-router';
import { isApiFailure } from '../api/api';
import type { ApiFailure } from '../api/api';
import { ForbiddenPage } from './ForbiddenPage';
import { NotFoundPage } from './NotFoundPage';
import ui from '../styles/ui.module.css';

/**
 * What a failed loader shows: 403 (the guard's or the API's), the API's or the auth client's
 * failure with "Try again", 404, sign-in needed.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  // The banner under the header explains a failed sign-in or an ended session, with its button.
  const explained = useAuthState((auth) => auth.error !== null);
  if (isRouteErrorResponse(error)) {
    // Refused by the loader's guard or by the API: loading the same token again changes nothing.
    // Either message says what was refused, whichever requirement (roles, scopes, `when`) failed.
    if (error.status === 403) {
      const reason = (error.data as Partial<AuthGuardFailure | ApiFailure> | null)?.message;
      return <ForbiddenPage reason={typeof reason === 'string' ? reason : undefined} />;
    }
    if (isApiFailure(error.data)) return <LoadFailed message={error.data.message} />;
    if (error.status === 404) return <NotFoundPage />;
    if (error.status === 401) {
      // The page offers sign-in itself only when the banner does not (none, or dismissed).
      return (
        <section className={`${ui.card} ${ui.narrow}`} aria-labelledby="sign-in-needed">
          <h1 id="sign-in-needed">Sign in to continue</h1>
          <p>This page is for signed-in users.</p>
          {!explained && <SignInButton className={ui.button} />}
        </section>
      );
    }
  }
  // The auth client's own failure in a loader (e.g. its code could not be downloaded): the session
  // is as it was, so loading again may work. An ended session is the banner's to explain.
  if (isAuthError(error)) return <LoadFailed message={describeSignInError(error)} />;
  return (
    <section className={`${ui.card} ${ui.narrow}`} role="alert" aria-labelledby="unexpected">
      <h1 id="unexpected">Something went wrong</h1>
      <p>{error instanceof Error ? error.message : 'Please try again.'}</p>
    </section>
  );
}

/** A loader's call that failed and may work again: what happened, and "Try again". */
function LoadFailed({ message }: { message: string }) {
  const { revalidate, state } = useRevalidator();
  return (
    <section className={`${ui.card} ${ui.narrow}`} role="alert" aria-labelledby="api-failed">
      <h1 id="api-failed">The data could not be loaded</h1>
      <p>{message}</p>
      <button
        type="button"
        className={ui.button}
        onClick={() => void revalidate()}
        disabled={state === 'loading'}
      >
        Try again
      </button>
    </section>
  );
}
