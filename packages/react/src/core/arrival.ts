import { browserStorage } from './browserStorage';
import type { SessionCore } from './SessionCore';

/**
 * What the address the app loaded on is: a sign-in response, a return from the provider's logout,
 * or neither. Read at start, before the code that handles either is loaded.
 */

/** Whether `url` is a sign-in response on one of the redirect URIs (page, popup or iframe). */
export function isCallback(core: SessionCore, url: string): boolean {
  const current = new URL(url);
  // The settings oidc-client-ts uses (popup_redirect_uri defaults to redirect_uri there), so a
  // ready-made UserManager's URIs count too.
  const { redirect_uri, popup_redirect_uri, silent_redirect_uri } = core.userManager.settings;
  return (
    [redirect_uri, popup_redirect_uri, silent_redirect_uri].some((uri) => {
      const target = uri === undefined ? null : new URL(uri);
      return target?.origin === current.origin && target.pathname === current.pathname;
    }) &&
    current.searchParams.has('state') &&
    (current.searchParams.has('code') || current.searchParams.has('error'))
  );
}

/** Whether `url` is the return from the provider's logout to `post_logout_redirect_uri`. */
export function isSignOutReturn(core: SessionCore, url: string): boolean {
  const target = core.config.oidc.post_logout_redirect_uri;
  if (target === undefined) return false;
  const current = new URL(url);
  const expected = new URL(target);
  if (current.origin !== expected.origin || current.pathname !== expected.pathname) return false;
  return current.searchParams.has('state') || signOutMark(core).read() !== null;
}

/**
 * Where a sign-out that leaves for the provider notes its reason for the return: this tab's
 * sessionStorage, under the client's key.
 */
export function signOutMark(core: SessionCore) {
  const storage = browserStorage('sessionStorage');
  const { authority, client_id } = core.config.oidc;
  const key = `oidc-kit:signed-out:${authority}:${client_id}`;
  return {
    read: (): string | null => storage?.getItem(key) ?? null,
    write: (reason: string): void => storage?.setItem(key, reason),
    remove: (): void => storage?.removeItem(key),
  };
}
