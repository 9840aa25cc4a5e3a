import { isCallback, tabMark } from './arrival';
import { callbackUnderWay } from './Callback';
import type { SignInOptions } from './clientOptions';
import type { SessionCore } from './SessionCore';

/**
 * For a sign-in asked for while this page completes one (an app that signs in whenever it is not
 * signed in, `isLoading` unread): waits for that one to end, and says whether the new sign-in
 * joins it: true when it ended signed in and `options` ask for nothing more. Leaving for the
 * provider before it ends would come back with a new code to the same page, which asks again: a
 * loop. Undefined at once when no callback is under way or about to be read.
 */
export function joinCallback(
  core: SessionCore,
  options: SignInOptions,
): Promise<boolean> | undefined {
  const clientId = core.authConfig.oidc.client_id;
  if (
    callbackUnderWay(clientId) === undefined &&
    (core.activation !== undefined ||
      !isCallback(core, globalThis.location.href, tabMark(core, 'signing-in').read() !== null))
  ) {
    return undefined;
  }
  // A callback not read yet is read within a task: React runs a child's effects before its
  // parent's, so a child that signs in on mount asks before AuthProvider's start() reads it, in the
  // same task (or, while the engine's chunk loads, in the microtasks after it).
  return new Promise((resolve) => setTimeout(resolve, 0)).then(async () => {
    const callback = callbackUnderWay(clientId);
    // No start() came: nothing reads this callback, the sign-in goes on as asked.
    if (callback === undefined && core.activation === undefined) return false;
    // This client's own start may follow another client's callback (same client id) by a restore.
    await Promise.allSettled([callback, core.activation]);
    const { status, error } = core.snapshot;
    return status === 'authenticated' && error === null && asksNothingMore(options);
  });
}

/**
 * Whether a sign-in with `options` asks for nothing the session just begun may lack: no prompt
 * (but `none`), no account named, no further parameters (a scope, `acr_values`, `max_age`: a
 * step-up). `returnTo` yields to the callback's, where the app already goes; `popup` and
 * `ui_locales` only say how to ask.
 */
function asksNothingMore({ prompt, login_hint, extraQueryParams = {} }: SignInOptions): boolean {
  return (
    (prompt === undefined || prompt === 'none') &&
    login_hint === undefined &&
    Object.keys(extraQueryParams).length === 0
  );
}
