import { toRequest } from './toRequest';
import { unlessAborted } from './unlessAborted';

/** What the authenticated fetch needs from the client. */
export interface TokenSource {
  /** A valid access token (renewing first when it is about to expire), or null when signed out. */
  getAccessToken(): Promise<string | null>;
  /**
   * Called after a 401 (`response`) for a request sent with `rejected`: resolves with a newer
   * token (renewing unless another caller already did), or null when there is none or the 401 is
   * no fault of the token (a DPoP nonce the server asks for again).
   */
  renewAfterUnauthorized(rejected: string, response: Response): Promise<string | null>;
  /**
   * Sends `request` with `token` through `send`. Default: with `Authorization: Bearer <token>`.
   * The client's, with DPoP: `Authorization: DPoP <token>` and a proof, sent once more with the
   * server's nonce when it asks for one (`use_dpop_nonce`, RFC 9449 §9).
   */
  sendWithToken?(
    request: Request,
    token: string,
    send: (request: Request) => Promise<Response>,
  ): Promise<Response>;
}

/** `fetch` with the user's access token. */
export type AuthFetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/**
 * The authenticated fetch itself, in the engine's chunk; apps get it through `createAuthFetch`,
 * which loads it. Sends the access token (`Authorization: Bearer`, or `DPoP` with a proof) to the
 * given origins only (never in the URL, never to other origins), and after a 401 renews once and
 * retries once. Concurrent 401s share one renewal. A 401 after the retry is returned to the caller
 * as is; a DPoP `use_dpop_nonce` challenge is answered once with the server's nonce.
 */
export function makeAuthFetch(
  source: TokenSource,
  apiOrigins: readonly string[],
  baseFetch: typeof fetch = (...args) => globalThis.fetch(...args),
): AuthFetch {
  const allowed = new Set(apiOrigins);
  const warned = new Set<string>();
  return async (input, init) => {
    const request = toRequest(input, init);
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
    const token = await unlessAborted(signal, source.getAccessToken());
    if (token === null) return baseFetch(request);

    const send = (sent: Request, presented: string) => {
      if (source.sendWithToken) return source.sendWithToken(sent, presented, baseFetch);
      sent.headers.set('Authorization', `Bearer ${presented}`);
      return baseFetch(sent);
    };
    const response = await send(request, token);
    if (response.status !== 401) return response;

    const renewed = await unlessAborted(
      signal,
      source.renewAfterUnauthorized(token, response).catch(() => null),
    );
    if (renewed === null || renewed === token) return response;
    await response.body?.cancel();
    return send(retry, renewed);
  };
}
