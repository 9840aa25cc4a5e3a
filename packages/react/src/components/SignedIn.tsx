import type { ReactNode } from 'react';
import { useSelectedAuthState } from '../hooks/useSelectedAuthState';

/**
 * Renders its children only while a user is signed in (nothing while loading).
 *
 * @example
 * <SignedIn><SignOutButton /></SignedIn>
 */
export function SignedIn({ children }: { children?: ReactNode }): ReactNode {
  const signedIn = useSelectedAuthState('SignedIn', (state) => state.status === 'authenticated');
  return signedIn ? children : null;
}
