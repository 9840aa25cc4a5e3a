import { Link } from 'react-router';
import { SignInButton, SignedOut, useAuthState } from '@oidc-kit/react';
import type { SignOutReason } from '@oidc-kit/react';
import ui from '../styles/ui.module.css';

const explanations: Record<SignOutReason, string> = {
  user: 'Your session has ended here and at your identity provider.',
  idle: 'You were signed out after a period of inactivity.',
  expired: 'Your session expired. Sign in again to continue.',
  elsewhere: 'You signed out in another tab.',
};

/** Where the provider sends the user after signing out; says why the session ended. */
export function SignedOutPage() {
  const reason = useAuthState((state) => state.signOutReason);
  return (
    <section className={`${ui.card} ${ui.narrow}`} aria-labelledby="signed-out">
      <h1 id="signed-out">You are signed out</h1>
      <p>{explanations[reason ?? 'user']}</p>
      <div className={ui.actions}>
        <SignedOut>
          <SignInButton className={ui.button} returnTo="/dashboard">
            Sign in again
          </SignInButton>
        </SignedOut>
        <Link to="/" className={`${ui.button} ${ui.secondary}`}>
          Back to the home page
        </Link>
      </div>
    </section>
  );
}
