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
  return safeReturnTo(`${url.pathname}${url.search}${url.hash}`, url.origin);
}
