/** What the authenticated fetch needs from the client. */
export interface TokenSource {
  /** A valid access token (renewing first when it is about to expire), or null when signed out. */
  getAccessToken(): Promise<string | null>;
  /**
   * Called after a 401 for a request sent with `rejected`: resolves with a newer token (renewing
   * unless another caller already did), or null when there is none.
   */
  renewAfterUnauthorized(rejected: string): Promise<string | null>;
  /**
   * The headers that carry `token` on a `method` request to `url`. Default
   * `Authorization: Bearer <token>`; with DPoP, `Authorization: DPoP <token>` and a proof.
   */
  authHeaders?(url: string, method: string, token: string): Promise<Record<string, string>>;
  /**
   * Reads each response for a DPoP nonce; true when it asks for the request again with the nonce
   * it supplied (`use_dpop_nonce`, RFC 9449 §9). Default: never.
   */
  nonceChallenge?(url: string, response: Response): boolean;
}

/** `fetch` with the user's access token. */
export type AuthFetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

/**
 * Creates a `fetch` that sends the access token (`Authorization: Bearer`, or `DPoP` with a proof)
 * to the given origins only (never in the URL, never to other origins), and after a 401 renews
 * once and retries once. Concurrent 401s share one renewal. A 401 after the retry is returned to
 * the caller as is; a DPoP `use_dpop_nonce` challenge is answered once with the server's nonce.
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
    const token = await source.getAccessToken();
    if (signal.aborted) throw abortError(signal);
    if (token === null) return baseFetch(request);

    // `request` itself is never sent: each attempt is a copy of it, so a retry has its body.
    const attempt = async (presented: string) => {
      const sent = request.clone();
      const headers = (await source.authHeaders?.(sent.url, sent.method, presented)) ?? {
        Authorization: `Bearer ${presented}`,
      };
      for (const [name, value] of Object.entries(headers)) sent.headers.set(name, value);
      return baseFetch(sent);
    };
    const challenged = (response: Response) => source.nonceChallenge?.(request.url, response);
    const send = async (presented: string) => {
      const response = await attempt(presented);
      if (challenged(response) !== true) return response;
      // The resource server asks for its nonce in the proof: once more with it (RFC 9449 §9).
      await response.body?.cancel();
      return attempt(presented);
    };

    const response = await send(token);
    // A nonce asked for again is no fault of the token: no renewal for it.
    if (response.status !== 401 || challenged(response) === true) return response;

    let renewed: string | null;
    try {
      renewed = await source.renewAfterUnauthorized(token);
    } catch {
      return response;
    }
    if (signal.aborted) throw abortError(signal);
    if (renewed === null || renewed === token) return response;
    await response.body?.cancel();
    return send(renewed);
  };
}
