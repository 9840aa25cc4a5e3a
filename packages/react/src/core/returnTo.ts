const maxLength = 2048;
// Browsers drop tab/CR/LF inside URLs and read `\` as `/`, so "/\t/evil" and "/\evil" both become
// "//evil": a protocol-relative URL to another host (WHATWG URL, "special" schemes).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const controlOrBackslash = /[\u0000-\u001f\u007f\\]/;

function looksLikeOtherHost(path: string): boolean {
  return !path.startsWith('/') || path.startsWith('//') || controlOrBackslash.test(path);
}

function decodeFully(value: string): string | undefined {
  let current = value;
  for (let round = 0; round < 3; round += 1) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return undefined;
    }
    if (next === current) return current;
    current = next;
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
  if (typeof value !== 'string' || value.length === 0 || value.length > maxLength) return fallback;
  if (looksLikeOtherHost(value)) return fallback;
  const decoded = decodeFully(value);
  if (decoded === undefined || looksLikeOtherHost(decoded)) return fallback;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return fallback;
  }
  if (url.origin !== origin || url.username !== '' || url.password !== '') return fallback;
  // Dot segments collapse while parsing ("/.//evil" becomes "//evil"): check the result too.
  const path = `${url.pathname}${url.search}${url.hash}`;
  return looksLikeOtherHost(path) ? fallback : path;
}

/** The page's current path, query and hash (`/` where there is no page, as in server rendering). */
export function currentPath(): string {
  const location = (globalThis as { location?: Location }).location;
  return location === undefined ? '/' : `${location.pathname}${location.search}${location.hash}`;
}
