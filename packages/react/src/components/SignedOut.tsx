import type { ReactNode } from 'react';
import { useSelectedAuthState } from '../hooks/useSelectedAuthState';

/**
 * Renders its children only while nobody is signed in, a failed sign-in included (nothing while
 * loading).
 *
 * @example
 * <SignedOut><SignInButton /></SignedOut>
 */
export function SignedOut({ children }: { children?: ReactNode }): ReactNode {
  const signedOut = useSelectedAuthState(
    'SignedOut',
    (state) => state.status === 'unauthenticated' || state.status === 'error',
  );
  return signedOut ? children : null;
}
