import { useLocation } from 'react-router';
import { AuthCallback } from '@oidc-kit/react/react-router';
import { useAuthState } from '@oidc-kit/react';
import ui from '../styles/ui.module.css';

/** Whether a query holds an authorization response, as `AuthCallback` reads it. */
function carriesResponse(search: string): boolean {
  const query = new URLSearchParams(search);
  return query.has('state') && (query.has('code') || query.has('error'));
}

/**
 * The sign-in return (`redirect_uri`): progress while `AuthCallback` finishes sign-in, then the
 * page the user asked for. A failure that stays here (sign-in started on this page) is explained
 * once, by the banner under the header with its "Try again"; not again by `AuthCallback`.
 */
export function CallbackPage() {
  const failed = useAuthState((state) => state.status === 'error');
  // The client took the response out of the address bar and is moving on: AuthCallback's progress.
  const movingOn =
    carriesResponse(useLocation().search) && !carriesResponse(window.location.search);
  return (
    <section className={`${ui.card} ${ui.narrow}`} aria-labelledby="callback">
      <h1 id="callback">Sign-in</h1>
      {failed && !movingOn ? <p>You are not signed in.</p> : <AuthCallback />}
    </section>
  );
}
