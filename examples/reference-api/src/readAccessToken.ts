/** What {@link readBearerToken} found: the token, or why the request carries none usable. */
export type BearerTokenResult =
  | { readonly ok: true; readonly token: string }
  | { readonly ok: false; readonly description: string };

// RFC 6750 §2.1: credentials = "Bearer" 1*SP b64token. One space only: anything looser is how
// header-smuggling and "Bearer  " (empty) tokens slip through lenient parsers.
const bearer = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i;

/**
 * Takes the access token from a request's `Authorization: Bearer` header, the only place this API
 * accepts one. A token in the query string (`?access_token=`, RFC 6750 §2.3) is refused even
 * beside a good header: URLs end up in logs, browser history and `Referer` headers.
 *
 * @example
 * const result = readBearerToken(c.req.header('authorization'), new URL(c.req.url));
 */
export function readBearerToken(authorization: string | undefined, url: URL): BearerTokenResult {
  if (url.searchParams.has('access_token')) {
    return { ok: false, description: 'Access tokens are not accepted in the URL.' };
  }
  if (authorization === undefined || authorization === '') {
    return { ok: false, description: 'No bearer token was sent.' };
  }
  const match = bearer.exec(authorization);
  if (match?.[1] === undefined) {
    return /^Bearer(\s|$)/i.test(authorization)
      ? { ok: false, description: 'The Authorization header is malformed.' }
      : { ok: false, description: 'The Authorization header must use the Bearer scheme.' };
  }
  return { ok: true, token: match[1] };
}
