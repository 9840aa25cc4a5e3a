/** What {@link readAccessToken} found: the token and its scheme, or why none is usable. */
export type AccessTokenResult =
  | { readonly ok: true; readonly scheme: 'Bearer' | 'DPoP'; readonly token: string }
  | { readonly ok: false; readonly description: string };

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
  if (url.searchParams.has('access_token')) {
    return { ok: false, description: 'Access tokens are not accepted in the URL.' };
  }
  if (authorization === undefined || authorization === '') {
    return { ok: false, description: 'No access token was sent.' };
  }
  const match = credentials.exec(authorization);
  if (match?.[1] === undefined || match[2] === undefined) {
    return /^(Bearer|DPoP)(\s|$)/i.test(authorization)
      ? { ok: false, description: 'The Authorization header is malformed.' }
      : { ok: false, description: 'The Authorization header must use the Bearer or DPoP scheme.' };
  }
  const scheme = match[1].toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer';
  return { ok: true, scheme, token: match[2] };
}
