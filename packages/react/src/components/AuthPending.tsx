import type { ReactNode } from 'react';

/** The default shown while waiting. */
export function AuthPending(): ReactNode {
  return (
    <p role="status" aria-live="polite">
      Checking your session…
    </p>
  );
}
