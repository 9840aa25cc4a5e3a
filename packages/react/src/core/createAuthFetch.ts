import type { AuthFetch, TokenSource } from './authFetch';
import { loadEngine, loadedEngine } from './loadEngine';

/**
 * Creates a `fetch` that sends the access token (`Authorization: Bearer`, or `DPoP` with a proof)
 * to the given origins only (never in the URL, never to other origins), and after a 401 renews
 * once and retries once. Concurrent 401s share one renewal. A 401 after the retry is returned to
 * the caller as is; a DPoP `use_dpop_nonce` challenge is answered once with the server's nonce.
 *
 * Its code comes with the engine's chunk (loaded when the client starts), not up front; if that
 * chunk cannot load, a request rejects with a `network` AuthError and the next one tries again.
 *
 * @example
 * const authFetch = createAuthFetch(client, ['https://api.example.com']);
 * const response = await authFetch('https://api.example.com/me');
 */
export function createAuthFetch(
  source: TokenSource,
  apiOrigins: readonly string[],
  baseFetch?: typeof fetch,
): AuthFetch {
  const origins = [...apiOrigins];
  let authFetch: AuthFetch | undefined;
  return (input, init) =>
    loadEngine().then(() => {
      authFetch ??= loadedEngine()!.makeAuthFetch(source, origins, baseFetch);
      return authFetch(input, init);
    });
}
