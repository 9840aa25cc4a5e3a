import { browserStorage } from './browserStorage';
import type { SessionCore } from './SessionCore';

/**
 * The sign-in response the app loaded on, if any: the address, or, after this tab left to sign in,
 * the one the page loaded with when the app moved off it before the engine's chunk had loaded (a
 * catch-all `<Navigate to="/">`, a route that redirects). Read at start, before the code that
 * handles it is loaded.
 */
export function loadedCallback(core: SessionCore, url: string): string | undefined {
  // Spent by the first page load after a sign-in left, whatever that page is.
  const mark = tabMark(core, 'signing-in');
  const leftToSignIn = mark.read() !== null;
  mark.remove();
  return loadedOrNow(url, leftToSignIn, (at) => isCallback(core, at, leftToSignIn));
}

/** The return from the provider's logout the app loaded on, if any, as `loadedCallback` finds it. */
export function loadedSignOutReturn(core: SessionCore, url: string): string | undefined {
  const leftToSignOut = tabMark(core, 'signed-out').read() !== null;
  return loadedOrNow(url, leftToSignOut, (at) => isSignOutReturn(core, at, leftToSignOut));
}

/**
 * `url` if it is the one, else, when this tab left for it, the address the document loaded with
 * (its navigation entry keeps it, whatever the history did since) if that is.
 */
function loadedOrNow(url: string, left: boolean, is: (url: string) => boolean) {
  const loaded = left ? performance.getEntriesByType('navigation')[0]?.name : undefined;
  return [url, loaded].find((at) => at !== undefined && is(at));
}

/**
 * Whether `url` is a sign-in response on one of the redirect URIs (page, popup or iframe). It has
 * a `code` or an `error`, and a `state` (in the query or the fragment); or none, when this tab
 * `leftToSignIn` (a provider that drops `state`, or a forged address: processed, it is refused as
 * such rather than ignored).
 */
export function isCallback(core: SessionCore, url: string, leftToSignIn: boolean): boolean {
  const current = new URL(url);
  // In the fragment too (a provider that ignores `response_mode=query`): refused, and removed.
  const fragment = new URLSearchParams(current.hash.slice(1));
  const has = (name: string) => current.searchParams.has(name) || fragment.has(name);
  // The settings oidc-client-ts uses (popup_redirect_uri defaults to redirect_uri there), so a
  // ready-made UserManager's URIs count too.
  const { redirect_uri, popup_redirect_uri, silent_redirect_uri } = core.manager.settings;
  return (
    [redirect_uri, popup_redirect_uri, silent_redirect_uri].some((uri) => onPage(current, uri)) &&
    (has('state') || leftToSignIn) &&
    (has('code') || has('error'))
  );
}

/**
 * Whether `url` is the return from the provider's logout to `post_logout_redirect_uri`: with a
 * `state`, or without one when this tab left to sign out (`leftToSignOut`).
 */
function isSignOutReturn(core: SessionCore, url: string, leftToSignOut: boolean): boolean {
  const current = new URL(url);
  if (!onPage(current, core.authConfig.oidc.post_logout_redirect_uri)) return false;
  return current.searchParams.has('state') || leftToSignOut;
}

/** Whether `url` is on the page `uri` names: its origin and path, whatever its query and hash. */
function onPage(url: URL, uri: string | undefined): boolean {
  const target = uri === undefined ? null : new URL(uri);
  return target?.origin === url.origin && target.pathname === url.pathname;
}

/**
 * A note this tab leaves for its return from the provider, in its sessionStorage under the
 * client's key: why a sign-out left (`signed-out`), or that a sign-in did (`signing-in`). Best
 * effort: a full or refused storage loses the note, never the sign-in or sign-out itself.
 */
export function tabMark(core: SessionCore, name: 'signed-out' | 'signing-in') {
  const storage = browserStorage('sessionStorage');
  const key = core.storageKey(name);
  const attempt = (change: () => void) => {
    try {
      change();
    } catch {
      // The note is lost: the return reads as one without it.
    }
  };
  return {
    read: (): string | null => storage?.getItem(key) ?? null,
    write: (reason: string): void => attempt(() => storage?.setItem(key, reason)),
    remove: (): void => attempt(() => storage?.removeItem(key)),
  };
}
