/**
 * `fetch`'s arguments as one `Request`, made now: a relative URL resolves against the document's
 * base URL (`<base href>`), as fetch resolves it.
 */
export function toRequest(input: RequestInfo | URL, init?: RequestInit): Request {
  const base = (globalThis as { document?: { baseURI?: string } }).document?.baseURI;
  return new Request(typeof input === 'string' && base ? new URL(input, base) : input, init);
}
