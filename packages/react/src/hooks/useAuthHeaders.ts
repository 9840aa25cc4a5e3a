import { useCallback } from 'react';
import type { AuthHeadersOptions } from '../core/clientOptions';
import { useAuthClient } from './useAuthClient';

/** What {@link useAuthHeaders} returns: the headers for one request, or null when signed out. */
export type GetAuthHeaders = (
  url: string,
  options?: AuthHeadersOptions,
) => Promise<Record<string, string> | null>;

/**
 * The headers that send the access token with a request made by other means than
 * `useAuthFetch` (an upload SDK, another HTTP client): `Authorization: Bearer …`, or with DPoP
 * `Authorization: DPoP …` and a `DPoP` proof for this URL and method. Stable for the life of the
 * provider; it renews an expiring token first.
 *
 * @example
 * const getAuthHeaders = useAuthHeaders();
 * const headers = await getAuthHeaders('https://api.example.com/uploads', { method: 'PUT' });
 */
export function useAuthHeaders(): GetAuthHeaders {
  const client = useAuthClient('useAuthHeaders');
  return useCallback((url, options) => client.getAuthHeaders(url, options), [client]);
}
