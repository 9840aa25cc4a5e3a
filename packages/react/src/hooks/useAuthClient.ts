import { useContext } from 'react';
import { AuthContext } from '../authContext';
import type { AuthContextValue } from '../authContext';
import { AuthError } from '../core/errors';
import { missingProvider } from '../missingProvider';

/**
 * The auth client of the nearest `AuthProvider`. Throws a `config_invalid` {@link AuthError}
 * naming the hook (`field`) when there is none.
 */
export function useAuthClient(hook = 'useAuthClient'): AuthContextValue {
  const client = useContext(AuthContext);
  if (client === null) {
    throw new AuthError(
      'config_invalid',
      process.env.NODE_ENV !== 'production' ? missingProvider(hook) : '',
      { field: hook },
    );
  }
  return client;
}
