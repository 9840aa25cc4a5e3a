import { safeReturnTo } from '@oidc-kit/react';

/**
 * The safe return path for a React Router loader's request: the requested path, query and hash,
 * or `/` when the URL could send the user to another site. For an action's request (a form or
 * fetcher submission), the page it was submitted from.
 *
 * @example
 * loader: ({ request }) => signIn({ returnTo: returnToFromRequest(request) })
 */
export function returnToFromRequest(request: Request): string {
  const page = (globalThis as { location?: Location }).location;
  // An action's URL is its route's, often one with no page (`/api/save`): after sign-in the user
  // goes back to the page that submitted (the submission itself is not replayed).
  const url = new URL(page !== undefined && request.method !== 'GET' ? page.href : request.url);
  // React Router leaves the hash out of a loader's request; when the page loaded this very URL
  // (a deep link, a reload) the address bar still holds it.
  if (page?.href.split('#')[0] === url.href) url.hash = page.hash;
  return safeReturnTo(`${url.pathname}${url.search}${url.hash}`, url.origin);
}
