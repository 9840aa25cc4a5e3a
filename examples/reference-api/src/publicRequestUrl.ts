/**
 * Checks `value` as the origin clients call this API at, such as `https://api.example.com`, and
 * returns it as an origin (no trailing slash). Read once when the API is built, so a typo stops it
 * at start-up rather than refusing every DPoP request.
 *
 * @throws {TypeError} when `value` is not an http(s) origin; the message shows one.
 */
export function parsePublicOrigin(value: string): string {
  const url = URL.canParse(value) ? new URL(value) : null;
  if (
    url === null ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.username !== '' ||
    url.password !== '' ||
    url.pathname !== '/' ||
    url.search !== '' ||
    url.hash !== ''
  ) {
    throw new TypeError(
      `publicOrigin must be the origin clients call this API at, such as https://api.example.com, got ${JSON.stringify(value)}`,
    );
  }
  return url.origin;
}

/**
 * The URL a client called, as a DPoP proof's `htu` names it (RFC 9449 §4.3): this API's public
 * origin with the request's path and query. Never the request's own origin: @hono/node-server
 * builds it from the Host header, which the client chooses (a proof made for another API would
 * pass by naming that API's host), and behind a TLS-terminating proxy its scheme is `http`.
 *
 * @example
 * publicRequestUrl('https://api.example.com', new URL('http://10.0.0.5:4001/me')).href;
 * // 'https://api.example.com/me'
 */
export function publicRequestUrl(publicOrigin: string, request: URL): URL {
  const url = new URL(publicOrigin);
  // Set, not resolved against the origin: a path such as `//other.example/me` would otherwise
  // be read as another host.
  url.pathname = request.pathname;
  url.search = request.search;
  return url;
}
