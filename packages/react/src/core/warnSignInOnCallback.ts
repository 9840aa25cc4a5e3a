import { isCallback } from './arrival';
import { callbackInFlight } from './Callback';
import type { SessionCore } from './SessionCore';

/**
 * Development builds only (called behind a `NODE_ENV` check): a sign-in asked for while this page
 * completes one (the response in the address, or its exchange under way) leaves for the provider
 * before that one ends; an app that signs in whenever it is not signed in, `isLoading` unread, asks
 * on every callback page, and the provider's session sends it back: a redirect loop.
 */
export function warnSignInOnCallback(core: SessionCore): void {
  if (
    !callbackInFlight(core.authConfig.oidc.client_id) &&
    !isCallback(core, globalThis.location.href, false)
  ) {
    return;
  }
  console.warn(
    "oidc-kit: signIn() was called while this page completes a sign-in (the provider's response is in the address): it leaves for the provider again before that one ends, and an app that does so on every load redirects in a loop. Call signIn() once the session is known and no sign-in has just failed, e.g. `if (!isLoading && !isAuthenticated && !error) signIn()` (after a failure, show `error` with a button that calls signIn()), or guard pages with <RequireAuth> or requireAuth().",
  );
}
