import { Link } from 'react-router';
import { SignInButton, SignedOut } from '@oidc-kit/react';

/** Where the provider sends the user after signing out. */
export function SignedOutPage() {
  return (
    <section className="card narrow" aria-labelledby="signed-out">
      <h1 id="signed-out">You are signed out</h1>
      <p>Your session has ended here and at your identity provider.</p>
      <div className="actions">
        <SignedOut>
          <SignInButton className="button" returnTo="/dashboard">
            Sign in again
          </SignInButton>
        </SignedOut>
        <Link to="/">Home</Link>
      </div>
    </section>
  );
}
