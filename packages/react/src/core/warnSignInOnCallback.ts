import { isCallback } from './arrival';
import { callbackUnderWay } from './Callback';
import type { SessionCore } from './SessionCore';

/**
 * Development builds only (called behind a `NODE_ENV` check): a sign-in asked for while this page
 * completes one (the response in the address, or its exchange under way). It waits for that one
 * and joins it when it signs in (`joinCallback`), but after a failure it leaves for the provider
 * again: an app that signs in whenever it is not signed in, `isLoading` and `error` unread, asks on
 * every callback page, and a provider that refuses every time sends it back: a redirect loop.
 */
export function warnSignInOnCallback(core: SessionCore): void {
  if (
    callbackUnderWay(core.authConfig.oidc.client_id) === undefined &&
    !isCallback(core, globalThis.location.href, false)
  ) {
    return;
  }
  console.warn(
    "oidc-kit: signIn() was called while this page completes a sign-in (the provider's response is in the address): it waits for that one and ends with it when it signs in, but leaves for the provider again when it fails, which loops when the provider refuses every time. Call signIn() once the session is known and no sign-in has just failed, e.g. `if (!isLoading && !isAuthenticated && !error) signIn()` (after a failure, show `error` with a button that calls signIn()), or guard pages with <RequireAuth> or requireAuth().",
  );
}
