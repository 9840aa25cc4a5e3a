/** What the authenticated fetch needs from the client. */
export interface TokenSource {
  /** A valid access token (renewing first when it is about to expire), or null when signed out. */
  getAccessToken(): Promise<string | null>;
  /**
   * Called after a 401 for a request sent with `rejected`: resolves with a newer token (renewing
   * unless another caller already did), or null when there is none.
   */
  renewAfterUnauthorized(rejected: string): Promise<string | null>;
}

/** `fetch` with the user's access token. */
export type AuthFetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

/**
 * Creates a `fetch` that sends `Authorization: Bearer <access token>` to the given origins only
 * (never in the URL, never to other origins), and after a 401 renews once and retries once.
 * Concurrent 401s share one renewal. A 401 after the retry is returned to the caller as is.
 *
 * @example
 * const authFetch = createAuthFetch(client, ['https://api.example.com']);
 * const response = await authFetch('https://api.example.com/me');
 */
export function createAuthFetch(
  source: TokenSource,
  apiOrigins: readonly string[],
  baseFetch: typeof fetch = (...args) => globalThis.fetch(...args),
): AuthFetch {
  const allowed = new Set(apiOrigins);
  const warned = new Set<string>();
  return async (input, init) => {
    // Relative URLs resolve against the page, as the browser's fetch does.
    const base = (globalThis as { location?: { href?: string } }).location?.href;
    const request = new Request(
      typeof input === 'string' && base ? new URL(input, base) : input,
      init,
    );
    const origin = new URL(request.url).origin;
    if (!allowed.has(origin)) {
      if (process.env.NODE_ENV !== 'production' && !warned.has(origin)) {
        warned.add(origin);
        console.warn(
          `oidc-kit: authFetch sent a request to ${origin} without the access token: that origin is not in \`apiOrigins\` (${[...allowed].join(', ') || 'none'}). Add it to \`apiOrigins\` if this API should get the token; call plain fetch for other origins.`,
        );
      }
      return baseFetch(request);
    }

    const signal = request.signal;
    const retry = request.clone();
    const token = await source.getAccessToken();
    if (signal.aborted) throw abortError(signal);
    if (token === null) return baseFetch(request);

    request.headers.set('Authorization', `Bearer ${token}`);
    const response = await baseFetch(request);
    if (response.status !== 401) return response;

    let renewed: string | null;
    try {
      renewed = await source.renewAfterUnauthorized(token);
    } catch {
      return response;
    }
    if (signal.aborted) throw abortError(signal);
    if (renewed === null || renewed === token) return response;
    retry.headers.set('Authorization', `Bearer ${renewed}`);
    await response.body?.cancel();
    return baseFetch(retry);
  };
}
