import { Link } from 'react-router';
import { SignInButton, SignedIn, SignedOut, useUser } from '@oidc-kit/react';
import home from '../styles/home.module.css';
import ui from '../styles/ui.module.css';

/** The public home page. */
export function HomePage() {
  const user = useUser();
  return (
    <>
      <section className={home.hero}>
        <h1>Orders, invoices and customers in one place</h1>
        <p className={ui.lead}>
          The oidc-kit reference app: sign in with your organisation&apos;s identity provider, call
          an API with your access token, and see what your roles let you open.
        </p>
        <SignedOut>
          <div className={home.heroActions}>
            <SignInButton className={`${ui.button} ${ui.large}`} returnTo="/dashboard">
              Sign in to get started
            </SignInButton>
            {/* The page stays as it is; the provider's login opens in a popup window. */}
            <SignInButton className={`${ui.button} ${ui.large} ${ui.secondary}`} popup>
              Sign in in a popup
            </SignInButton>
          </div>
        </SignedOut>
        <SignedIn>
          <p>
            Welcome back, <strong>{user?.name}</strong>.{' '}
            <Link to="/dashboard">Open your dashboard</Link>
          </p>
        </SignedIn>
      </section>
      <section className={home.grid} aria-label="What this starter shows">
        <article className={ui.card}>
          <h2>Sign-in that cannot loop</h2>
          <p>
            Authorization code with PKCE, checked ID tokens, and a guard that never redirects twice.
          </p>
        </article>
        <article className={ui.card}>
          <h2>An API that trusts the token</h2>
          <p>
            The dashboard calls the reference API, which verifies the access token with the
            provider&apos;s keys.
          </p>
        </article>
        <article className={ui.card}>
          <h2>Roles</h2>
          <p>
            The admin page is for the <code>admin</code> role; everyone else sees a clear 403.
          </p>
        </article>
      </section>
    </>
  );
}
