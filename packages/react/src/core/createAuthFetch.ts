import type { AuthFetch, TokenSource } from './authFetch';
import { loadEngine, loadedEngine } from './loadEngine';
import { toRequest } from './toRequest';
import { unlessAborted } from './unlessAborted';

/**
 * Creates a `fetch` that sends the access token (`Authorization: Bearer`, or `DPoP` with a proof)
 * to the given origins only (never in the URL, never to other origins), and after a 401 renews
 * once and retries once. Concurrent 401s share one renewal. A 401 after the retry is returned to
 * the caller as is; a DPoP `use_dpop_nonce` challenge is answered once with the server's nonce.
 *
 * Its code comes with the engine's chunk (loaded when the client starts), not up front. A request
 * made before that chunk is here waits for it (an abort still ends it at once); if the chunk
 * cannot load, the request rejects with a `network` AuthError and the next one tries again.
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
  return lazyAuthFetch(loadEngine, source, apiOrigins, baseFetch);
}

/**
 * `createAuthFetch` with the engine's chunk loaded by `load`: the client's own fetch loads it as
 * the client's calls do, so that a start the client holds runs once it is here.
 */
export function lazyAuthFetch(
  load: () => Promise<unknown>,
  source: TokenSource,
  apiOrigins: readonly string[],
  baseFetch?: typeof fetch,
): AuthFetch {
  let authFetch: AuthFetch | undefined;
  const send: AuthFetch = async (input, init) => {
    const engine = loadedEngine();
    // The chunk is here: the request is made in this call, as fetch makes it.
    if (engine !== undefined) {
      authFetch ??= engine.makeAuthFetch(source, apiOrigins, baseFetch);
      return authFetch(input, init);
    }
    // Not yet: the request is made now all the same (its URL, its headers), and waits. (`load`
    // resolves once the engine is loaded: this comes back to the branch above.)
    const request = toRequest(input, init);
    await unlessAborted(request.signal, load());
    return send(request);
  };
  return send;
}
