import { isRouteErrorResponse, useRouteError } from 'react-router';
import { describeSignInError, isAuthError, useAuth } from '@oidc-kit/react';
import { ForbiddenPage } from './ForbiddenPage';
import { NotFoundPage } from './NotFoundPage';

/** Errors thrown by route loaders: 403 and 404 pages, a failed sign-in with "Try again". */
export function RouteErrorPage() {
  const error = useRouteError();
  const { signIn } = useAuth();
  if (isRouteErrorResponse(error)) {
    if (error.status === 403) return <ForbiddenPage />;
    if (error.status === 404) return <NotFoundPage />;
    if (error.status === 401) {
      const detail = error.data as { message?: string } | undefined;
      return (
        <section className="card narrow" aria-labelledby="sign-in-failed">
          <h1 id="sign-in-failed">Sign in to continue</h1>
          <p>{detail?.message ?? 'This page is for signed-in users.'}</p>
          <button type="button" className="button" onClick={() => void signIn()}>
            Try again
          </button>
        </section>
      );
    }
  }
  return (
    <section className="card narrow" role="alert" aria-labelledby="unexpected">
      <h1 id="unexpected">Something went wrong</h1>
      <p>
        {isAuthError(error)
          ? describeSignInError(error)
          : error instanceof Error
            ? error.message
            : 'Please try again.'}
      </p>
    </section>
  );
}
