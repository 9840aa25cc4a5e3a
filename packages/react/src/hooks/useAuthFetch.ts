import { useCallback } from 'react';
import type { AuthFetch } from '../core/authFetch';
import { useAuthClient } from './useAuthClient';

/**
 * A `fetch` that sends the access token to the configured API origins, renewing once on a 401.
 * The function is stable for the life of the provider.
 *
 * @example
 * const authFetch = useAuthFetch();
 * const orders = await authFetch('/api/orders').then((response) => response.json());
 */
export function useAuthFetch(): AuthFetch {
  const client = useAuthClient('useAuthFetch');
  // Called on the client, so that an engine whose methods need their object works too.
  return useCallback<AuthFetch>((input, init) => client.fetch(input, init), [client]);
}
