import type { ReactNode } from 'react';

/** The default shown to a signed-in user who lacks access. */
export function AuthForbidden(): ReactNode {
  return (
    <section role="alert" aria-labelledby="oidc-kit-forbidden">
      <h1 id="oidc-kit-forbidden">Forbidden</h1>
      <p>You are signed in, but this page needs a role your account does not have.</p>
      <a href="/">Go to the home page</a>
    </section>
  );
}
