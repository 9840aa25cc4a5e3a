const maxLength = 2048;
// A path of this origin, checked up to its query or hash (only the path can name a host): one "/"
// at its start, and no tab/CR/LF or `\`, which browsers drop inside URLs and read as `/`, so that
// "/\t/evil" and "/\evil" both become "//evil": a protocol-relative URL to another host (WHATWG URL).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ownPath = /^\/(?!\/)[^\u0000-\u001f\u007f\\?#]*([?#]|$)/;

function decodeFully(value: string): string | undefined {
  let current = value;
  try {
    for (let round = 0; round < 3; round += 1) {
      const next = decodeURIComponent(current);
      if (next === current) return current;
      current = next;
    }
  } catch {
    // Not a valid encoding: refused below, as one decoded too many times is.
  }
  return undefined;
}

/**
 * Returns `value` when it is a path on this app's origin (`/orders?id=7#top`), else `fallback`.
 * Refuses absolute and protocol-relative URLs, backslash and control-character tricks, and their
 * percent-encoded forms: a return path must never send the user to another site.
 *
 * @example safeReturnTo('//evil.example', location.origin) // '/'
 */
export function safeReturnTo(value: unknown, origin: string, fallback = '/'): string {
  if (typeof value !== 'string' || value.length > maxLength) return fallback;
  let safe: string | undefined;
  try {
    // The path as given, then fully decoded: a router or server that decodes it once more must not
    // find another host either ("/%2e%2e%2f%2fevil" decodes to "/..//evil", which is "//evil").
    // The query and hash are not decoded: "?q=50%25" is no bad encoding of a path.
    for (const path of [value, decodeFully(value.split(/[?#]/)[0] as string)]) {
      // A missing path (a value that could not be decoded) tests as "undefined": refused.
      if (!ownPath.test(path as string)) return fallback;
      const url = new URL(path as string, origin);
      // Dot segments collapse while parsing ("/.//evil" becomes "//evil"): check the result too.
      const resolved = `${url.pathname}${url.search}${url.hash}`;
      if (url.origin !== origin || url.username || url.password || !ownPath.test(resolved)) {
        return fallback;
      }
      safe ??= resolved;
    }
  } catch {
    // Not a URL on `origin` (an origin that is none, such as "null"): refused.
    return fallback;
  }
  return safe as string;
}

/** The page's current path, query and hash (`/` where there is no page, as in server rendering). */
export function currentPath(): string {
  const location = (globalThis as { location?: Location }).location;
  return location === undefined ? '/' : `${location.pathname}${location.search}${location.hash}`;
}
