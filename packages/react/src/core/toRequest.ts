/** `fetch`'s arguments as one `Request`, made now: a relative URL resolves against the page. */
export function toRequest(input: RequestInfo | URL, init?: RequestInit): Request {
  const base = (globalThis as { location?: { href?: string } }).location?.href;
  return new Request(typeof input === 'string' && base ? new URL(input, base) : input, init);
}
