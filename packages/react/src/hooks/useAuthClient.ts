import { useContext } from 'react';
import { AuthContext } from '../authContext';
import type { AuthContextValue } from '../authContext';
import { missingProvider } from '../missingProvider';

/**
 * The auth client of the nearest `AuthProvider`. Throws, naming the hook, when there is none.
 */
export function useAuthClient(hook = 'useAuthClient'): AuthContextValue {
  const client = useContext(AuthContext);
  if (client === null) {
    throw new Error(
      process.env.NODE_ENV !== 'production'
        ? missingProvider(hook)
        : `oidc-kit: ${hook}() outside <AuthProvider>`,
    );
  }
  return client;
}
