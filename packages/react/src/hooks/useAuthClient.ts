import { useContext } from 'react';
import { AuthContext } from '../authContext';
import type { AuthContextValue } from '../authContext';

/**
 * The auth client of the nearest `AuthProvider`. Throws, naming the hook, when there is none.
 */
export function useAuthClient(hook = 'useAuthClient'): AuthContextValue {
  const client = useContext(AuthContext);
  if (client === null) {
    throw new Error(
      process.env.NODE_ENV !== 'production'
        ? `${hook}() must be used inside <AuthProvider>. Wrap your app in <AuthProvider config={...}> (or <MockAuthProvider> from '@oidc-kit/react/testing' in tests and stories).`
        : `oidc-kit: ${hook}() outside <AuthProvider>`,
    );
  }
  return client;
}
