import { useSelectedAuthState } from './useSelectedAuthState';

/**
 * The current access token, or null when signed out. Re-renders when it is renewed. To call an
 * API, prefer `useAuthFetch`, which also renews an expiring token first.
 */
export function useAccessToken(): string | null {
  return useSelectedAuthState('useAccessToken', (state) => state.user?.access_token ?? null);
}
