import { safeReturnTo } from '@oidc-kit/react';

/**
 * The safe return path for a React Router loader's request: the requested path, query and hash,
 * or `/` when the URL could send the user to another site.
 *
 * @example
 * loader: ({ request }) => signIn({ returnTo: returnToFromRequest(request) })
 */
export function returnToFromRequest(request: Request): string {
  const url = new URL(request.url);
  // React Router leaves the hash out of a loader's request; when the page loaded this very URL
  // (a deep link, a reload) the address bar still holds it.
  const page = (globalThis as { location?: Location }).location;
  if (page?.href.split('#')[0] === url.href) url.hash = page.hash;
  return safeReturnTo(`${url.pathname}${url.search}${url.hash}`, url.origin);
}
