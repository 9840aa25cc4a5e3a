import { AuthCallback } from '@oidc-kit/react/react-router';
import ui from '../styles/ui.module.css';

/**
 * The sign-in return (`redirect_uri`): progress while `AuthCallback` finishes sign-in, then the
 * page the user asked for. A failure that stays here (sign-in started on this page) is explained
 * once, by the banner under the header with its "Try again"; not again by `AuthCallback`.
 */
export function CallbackPage() {
  return (
    <section className={`${ui.card} ${ui.narrow}`} aria-labelledby="callback">
      <h1 id="callback">Sign-in</h1>
      <AuthCallback error={<p>You are not signed in.</p>} />
    </section>
  );
}
