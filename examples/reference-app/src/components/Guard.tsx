import type { ReactNode } from 'react';
import { RequireAuth } from '@oidc-kit/react';
import type { AccessRequirements } from '@oidc-kit/react';
import { ForbiddenPage } from '../pages/ForbiddenPage';

/**
 * The app's guard: RequireAuth with its pages. A failed sign-in is explained (with "Try again")
 * by the banner under the header, so the page itself only says what it needs.
 */
export function Guard({ children, ...requirements }: AccessRequirements & { children: ReactNode }) {
  return (
    <RequireAuth
      {...requirements}
      forbidden={<ForbiddenPage />}
      error={() => (
        <section className="card">
          <h1>Sign in to continue</h1>
          <p>This page is for signed-in users.</p>
        </section>
      )}
    >
      {children}
    </RequireAuth>
  );
}
