/** The schemes this API takes an access token in. */
export type TokenScheme = 'Bearer' | 'DPoP';

/**
 * What {@link readAccessToken} found: the token and its scheme, or why none is usable and the
 * scheme the request tried (null for neither: no header, or another scheme), which the refusal's
 * challenge follows.
 */
export type AccessTokenResult =
  | { readonly ok: true; readonly scheme: TokenScheme; readonly token: string }
  | { readonly ok: false; readonly scheme: TokenScheme | null; readonly description: string };

// RFC 6750 §2.1 (and RFC 9449 §7.1 for DPoP): scheme 1*SP b64token. One space only: anything
// looser is how header-smuggling and "Bearer  " (empty) tokens slip through lenient parsers.
const credentials = /^(Bearer|DPoP) ([A-Za-z0-9\-._~+/]+=*)$/i;

/**
 * Takes the access token from a request's `Authorization` header (`Bearer` or `DPoP` scheme),
 * the only place this API accepts one. A token in the query string (`?access_token=`, RFC 6750
 * §2.3) is refused even beside a good header: URLs end up in logs, browser history and `Referer`
 * headers.
 *
 * @example
 * const result = readAccessToken(c.req.header('authorization'), new URL(c.req.url));
 */
export function readAccessToken(authorization: string | undefined, url: URL): AccessTokenResult {
  const tried = schemeOf(authorization);
  if (url.searchParams.has('access_token')) {
    // The query parameter is the Bearer scheme's way (RFC 6750 §2.3).
    return {
      ok: false,
      scheme: tried ?? 'Bearer',
      description: 'Access tokens are not accepted in the URL.',
    };
  }
  if (authorization === undefined || authorization === '') {
    return { ok: false, scheme: null, description: 'No access token was sent.' };
  }
  if (tried === null) {
    return {
      ok: false,
      scheme: null,
      description: 'The Authorization header must use the Bearer or DPoP scheme.',
    };
  }
  const token = credentials.exec(authorization)?.[2];
  if (token === undefined) {
    return { ok: false, scheme: tried, description: 'The Authorization header is malformed.' };
  }
  return { ok: true, scheme: tried, token };
}

/** The scheme an `Authorization` header names, if it is one this API takes. */
function schemeOf(authorization: string | undefined): TokenScheme | null {
  const scheme = /^(Bearer|DPoP)(\s|$)/i.exec(authorization ?? '')?.[1]?.toLowerCase();
  if (scheme === undefined) return null;
  return scheme === 'dpop' ? 'DPoP' : 'Bearer';
}
