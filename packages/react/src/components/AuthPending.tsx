import type { ReactNode } from 'react';

/** The guard's default while it waits: a polite status line; `children` replaces the text. */
export function AuthPending({
  children = 'Checking your session…',
}: {
  children?: ReactNode;
}): ReactNode {
  return (
    <p role="status" aria-live="polite">
      {children}
    </p>
  );
}
